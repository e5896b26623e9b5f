import Cassowary

extension ConstraintFile {
  /// Parses `text` (the contents of `file`) and solves it in two parts: what the required
  /// equalities determine, by an ``EqualityPlan`` (block by block, no tableau), and the rest by
  /// the sparse solver. `bench solve --by-blocks` prints it; it measures what a first layout
  /// costs when the simplex sees only the part of the system where constraints compete.
  ///
  /// The plan matches the required equalities to the variables they determine, the edit
  /// variables excepted (an edit is an optional constraint, so its variable is the solver's to
  /// decide). The sparse solver gets the constraints the plan does not account for
  /// (inequalities, optional constraints, required equalities left over once every variable is
  /// matched), the edits, and the determined equalities those reach upstream, in dependency
  /// order. Every
  /// other determined equality fixes variables that nothing the solver sees mentions, so it
  /// cannot change the optimum or conflict: its variables are evaluated from the solver's values
  /// afterwards. The answer is the sparse solver's wherever the optimum is unique.
  ///
  /// Exit statuses as ``solve(text:file:solver:denseMemoryBudget:)``; required equalities that
  /// the structure matches but whose coefficients are dependent are refused with status 3 (the
  /// plan cannot order them), naming their lines.
  public static func solveByBlocks(text: String, file: String) -> SolveResult {
    let system: ConstraintFile
    do throws(ConstraintFileError) {
      system = try ConstraintFile(parsing: text, file: file)
    } catch {
      return SolveResult(output: "", error: error.description, status: 2)
    }
    var equalities: [(constraint: Constraint, line: Int)] = []
    var rest: [(constraint: Constraint, line: Int)] = []
    for statement in system.statements {
      guard case .constraint(let constraint, let line) = statement else { continue }
      if constraint.relation == .equal && constraint.priority.isRequired {
        equalities.append((constraint, line))
      } else {
        rest.append((constraint, line))
      }
    }
    // The edit variables are the solver's to decide (an edit is an optional constraint): the
    // plan matches no equality to them and reads their values from the solver's answer.
    let edited = system.statements.compactMap { statement -> Variable? in
      guard case .edit(let name, _, _, _) = statement else { return nil }
      return system.index[name]
    }
    let plan: EqualityPlan
    do throws(EqualityPlanError) {
      plan = try EqualityPlan(
        equalities: equalities.map(\.constraint.expression), variableCount: system.variables.count,
        known: edited)
    } catch {
      switch error {
      case .singularBlock(let dependent):
        let lines = dependent.map { String(equalities[$0].line) }.joined(separator: ", ")
        return SolveResult(
          output: "",
          error: "\(file):\(equalities[dependent[0]].line):1: error: the required equalities on "
            + "lines \(lines) are dependent (--by-blocks cannot order them; solve the file "
            + "without it)",
          status: 3)
      }
    }
    for index in plan.unmatchedEqualities { rest.append(equalities[index]) }
    // The solver's constraints go in the file's order, which is the order the sparse solver
    // is measured in (a dependency order, for exported scenes).
    let lastLine = max(equalities.last?.line ?? 0, rest.map(\.line).max() ?? 0)
    var given = [Bool](repeating: false, count: lastLine + 1)
    for constraint in rest { given[constraint.line] = true }
    for step in plan.stepsReached(from: rest.map(\.constraint.expression)) {
      given[equalities[plan.step(step).equality].line] = true
    }
    var solver = SparseSolver()
    var lines: [Int] = []
    let values: [Double]
    do {
      solver.beginBatch()
      for statement in system.statements {
        guard case .constraint(let constraint, let line) = statement, given[line] else { continue }
        try system.add((constraint, line), to: &solver, lines: &lines, file: file)
      }
      for statement in system.statements {
        guard case .edit(let name, let value, let priority, _) = statement,
          let variable = system.index[name]
        else { continue }
        try solver.addEditVariable(variable, priority: priority)
        try solver.suggestValue(variable, value)
      }
      solver.endBatch()
      var solved = (0..<system.variables.count).map { solver.value(of: Variable($0)) }
      plan.evaluate(&solved)
      values = solved
    } catch let error as UnsatisfiableFileError {
      return SolveResult(output: "", error: error.description, status: 1)
    } catch {
      return SolveResult(output: "", error: "\(file): error: \(error)", status: 1)
    }
    if let index = values.firstIndex(where: { !$0.isFinite }) {
      return SolveResult(
        output: "",
        error: system.overflowMessage(variable: index, value: values[index], file: file),
        status: 2)
    }
    return SolveResult(output: system.solutionText(values), error: "", status: 0)
  }

  /// Adds `constraint` (from `line`) to `solver` under the next id, reporting an unsatisfiable
  /// one by line as `bench solve` does.
  private func add(
    _ constraint: (constraint: Constraint, line: Int), to solver: inout SparseSolver,
    lines: inout [Int], file: String
  ) throws {
    let id = ConstraintID(lines.count)
    lines.append(constraint.line)
    do throws(SolverError) {
      try solver.add(id, constraint.constraint)
    } catch {
      guard case .unsatisfiable(_, _, let conflicts) = error else { throw error }
      throw UnsatisfiableFileError(
        file: file, line: constraint.line,
        conflictingLines: conflicts.keys.sorted().map { lines[Int($0.rawValue)] },
        isFalseOnItsOwn: Self.isFalseOnItsOwn(constraint.constraint))
    }
  }
}
