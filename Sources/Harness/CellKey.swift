import Cassowary
import Scenes

/// What identifies a cell across runs: a scene variant at a size, measured by a solver in a mode
/// during a phase. Its description is the `scene/variant/views/solver/mode/phase` form the
/// reports print.
public struct CellKey: Hashable, Comparable, Sendable, CustomStringConvertible {
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

extension ResultRow {
  /// The row's cell.
  ///
  /// - Complexity: O(1).
  public var cellKey: CellKey {
    CellKey(scene: scene, variant: variant, views: views, solver: solver, mode: mode, phase: phase)
  }
}
