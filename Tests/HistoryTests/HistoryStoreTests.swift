import Foundation
import GRDB
import Harness
import History
import Scenes
import Synchronization
import Testing

/// A scratch folder for one test, removed afterwards.
func withScratchFolder<T>(_ body: (String) throws -> T) throws -> T {
  let folder = FileManager.default.temporaryDirectory
    .appending(path: "history-tests-\(getpid())-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: folder) }
  return try body(folder)
}

/// A measured row of run `run` at `commit`, started at minute `minute`.
func row(
  run: String, commit: String, minute: Int, scene: SceneKind = .form, views: Int = 100,
  solver: ResultRow.Solver = .sparse, mode: Mode = .incremental, phase: Phase = .resize,
  median: UInt64 = 1_000_000, bytes: UInt64 = 10_000, checksum: String = "c0ffee",
  status: ResultRow.Status = .ok
) -> ResultRow {
  var row = ResultRow()
  row.runID = run
  row.timestamp = String(format: "2026-12-01T10:%02d:00Z", minute)
  row.commit = commit
  row.machine = "x86_64 2 cores 23 GiB"
  row.toolchain = "Swift 6.3"
  row.scene = scene
  row.variant = scene.variants[0]
  row.views = views
  row.solver = solver
  row.mode = mode
  row.phase = phase
  row.repetitions = 5
  row.status = status
  if status == .ok {
    row.medianNanoseconds = median
    row.minimumNanoseconds = median
    row.p90Nanoseconds = median
    row.maximumNanoseconds = median
    row.allocatedBytes = bytes
    row.checksum = checksum
  } else {
    row.note = "over the budget"
  }
  return row
}

@Suite struct HistoryStoreTests {
  @Test func aRunRecordedTwiceIsKeptOnce() throws {
    try withScratchFolder { folder in
      let store = try HistoryStore(path: "\(folder)/h.sqlite", access: .write)
      let rows = [
        row(run: "a", commit: "c1", minute: 1),
        row(run: "a", commit: "c1", minute: 1, solver: .dense),
      ]
      let first = try store.record([("one.csv", rows)])
      #expect(first.added.count == 1)
      #expect(first.added[0].cells == 2)
      let second = try store.record([("again.csv", rows)])
      #expect(second.added.isEmpty)
      #expect(second.alreadyPresent.map(\.runID) == ["a"])
      #expect(try store.runs().count == 1)
      #expect(try store.runs()[0].source == "one.csv")
    }
  }

  @Test func aFileOfSeveralRunsIsRecordedAsEach() throws {
    try withScratchFolder { folder in
      let store = try HistoryStore(path: "\(folder)/h.sqlite", access: .write)
      let recording = try store.record([
        (
          "two.csv",
          [row(run: "a", commit: "c1", minute: 1), row(run: "b", commit: "c2", minute: 2)]
        )
      ])
      #expect(recording.added.map(\.commit) == ["c1", "c2"])
    }
  }

  @Test func aCellListedTwiceInARunIsRefusedAndNothingLands() throws {
    try withScratchFolder { folder in
      let store = try HistoryStore(path: "\(folder)/h.sqlite", access: .write)
      let good = ("good.csv", [row(run: "a", commit: "c1", minute: 1)])
      let bad = (
        "bad.csv", [row(run: "b", commit: "c2", minute: 2), row(run: "b", commit: "c2", minute: 2)]
      )
      #expect(throws: HistoryError.self) { try store.record([good, bad]) }
      #expect(try store.runs().isEmpty)
    }
  }

  @Test func aTrendHasOnePointACommitFromItsLatestRun() throws {
    try withScratchFolder { folder in
      let store = try HistoryStore(path: "\(folder)/h.sqlite", access: .write)
      try store.record([
        (
          "runs.csv",
          [
            row(run: "a", commit: "c1", minute: 1, median: 100),
            row(run: "a", commit: "c1", minute: 1, solver: .dense, median: 900),
            row(run: "b", commit: "c2", minute: 2, median: 200),
            row(run: "c", commit: "c2", minute: 3, median: 250),
            row(run: "c", commit: "c2", minute: 3, solver: .dense, status: .skipped),
            row(run: "d", commit: "c3", minute: 4, median: 300),
            row(run: "d", commit: "c3", minute: 4, phase: .build, median: 5),
          ]
        )
      ])
      let machine = try #require(try store.latestMachine())
      #expect(try store.commits(on: machine) == ["c1", "c2", "c3"])
      let trends = try store.trends(.init(scene: .form, phase: .resize), on: machine)
      #expect(trends.map(\.name) == ["sparse incremental", "dense incremental"])
      #expect(trends[0].points.map(\.commit) == ["c1", "c2", "c3"])
      #expect(trends[0].points.map(\.value) == [100, 250, 300])
      #expect(trends[1].points.map(\.status) == [.ok, .skipped])
      #expect(trends[1].points.map(\.value) == [900, nil])
      let onlyDense = try store.trends(
        .init(scene: .form, phase: .resize, solvers: [.dense]), on: machine)
      #expect(onlyDense.map(\.name) == ["dense incremental"])
    }
  }

  @Test func regressionsAreTheDeterministicFiguresAndTheRatiosInsideARun() throws {
    try withScratchFolder { folder in
      let store = try HistoryStore(path: "\(folder)/h.sqlite", access: .write)
      func run(
        _ id: String, _ commit: String, _ minute: Int, sparse: UInt64, bytes: UInt64,
        checksum: String, buildStatus: ResultRow.Status = .ok
      ) -> [ResultRow] {
        [
          row(
            run: id, commit: commit, minute: minute, median: sparse, bytes: bytes,
            checksum: checksum),
          row(run: id, commit: commit, minute: minute, solver: .dense, median: 10_000_000),
          row(run: id, commit: commit, minute: minute, phase: .build, status: buildStatus),
        ]
      }
      try store.record([
        ("1", run("a", "c1", 1, sparse: 1_000_000, bytes: 10_000, checksum: "x")),
        // Bytes within 1 % and 64: no regression; the time ratio to dense stays.
        ("2", run("b", "c2", 2, sparse: 1_100_000, bytes: 10_150, checksum: "x")),
        // Bytes beyond, a new checksum, the build no longer measured, sparse 2x dense's share.
        (
          "3",
          run("c", "c3", 3, sparse: 2_400_000, bytes: 10_400, checksum: "y", buildStatus: .skipped)
        ),
      ])
      let found = try store.regressions()
      let described = found.map { "\($0.commit) \($0.cell.phase) \($0.cell.solver) \($0.figure)" }
      #expect(
        described.sorted() == [
          "c3 build sparse status", "c3 resize sparse allocated_bytes", "c3 resize sparse checksum",
          "c3 resize sparse time / dense's",
        ])
      #expect(found.allSatisfy { $0.previousCommit == "c2" })
      let lenient = try store.regressions(.init(countTolerance: 0.1, ratioThreshold: 2))
      #expect(lenient.map { "\($0.figure)" }.sorted() == ["checksum", "status"])
    }
  }

  @Test func aFigureIsComparedWithTheLastCommitThatMeasuredIt() throws {
    try withScratchFolder { folder in
      let store = try HistoryStore(path: "\(folder)/h.sqlite", access: .write)
      func counted(_ run: String, _ commit: String, _ minute: Int, _ instructions: UInt64)
        -> ResultRow
      {
        var counted = row(run: run, commit: commit, minute: minute, checksum: "same")
        counted.instructions = instructions
        return counted
      }
      try store.record([
        ("callgrind 1", [counted("a", "c1", 1, 1_000_000)]),
        // A timed run between the callgrind runs: no instructions, so nothing to compare.
        ("timed", [row(run: "b", commit: "c2", minute: 2, checksum: "same")]),
        // A commit that skipped the cell.
        ("skipped", [row(run: "c", commit: "c3", minute: 3, status: .skipped)]),
        // Twice the instructions and a new checksum, at a commit whose later timed run has no
        // instructions: the callgrind run's figure still counts for the commit.
        ("callgrind 2", [counted("d", "c4", 4, 2_000_000)]),
        ("timed again", [row(run: "e", commit: "c4", minute: 5, checksum: "new")]),
      ])
      let found = try store.regressions().map {
        "\($0.previousCommit)→\($0.commit) \($0.figure): \($0.before) → \($0.after)"
      }
      #expect(
        found.sorted() == [
          "c1→c4 instructions: 1000000 → 2000000", "c2→c3 status: ok → skipped",
          "c2→c4 checksum: same → new",
        ])
    }
  }

  @Test func aShardRecordedBeforeItsMergedRunIsCompleted() throws {
    try withScratchFolder { folder in
      let store = try HistoryStore(path: "\(folder)/h.sqlite", access: .write)
      // `bench merge` gives the merged run the first shard's id and start.
      let shard = [row(run: "m", commit: "c1", minute: 1)]
      let merged = shard + [row(run: "m", commit: "c1", minute: 1, solver: .dense)]
      try store.record([("shard-1.csv", shard)])
      let recording = try store.record([("merged.csv", merged)])
      #expect(recording.added.isEmpty && recording.alreadyPresent.isEmpty)
      #expect(recording.completed.map(\.cells) == [2])
      #expect(try store.record([("merged.csv", merged)]).alreadyPresent.count == 1)
      #expect(try store.runs().map(\.cells) == [2])
    }
  }

  @Test func timesAreNeverComparedAcrossRuns() throws {
    try withScratchFolder { folder in
      let store = try HistoryStore(path: "\(folder)/h.sqlite", access: .write)
      // A machine twice as slow in the second run: every time doubles, every ratio holds.
      try store.record([
        (
          "1",
          [
            row(run: "a", commit: "c1", minute: 1, median: 1_000_000),
            row(run: "a", commit: "c1", minute: 1, solver: .dense, median: 8_000_000),
          ]
        ),
        (
          "2",
          [
            row(run: "b", commit: "c2", minute: 2, median: 2_000_000),
            row(run: "b", commit: "c2", minute: 2, solver: .dense, median: 16_000_000),
          ]
        ),
      ])
      #expect(try store.regressions().isEmpty)
    }
  }
}

