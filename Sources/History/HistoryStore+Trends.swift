import Cassowary
import GRDB
import Harness
import Scenes

extension HistoryStore {
  /// One cell of a trend: a commit's figure, from the latest run of that commit that has the
  /// cell.
  public struct TrendPoint: Sendable, Equatable {
    public var commit: String
    /// When the run the figure comes from started.
    public var startedAt: String
    public var runID: String
    public var status: ResultRow.Status
    /// The figure; nil where the cell was skipped or failed, or the run did not measure it.
    public var value: UInt64?
    /// Why the cell was skipped or failed.
    public var note: String?
  }

  /// A figure of one solver and mode (at one size of one scene variant) over commits.
  public struct Trend: Sendable, Equatable {
    public var variant: String
    public var views: Int
    public var solver: ResultRow.Solver
    public var mode: Mode
    /// One point a commit that has the cell, in commit order.
    public var points: [TrendPoint]

    /// `sparse incremental`, as a legend names the series.
    public var name: String { "\(solver) \(mode)" }
  }

  /// What a trend query asks for.
  public struct TrendQuery: Sendable {
    public var scene: SceneKind
    /// One variant, or every variant of the scene.
    public var variant: String?
    public var phase: Phase
    /// The solvers to keep; nil for all.
    public var solvers: Set<ResultRow.Solver>?
    /// One size, or every size.
    public var views: Int?
    public var metric: Metric

    public init(
      scene: SceneKind, variant: String? = nil, phase: Phase,
      solvers: Set<ResultRow.Solver>? = nil, views: Int? = nil, metric: Metric = .medianTime
    ) {
      self.scene = scene
      self.variant = variant
      self.phase = phase
      self.solvers = solvers
      self.views = views
      self.metric = metric
    }
  }

  /// The trends `query` asks for among `machine`'s runs: one a solver, mode, variant and size,
  /// each with one point a commit (the latest run of the commit that has the cell), ordered by
  /// variant, size, solver and mode.
  ///
  /// - Complexity: O(cells of the scene and phase on the machine), by the index on
  ///   (scene, variant, phase).
  public func trends(_ query: TrendQuery, on machine: Machine) throws(HistoryError) -> [Trend] {
    guard query.metric != .checksum else {
      throw HistoryError(.badInput, "a checksum has no trend to show: choose a figure")
    }
    var position: [String: Int] = [:]
    struct SeriesKey: Hashable {
      var variant: String
      var views: Int
      var solver: String
      var mode: String
    }
    var points: [SeriesKey: [String: TrendPoint]] = [:]
    try read { db in
      // The commit order and the cells from one transaction.
      position = Dictionary(
        try Self.commits(db, on: machine).enumerated().map { ($1, $0) },
        uniquingKeysWith: { first, _ in first })
      var sql = """
        SELECT cell.variant, cell.views, cell.solver, cell.mode, run.commit_hash, run.started_at,
          run.run_id, cell.status, cell.\(query.metric.column), cell.note
        FROM cell JOIN run ON run.id = cell.run
        WHERE cell.scene = ? AND cell.phase = ? AND run.machine_id = ?
        """
      var arguments: StatementArguments = [query.scene.rawValue, query.phase.rawValue, machine.id]
      if let variant = query.variant {
        sql += " AND cell.variant = ?"
        arguments += [variant]
      }
      if let views = query.views {
        sql += " AND cell.views = ?"
        arguments += [views]
      }
      sql += " ORDER BY run.started_at, run.id"
      let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
      while let row = try rows.next() {
        let key = SeriesKey(variant: row[0], views: row[1], solver: row[2], mode: row[3])
        let status = ResultRow.Status(rawValue: row[7]) ?? .error
        guard position[row[4] as String] != nil else { continue }
        let value: Int64? = row[8]
        // A run that measured the cell but not this figure (times under callgrind,
        // instructions outside it) has no point here.
        guard status != .ok || value != nil else { continue }
        // A later run of the same commit replaces an earlier one's point.
        points[key, default: [:]][row[4]] = TrendPoint(
          commit: row[4], startedAt: row[5], runID: row[6], status: status,
          value: status == .ok ? value.map { UInt64($0) } : nil, note: row[9])
      }
    }
    var trends: [Trend] = []
    for (key, byCommit) in points {
      guard let solver = ResultRow.Solver(rawValue: key.solver), let mode = Mode(rawValue: key.mode)
      else { continue }
      if let solvers = query.solvers, !solvers.contains(solver) { continue }
      trends.append(
        Trend(
          variant: key.variant, views: key.views, solver: solver, mode: mode,
          points: byCommit.values.sorted { position[$0.commit]! < position[$1.commit]! }))
    }
    return trends.sorted {
      ($0.variant, $0.views, Self.solverRank($0.solver), $0.solver.rawValue, $0.mode.rawValue)
        < ($1.variant, $1.views, Self.solverRank($1.solver), $1.solver.rawValue, $1.mode.rawValue)
    }
  }

  /// Solvers in ``SolverStrategy/all``'s order (sparse first), others after them.
  static func solverRank(_ solver: ResultRow.Solver) -> Int {
    SolverStrategy.all.firstIndex { $0.name == solver.rawValue } ?? SolverStrategy.all.count
  }
}
