import Cassowary
import Testing

/// Required inequalities over determined variables, reduced like optional constraints, and
/// blocks of several equalities written out so that constraints can be reduced through them:
/// the same optimum as the sparse solver, and refusals made from the constraints as written.
@Suite struct RequiredReductionTests {
  /// A row of two buttons between three equal spaces, inside margins 16 points in from a root
  /// of width `rootWidth` (Apple's equal-spacing recipe): the spaces close a loop, so their
  /// equalities are one block. The buttons have equal widths, wish for 90 and 158 points, and
  /// must not overlap the margins or come within 8 points of each other.
  struct EqualSpaces {
    enum Name: Int, CaseIterable {
      case margin, root, space0X, space0W, shortX, space1X, space1W, longX, space2X, space2W
      case shortW, longW, marginWidth
    }
    /// The root's width is held by the last constraint (a required equality or cap).
    var constraints: [(ConstraintID, Constraint)] = []
    static let rootWidth = ConstraintID(18)

    init(rootWidth: Constraint) {
      func v(_ name: Name) -> Variable { Variable(id: Int32(name.rawValue)) }
      func sum(_ terms: [(Name, Double)], _ constant: Double = 0) -> LinearExpression {
        LinearExpression(terms.map { Term(v($0.0), $0.1) }, constant: constant)
      }
      let rows: [Constraint] = [
        Constraint(sum([(.margin, 1)], -16), .equal),
        Constraint(sum([(.space0X, 1), (.margin, -1)]), .equal),
        Constraint(sum([(.shortX, 1), (.space0X, -1), (.space0W, -1)]), .equal),
        Constraint(sum([(.space1X, 1), (.shortX, -1), (.shortW, -1)]), .equal),
        Constraint(sum([(.longX, 1), (.space1X, -1), (.space1W, -1)]), .equal),
        Constraint(sum([(.space2X, 1), (.longX, -1), (.longW, -1)]), .equal),
        Constraint(sum([(.space2X, 1), (.space2W, 1), (.margin, -1), (.marginWidth, -1)]), .equal),
        Constraint(sum([(.shortX, 1), (.margin, -1)]), .greaterThanOrEqual),
        Constraint(sum([(.longX, 1), (.shortX, -1), (.shortW, -1)], -8), .greaterThanOrEqual),
        Constraint(
          sum([(.margin, 1), (.marginWidth, 1), (.longX, -1), (.longW, -1)]), .greaterThanOrEqual),
        Constraint(sum([(.space0W, 1), (.space1W, -1)]), .equal),
        Constraint(sum([(.space0W, 1), (.space2W, -1)]), .equal),
        Constraint(sum([(.shortW, 1), (.longW, -1)]), .equal),
        Constraint(sum([(.shortW, 1)], -90), .lessThanOrEqual, priority: 250),
        Constraint(sum([(.shortW, 1)], -90), .greaterThanOrEqual, priority: 750),
        Constraint(sum([(.longW, 1)], -158), .lessThanOrEqual, priority: 250),
        Constraint(sum([(.longW, 1)], -158), .greaterThanOrEqual, priority: 750),
        Constraint(sum([(.root, 1), (.margin, -1), (.marginWidth, -1)], -16), .equal),
        rootWidth,
      ]
      constraints = rows.enumerated().map { (ConstraintID($0.offset), $0.element) }
    }

    static var variables: [Variable] { Name.allCases.map { Variable(id: Int32($0.rawValue)) } }
    static func variable(_ name: Name) -> Variable { Variable(id: Int32(name.rawValue)) }

    /// The row in a root 375 points wide, its buttons' width held at 0 or more by constraint
    /// ``nonNegative``: every inequality reduces to a bound on that width.
    static func fixedRootWithNonNegativeButtons() -> EqualSpaces {
      var row = EqualSpaces(
        rootWidth: Constraint(LinearExpression([Term(variable(.root))], constant: -375), .equal))
      row.constraints.append(
        (nonNegative, Constraint(LinearExpression([Term(variable(.shortW))]), .greaterThanOrEqual))
      )
      return row
    }
    static let nonNegative = ConstraintID(19)
  }

