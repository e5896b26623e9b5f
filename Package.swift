// swift-tools-version: 6.1
//
// LayoutBench: a headless re-implementation of Auto Layout on our own Cassowary-style solvers, and
// the benchmark harness that measures them. Data flows one way:
// scenes → model (AutoLayout) → solver (Cassowary) → frames → metrics (Harness) → reports.
import PackageDescription

// Every function of ours starts on a 64-byte boundary in release builds. Otherwise where a hot
// loop falls against the processor's fetch windows depends on how much unrelated code comes
// before it: moving code in Scenes once slowed the dense solver by 10 to 16 % (bench ab, p <
// 0.001) for the same instruction count, which a time gate reports as a regression. Aligned,
// the same two commits compare as unchanged, and no cell of the quick matrix got slower.
let stablePlacement: [SwiftSetting] = [
  .unsafeFlags(["-Xllvm", "-align-all-functions=6"], .when(configuration: .release))
]

let package = Package(
  name: "LayoutBench",
  products: [
    .library(name: "Cassowary", targets: ["Cassowary"]),
    .library(name: "AutoLayout", targets: ["AutoLayout"]),
    .library(name: "Harness", targets: ["Harness"]),
    .library(name: "Scenes", targets: ["Scenes"]),
    .library(name: "History", targets: ["History"]),
    .executable(name: "bench", targets: ["bench"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
  ],
  targets: [
    // Constraint solvers: the optimized sparse-tableau solver, the dense baseline, kiwi behind
    // the same protocol, and the list of solver strategies.
    .target(
      name: "Cassowary",
      dependencies: ["CKiwi", .product(name: "HeapModule", package: "swift-collections")],
      swiftSettings: stablePlacement
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

    // Thread-local slots, which Swift has not: each thread's table of layout items. DWARF 4,
    // as CKiwi's, for valgrind.
    .target(name: "CThreadLocal", cSettings: [.unsafeFlags(["-gdwarf-4"])]),

    // The Auto Layout model: views, guides, anchors, constraints, the two passes, diagnostics.
    .target(
      name: "AutoLayout",
      dependencies: [
        "Cassowary", "CThreadLocal", .product(name: "HeapModule", package: "swift-collections"),
      ],
      swiftSettings: stablePlacement
    ),

    // Generated workloads: constraint systems and, later, view trees from the cookbook recipes.
    .target(
      name: "Scenes", dependencies: ["Cassowary", "AutoLayout"], swiftSettings: stablePlacement),

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
      dependencies: ["CCallgrind", "CJemalloc", "Scenes", "AutoLayout", "Cassowary"],
      swiftSettings: stablePlacement
    ),

    // The history of runs: an SQLite store of every run's cells (GRDB, over Debian's
    // libsqlite3-dev), its trends and regressions, and the static dashboard published from it.
    .target(
      name: "History",
      dependencies: [
        "Cassowary", "Harness", "Scenes", .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),

    // The `bench` command-line tool.
    .executableTarget(
      name: "bench",
      dependencies: [
        "AutoLayout",
        "Cassowary",
        "CCallgrind",
        "Harness",
        "History",
        "Scenes",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Benchmarks/bench",
      swiftSettings: stablePlacement
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
    .testTarget(
      name: "HistoryTests",
      dependencies: ["History", "Harness", "Scenes", .product(name: "GRDB", package: "GRDB.swift")]),
    .testTarget(
      name: "HarnessTests",
      dependencies: ["Harness", "Scenes", "Cassowary", "AutoLayout"]),
  ],
  cxxLanguageStandard: .cxx17
)
