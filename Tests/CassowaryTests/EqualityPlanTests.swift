import Cassowary
import Testing

@Suite("An equality plan evaluates what the equalities determine, block by block")
struct EqualityPlanTests {
  /// `Σ terms + constant`, for writing equalities as `expression == 0`.
  func expression(_ terms: [(Variable, Double)], _ constant: Double = 0) -> LinearExpression {
    LinearExpression(terms.map { Term($0.0, $0.1) }, constant: constant)
  }

  @Test func aChainIsEvaluatedInDependencyOrderWhateverTheOrderWritten() throws {
    var names = VariableTable()
    let width = names.make("width"), left = names.make("left"), right = names.make("right")
    let plan = try EqualityPlan(
      equalities: [
        expression([(right, 1), (left, -1), (width, -1)]),  // right == left + width
        expression([(left, 1)], -8),  // left == 8
      ],
      variableCount: names.count, known: [width])
    #expect(plan.determinedCount == 2)
    #expect(plan.blockCount == 2 && plan.largestBlock == 1)
    #expect(plan.step(0).variable == left && plan.step(1).variable == right)
    var values = [100.0, 0, 0]
    plan.evaluate(&values)
    #expect(values == [100, 8, 108])
  }

  @Test func aGridSplitIsOneBlockSolvedAtOnce() throws {
    // a + b == total - 10 and a == b: neither equality fixes a variable on its own.
    var names = VariableTable()
    let total = names.make("total"), a = names.make("a"), b = names.make("b")
    let after = names.make("after")
    let plan = try EqualityPlan(
      equalities: [
        expression([(after, 1), (b, -1)], -1),  // after == b + 1
        expression([(a, 1), (b, 1), (total, -1)], 10),
        expression([(a, 1), (b, -1)]),
      ],
      variableCount: names.count, known: [total])
    #expect(plan.blockCount == 2 && plan.largestBlock == 2)
    #expect(plan.steps(ofBlock: 1) == 2..<3 && plan.step(2).variable == after)
    var values = [110.0, 0, 0, 0]
    plan.evaluate(&values)
    #expect(values == [110, 50, 50, 51])
  }

  @Test func aMatchingTheFirstPassMissesIsFoundByAnAugmentingPath() throws {
    // Greedily, x + y == 3 takes x, and then x == 1 has nothing left.
    var names = VariableTable()
    let x = names.make("x"), y = names.make("y")
    let plan = try EqualityPlan(
      equalities: [expression([(x, 1), (y, 1)], -3), expression([(x, 1)], -1)],
      variableCount: names.count)
    #expect(plan.unmatchedEqualities.isEmpty && plan.freeVariables.isEmpty)
    var values = [0.0, 0]
    plan.evaluate(&values)
    #expect(values == [1, 2])
  }

  @Test func freeVariablesAndLeftOverEqualitiesAreReported() throws {
    var names = VariableTable()
    let x = names.make("x"), y = names.make("y"), z = names.make("z")
    let plan = try EqualityPlan(
      equalities: [
        expression([(x, 1), (y, -1)]),  // x == y: one of them stays free
        expression([(z, 1)], -2),
        expression([(z, 2)], -4),  // implied by the one before
        expression([(x, 1), (x, -1)], -1),  // mentions x, but its coefficients cancel
      ],
      variableCount: names.count)
    #expect(plan.unmatchedEqualities == [2, 3])
    #expect(plan.freeVariables == [y])
    // The free variable's value is read; what depends on it follows.
    var values = [0.0, 7, 0]
    plan.evaluate(&values)
    #expect(values == [7, 7, 2])
  }

