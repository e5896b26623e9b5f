import AutoLayout
import Cassowary
import Scenes
import Testing

@Suite("Planned builds of the scenes")
struct PlannedBuildSceneTests {
  /// A scene of `kind` at 200 views, laid out, and its constraints as its engine lowered them
  /// for the first layout, in the order it installed them, numbered from 0.
  func loweredRows(
    _ kind: SceneKind, _ variant: String
  ) throws -> (scene: Scene, rows: [(ConstraintID, Constraint)]) {
    let scene = try Scene(kind, views: 200, variant: variant)
    scene.layOut()
    var rows: [(ConstraintID, Constraint)] = []
    for lowered in scene.root.layoutEngine!.loweredConstraints() {
      for row in lowered.rows { rows.append((ConstraintID(rows.count), row)) }
    }
    return (scene, rows)
  }

  /// Every scene's constraints, as its engine lowered them for the first layout, in the order it
  /// installed them: added one by one and by `add(contentsOf:)`, they solve to the same values
  /// (the scenes' optima are unique), the planned tableau is sound, and it holds hardly more
  /// cells (the grids' plans hold up to 1.3 % more than one by one, whose rows the engine's
  /// lowering of margins keeps as short). Where a chain is closed (the chain, the grids), the
  /// plan keeps every row short: one by one, the chain's closing equality is expanded through
  /// the whole chain (401 cells).
  @Test(arguments: smallScenes)
  func aSceneBuildsToTheSameLayout(kind: SceneKind, variant: String) throws {
    let (scene, rows) = try loweredRows(kind, variant)
    let engine = scene.root.layoutEngine!
    var one = SparseSolver()
    one.beginBatch()
    for (id, row) in rows { try one.add(id, row) }
    one.endBatch()
    var planned = SparseSolver()
    planned.beginBatch()
    try planned.add(contentsOf: rows)
    planned.endBatch()
    #expect(planned.structuralDefects().isEmpty)
    var differences = 0
    for id in 0..<engine.solverVariableCapacity {
      let x = one.value(of: Variable(id)), y = planned.value(of: Variable(id))
      if abs(x - y) > 1e-7 * max(1, abs(x)) { differences += 1 }
    }
    #expect(differences == 0, "\(differences) variables differ")
    #expect(
      Double(planned.statistics.cells) <= 1.02 * Double(one.statistics.cells),
      "\(planned.statistics.cells) cells planned, \(one.statistics.cells) one by one")
    if [.chain, .nestedGrid, .stackGrid].contains(kind) {
      #expect(planned.statistics.maximumRowCells <= 16, "\(planned.statistics)")
    }
    if kind == .chain {
      #expect(one.statistics.maximumRowCells > 16, "the one-by-one build no longer expands")
    }
  }

  /// The plan solver on the forms and the equal-spacing layouts: the optional constraints
  /// reduced onto the free variables, so that no planned block a size preference reaches goes
  /// to the tableau, and the variables only bounds hold solved in closed form; the values are
  /// the sparse solver's.
  @Test(arguments: [
    (SceneKind.form, "standard"), (.dynamicForm, "standard"), (.equalSpacing, "spacer-views"),
  ])
  func optionalConstraintsAreReducedOntoTheFreeVariables(kind: SceneKind, variant: String) throws {
    let (scene, rows) = try loweredRows(kind, variant)
    let engine = scene.root.layoutEngine!
    var plan = PlanSolver()
    var sparse = SparseSolver()
    try plan.add(contentsOf: rows)
    try sparse.add(contentsOf: rows)
    let optional = rows.filter { !$0.1.priority.isRequired }.count
    switch kind {
    case .form:
      // Every view's height is bounded (two size preferences over the height alone); the
      // widths' size preferences, reduced, are bounds on the shared field width (the root's
      // width is fixed). Nothing is left for the tableau.
      #expect(plan.boundedVariableCount == 201)
      #expect(plan.reducedConstraintCount > optional / 3)
      #expect(plan.statistics.rows == 0, "\(plan.statistics)")
    case .dynamicForm:
      // Its required inequalities are reduced too, but its wrapping rows compete over shared
      // widths: one component the tableau solves.
      #expect(plan.reducedConstraintCount > optional / 3)
      #expect(plan.statistics.rows < sparse.statistics.rows, "\(plan.statistics)")
    default:
      // Its spacers' equal widths are blocks of several equalities, written out; with the
      // root's width fixed, each row's inequalities and size preferences are bounds on its
      // buttons' width. Nothing is left for the tableau.
      #expect(plan.reducedConstraintCount > optional / 3)
      #expect(plan.boundedVariableCount > optional / 4)
      #expect(plan.statistics.rows == 0, "\(plan.statistics)")
    }
    for id in 0..<engine.solverVariableCapacity {
      let x = plan.value(of: Variable(id)), y = sparse.value(of: Variable(id))
      #expect(abs(x - y) <= 1e-7 * max(1, abs(y)), "variable \(id): \(x) vs \(y)")
    }
    #expect(plan.invariantViolations().isEmpty)
  }
}
