import AutoLayout
import Cassowary

/// What a harness measures on a scene, through the scene rather than its root's engine.
extension Scene {
  /// The first layout, and every later one: the update pass, the solve and every frame written.
  public func layOut() { root.layoutIfNeeded() }

  /// The solver's size (constraints, variables, rows), or `nil` before the first layout made
  /// the engine.
  public var solverStatistics: SolverStatistics? { root.layoutEngine?.solverStatistics }

  /// Why the solver stopped taking changes (the dense solver's memory budget, a failure inside
  /// kiwi), if it did: the layout no longer describes every constraint from then on.
  public var solverRefusal: SolverError? { root.layoutEngine?.refusal }

  /// Performs `operation` as a full re-solve does: the operation and the update pass in one
  /// batch, then the solver rebuilt from the constraints and solved from scratch, then the
  /// layout pass. The incremental alternative is ``perform(_:)`` then ``layOut()``.
  ///
  /// - Precondition: the scene has been laid out (its engine exists).
  public func performWithFullResolve(_ operation: SceneOperation) throws(SolverError) {
    guard let engine = root.layoutEngine else { preconditionFailure("lay the scene out first") }
    engine.beginBatch()
    perform(operation)
    root.updateConstraintsIfNeeded()
    do {
      try engine.solveFromScratch()
    } catch {
      engine.endBatch()
      throw error
    }
    engine.endBatch()
    layOut()
  }
}
