import Foundation
import Harness
import Testing

@Suite("Callgrind dumps")
struct CallgrindDumpTests {
  /// A dump as callgrind 3.19 writes it for `CALLGRIND_DUMP_STATS_AT(label)`, shortened, with a
  /// second event and a function name holding colons.
  static func dump(label: String, instructions: UInt64, totals: Bool = true) -> String {
    """
    # callgrind format
    version: 1
    creator: callgrind-3.19.0
    pid: 9892
    cmd:  /repo/.build/release/bench run --callgrind --scenes flat
    part: 5


    desc: I1 cache:
    desc: D1 cache:
    desc: LL cache:

    desc: Timerange: Basic block 81566 - 130488
    desc: Trigger: Client Request: \(label)

    positions: line
    events: Ir Dr
    summary: \(totals ? 0 : instructions) 7

    ob=(12) /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
    fl=(1) ???
    fn=(3) Foo::bar(int)
    +1 351 2
    +2 351
    calls=2 0
    0 1000

    """ + (totals ? "totals: \(instructions) 7\n" : "")
  }

  @Test func readsTheTriggerEventsAndTotals() throws {
    let label = Callgrind.label(forCell: CellKey("flat/standard/50/sparse/incremental/resize")!)
    let dump = try CallgrindDump(text: Self.dump(label: label, instructions: 67_933))
    #expect(dump.trigger == "Client Request: \(label)")
    #expect(dump.label == label)
    #expect(dump.events == ["Ir", "Dr"])
    #expect(dump.totals == [67_933, 7])
    #expect(dump.instructions == 67_933)
  }

  @Test func aHeapSnapshotIsNamedByItsCellAndTakenOnlyUnderValgrind() {
    #expect(
      HeapSnapshot.fileName(
        forCell: CellKey("equal-spacing/layout-guides/10000/sparse/full/first-solve")!)
        == "equal-spacing_layout-guides_10000_sparse_full_first-solve.massif")
    // The tests run natively: nothing is written, and the call says so.
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "heap-snapshot-\(ProcessInfo.processInfo.processIdentifier).massif"
    ).path
    #expect(!HeapSnapshot.write(to: path))
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func fallsBackOnTheSummaryLine() throws {
    let dump = try CallgrindDump(text: Self.dump(label: "x", instructions: 42, totals: false))
    #expect(dump.instructions == 42)
  }

  @Test func theFinalDumpHasNoLabel() throws {
    let text = """
      version: 1
      desc: Trigger: Program termination
      events: Ir
      summary: 0
      totals: 0
      """
    let dump = try CallgrindDump(text: text)
    #expect(dump.label == nil)
    #expect(dump.instructions == 0)
  }

  @Test func rejectsFilesThatAreNotDumps() {
    #expect(throws: CallgrindDumpError.self) { try CallgrindDump(text: "") }
    #expect(throws: CallgrindDumpError.self) {
      try CallgrindDump(text: "events: Ir\nfn=(1) main\n")
    }
    #expect(throws: CallgrindDumpError.self) {
      try CallgrindDump(text: "events: Ir\ntotals: 12x\n")
    }
  }

  @Test func labelsNameCells() {
    var row = ResultRow()
    row.scene = .equalSpacing
    row.variant = "layout-guides"
    row.views = 100
    row.solver = .dense
    row.mode = .full
    row.phase = .constantChange
    let label = Callgrind.label(forCell: row.key)
    #expect(label == "layoutbench cell equal-spacing/layout-guides/100/dense/full/constant-change")
    #expect(Callgrind.cell(fromLabel: label) == row.key)
    #expect(Callgrind.cell(fromLabel: "Program termination") == nil)
    #expect(Callgrind.cell(fromLabel: "some other label") == nil)
  }

  @Test func countsByCell() throws {
    let resize = CellKey("flat/standard/50/sparse/incremental/resize")!
    let build = CellKey("flat/standard/50/sparse/incremental/build")!
    let counts = try CallgrindDump.instructionsByCell([
      "desc: Trigger: Program termination\nevents: Ir\ntotals: 0\n",
      Self.dump(label: Callgrind.label(forCell: resize), instructions: 67_933),
      Self.dump(label: Callgrind.label(forCell: build), instructions: 3_197_762),
      Self.dump(label: "not a cell", instructions: 5),
      // A second dump of a cell does not replace the first.
      Self.dump(label: Callgrind.label(forCell: resize), instructions: 1),
    ])
    #expect(counts == [resize: 67_933, build: 3_197_762])
  }
}

