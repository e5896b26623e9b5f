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
    /// The runs the store already held (by run id, start time and commit): kept once.
    public var alreadyPresent: [RunSummary] = []
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
    struct RunIdentity: Hashable {
      var runID, startedAt, commit: String
    }
    var runs: [(identity: RunIdentity, source: String, rows: [ResultRow])] = []
    for file in files {
      var order: [RunIdentity] = []
      var grouped: [RunIdentity: [ResultRow]] = [:]
      for row in file.rows {
        guard !row.runID.isEmpty, !row.timestamp.isEmpty else {
          throw HistoryError(
            .badInput, "\(file.source): \(row.cellKey) has no run_id or timestamp: not a run")
        }
        let identity = RunIdentity(runID: row.runID, startedAt: row.timestamp, commit: row.commit)
        if grouped[identity] == nil { order.append(identity) }
        grouped[identity, default: []].append(row)
      }
      for identity in order {
        let rows = grouped[identity]!
        var seen = Set<CellKey>()
        for row in rows {
          guard seen.insert(row.cellKey).inserted else {
            throw HistoryError(
              .badInput,
              "\(file.source): run \(identity.runID) lists \(row.cellKey) more than once")
          }
          guard row.machine == rows[0].machine, row.toolchain == rows[0].toolchain else {
            throw HistoryError(
              .badInput,
              "\(file.source): run \(identity.runID) has rows of different machines or "
                + "toolchains (\(row.cellKey))")
          }
        }
        runs.append((identity, file.source, rows))
      }
    }
    let recordedAt = ISO8601DateFormatter().string(from: Date())
    return try write { db in
      var recording = Recording()
      for run in runs {
        let first = run.rows[0]
        if let existing = try Int64.fetchOne(
          db,
          sql: "SELECT id FROM run WHERE run_id = ? AND started_at = ? AND commit_hash = ?",
          arguments: [run.identity.runID, run.identity.startedAt, run.identity.commit])
        {
          recording.alreadyPresent.append(try Self.runSummary(db, id: existing)!)
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
            run.identity.runID, run.identity.startedAt, run.identity.commit, machine,
            first.toolchain, first.jemalloc, first.matrix, run.source, recordedAt,
          ])
        let id = db.lastInsertedRowID
        let insert = try db.cachedStatement(
          sql: """
            INSERT INTO cell (run, scene, variant, views, solver, mode, phase, status, variables,
              constraints, repetitions, median_ns, min_ns, p90_ns, max_ns, allocations,
              allocated_bytes, retained_bytes, peak_bytes, instructions, checksum, note,
              samples_ns)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for row in run.rows {
          let timed = Metric.medianTime.value(in: row) != nil
          func number(_ value: UInt64?) -> Int64? { value.map { Int64(clamping: $0) } }
          let samples = row.samples.map { $0.map(String.init).joined(separator: " ") }
            .joined(separator: "|")
          let arguments: StatementArguments = [
            id, row.scene.rawValue, row.variant, row.views, row.solver.rawValue,
            row.mode.rawValue, row.phase.rawValue, row.status.rawValue, row.variables,
            row.constraints, row.repetitions,
            timed ? number(row.medianNanoseconds) : nil,
            timed ? number(row.minimumNanoseconds) : nil,
            timed ? number(row.p90Nanoseconds) : nil,
            timed ? number(row.maximumNanoseconds) : nil,
            number(row.allocations), number(row.allocatedBytes), number(row.retainedBytes),
            number(row.peakBytes), number(row.instructions),
            row.checksum.isEmpty ? nil : row.checksum, row.note.isEmpty ? nil : row.note,
            samples.isEmpty ? nil : samples,
          ]
          try insert.execute(arguments: arguments)
        }
        recording.added.append(try Self.runSummary(db, id: id)!)
      }
      return recording
    }
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
