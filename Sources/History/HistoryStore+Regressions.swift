import GRDB
import Harness
import Scenes

extension HistoryStore {
  /// What a regression is a regression of.
  public enum JudgedFigure: Sendable, Hashable, CustomStringConvertible {
    /// A deterministic figure of the cell: its checksum, allocated bytes or instructions.
    case figure(Metric)
    /// The cell was measured before and is skipped or failed now.
    case status
    /// The cell's median time over the same cell's with the dense baseline solver, in the same
    /// run: how far the solver stays ahead of the textbook tableau.
    case timeOverDense
    /// The incremental cell's median time over the full re-solve's, in the same run.
    case incrementalOverFull

    public var description: String {
      switch self {
      case .figure(let metric): metric.column
      case .status: "status"
      case .timeOverDense: "time / dense's"
      case .incrementalOverFull: "time / full's"
      }
    }
  }

  /// A figure that got worse between two consecutive commits measured on one machine class.
  public struct Regression: Sendable, Equatable {
    /// The commit where the figure moved, and the one before it that measured the cell.
    public var commit: String
    public var previousCommit: String
    public var cell: CellKey
    public var figure: JudgedFigure
    public var before: String
    public var after: String
    /// The machine class both runs ran on.
    public var machine: String
  }

  /// How regressions are judged.
  public struct RegressionCriteria: Sendable {
    /// Allocated bytes and instructions regress beyond this fraction (and 64), as
    /// `bench compare` gates them.
    public var countTolerance: Double
    /// A time ratio inside a run regresses when it grows by more than this fraction.
    public var ratioThreshold: Double
    /// Ratios are judged only between cells whose medians are both at least this long, where a
    /// run's noise is a small part of the time.
    public var minimumNanoseconds: UInt64

    public init(
      countTolerance: Double = 0.01, ratioThreshold: Double = 0.5,
      minimumNanoseconds: UInt64 = 100_000
    ) {
      self.countTolerance = countTolerance
      self.ratioThreshold = ratioThreshold
      self.minimumNanoseconds = minimumNanoseconds
    }
  }

  /// The regressions of the whole history: for every machine class, every cell's consecutive
  /// commits (the latest run of each), judged on the deterministic figures as `bench compare`
  /// judges them (the checksum exactly, allocated bytes and instructions beyond the tolerance,
  /// a measured cell no longer measured), and on times only as ratios inside one run (a
  /// solver's over dense's, incremental over full). Times are never compared across runs.
  /// Ordered by the commits' order, then by cell.
  ///
  /// - Complexity: O(cells in the store × log).
  public func regressions(_ criteria: RegressionCriteria = RegressionCriteria())
    throws(HistoryError) -> [Regression]
  {
    var found: [Regression] = []
    for machine in try machines() {
      found += try regressions(on: machine, criteria)
    }
    return found
  }

  /// The figures a cell contributes to the judgement: from one run, or merged over a commit's
  /// runs (the status of the latest run that has the cell; each figure from the latest run
  /// that measured it, so that a run without instructions does not hide a callgrind run's).
  struct CellFigures {
    var status: ResultRow.Status
    var checksum: String?
    var allocatedBytes: UInt64?
    var instructions: UInt64?
    var median: UInt64?
  }

