import Cassowary
import Scenes

/// What identifies a cell across runs: a scene variant at a size, measured by a solver in a mode
/// during a phase. Its description is the `scene/variant/views/solver/mode/phase` form the
/// reports print.
public struct CellKey: Hashable, Comparable, Sendable, LosslessStringConvertible {
  public var scene: SceneKind
  /// The scene's variant (`standard` for kinds without variants).
  public var variant: String
  public var views: Int
  public var solver: ResultRow.Solver
  public var mode: Mode
  public var phase: Phase

  public init(
    scene: SceneKind, variant: String, views: Int, solver: ResultRow.Solver, mode: Mode,
    phase: Phase
  ) {
    self.scene = scene
    self.variant = variant
    self.views = views
    self.solver = solver
    self.mode = mode
    self.phase = phase
  }

  public var description: String { "\(scene)/\(variant)/\(views)/\(solver)/\(mode)/\(phase)" }

  /// The key `description` writes (as callgrind's dump labels carry it), or nil for text of
  /// another form.
  ///
  /// - Complexity: O(characters).
  public init?(_ description: String) {
    let parts = description.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 6, let scene = SceneKind(rawValue: parts[0]),
      scene.variants.contains(parts[1]), let views = Int(parts[2]),
      let solver = ResultRow.Solver(rawValue: parts[3]), let mode = Mode(rawValue: parts[4]),
      let phase = Phase(rawValue: parts[5])
    else { return nil }
    self.init(
      scene: scene, variant: parts[1], views: views, solver: solver, mode: mode, phase: phase)
  }

  /// Scene, variant, phase, solver, mode, then views: the order tables list cells in.
  ///
  /// - Complexity: O(1).
  public static func < (a: CellKey, b: CellKey) -> Bool {
    func order(_ key: CellKey) -> (Int, String, Int, String, Int, Int) {
      (
        SceneKind.allCases.firstIndex(of: key.scene)!, key.variant,
        Phase.allCases.firstIndex(of: key.phase)!, key.solver.rawValue,
        Mode.allCases.firstIndex(of: key.mode)!, key.views
      )
    }
    return order(a) < order(b)
  }
}

extension CellKey {
  /// The series the cell is a point of: the same key at every size.
  public var series: SeriesKey {
    SeriesKey(scene: scene, variant: variant, solver: solver, mode: mode, phase: phase)
  }

  /// The group that measures the cell (a scene variant, solver and mode, every size and phase).
  public var group: ShardGroup {
    ShardGroup(scene: scene, variant: variant, solver: solver.rawValue, mode: mode)
  }
}

/// A cell at every size: what a scaling slope is of. Its description is
/// `scene/variant/solver/mode/phase`.
public struct SeriesKey: Hashable, Comparable, Sendable, CustomStringConvertible {
  public var scene: SceneKind
  public var variant: String
  public var solver: ResultRow.Solver
  public var mode: Mode
  public var phase: Phase

  public init(
    scene: SceneKind, variant: String, solver: ResultRow.Solver, mode: Mode, phase: Phase
  ) {
    self.scene = scene
    self.variant = variant
    self.solver = solver
    self.mode = mode
    self.phase = phase
  }

  public var description: String { "\(scene)/\(variant)/\(solver)/\(mode)/\(phase)" }

  /// The group that measures the series.
  public var group: ShardGroup {
    ShardGroup(scene: scene, variant: variant, solver: solver.rawValue, mode: mode)
  }

  /// In the order of ``CellKey``'s, without the size.
  ///
  /// - Complexity: O(1).
  public static func < (a: SeriesKey, b: SeriesKey) -> Bool {
    func cell(_ key: SeriesKey) -> CellKey {
      CellKey(
        scene: key.scene, variant: key.variant, views: 0, solver: key.solver, mode: key.mode,
        phase: key.phase)
    }
    return cell(a) < cell(b)
  }
}

extension ResultRow {
  /// The row's cell: what identifies it across runs.
  ///
  /// - Complexity: O(1).
  public var key: CellKey {
    CellKey(scene: scene, variant: variant, views: views, solver: solver, mode: mode, phase: phase)
  }

  /// The series the row is a point of.
  ///
  /// - Complexity: O(1).
  public var seriesKey: SeriesKey { key.series }
}