  @Test func aSolverMustSeeWhatItsConstraintsReachUpstreamAndNothingElse() throws {
    var names = VariableTable()
    let a = names.make("a"), b = names.make("b"), c = names.make("c")
    let d = names.make("d"), e = names.make("e"), f = names.make("f")
    let plan = try EqualityPlan(
      equalities: [
        expression([(d, 1), (a, -1)], -1),  // d == a + 1: downstream of a, reached by nothing
        expression([(c, 1), (b, -1)], -1),  // c == b + 1
        expression([(a, 1)], -5),  // a == 5
        expression([(b, 1), (a, -2)]),  // b == 2a
        expression([(e, 1), (f, -1)]),  // e == f, with f free
      ],
      variableCount: names.count)
    let reached = plan.stepsReached(from: [expression([(c, 1)], -20)])
    #expect(reached.map { plan.step($0).variable } == [a, b, c])
    #expect(plan.stepsReached(from: [expression([(f, 1)])]).isEmpty)
    #expect(plan.stepsReached(from: [expression([(e, 1), (d, 1)])]).count == 3)  // a, d, e
  }

  @Test func dependentEqualitiesInABlockAreRefused() {
    var names = VariableTable()
    let x = names.make("x"), y = names.make("y")
    #expect(throws: EqualityPlanError.singularBlock(equalities: [0, 1])) {
      try EqualityPlan(
        equalities: [expression([(x, 1), (y, 1)], -1), expression([(x, 2), (y, 2)], -2)],
        variableCount: names.count)
    }
  }

  /// Random systems that equalities determine: blocks of one to four new variables, each of
  /// whose equalities mentions every variable of its block (a diagonally dominant matrix, so
  /// never singular) and a few variables made before it; written in a shuffled order, with
  /// the variables numbered in a shuffled order too. The sparse solver must agree.
  @Test(arguments: 0..<40)
  func randomDeterminedSystemsMatchTheSparseSolver(seed: Int) throws {
    var random = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9 &+ 1)
    let knownCount = Int.random(in: 1...3, using: &random)
    let unknownCount = Int.random(in: 1...60, using: &random)
    let count = knownCount + unknownCount
    let ids = (0..<count).shuffled(using: &random).map(Variable.init)
    var equalities: [LinearExpression] = []
    var made = knownCount
    while made < count {
      let size = min(Int.random(in: 1...4, using: &random), count - made)
      let block = Array(ids[made..<made + size])
      for row in 0..<size {
        var terms: [(Variable, Double)] = []
        for (column, variable) in block.enumerated() {
          let coefficient =
            column == row
            ? 6 + Double.random(in: 0...2, using: &random).rounded()
            : Double.random(in: -1...1, using: &random).rounded()
          terms.append((variable, coefficient))
        }
        for _ in 0..<Int.random(in: 1...2, using: &random) {
          let earlier = ids[Int.random(in: 0..<made, using: &random)]
          terms.append((earlier, Double.random(in: -2...2, using: &random).rounded()))
        }
        equalities.append(expression(terms, Double(Int.random(in: -50...50, using: &random))))
      }
      made += size
    }
    equalities.shuffle(using: &random)
    let known = Array(ids[0..<knownCount])
    let plan = try EqualityPlan(equalities: equalities, variableCount: count, known: known)
    #expect(plan.freeVariables.isEmpty && plan.unmatchedEqualities.isEmpty)
    var values = [Double](repeating: 0, count: count)
    var solver = SparseSolver()
    for (index, equality) in equalities.enumerated() {
      try solver.add(ConstraintID(index), Constraint(equality, .equal))
    }
    for variable in known {
      let value = Double(Int.random(in: -100...100, using: &random))
      values[Int(variable.id)] = value
      try solver.addEditVariable(variable, priority: Priority(500))
      try solver.suggestValue(variable, value)
    }
    plan.evaluate(&values)
    for id in 0..<count {
      let expected = solver.value(of: Variable(id))
      #expect(
        abs(values[id] - expected) <= 1e-9 * max(1, abs(expected)),
        "seed \(seed): v\(id) is \(values[id]) by blocks, \(expected) by the sparse solver")
    }
  }
}
