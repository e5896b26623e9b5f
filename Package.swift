// swift-tools-version: 6.1
//
// LayoutBench: a headless re-implementation of Auto Layout on our own Cassowary-style solvers, and
// the benchmark harness that measures them. Data flows one way:
// scenes → model (AutoLayout) → solver (Cassowary) → frames → metrics (Harness) → reports.
import PackageDescription

let package = Package(
  name: "LayoutBench",
  products: [
    .library(name: "Cassowary", targets: ["Cassowary"]),
    .library(name: "AutoLayout", targets: ["AutoLayout"]),
    .library(name: "Harness", targets: ["Harness"]),
    .library(name: "Scenes", targets: ["Scenes"]),
    .executable(name: "bench", targets: ["bench"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
  ],
  targets: [
    // Constraint solvers: the optimized sparse-tableau solver, the dense baseline, kiwi behind
    // the same protocol, and the list of solver strategies.
    .target(
      name: "Cassowary",
      dependencies: ["CKiwi", .product(name: "HeapModule", package: "swift-collections")]
    ),

    // A C interface to kiwi (C++), compiled against the headers `scripts/peers/kiwi-peer
    // install` places in .build-peers; without them it builds and reports kiwi unavailable.
    // DWARF 4, because valgrind 3.19 (Debian's) cannot read clang's default DWARF 5 and would
    // refuse to run `bench run --callgrind` at all.
    .target(
      name: "CKiwi",
      cxxSettings: [
        .headerSearchPath("../../.build-peers/kiwi/include"), .unsafeFlags(["-gdwarf-4"]),
      ]
    ),

    // The Auto Layout model: views, guides, anchors, constraints, the two passes, diagnostics.
    .target(
      name: "AutoLayout",
      dependencies: ["Cassowary", .product(name: "HeapModule", package: "swift-collections")]
    ),

    // Generated workloads: constraint systems and, later, view trees from the cookbook recipes.
    .target(name: "Scenes", dependencies: ["Cassowary", "AutoLayout"]),

    // jemalloc, linked as the process allocator so the harness can read its statistics.
    .systemLibrary(
      name: "CJemalloc",
      pkgConfig: "jemalloc",
      providers: [.apt(["libjemalloc-dev"])]
    ),

    // Callgrind's client requests (start and stop instrumentation, dump counters) as static
    // inline C functions; no-ops when valgrind's headers are not installed.
    .systemLibrary(name: "CCallgrind", providers: [.apt(["valgrind"])]),

    // Measurement: clocks, allocator statistics, instruction counts, reports.
    .target(
      name: "Harness",
      dependencies: ["CCallgrind", "CJemalloc", "Scenes", "AutoLayout", "Cassowary"]
    ),

    // The `bench` command-line tool.
    .executableTarget(
      name: "bench",
      dependencies: [
        "AutoLayout",
        "Cassowary",
        "CCallgrind",
        "Harness",
        "Scenes",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Benchmarks/bench"
    ),

    .testTarget(
      name: "CassowaryTests",
      dependencies: [
        "Cassowary",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(name: "AutoLayoutTests", dependencies: ["AutoLayout", "Cassowary"]),
    .testTarget(
      name: "ScenesTests", dependencies: ["Scenes", "AutoLayout", "Cassowary"],
      exclude: ["Fixtures"]),
    .testTarget(name: "HarnessTests", dependencies: ["Harness", "Scenes", "Cassowary"]),
  ],
  cxxLanguageStandard: .cxx17
)
