import Cassowary
import Testing

/// Every refused operation throws a described error and leaves the solver exactly as it was.
@Suite struct SolverErrorTests {
  /// A small system with equalities, inequalities, optional constraints and an edit variable.
  func populated(_ kind: SolverStrategy) throws -> (any LayoutSolver, [Variable]) {
    var solver = kind.makeSolver()
    let (x, y, z, w) = (Variable(0), Variable(1), Variable(2), Variable(3))
    try solver.add(ConstraintID(0), x == 10)
    try solver.add(ConstraintID(1), y >= x + 5)
    try solver.add(ConstraintID(2), (y == 40).at(500))
    try solver.add(ConstraintID(3), z <= y - 2)
    try solver.add(ConstraintID(4), (z == 100).at(250))
    try solver.addEditVariable(w, priority: 999)
    try solver.suggestValue(w, 7)
    try solver.add(ConstraintID(5), w + z <= 200)
    return (solver, [x, y, z, w])
  }

  /// Runs `operation`, expects `expected`, and checks nothing observable changed.
  func expectRefusal(
    _ kind: SolverStrategy, _ expected: (SolverError) -> Bool,
    _ operation: (inout any LayoutSolver) throws(SolverError) -> Void
  ) throws {
    var (solver, variables) = try populated(kind)
    let before = solver.snapshot(variables)
    var thrown: SolverError? = nil
    do throws(SolverError) {
      try operation(&solver)
    } catch {
      thrown = error
    }
    let error = try #require(thrown)
    #expect(expected(error), "unexpected error: \(error)")
    #expect(!error.description.isEmpty)
    #expect(solver.snapshot(variables) == before)
    // The solver still works after the refusal.
    try solver.suggestValue(variables[3], 8)
    #expect(solver.value(of: variables[3]) == 8)
  }

  @Test(arguments: SolverStrategy.exact)
  func conflictingRequiredEqualityNamesTheConstraintsItConflictsWith(kind: SolverStrategy) throws {
    try expectRefusal(
      kind,
      { error in
        guard case .unsatisfiable(let id, _, let conflicts) = error else { return false }
        return id == ConstraintID(9) && conflicts.keys.contains(ConstraintID(0))
      }
    ) { solver throws(SolverError) in try solver.add(ConstraintID(9), Variable(0) == 20) }
  }

  @Test(arguments: SolverStrategy.exact)
  func conflictingRequiredInequalityIsRefused(kind: SolverStrategy) throws {
    try expectRefusal(
      kind,
      { error in
        guard case .unsatisfiable(let id, _, let conflicts) = error else { return false }
        return id == ConstraintID(9) && conflicts.keys.contains(ConstraintID(0))
      }
    ) { solver throws(SolverError) in try solver.add(ConstraintID(9), Variable(0) <= 3) }
  }

  @Test(arguments: SolverStrategy.exact)
  func chainOfInequalitiesConflict(kind: SolverStrategy) throws {
    // z <= y - 2 and y >= x + 5 allow z large; z >= y fails against z <= y - 2.
    try expectRefusal(
      kind,
      { error in
        guard case .unsatisfiable(_, _, let conflicts) = error else { return false }
        return conflicts.keys.contains(ConstraintID(3))
      }
    ) { solver throws(SolverError) in
      try solver.add(ConstraintID(9), Variable(2) >= LinearExpression(Variable(1)))
    }
  }

  @Test(arguments: SolverStrategy.exact)
  func duplicateAndUnknownConstraints(kind: SolverStrategy) throws {
    try expectRefusal(kind, { $0 == .duplicateConstraint(ConstraintID(0), Variable(0) == 10) }) {
      solver throws(SolverError) in try solver.add(ConstraintID(0), Variable(0) == 10)
    }
    try expectRefusal(kind, { $0 == .unknownConstraint(ConstraintID(42)) }) {
      solver throws(SolverError) in try solver.remove(ConstraintID(42))
    }
    try expectRefusal(kind, { $0 == .unknownConstraint(ConstraintID(42)) }) {
      solver throws(SolverError) in try solver.setConstant(ConstraintID(42), 1)
    }
    try expectRefusal(kind, { $0 == .unknownConstraint(ConstraintID(42)) }) {
      solver throws(SolverError) in try solver.setPriority(ConstraintID(42), 1)
    }
  }

  @Test(arguments: SolverStrategy.exact)
  func editVariableErrors(kind: SolverStrategy) throws {
    try expectRefusal(kind, { $0 == .duplicateEditVariable(Variable(3)) }) {
      solver throws(SolverError) in try solver.addEditVariable(Variable(3), priority: 500)
    }
    try expectRefusal(kind, { $0 == .unknownEditVariable(Variable(0)) }) {
      solver throws(SolverError) in try solver.suggestValue(Variable(0), 1)
    }
    try expectRefusal(kind, { $0 == .unknownEditVariable(Variable(0)) }) {
      solver throws(SolverError) in try solver.removeEditVariable(Variable(0))
    }
    try expectRefusal(kind, { $0 == .requiredEditVariable(Variable(1)) }) {
      solver throws(SolverError) in try solver.addEditVariable(Variable(1), priority: .required)
    }
  }

  @Test(arguments: SolverStrategy.exact, [Float(0), -5, 1000.5, .nan, .infinity])
  func prioritiesOutsideTheLegalRange(kind: SolverStrategy, raw: Float) throws {
    let isInvalidPriority = { (error: SolverError) -> Bool in
      if case .invalidPriority = error { return true }
      return false
    }
    try expectRefusal(kind, isInvalidPriority) { solver throws(SolverError) in
      try solver.add(ConstraintID(9), (Variable(0) == 1).at(Priority(raw)))
    }
    try expectRefusal(kind, isInvalidPriority) { solver throws(SolverError) in
      try solver.setPriority(ConstraintID(2), Priority(raw))
    }
    try expectRefusal(kind, isInvalidPriority) { solver throws(SolverError) in
      try solver.addEditVariable(Variable(7), priority: Priority(raw))
    }
  }

