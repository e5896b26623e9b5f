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

  /// The figures a cell contributes to the judgement, from one run.
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
    let commitOrder = try commits(on: machine)
    let position = Dictionary(
      commitOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    // Each commit's cells, from its latest run that has them; and the time ratios of each run,
    // likewise kept per commit.
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
          currentCommit = position[row[1] as String]!
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
        cells[key, default: [:]][currentCommit] = figures
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
      for (previous, commit) in zip(ordered, ordered.dropFirst()) {
        let old = byCommit[previous]!
        let new = byCommit[commit]!
        guard old.status == .ok else { continue }
        guard new.status == .ok else {
          report(key, .status, from: previous, to: commit, "ok", new.status.rawValue)
          continue
        }
        if let was = old.checksum, let now = new.checksum, was != now {
          report(key, .figure(.checksum), from: previous, to: commit, was, now)
        }
        for (metric, was, now) in [
          (Metric.allocatedBytes, old.allocatedBytes, new.allocatedBytes),
          (Metric.instructions, old.instructions, new.instructions),
        ] {
          guard let was, let now else { continue }
          if Double(now) > Double(was) * (1 + criteria.countTolerance) + 64 {
            report(key, .figure(metric), from: previous, to: commit, String(was), String(now))
          }
        }
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

  static func ratioText(_ ratio: Double) -> String {
    "x" + String((ratio * 100).rounded() / 100)
  }
}
