import Foundation
import GRDB
import Harness

extension HistoryStore {
  /// A run as the store keeps it: what identifies it, and where it came from.
  public struct RunSummary: Sendable, Equatable {
    /// The store's id of the run.
    public var id: Int64
    /// The harness's id of the run (the `run_id` column).
    public var runID: String
    /// When the run started (ISO 8601, UTC).
    public var startedAt: String
    /// The commit the run measured (`-dirty` with uncommitted changes).
    public var commit: String
    /// The machine, as the results file describes it.
    public var machine: String
    /// The processor's model, empty where the file does not give it.
    public var cpuModel: String
    public var toolchain: String
    /// The jemalloc version, empty where the file does not give it.
    public var jemalloc: String
    /// The file (or `git:COMMIT:PATH`) the run was recorded from.
    public var source: String
    /// How many cells the run measured, skipped or failed.
    public var cells: Int
  }

  /// What recording some results did.
  public struct Recording: Sendable, Equatable {
    /// The runs recorded now.
    public var added: [RunSummary] = []
    /// The runs the store already held (by run id, start time and commit) with every cell:
    /// kept once.
    public var alreadyPresent: [RunSummary] = []
    /// The runs the store held only some cells of (a shard recorded before the merged run,
    /// which keeps the first shard's run id and start): their other cells were added.
    public var completed: [RunSummary] = []
  }

  /// A run to record: what identifies it, where it came from, and its rows.
  struct PendingRun {
    var runID, startedAt, commit: String
    var source: String
    var rows: [ResultRow]
  }

  /// The runs of `rows`, read from `source`, checked for recording: rows grouped into runs by
  /// run id, start time and commit, in the order they first appear.
  ///
  /// - Throws: ``HistoryError`` with kind `badInput` for a row without a run id or time, a
  ///   cell listed twice in a run, or a run whose rows disagree on the machine or toolchain.
  /// - Complexity: O(rows).
  static func runs(of rows: [ResultRow], source: String) throws(HistoryError) -> [PendingRun] {
    var order: [String] = []
    var grouped: [String: PendingRun] = [:]
    for row in rows {
      guard !row.runID.isEmpty, !row.timestamp.isEmpty else {
        throw HistoryError(
          .badInput, "\(source): \(row.key) has no run_id or timestamp: not a run")
      }
      let identity = "\(row.runID)\u{0}\(row.timestamp)\u{0}\(row.commit)"
      if grouped[identity] == nil {
        order.append(identity)
        grouped[identity] = PendingRun(
          runID: row.runID, startedAt: row.timestamp, commit: row.commit, source: source,
          rows: [])
      }
      grouped[identity]!.rows.append(row)
    }
    return try order.map { identity throws(HistoryError) in
      let run = grouped[identity]!
      var seen = Set<CellKey>()
      for row in run.rows {
        guard seen.insert(row.key).inserted else {
          throw HistoryError(
            .badInput, "\(source): run \(run.runID) lists \(row.key) more than once")
        }
        guard row.machine == run.rows[0].machine, row.toolchain == run.rows[0].toolchain else {
          throw HistoryError(
            .badInput,
            "\(source): run \(run.runID) has rows of different machines or toolchains "
              + "(\(row.key))")
        }
      }
      return run
    }
  }

  /// Whether `rows` (read from `source`) can be recorded: ``record(_:)`` would not refuse them
  /// for what they hold.
  ///
  /// - Complexity: O(rows).
  public static func check(_ rows: [ResultRow], source: String) throws(HistoryError) {
    _ = try runs(of: rows, source: source)
  }