  func expectSame(
    _ plan: PlanSolver, _ sparse: SparseSolver, _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for variable in EqualSpaces.variables {
      let (x, y) = (plan.value(of: variable), sparse.value(of: variable))
      #expect(
        abs(x - y) <= 1e-9 * max(1, abs(y)), "\(what): v\(variable.id) is \(x), sparse's \(y)",
        sourceLocation: sourceLocation)
    }
    #expect(
      plan.invariantViolations().isEmpty, "\(what): \(plan.invariantViolations())",
      sourceLocation: sourceLocation)
  }

  /// A refusal of constraint `refused` names required constraints as they were written.
  func expectNamedAsWritten(
    _ error: SolverError?, refusing refused: ConstraintID,
    written: [(ConstraintID, Constraint)], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard case .unsatisfiable(let id, _, let conflicts) = error else {
      Issue.record("not refused: \(String(describing: error))", sourceLocation: sourceLocation)
      return
    }
    #expect(id == refused, sourceLocation: sourceLocation)
    #expect(!conflicts.isEmpty, sourceLocation: sourceLocation)
    let asWritten = Dictionary(uniqueKeysWithValues: written)
    for (id, constraint) in conflicts {
      #expect(
        asWritten[id] == constraint, "c\(id) is named as \(constraint)",
        sourceLocation: sourceLocation)
    }
  }

  /// What a refusal must leave as it was: the constraints held, the rows and cells (the room
  /// kept may grow).
  func shape(_ plan: PlanSolver) -> [Int] {
    let figures = plan.statistics
    return [figures.constraints, figures.variables, figures.rows, figures.cells]
  }

  /// With the root's width fixed, each inequality reduces to one term over the buttons' width:
  /// the row is all plan and bounds, and a width that leaves the buttons no room is refused.
  @Test func aRowOfEqualSpacesIsPlannedAndBounded() throws {
    let row = EqualSpaces.fixedRootWithNonNegativeButtons()
    let nonNegative = EqualSpaces.nonNegative
    var plan = PlanSolver()
    var sparse = SparseSolver()
    try plan.add(contentsOf: row.constraints)
    try sparse.add(contentsOf: row.constraints)
    #expect(plan.statistics.rows == 0, "\(plan.statistics)")
    #expect(plan.boundedVariableCount == 1)
    #expect(plan.value(of: EqualSpaces.variable(.shortW)) == 158)
    expectSame(plan, sparse, "after the build")

    // Narrower: the spaces' required inequalities cap the buttons' width.
    try plan.setConstant(EqualSpaces.rootWidth, -300)
    try sparse.setConstant(EqualSpaces.rootWidth, -300)
    #expect(plan.statistics.rows == 0, "\(plan.statistics)")
    expectSame(plan, sparse, "narrower")

    // Too narrow for buttons of width 0: refused as the sparse solver refuses it.
    let before = EqualSpaces.variables.map { plan.value(of: $0).bitPattern }
    let held = shape(plan)
    var planError: SolverError?
    do throws(SolverError) { try plan.setConstant(EqualSpaces.rootWidth, -40) } catch {
      planError = error
    }
    #expect(throws: SolverError.self) { try sparse.setConstant(EqualSpaces.rootWidth, -40) }
    var written = row.constraints
    written[Int(EqualSpaces.rootWidth.rawValue)].1.expression.constant = -40
    expectNamedAsWritten(planError, refusing: EqualSpaces.rootWidth, written: written)
    #expect(EqualSpaces.variables.map { plan.value(of: $0).bitPattern } == before)
    #expect(shape(plan) == held)
    expectSame(plan, sparse, "after the refusal")

    // The bound's own constant: refused too where it leaves no room.
    #expect(throws: SolverError.self) { try plan.setConstant(nonNegative, -200) }
    #expect(EqualSpaces.variables.map { plan.value(of: $0).bitPattern } == before)
    try plan.setConstant(nonNegative, -100)
    try sparse.setConstant(nonNegative, -100)
    expectSame(plan, sparse, "the bound moved")
  }

  /// With the root's width free under a cap, the inequalities reduce to rows over two
  /// variables, which the sparse solver holds; a required constraint that cannot hold is
  /// refused naming the constraints as written, and the solver is left bit for bit as it was.
  @Test func aRefusalThroughReducedRequiredRowsNamesThemAsWritten() throws {
    let root = EqualSpaces.variable(.root)
    let row = EqualSpaces(
      rootWidth: Constraint(LinearExpression([Term(root)], constant: -400), .lessThanOrEqual))
    var plan = PlanSolver()
    var sparse = SparseSolver()
    try plan.add(contentsOf: row.constraints)
    try sparse.add(contentsOf: row.constraints)
    #expect(plan.reducedConstraintCount >= 3, "the three inequalities are reduced")
    #expect(plan.statistics.rows > 0, "the tableau holds rows over two variables")
    expectSame(plan, sparse, "after the build")

    // Buttons of 300 need a root of 656: past the cap.
    let wide = Constraint(
      LinearExpression([Term(EqualSpaces.variable(.shortW))], constant: -300),
      .greaterThanOrEqual)
    let before = EqualSpaces.variables.map { plan.value(of: $0).bitPattern }
    let held = shape(plan)
    let reduced = plan.reducedConstraintCount
    var planError: SolverError?
    do throws(SolverError) { try plan.add(ConstraintID(100), wide) } catch { planError = error }
    #expect(throws: SolverError.self) { try sparse.add(ConstraintID(100), wide) }
    expectNamedAsWritten(
      planError, refusing: ConstraintID(100),
      written: row.constraints + [(ConstraintID(100), wide)])
    #expect(EqualSpaces.variables.map { plan.value(of: $0).bitPattern } == before)
    #expect(shape(plan) == held)
    #expect(plan.reducedConstraintCount == reduced)

    // In a batch, those before the refused one stay added, as one by one.
    var batch = ConstraintBatch()
    let fine = Constraint(
      LinearExpression([Term(EqualSpaces.variable(.shortW))], constant: -10),
      .greaterThanOrEqual)
    batch.append(ConstraintID(101), fine)
    batch.append(ConstraintID(102), wide)
    #expect(throws: SolverError.self) { try plan.add(batch, leading: []) }
    #expect(plan.contains(ConstraintID(101)) && !plan.contains(ConstraintID(102)))
    try sparse.add(ConstraintID(101), fine)
    expectSame(plan, sparse, "after the refused batch")

    try plan.addEditVariable(root, priority: 999)
    try plan.suggestValue(root, 320)
    try sparse.addEditVariable(root, priority: 999)
    try sparse.suggestValue(root, 320)
    expectSame(plan, sparse, "after a resize")
  }

  /// A removal in a batch leaves the rows reduced through the removed equality stale until the
  /// batch ends: a required constraint added after it in the same batch is decided against the
  /// constraints as written, not against the stale rows, and refused as the sparse solver
  /// refuses it.
  @Test func aRequiredAddAfterARemovalInTheSameBatchIsDecidedAsWritten() throws {
    let root = EqualSpaces.variable(.root)
    let row = EqualSpaces.fixedRootWithNonNegativeButtons()
    var plan = PlanSolver()
    var sparse = SparseSolver()
    try plan.add(contentsOf: row.constraints)
    try sparse.add(contentsOf: row.constraints)
    #expect(plan.boundedVariableCount == 1, "the inequalities are bounds on the buttons' width")

    // The root's width is replaced by one too narrow for buttons of width 0 (its margins are
    // 32 points, the spaces' gap 8): the bounds reduced through the old width would take it.
    let narrow = Constraint(LinearExpression([Term(root)], constant: -10), .equal)
    func replaceTooNarrow(_ solver: inout some LayoutSolver) throws {
      solver.beginBatch()
      try solver.remove(EqualSpaces.rootWidth)
      #expect(throws: SolverError.self) { try solver.add(ConstraintID(20), narrow) }
      solver.endBatch()
    }
    try replaceTooNarrow(&plan)
    try replaceTooNarrow(&sparse)
    #expect(!plan.contains(ConstraintID(20)) && !plan.contains(EqualSpaces.rootWidth))
    expectSame(plan, sparse, "after the refused replacement")

    // One that leaves room is taken, in a batch too.
    let wider = Constraint(LinearExpression([Term(root)], constant: -200), .equal)
    plan.beginBatch()
    try plan.add(ConstraintID(21), wider)
    plan.endBatch()
    try sparse.add(ConstraintID(21), wider)
    expectSame(plan, sparse, "after the replacement")
  }
}
