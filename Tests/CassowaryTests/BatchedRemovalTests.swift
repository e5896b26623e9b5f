import Cassowary
import PropertyBased
import Testing

/// Removals inside a batch are applied as one run before the next other operation: a run that
/// removes at least as many constraints as remain rebuilds the tableau, a shorter one removes
/// constraint by constraint. Either way the result is the one of a fresh solver.
@Suite struct BatchedRemovalTests {
  /// A batch removes a random share of a random system (sometimes most of it, sometimes little),
  /// may put a new constraint under a removed id and move the edit variable, and must end where
  /// a fresh solver of the remaining system ends; every value that moved is reported.
  @Test func batchedRemovalsMatchAFreshSolve() async {
    await propertyCheck(count: propertyCaseCount(200), input: Gen.uint64(in: 0...UInt64.max)) {
      try checkBatchedRemovals(seed: $0)
    }
  }

  /// Seeds that once failed, kept as regression cases. 12272048395771503322: the one-pass
  /// expansion (130547d) expanded a coefficient that had cancelled to a rounding residue, and a
  /// fresh sparse solve of the remaining system ended off the optimum (see
  /// `DefinitionSubstitutionTests.anExpansionThatCancelsToAResidueLeavesNoCells`).
  @Test(arguments: [UInt64(12_272_048_395_771_503_322)])
  func batchedRemovalsOfARegressionSeed(_ seed: UInt64) throws {
    try checkBatchedRemovals(seed: seed)
  }

  func checkBatchedRemovals(seed: UInt64) throws {
    var generator = SystemGenerator(seed: seed)
    let all = generator.system()
    // The stays (last, one per variable) keep the optimum unique; only the others are removed.
    var removable = Array(all.dropLast(generator.variableCount))
    let stays = Array(all.suffix(generator.variableCount))
    let variables = (0..<generator.variableCount).map { Variable($0) }
    let edit = Variable(0)
    var editValue = Double(Int.random(in: -100...100, using: &generator.random))
    for kind in SolverStrategy.exact {
      var solver = kind.makeSolver()
      for (id, constraint) in all { try solver.add(id, constraint) }
      try solver.addEditVariable(edit, priority: 600)
      try solver.suggestValue(edit, editValue)
      var reported = [Double](repeating: 0, count: variables.count)
      solver.forEachChangedValue { reported[Int($0.id)] = $1 }

      var live = removable
      live.shuffle(using: &generator.random)
      let removedCount = Int.random(in: 0...live.count, using: &generator.random)
      let removed = live.prefix(removedCount)
      live.removeFirst(removedCount)
      var replacement: (ConstraintID, Constraint)? = nil
      solver.beginBatch()
      for (id, _) in removed { try solver.remove(id) }
      if let (id, _) = removed.first, Bool.random(using: &generator.random) {
        replacement = (id, generator.requiredConstraint())
        try solver.add(id, replacement!.1)
      }
      if Bool.random(using: &generator.random) {
        editValue = Double(Int.random(in: -100...100, using: &generator.random))
        try solver.suggestValue(edit, editValue)
      }
      solver.endBatch()
      solver.forEachChangedValue { reported[Int($0.id)] = $1 }

      let remaining = live + stays + (replacement.map { [$0] } ?? [])
      var fresh = SparseSolver()
      for (id, constraint) in remaining { try fresh.add(id, constraint) }
      try fresh.addEditVariable(edit, priority: 600)
      try fresh.suggestValue(edit, editValue)
      expectSameValues(
        solver, fresh, variables: variables.count, seed: seed, "\(kind) batched/fresh")
      for variable in variables {
        #expect(
          abs(reported[Int(variable.id)] - solver.value(of: variable)) <= 1e-9,
          "seed \(seed): \(kind): \(variable) moved without being reported")
      }
      #expect(solver.statistics.constraints == remaining.count, "seed \(seed): \(kind)")
      let system = RandomSystem(
        variableCount: variables.count,
        constraints: remaining + [
          (ConstraintID(100_000), (edit == LinearExpression(constant: editValue)).at(600))
        ])
      expectOptimal(solver, system, seed: seed)
      removable = removable.shuffled(using: &generator.random)
    }
  }

  /// A batch that removes a constraint and adds another under the same id (as Auto Layout
  /// recycles ids) applies the removal first: `x == 10` then `x == 20` is no conflict.
  @Test(arguments: SolverStrategy.exact)
  func aRemovedIdCanBeReusedInTheSameBatch(kind: SolverStrategy) throws {
    var solver = kind.makeSolver()
    let x = Variable(0)
    try solver.add(ConstraintID(0), x == 10)
    try solver.add(ConstraintID(1), x >= 0)
    solver.beginBatch()
    try solver.remove(ConstraintID(0))
    #expect(!solver.contains(ConstraintID(0)))
    try solver.add(ConstraintID(0), x == 20)
    solver.endBatch()
    #expect(solver.value(of: x) == 20)
    #expect(solver.statistics.constraints == 2)
  }

  /// A variable that a batch's removals leave unconstrained reads 0 again, and the change is
  /// reported, whether the run rebuilt the tableau (everything removed) or not.
  @Test(arguments: SolverStrategy.exact, [1, 3])
  func aVariableLeftUnconstrainedIsReported(kind: SolverStrategy, kept: Int) throws {
    var solver = kind.makeSolver()
    let x = Variable(0)
    try solver.add(ConstraintID(0), x == 10)
    for index in 0..<kept { try solver.add(ConstraintID(Int32(1 + index)), Variable(1) >= 5) }
    solver.forEachChangedValue { _, _ in }
    solver.beginBatch()
    try solver.remove(ConstraintID(0))
    solver.endBatch()
    var changes: [Variable: Double] = [:]
    solver.forEachChangedValue { changes[$0] = $1 }
    #expect(changes == [x: 0])
    #expect(solver.value(of: x) == 0)
  }
}