  func regressions(on machine: Machine, _ criteria: RegressionCriteria) throws(HistoryError)
    -> [Regression]
  {
    var commitOrder: [String] = []
    var position: [String: Int] = [:]
    // Each commit's cells, merged over its runs; and the time ratios of each run, the latest
    // run's kept per commit.
    var cells: [CellKey: [Int: CellFigures]] = [:]
    var ratios: [RatioKey: [Int: Double]] = [:]
    var runCells: [CellKey: CellFigures] = [:]
    var currentRun: Int64? = nil
    var currentCommit = 0
    func closeRun() {
      for (key, figures) in runCells {
        guard let median = figures.median, median >= criteria.minimumNanoseconds else { continue }
        if key.solver != .dense {
          var reference = key
          reference.solver = .dense
          if let base = runCells[reference]?.median, base >= criteria.minimumNanoseconds {
            ratios[RatioKey(cell: key, figure: .timeOverDense), default: [:]][
              currentCommit] = Double(median) / Double(base)
          }
        }
        if key.mode == .incremental {
          var reference = key
          reference.mode = .full
          if let base = runCells[reference]?.median, base >= criteria.minimumNanoseconds {
            ratios[RatioKey(cell: key, figure: .incrementalOverFull), default: [:]][
              currentCommit] = Double(median) / Double(base)
          }
        }
      }
      runCells = [:]
    }
    try read { db in
      // The commit order and the cells from one transaction: a run recorded meanwhile is in
      // both or in neither.
      commitOrder = try Self.commits(db, on: machine)
      position = Dictionary(
        commitOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
      let rows = try Row.fetchCursor(
        db,
        sql: """
          SELECT run.id, run.commit_hash, cell.scene, cell.variant, cell.views, cell.solver,
            cell.mode, cell.phase, cell.status, cell.checksum, cell.allocated_bytes,
            cell.instructions, cell.median_ns
          FROM cell JOIN run ON run.id = cell.run
          WHERE run.machine_id = ?
          ORDER BY run.started_at, run.id
          """, arguments: [machine.id])
      while let row = try rows.next() {
        let run: Int64 = row[0]
        if run != currentRun {
          closeRun()
          currentRun = run
          guard let commit = position[row[1] as String] else { continue }
          currentCommit = commit
        }
        guard let scene = SceneKind(rawValue: row[2]),
          let solver = ResultRow.Solver(rawValue: row[5]), let mode = Mode(rawValue: row[6]),
          let phase = Phase(rawValue: row[7]), let status = ResultRow.Status(rawValue: row[8])
        else { continue }
        let key = CellKey(
          scene: scene, variant: row[3], views: row[4], solver: solver, mode: mode, phase: phase)
        func unsigned(_ index: Int) -> UInt64? { (row[index] as Int64?).map { UInt64($0) } }
        let figures = CellFigures(
          status: status, checksum: row[9], allocatedBytes: unsigned(10),
          instructions: unsigned(11), median: status == .ok ? unsigned(12) : nil)
        var merged = cells[key]?[currentCommit] ?? figures
        merged.status = status
        if status == .ok {
          merged.checksum = figures.checksum ?? merged.checksum
          merged.allocatedBytes = figures.allocatedBytes ?? merged.allocatedBytes
          merged.instructions = figures.instructions ?? merged.instructions
        }
        cells[key, default: [:]][currentCommit] = merged
        runCells[key] = figures
      }
      closeRun()
    }
    var found: [(position: Int, regression: Regression)] = []
    func report(
      _ key: CellKey, _ figure: JudgedFigure, from previous: Int, to commit: Int,
      _ before: String, _ after: String
    ) {
      found.append(
        (
          commit,
          Regression(
            commit: commitOrder[commit], previousCommit: commitOrder[previous], cell: key,
            figure: figure, before: before, after: after, machine: machine.description)
        ))
    }
    for (key, byCommit) in cells {
      let ordered = byCommit.keys.sorted()
      // The status between consecutive commits that have the cell.
      for (previous, commit) in zip(ordered, ordered.dropFirst()) {
        let now = byCommit[commit]!.status
        if byCommit[previous]!.status == .ok && now != .ok {
          report(key, .status, from: previous, to: commit, "ok", now.rawValue)
        }
      }
      // Each figure between consecutive commits that measured it: a commit that skipped the
      // cell, or ran it without the figure (times without callgrind), is passed over.
      func judge<Figure>(
        _ figure: KeyPath<CellFigures, Figure?>, _ regressed: (Figure, Figure) -> Bool,
        _ judged: JudgedFigure, _ text: (Figure) -> String
      ) {
        let measured = ordered.compactMap { commit in
          byCommit[commit]![keyPath: figure].map { (commit, $0) }
        }
        for (old, new) in zip(measured, measured.dropFirst()) where regressed(old.1, new.1) {
          report(key, judged, from: old.0, to: new.0, text(old.1), text(new.1))
        }
      }
      judge(\.checksum, { $0 != $1 }, .figure(.checksum), { $0 })
      for (metric, path) in [
        (Metric.allocatedBytes, \CellFigures.allocatedBytes),
        (Metric.instructions, \CellFigures.instructions),
      ] {
        judge(
          path, { Double($1) > Double($0) * (1 + criteria.countTolerance) + 64 }, .figure(metric),
          { String($0) })
      }
    }
    for (key, byCommit) in ratios {
      let ordered = byCommit.keys.sorted()
      for (previous, commit) in zip(ordered, ordered.dropFirst()) {
        let was = byCommit[previous]!
        let now = byCommit[commit]!
        if now > was * (1 + criteria.ratioThreshold) {
          report(
            key.cell, key.figure, from: previous, to: commit, Self.ratioText(was),
            Self.ratioText(now))
        }
      }
    }
    return found.sorted {
      ($0.position, $0.regression.cell, $0.regression.figure.description)
        < ($1.position, $1.regression.cell, $1.regression.figure.description)
    }.map(\.regression)
  }

  struct RatioKey: Hashable {
    var cell: CellKey
    var figure: JudgedFigure
  }

  /// A ratio to three significant digits: `x0.0213`, `x1.5`, `x46.1`.
  static func ratioText(_ ratio: Double) -> String {
    "x" + String(format: "%.3g", ratio)
  }
}