@Suite struct HistoryStoreRefusalTests {
  func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

  @Test func aMissingStoreIsNotCreatedByReading() throws {
    try withScratchFolder { folder in
      let error = #expect(throws: HistoryError.self) {
        try HistoryStore(path: "\(folder)/none.sqlite", access: .read)
      }
      #expect(error?.kind == .missing)
      #expect(!FileManager.default.fileExists(atPath: "\(folder)/none.sqlite"))
    }
  }

  @Test func aFileThatIsNotADatabaseIsRefusedAndLeftAsItWas() throws {
    try withScratchFolder { folder in
      let path = "\(folder)/h.sqlite"
      let text = Data(
        String(repeating: "not a database, a results file perhaps\n", count: 200).utf8)
      try text.write(to: URL(fileURLWithPath: path))
      for access in [HistoryStore.Access.read, .write] {
        let error = #expect(throws: HistoryError.self) {
          try HistoryStore(path: path, access: access)
        }
        #expect(error?.kind == .notADatabase)
        #expect(try bytes(path) == text)
      }
    }
  }

  @Test func aStoreOfANewerSchemaIsRefusedAndLeftAsItWas() throws {
    try withScratchFolder { folder in
      let path = "\(folder)/h.sqlite"
      do {
        let store = try HistoryStore(path: path, access: .write)
        try store.record([("1", [row(run: "a", commit: "c1", minute: 1)])])
      }
      let queue = try DatabaseQueue(path: path)
      try queue.write { db in
        try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9: the future')")
      }
      try queue.close()
      let before = try bytes(path)
      for access in [HistoryStore.Access.read, .write] {
        let error = #expect(throws: HistoryError.self) {
          try HistoryStore(path: path, access: access)
        }
        #expect(error?.kind == .newerSchema)
        #expect(error?.description.contains("v9: the future") == true)
      }
      #expect(try bytes(path) == before)
    }
  }

  @Test func aStoreHeldByAnotherWriterPastTheWaitIsRefusedUnchanged() throws {
    try withScratchFolder { folder in
      let path = "\(folder)/h.sqlite"
      let store = try HistoryStore(path: path, access: .write, wait: 0.2)
      try store.record([("1", [row(run: "a", commit: "c1", minute: 1)])])
      let holder = try DatabaseQueue(path: path)
      try holder.writeWithoutTransaction { db in
        try db.execute(sql: "BEGIN EXCLUSIVE")
        let error = #expect(throws: HistoryError.self) {
          try store.record([("2", [row(run: "b", commit: "c2", minute: 2)])])
        }
        #expect(error?.kind == .locked)
        try db.execute(sql: "ROLLBACK")
      }
      #expect(try store.runs().map(\.runID) == ["a"])
    }
  }

  @Test func twoWritersAtOnceBothLand() throws {
    try withScratchFolder { folder in
      let path = "\(folder)/h.sqlite"
      // Two connections (as two processes have), each recording 20 runs, created at once.
      let failures = Mutex<[String]>([])
      DispatchQueue.concurrentPerform(iterations: 2) { writer in
        do {
          let store = try HistoryStore(path: path, access: .write)
          for index in 0..<20 {
            try store.record([
              ("w\(writer)", [row(run: "w\(writer)-\(index)", commit: "c\(index)", minute: index)])
            ])
          }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
      #expect(failures.withLock { $0 } == [])
      let store = try HistoryStore(path: path, access: .read)
      #expect(try store.runs().count == 40)
    }
  }
}