  @Test(arguments: SolverStrategy.exact)
  func nonFiniteNumbers(kind: SolverStrategy) throws {
    let isNonFinite = { (error: SolverError) -> Bool in
      if case .nonFinite = error { return true }
      return false
    }
    try expectRefusal(kind, isNonFinite) { solver throws(SolverError) in
      try solver.add(ConstraintID(9), LinearExpression([Term(Variable(0), .infinity)]) == 1)
    }
    try expectRefusal(kind, isNonFinite) { solver throws(SolverError) in
      try solver.add(ConstraintID(9), Variable(0) == LinearExpression(constant: .nan))
    }
    try expectRefusal(kind, isNonFinite) { solver throws(SolverError) in
      try solver.suggestValue(Variable(3), .nan)
    }
    try expectRefusal(kind, isNonFinite) { solver throws(SolverError) in
      try solver.setConstant(ConstraintID(0), -.infinity)
    }
  }

  @Test(arguments: SolverStrategy.exact)
  func requiredInequalityConstantConflictIsRolledBack(kind: SolverStrategy) throws {
    // y <= 50 and z <= y - 2 cap z at 48; z >= 0 is fine, z >= 250 is not.
    var (solver, variables) = try populated(kind)
    try solver.add(ConstraintID(6), Variable(1) <= 50)
    try solver.add(ConstraintID(7), Variable(2) >= 0)
    let before = solver.snapshot(variables)
    var thrown: SolverError? = nil
    do { try solver.setConstant(ConstraintID(7), -250) } catch { thrown = error }
    guard case .unsatisfiable(let id, let constraint, let conflicts) = try #require(thrown) else {
      Issue.record("expected unsatisfiable, got \(String(describing: thrown))")
      return
    }
    #expect(id == ConstraintID(7))
    #expect(constraint.expression.constant == -250)
    #expect(conflicts.keys.contains(ConstraintID(6)) || conflicts.keys.contains(ConstraintID(3)))
    #expect(solver.snapshot(variables) == before)
    #expect(solver.constraint(ConstraintID(7))?.expression.constant == 0)
    try solver.setConstant(ConstraintID(7), -45)
    #expect(solver.value(of: variables[2]) == 45)
  }

  @Test(arguments: SolverStrategy.exact)
  func requiredEqualityConstantConflictIsRolledBack(kind: SolverStrategy) throws {
    var (solver, variables) = try populated(kind)
    try solver.add(ConstraintID(6), Variable(0) >= 0)
    let before = solver.snapshot(variables)
    #expect(throws: SolverError.self) { try solver.setConstant(ConstraintID(0), 20) }
    #expect(solver.snapshot(variables) == before)
    #expect(solver.value(of: variables[0]) == 10)
    // A legal change still works: x == 10 becomes x == 12 (constant −10 → −12).
    try solver.setConstant(ConstraintID(0), -12)
    #expect(solver.value(of: variables[0]) == 12)
    #expect(solver.value(of: variables[1]) == 40)
  }

  @Test(arguments: SolverStrategy.exact)
  func optionalToRequiredThatConflictsIsRolledBack(kind: SolverStrategy) throws {
    // z == 100 @250 cannot hold as required (z <= y - 2, y pulled to 40).
    var (solver, variables) = try populated(kind)
    try solver.add(ConstraintID(6), Variable(1) <= 50)
    let before = solver.snapshot(variables)
    #expect(throws: SolverError.self) { try solver.setPriority(ConstraintID(4), .required) }
    #expect(solver.snapshot(variables) == before)
    #expect(solver.constraint(ConstraintID(4))?.priority == 250)
    // Required to optional and back works.
    try solver.setPriority(ConstraintID(0), 999)
    try solver.setPriority(ConstraintID(0), .required)
    #expect(solver.value(of: variables[0]) == 10)
  }

  /// The budget bounds the matrix while it grows: its storage never passes the budget, and the
  /// refusal comes while it still holds less (the growth that was refused would have needed
  /// the old and the new matrix at once).
  @Test func denseSolverStaysWithinItsBudgetWhileGrowing() throws {
    let budget = 256 * 1024
    var solver = DenseSolver(memoryBudget: budget)
    var refused = false
    for index in 0..<2000 {
      do {
        // A chain: each constraint brings a new variable and a new row.
        let constraint =
          index == 0
          ? Variable(0) == LinearExpression(constant: 1)
          : Variable(index) - Variable(index - 1) == LinearExpression(constant: 1)
        try solver.add(ConstraintID(index), constraint)
      } catch {
        refused = true
        break
      }
      #expect(solver.statistics.tableauBytes <= budget)
    }
    #expect(refused)
  }

  @Test func denseSolverRefusesToPassItsMemoryBudget() throws {
    var solver = DenseSolver(memoryBudget: 64 * 1024)
    var added = 0
    var refusal: SolverError? = nil
    var before = ""
    for index in 0..<1000 {
      before = solver.snapshot([])
      do {
        try solver.add(
          ConstraintID(index), Variable(index) == LinearExpression(constant: Double(index)))
        added += 1
      } catch {
        refusal = error
        break
      }
    }
    let error = try #require(refusal)
    guard case .memoryBudgetExceeded(_, _, let bytes, let budget) = error else {
      Issue.record("unexpected error \(error)")
      return
    }
    #expect(bytes > budget && budget == 64 * 1024)
    #expect(error.description.contains("memory budget"))
    #expect(solver.snapshot([]) == before)
    #expect(added > 10)
  }
}
