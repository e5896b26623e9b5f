import GRDB
import Harness
import Scenes

extension HistoryStore {
  /// A machine class the store has runs of.
  public struct Machine: Sendable, Equatable, CustomStringConvertible {
    public var id: Int64
    /// As the results files describe it: `x86_64 2 cores 23 GiB`.
    public var summary: String
    /// The processor's model, empty where the files do not give it.
    public var cpuModel: String

    public var description: String { cpuModel.isEmpty ? summary : "\(summary), \(cpuModel)" }
  }

  /// Every run, oldest first.
  ///
  /// - Complexity: O(runs + cells).
  public func runs() throws(HistoryError) -> [RunSummary] {
    try read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT run.id, run.run_id, run.started_at, run.commit_hash, machine.description,
            machine.cpu_model, run.toolchain, run.jemalloc, run.source, count(cell.run)
          FROM run JOIN machine ON machine.id = run.machine_id
          LEFT JOIN cell ON cell.run = run.id
          GROUP BY run.id
          ORDER BY run.started_at, run.id
          """
      ).map(RunSummary.init(row:))
    }
  }

  /// Every machine class, in the order first recorded.
  public func machines() throws(HistoryError) -> [Machine] {
    try read { db in
      try Row.fetchAll(db, sql: "SELECT id, description, cpu_model FROM machine ORDER BY id").map {
        Machine(id: $0[0], summary: $0[1], cpuModel: $0[2])
      }
    }
  }

  /// The machine class of the latest run, or nil for an empty store.
  public func latestMachine() throws(HistoryError) -> Machine? {
    try read { db in
      try Row.fetchOne(
        db,
        sql: """
          SELECT machine.id, machine.description, machine.cpu_model
          FROM run JOIN machine ON machine.id = run.machine_id
          ORDER BY run.started_at DESC, run.id DESC LIMIT 1
          """
      ).map { Machine(id: $0[0], summary: $0[1], cpuModel: $0[2]) }
    }
  }

  /// The commits `machine`'s runs measured, in the order of their first run.
  ///
  /// - Complexity: O(runs log runs).
  public func commits(on machine: Machine) throws(HistoryError) -> [String] {
    try read { db in try Self.commits(db, on: machine) }
  }

  static func commits(_ db: Database, on machine: Machine) throws -> [String] {
    try String.fetchAll(
      db,
      sql: """
        SELECT commit_hash FROM run WHERE machine_id = ?
        GROUP BY commit_hash ORDER BY min(started_at), min(id)
        """, arguments: [machine.id])
  }
}

extension HistoryStore {
  /// The cells of the run the store keeps under `id`, as result rows (samples left out), by
  /// scene, variant, views, solver, mode and phase.
  ///
  /// - Complexity: O(cells of the run).
  public func cells(ofRun id: Int64) throws(HistoryError) -> [ResultRow] {
    try read { db in
      guard let run = try Self.runSummary(db, id: id) else { return [] }
      return try Row.fetchAll(
        db,
        sql: """
          SELECT scene, variant, views, solver, mode, phase, status, variables, constraints,
            repetitions, median_ns, min_ns, p90_ns, max_ns, allocations, allocated_bytes,
            retained_bytes, peak_bytes, instructions, checksum, note
          FROM cell WHERE run = ?
          """, arguments: [id]
      ).compactMap { fields -> ResultRow? in
        var row = ResultRow()
        guard let scene = SceneKind(rawValue: fields[0]),
          let solver = ResultRow.Solver(rawValue: fields[3]), let mode = Mode(rawValue: fields[4]),
          let phase = Phase(rawValue: fields[5]), let status = ResultRow.Status(rawValue: fields[6])
        else { return nil }
        func unsigned(_ index: Int) -> UInt64? { (fields[index] as Int64?).map { UInt64($0) } }
        row.setContext(
          RunContext(
            runID: run.runID, timestamp: run.startedAt, commit: run.commit,
            machine: run.machine, toolchain: run.toolchain, cpuModel: run.cpuModel,
            jemalloc: run.jemalloc))
        row.scene = scene
        row.variant = fields[1]
        row.views = fields[2]
        row.solver = solver
        row.mode = mode
        row.phase = phase
        row.status = status
        row.variables = fields[7]
        row.constraints = fields[8]
        row.repetitions = fields[9]
        row.medianNanoseconds = unsigned(10)
        row.minimumNanoseconds = unsigned(11)
        row.p90Nanoseconds = unsigned(12)
        row.maximumNanoseconds = unsigned(13)
        row.allocations = unsigned(14)
        row.allocatedBytes = unsigned(15)
        row.retainedBytes = unsigned(16)
        row.peakBytes = unsigned(17)
        row.instructions = unsigned(18)
        row.checksum = fields[19]
        row.note = fields[20] ?? ""
        return row
      }
    }
  }
}
