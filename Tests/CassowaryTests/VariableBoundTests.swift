import Cassowary
import PropertyBased
import Testing

/// Free variables that only optional constraints over them alone hold, solved in closed form
/// by the plan solver: the same lexicographic optimum as the sparse solver and the reference LP,
/// through every operation, and given to the tableau when something else mentions them.
@Suite struct VariableBoundTests {
  /// A few variables, each with its own optional bounds (at least eight constraints, so that
  /// the solver plans its build).
  struct BoundSystem {
    var random: SeededGenerator
    var variableCount: Int
    var nextID: Int32 = 0

    init(seed: UInt64) {
      random = SeededGenerator(seed: seed)
      variableCount = Int.random(in: 1...3, using: &random)
    }

    mutating func id() -> ConstraintID {
      defer { nextID += 1 }
      return ConstraintID(nextID)
    }

    mutating func bound(on variable: Int? = nil) -> Constraint {
      let v = variable ?? Int.random(in: 0..<variableCount, using: &random)
      let coefficient = [1.0, -1, 2, 0.5, -3].randomElement(using: &random)!
      let constant = Double(Int.random(in: -60...60, using: &random))
      let relation = [Relation.equal, .lessThanOrEqual, .greaterThanOrEqual]
        .randomElement(using: &random)!
      let priority = [Priority(250), 251, 500, 750, 999].randomElement(using: &random)!
      return Constraint(
        LinearExpression([Term(Variable(v), coefficient)], constant: constant), relation,
        priority: priority)
    }

    mutating func system() -> [(ConstraintID, Constraint)] {
      // Up to 60: a variable with more than 16 bounds has its levels' minimizers selected
      // rather than sorted.
      (0..<Int.random(in: 8...60, using: &random)).map { _ in (id(), bound()) }
    }
  }

