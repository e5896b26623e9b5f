import Cassowary
import Testing

/// Optional constraints over determined variables, reduced onto the tableau's variables so
/// that what determines those variables stays in the plan.
@Suite struct ReducedConstraintTests {
  /// A chain of edges off a constant, a free width held at 0 at a low priority, and a wish
  /// (at 500) that the width reach 1,000 past the chain's middle edge.
  struct Chain {
    var names = VariableTable()
    var edges: [Variable] = []
    var width = Variable(0)
    var constraints: [(ConstraintID, Constraint)] = []
    let wish = ConstraintID(1_000)

    init(count: Int = 200) {
      edges = (0...count).map { names.make("x\($0)") }
      width = names.make("w")
      constraints = [(ConstraintID(0), edges[0] == LinearExpression(constant: 10))]
      for index in 1...count {
        constraints.append(
          (ConstraintID(index), edges[index] == edges[index - 1] + LinearExpression(constant: 8)))
      }
      constraints.append(
        (ConstraintID(count + 1), (width == LinearExpression(constant: 0)).at(100)))
      constraints.append(
        (wish, (edges[count / 2] + width >= LinearExpression(constant: 1_000)).at(500)))
    }

    var variables: [Variable] { edges + [width] }
  }

  func expectSame(
    _ plan: PlanSolver, _ sparse: SparseSolver, _ chain: Chain, _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for variable in chain.variables {
      let (x, y) = (plan.value(of: variable), sparse.value(of: variable))
      #expect(
        abs(x - y) <= 1e-9 * max(1, abs(y)),
        "\(what): \(chain.names.name(of: variable)) is \(x), sparse's \(y)",
        sourceLocation: sourceLocation)
    }
    #expect(plan.invariantViolations().isEmpty, "\(what)", sourceLocation: sourceLocation)
  }

  @Test func anOptionalConstraintOverADeterminedEdgeIsReduced() throws {
    let chain = Chain()
    var plan = PlanSolver()
    var sparse = SparseSolver()
    try plan.add(contentsOf: chain.constraints)
    try sparse.add(contentsOf: chain.constraints)
    #expect(plan.reducedConstraintCount == 1)
    // Only the width's two rows are in the tableau: the chain stays determined.
    #expect(plan.statistics.constraints == chain.constraints.count)
    #expect(plan.statistics.rows <= 4, "\(plan.statistics)")
    #expect(plan.value(of: chain.width) == 1_000 - 810)
    expectSame(plan, sparse, chain, "after the build")
    // The constraint reads back as written.
    #expect(plan.constraint(chain.wish) == chain.constraints.last!.1)

    // Its constant changes in the tableau, as written.
    try plan.setConstant(chain.wish, -1_200)
    try sparse.setConstant(chain.wish, -1_200)
    #expect(plan.reducedConstraintCount == 1)
    #expect(plan.constraint(chain.wish)?.expression.constant == -1_200)
    expectSame(plan, sparse, chain, "after its constant changed")

    // A constant upstream of the middle edge changes what the row was written out with: its
    // constant follows, and the chain stays determined.
    try plan.setConstant(ConstraintID(0), -50)
    try sparse.setConstant(ConstraintID(0), -50)
    #expect(plan.reducedConstraintCount == 1)
    #expect(plan.statistics.rows <= 4, "\(plan.statistics)")
    #expect(plan.constraint(chain.wish)?.expression.constant == -1_200)
    expectSame(plan, sparse, chain, "after the chain moved")
    var full = plan
    try full.solveFromScratch()
    #expect(full.reducedConstraintCount == 1, "a solve from scratch reduces it again")
    expectSame(full, sparse, chain, "from scratch")
  }

  /// A constant downstream of the middle edge does not feed the row: it changes in place.
  @Test func aConstantPastTheReducedEdgeChangesInPlace() throws {
    let chain = Chain()
    var plan = PlanSolver()
    var sparse = SparseSolver()
    try plan.add(contentsOf: chain.constraints)
    try sparse.add(contentsOf: chain.constraints)
    try plan.setConstant(ConstraintID(150), -20)
    try sparse.setConstant(ConstraintID(150), -20)
    #expect(plan.reducedConstraintCount == 1)
    expectSame(plan, sparse, chain, "after a constant past the edge changed")
    // Removing the row itself leaves the tableau the width alone.
    try plan.remove(chain.wish)
    try sparse.remove(chain.wish)
    #expect(plan.reducedConstraintCount == 0)
    #expect(plan.constraint(chain.wish) == nil)
    expectSame(plan, sparse, chain, "after the row was removed")
  }

  /// Raised to required where it cannot hold, the row is refused as written would be, naming
  /// the same constraints, and the solver is left bit for bit as it was.
  @Test func aRefusedRaiseLeavesTheReductionAsItWas() throws {
    var chain = Chain()
    let cap = ConstraintID(2_000)
    chain.constraints.append((cap, chain.width <= LinearExpression(constant: 100)))
    var plan = PlanSolver()
    var sparse = SparseSolver()
    try plan.add(contentsOf: chain.constraints)
    try sparse.add(contentsOf: chain.constraints)
    #expect(plan.reducedConstraintCount == 1)
    let before = chain.variables.map { plan.value(of: $0).bitPattern }
    let statistics = plan.statistics
    #expect(throws: SolverError.self) { try plan.setPriority(chain.wish, .required) }
    var sparseError: SolverError?
    do throws(SolverError) { try sparse.setPriority(chain.wish, .required) } catch {
      sparseError = error
    }
    var planError: SolverError?
    do throws(SolverError) { try plan.setPriority(chain.wish, .required) } catch {
      planError = error
    }
    #expect(planError != nil && planError == sparseError)
    #expect(chain.variables.map { plan.value(of: $0).bitPattern } == before)
    #expect(plan.statistics == statistics)
    #expect(plan.reducedConstraintCount == 1)
    expectSame(plan, sparse, chain, "after the refusal")
  }

  /// Removing an equality a row was written out through gives the row back: reduced again
  /// through the determined part as it is now where it still mentions a determined variable,
  /// as written where it does not.
  @Test func removingAFeedingEqualityGivesTheRowBack() throws {
    var chain = Chain()
    // A second row past the middle edge, over the width too: once the middle edge's equality
    // goes, the two rows decide the edge (1,000: the wish, then the width at 0).
    let second = ConstraintID(3_000)
    chain.constraints.append(
      (second, (chain.edges[150] - chain.width == LinearExpression(constant: 500)).at(50)))
    var plan = PlanSolver()
    var sparse = SparseSolver()
    try plan.add(contentsOf: chain.constraints)
    try sparse.add(contentsOf: chain.constraints)
    #expect(plan.reducedConstraintCount == 2)
    try plan.remove(ConstraintID(100))
    try sparse.remove(ConstraintID(100))
    // The wish now mentions only free variables (the middle edge and the width) and goes back
    // as written; the second row is written out again through the edges below the middle.
    #expect(plan.reducedConstraintCount == 1)
    #expect(plan.constraint(second) == sparse.constraint(second))
    #expect(plan.constraint(chain.wish) == sparse.constraint(chain.wish))
    expectSame(plan, sparse, chain, "after the equality went")
  }

  /// Random systems shaped like layouts reduce optional constraints often enough that the
  /// plan solver's property tests exercise the reduction.
  @Test func randomSystemsReduceOptionalConstraints() throws {
    var reducing = 0
    for seed in UInt64(1)...200 {
      var generator = PlanSystemGenerator(seed: seed)
      var plan = PlanSolver()
      try plan.add(contentsOf: generator.system())
      if plan.reducedConstraintCount > 0 { reducing += 1 }
    }
    #expect(reducing >= 40, "\(reducing) of 200 systems reduce a constraint")
  }
}