  /// Records the runs in `files` (a name to report and the rows read from it), in one
  /// transaction: either every new run lands or, on an error, none. The rows of a file are
  /// grouped into runs by run id, start time and commit; a run the store already holds is not
  /// added again.
  ///
  /// - Throws: ``HistoryError`` with kind `badInput` for rows that cannot be recorded (no run
  ///   id, a cell listed twice in a run, a run whose rows disagree on the machine), or the
  ///   store's errors.
  /// - Complexity: O(rows) statements.
  @discardableResult
  public func record(_ files: [(source: String, rows: [ResultRow])]) throws(HistoryError)
    -> Recording
  {
    var runs: [PendingRun] = []
    for file in files { runs += try Self.runs(of: file.rows, source: file.source) }
    let recordedAt = ISO8601DateFormatter().string(from: Date())
    return try write { db in
      var recording = Recording()
      for run in runs {
        let first = run.rows[0]
        if let existing = try Int64.fetchOne(
          db,
          sql: "SELECT id FROM run WHERE run_id = ? AND started_at = ? AND commit_hash = ?",
          arguments: [run.runID, run.startedAt, run.commit])
        {
          // The cells the store lacks are added; the ones it has are kept as they are.
          let added = try Self.insertCells(run.rows, of: existing, db, keepingExisting: true)
          let summary = try Self.runSummary(db, id: existing)!
          if added > 0 {
            recording.completed.append(summary)
          } else {
            recording.alreadyPresent.append(summary)
          }
          continue
        }
        let machine = try Self.machineID(db, description: first.machine, cpuModel: first.cpuModel)
        try db.execute(
          sql: """
            INSERT INTO run (run_id, started_at, commit_hash, machine_id, toolchain, jemalloc,
              matrix, source, recorded_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
          arguments: [
            run.runID, run.startedAt, run.commit, machine,
            first.toolchain, first.jemalloc, first.matrix, run.source, recordedAt,
          ])
        let id = db.lastInsertedRowID
        try Self.insertCells(run.rows, of: id, db, keepingExisting: false)
        recording.added.append(try Self.runSummary(db, id: id)!)
      }
      return recording
    }
  }

  /// Inserts `rows` as cells of the run the store keeps under `run`; with `keepingExisting`, a
  /// cell the run already has is left as it is. Returns how many cells were inserted.
  @discardableResult
  static func insertCells(
    _ rows: [ResultRow], of run: Int64, _ db: Database, keepingExisting: Bool
  ) throws -> Int {
    let insert = try db.cachedStatement(
      sql: """
        INSERT \(keepingExisting ? "OR IGNORE " : "")INTO cell (run, scene, variant, views,
          solver, mode, phase, status, variables, constraints, repetitions, median_ns, min_ns,
          p90_ns, max_ns, allocations, allocated_bytes, retained_bytes, peak_bytes,
          instructions, checksum, note, samples_ns)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
    var inserted = 0
    for row in rows {
      let timed = Metric.medianTime.value(in: row) != nil
      func number(_ value: UInt64?) -> Int64? { value.map { Int64(clamping: $0) } }
      let samples = row.samples.map { $0.map(String.init).joined(separator: " ") }
        .joined(separator: "|")
      let arguments: StatementArguments = [
        run, row.scene.rawValue, row.variant, row.views, row.solver.rawValue,
        row.mode.rawValue, row.phase.rawValue, row.status.rawValue, row.variables,
        row.constraints, row.repetitions,
        timed ? number(row.medianNanoseconds) : nil,
        timed ? number(row.minimumNanoseconds) : nil,
        timed ? number(row.p90Nanoseconds) : nil,
        timed ? number(row.maximumNanoseconds) : nil,
        number(row.allocations), number(row.allocatedBytes), number(row.retainedBytes),
        number(row.peakBytes), number(row.instructions),
        row.checksum, row.note.isEmpty ? nil : row.note,
        samples.isEmpty ? nil : samples,
      ]
      try insert.execute(arguments: arguments)
      inserted += db.changesCount
    }
    return inserted
  }

  /// The id of the machine class `description` and `cpuModel` name, added if new.
  static func machineID(_ db: Database, description: String, cpuModel: String) throws -> Int64 {
    if let id = try Int64.fetchOne(
      db, sql: "SELECT id FROM machine WHERE description = ? AND cpu_model = ?",
      arguments: [description, cpuModel])
    {
      return id
    }
    let parts = MachineDescription(description)
    try db.execute(
      sql: """
        INSERT INTO machine (description, cpu_model, architecture, cores, memory_gib)
        VALUES (?, ?, ?, ?, ?)
        """,
      arguments: [description, cpuModel, parts.architecture, parts.cores, parts.memoryGiB])
    return db.lastInsertedRowID
  }

  /// The run the store keeps under `id`, with its cell count.
  static func runSummary(_ db: Database, id: Int64) throws -> RunSummary? {
    try Row.fetchOne(
      db,
      sql: """
        SELECT run.id, run.run_id, run.started_at, run.commit_hash, machine.description,
          machine.cpu_model, run.toolchain, run.jemalloc, run.source,
          (SELECT count(*) FROM cell WHERE cell.run = run.id) AS cells
        FROM run JOIN machine ON machine.id = run.machine_id
        WHERE run.id = ?
        """, arguments: [id]
    ).map(RunSummary.init(row:))
  }
}

extension HistoryStore.RunSummary {
  init(row: Row) {
    id = row[0]
    runID = row[1]
    startedAt = row[2]
    commit = row[3]
    machine = row[4]
    cpuModel = row[5]
    toolchain = row[6]
    jemalloc = row[7]
    source = row[8]
    cells = row[9]
  }
}

/// The parts of a results file's machine description (`x86_64 2 cores 23 GiB`); a part the
/// text lacks is nil.
struct MachineDescription {
  var architecture: String?
  var cores: Int?
  var memoryGiB: Int?

  init(_ text: String) {
    let words = text.split(separator: " ").map(String.init)
    for (index, word) in words.enumerated() {
      let next = index + 1 < words.count ? words[index + 1] : ""
      if let number = Int(word) {
        if next == "cores" { cores = number }
        if next == "GiB" { memoryGiB = number }
      } else if index == 0 {
        architecture = word
      }
    }
  }
}