  func expectOptimum(
    _ plan: PlanSolver, _ constraints: [(ConstraintID, Constraint)], variables: Int,
    seed: UInt64, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let system = RandomSystem(variableCount: variables, constraints: constraints)
    var sparse = SparseSolver()
    for (id, constraint) in constraints { try? sparse.add(id, constraint) }
    let got = system.errorSums { plan.value(of: $0) }
    let want = system.errorSums { sparse.value(of: $0) }
    for (level, (a, b)) in zip(system.levels, zip(got, want)) {
      #expect(
        abs(a - b) <= 1e-9 * max(1, abs(b)),
        "seed \(seed), \(what): error at level \(level) is \(a), sparse's \(b)",
        sourceLocation: sourceLocation)
    }
    expectOptimal(plan, system, seed: seed, sourceLocation: sourceLocation)
    #expect(
      plan.invariantViolations().isEmpty, "seed \(seed), \(what): \(plan.invariantViolations())",
      sourceLocation: sourceLocation)
  }

  /// Built, every variable is bounded and none is in the tableau; constants, priorities,
  /// removals and new bounds keep it so, each level's error the sparse solver's.
  @Test func boundsNarrowToTheLexicographicOptimum() async {
    await propertyCheck(count: propertyCaseCount(100), input: Gen.uint64(in: 0...UInt64.max)) {
      seed in
      var generator = BoundSystem(seed: seed)
      var live = generator.system()
      var plan = PlanSolver()
      try plan.add(contentsOf: live)
      let mentioned = Set(live.flatMap { $0.1.expression.terms.map(\.variable) })
        .sorted { $0.id < $1.id }
      #expect(plan.boundedVariableCount == mentioned.count, "seed \(seed)")
      #expect(plan.statistics.rows == 0, "seed \(seed): \(plan.statistics)")
      expectOptimum(plan, live, variables: generator.variableCount, seed: seed, "the build")
      for step in 0..<20 {
        switch Int.random(in: 0..<4, using: &generator.random) {
        case 0:
          let index = Int.random(in: 0..<live.count, using: &generator.random)
          let constant = Double(Int.random(in: -60...60, using: &generator.random))
          try plan.setConstant(live[index].0, constant)
          live[index].1.expression.constant = constant
        case 1:
          let index = Int.random(in: 0..<live.count, using: &generator.random)
          let priority = [Priority(250), 500, 999].randomElement(using: &generator.random)!
          try plan.setPriority(live[index].0, priority)
          live[index].1.priority = priority
        case 2 where live.count > 1:
          let index = Int.random(in: 0..<live.count, using: &generator.random)
          try plan.remove(live[index].0)
          live.remove(at: index)
        default:
          // Over a variable the build bounded (one it did not see is the tableau's).
          let variable = Int(mentioned.randomElement(using: &generator.random)!.id)
          let (id, constraint) = (generator.id(), generator.bound(on: variable))
          try plan.add(id, constraint)
          live.append((id, constraint))
        }
        #expect(plan.statistics.rows == 0, "seed \(seed), step \(step)")
        expectOptimum(plan, live, variables: generator.variableCount, seed: seed, "step \(step)")
      }
      for (id, constraint) in live { #expect(plan.constraint(id) == constraint, "seed \(seed)") }
    }
  }

  /// A constraint over a bounded variable and another, or an edit, gives the variable's
  /// bounds to the tableau; refused, the solver is left as it was, bit for bit, its variables
  /// still bounded.
  @Test func somethingElseOverABoundedVariableGivesItToTheTableau() throws {
    var generator = BoundSystem(seed: 7)
    generator.variableCount = 2
    var live = (0..<5).map { _ in (generator.id(), generator.bound(on: 0)) }
    live += (0..<5).map { _ in (generator.id(), generator.bound(on: 1)) }
    let (x, y) = (Variable(0), Variable(1))
    var plan = PlanSolver()
    try plan.add(contentsOf: live)
    #expect(plan.boundedVariableCount == 2)

    // A required floor on x is the tableau's, and x's bounds go with it.
    let floor = (generator.id(), x >= LinearExpression(constant: 10))
    try plan.add(floor.0, floor.1)
    live.append(floor)
    #expect(plan.boundedVariableCount == 1)
    expectOptimum(plan, live, variables: 2, seed: 7, "after the floor")

    // Refused: x ≤ 5 (written over y too, whose terms cancel) against the floor. y's bounds go
    // to the tableau to decide it, and come back.
    let before = [x, y].map { plan.value(of: $0).bitPattern }
    let statistics = plan.statistics
    let ceiling = Constraint(
      LinearExpression([Term(x, 1), Term(y, 1), Term(y, -1)], constant: -5), .lessThanOrEqual)
    #expect(throws: SolverError.self) { try plan.add(generator.id(), ceiling) }
    #expect([x, y].map { plan.value(of: $0).bitPattern } == before)
    #expect(plan.statistics == statistics)
    #expect(plan.boundedVariableCount == 1)

    // Over both, optional: y's bounds go to the tableau.
    let tie = (generator.id(), (x + y == LinearExpression(constant: 0)).at(100))
    try plan.add(tie.0, tie.1)
    live.append(tie)
    #expect(plan.boundedVariableCount == 0)
    expectOptimum(plan, live, variables: 2, seed: 7, "after the tie")
  }

  /// An edit on a bounded variable gives its bounds to the tableau, and the edit starts where
  /// the variable was.
  @Test func anEditOnABoundedVariableStartsWhereItWas() throws {
    let x = Variable(0)
    let constraints: [(ConstraintID, Constraint)] = (0..<8).map { index in
      (ConstraintID(index), (x >= LinearExpression(constant: Double(index))).at(250))
    }
    var plan = PlanSolver()
    try plan.add(contentsOf: constraints)
    #expect(plan.boundedVariableCount == 1)
    #expect(plan.value(of: x) == 7)
    try plan.addEditVariable(x, priority: 600)
    #expect(plan.boundedVariableCount == 0)
    #expect(plan.value(of: x) == 7)
    try plan.suggestValue(x, 3)
    #expect(plan.value(of: x) == 3)
    #expect(plan.invariantViolations().isEmpty)
  }

  /// A refused raise of a bound to required leaves every value bit for bit and the variable
  /// bounded.
  @Test func aRefusedRaiseLeavesTheBoundsAsTheyWere() throws {
    let x = Variable(0)
    var constraints: [(ConstraintID, Constraint)] = (0..<8).map { index in
      (ConstraintID(index), (x >= LinearExpression(constant: Double(index))).at(250))
    }
    constraints.append((ConstraintID(8), (x <= LinearExpression(constant: 3)).at(500)))
    var plan = PlanSolver()
    try plan.add(contentsOf: constraints)
    #expect(plan.boundedVariableCount == 1)
    #expect(plan.value(of: x) == 3)
    // Required x ≥ 7 holds (x ≤ 3 is optional); then required x ≤ 3 cannot.
    try plan.setPriority(ConstraintID(7), .required)
    #expect(plan.boundedVariableCount == 0, "a required bound is the tableau's")
    #expect(plan.value(of: x) == 7)
    let before = plan.value(of: x).bitPattern
    var sparse = SparseSolver()
    try sparse.add(contentsOf: constraints)
    try sparse.setPriority(ConstraintID(7), .required)
    var planError: SolverError?
    do throws(SolverError) { try plan.setPriority(ConstraintID(8), .required) } catch {
      planError = error
    }
    var sparseError: SolverError?
    do throws(SolverError) { try sparse.setPriority(ConstraintID(8), .required) } catch {
      sparseError = error
    }
    #expect(planError != nil && planError == sparseError)
    #expect(plan.value(of: x).bitPattern == before)
    #expect(plan.invariantViolations().isEmpty)
  }

  /// Random systems shaped like layouts bound variables often enough that the plan solver's
  /// random operations exercise them.
  @Test func randomSystemsBoundVariables() throws {
    var bounding = 0
    for seed in UInt64(1)...200 {
      var generator = PlanSystemGenerator(seed: seed)
      var plan = PlanSolver()
      try plan.add(contentsOf: generator.system())
      if plan.boundedVariableCount > 0 { bounding += 1 }
    }
    #expect(bounding >= 40, "\(bounding) of 200 systems bound a variable")
  }
}