/// `bench run --callgrind` end to end, on a tiny scene: needs valgrind on the PATH, a build made
/// with valgrind's headers, and the `bench` executable beside the test bundle.
@Suite("bench run --callgrind", .serialized)
struct CallgrindRunTests {
  /// The `bench` built with these tests.
  static let bench = benchExecutable

  static let isRunnable = valgrindIsOnPath && Callgrind.isSupported && bench != nil

  /// The rows of one run of a tiny cell, in a scratch directory.
  func run(
    _ bench: URL, in directory: URL, name: String, scenes: String = "flat"
  ) throws -> [ResultRow] {
    let process = Process()
    process.executableURL = bench
    process.currentDirectoryURL = directory
    process.arguments = [
      "run", "--callgrind", "--scenes", scenes, "--sizes", "20", "--solvers", "sparse",
      "--modes", "incremental", "--phases", "build,resize", "--quiet", "--format", "csv",
      "--output", "\(name).csv",
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let text = try String(
      contentsOf: directory.appending(path: "\(name).csv"), encoding: .utf8)
    return try ResultsFile.rows(text)
  }

  @Test(
    .enabled(
      if: isRunnable,
      "needs valgrind on the PATH (apt-get install -y valgrind) when built and run, and bench"),
    .timeLimit(.minutes(3)))
  func aTinyCellGetsACountThatRepeats() throws {
    let bench = try #require(Self.bench)
    try withScratchDirectory("layoutbench-callgrind") { directory in
      // The same command, byte for byte, in two folders whose paths are as long: an argument
      // one byte longer moves the heap, and with it what the runtime's metadata lookups (debug
      // builds make many) cost in `memcmp`.
      let folders = ["a", "b"].map { directory.appending(path: $0) }
      for folder in folders {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      }
      let first = try run(bench, in: folders[0], name: "cells")
      let second = try run(bench, in: folders[1], name: "cells")
      #expect(first.map(\.phase) == [.build, .resize])
      for row in first {
        #expect(row.status == .ok)
        // The rows carry the run's id, which names the folder of its dump files.
        var isDirectory: ObjCBool = false
        let dumps = folders[0].appending(path: ".build/callgrind/\(row.runID)").path
        #expect(
          FileManager.default.fileExists(atPath: dumps, isDirectory: &isDirectory)
            && isDirectory.boolValue, "\(row.key): run \(row.runID) has no dump folder")
        #expect(row.repetitions == 1 && row.medianNanoseconds == nil)
        #expect((row.instructions ?? 0) > 0, "\(row.key) has no instruction count")
      }
      // The same command, the same counts: the process under valgrind starts no processes of
      // its own (whose watching threads allocated alongside the run and moved these by 1 %).
      for (a, b) in zip(first, second) {
        #expect(a.instructions == b.instructions, "\(a.key)")
      }
    }
  }

  @Test(
    "A group's counts do not depend on the groups measured before it",
    .enabled(
      if: isRunnable,
      "needs valgrind on the PATH (apt-get install -y valgrind) when built and run, and bench"),
    .timeLimit(.minutes(3)))
  func aGroupsCountsDoNotDependOnTheGroupsBeforeIt() throws {
    let bench = try #require(Self.bench)
    try withScratchDirectory("layoutbench-callgrind-order") { directory in
      // Flat then chain, and chain then flat: commands as long, so that only the order differs.
      // In one process, the heap the first group left moved the second's counts by 1 to 2 %.
      let folders = ["a", "b"].map { directory.appending(path: $0) }
      for folder in folders {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      }
      let flatFirst = try run(bench, in: folders[0], name: "cells", scenes: "flat,chain")
      let chainFirst = try run(bench, in: folders[1], name: "cells", scenes: "chain,flat")
      #expect(flatFirst.map(\.scene) == [.flat, .flat, .chain, .chain])
      #expect(chainFirst.map(\.scene) == [.chain, .chain, .flat, .flat])
      let counts = Dictionary(uniqueKeysWithValues: chainFirst.map { ($0.key, $0.instructions) })
      for row in flatFirst {
        #expect(row.instructions != nil, "\(row.key) has no count")
        #expect(row.instructions == counts[row.key], "\(row.key)")
      }
    }
  }
}
