import Cassowary

extension ConstraintFile {
  /// Parses `text` (the contents of `file`) and solves it in two parts: what the required
  /// equalities determine, by an ``EqualityPlan`` (block by block, no tableau), and the rest by
  /// the sparse solver. `bench solve --by-blocks` prints it; it measures what a first layout
  /// costs when the simplex sees only the part of the system where constraints compete.
  ///
  /// The plan matches the required equalities to the variables they determine, the edit
  /// variables excepted (an edit is an optional constraint, so its variable is the solver's to
  /// decide). The sparse solver gets, in file order, the constraints the plan does not account
  /// for (inequalities, optional constraints, required equalities left over once every variable
  /// is matched), the edits, and the determined equalities those reach upstream. Every other
  /// determined equality fixes variables that nothing the solver sees mentions, so it cannot
  /// change the optimum or conflict: its variables are evaluated from the solver's values
  /// afterwards. The answer is the sparse solver's wherever the optimum is unique.
  ///
  /// Exit statuses as ``solve(text:file:solver:denseMemoryBudget:)``; required equalities that
  /// the structure matches but whose coefficients are dependent are refused with status 3 (the
  /// plan cannot order them), naming their lines.
  public static func solveByBlocks(text: String, file: String) -> SolveResult {
    solving(text: text, file: file) { system in
      // Statement indices: the required equalities, and everything else.
      var equalities: [Int] = []
      var rest: [Int] = []
      var edited: [Variable] = []
      for (index, statement) in system.statements.enumerated() {
        switch statement {
        case .constraint(let constraint, _):
          if constraint.relation == .equal && constraint.priority.isRequired {
            equalities.append(index)
          } else {
            rest.append(index)
          }
        case .edit(let name, _, _, _):
          // The solver's to decide: the plan matches no equality to an edited variable and
          // reads its value from the solver's answer.
          if let variable = system.index[name] { edited.append(variable) }
        }
      }
      let plan: EqualityPlan
      do throws(EqualityPlanError) {
        plan = try EqualityPlan(
          equalities: equalities.map { system.constraint(at: $0).expression },
          variableCount: system.variables.count, known: edited)
      } catch {
        switch error {
        case .singularBlock(let dependent):
          let lines = dependent.map { system.line(at: equalities[$0]) }
          throw FileRefusal(
            description: "\(file):\(lines[0]):1: error: the required equalities on lines "
              + "\(lines.map(String.init).joined(separator: ", ")) are dependent (--by-blocks "
              + "cannot order them; solve the file without it)")
        }
      }
      rest += plan.unmatchedEqualities.map { equalities[$0] }
      var given = [Bool](repeating: false, count: system.statements.count)
      for index in rest { given[index] = true }
      let reached = plan.stepsReached(from: rest.map { system.constraint(at: $0).expression })
      for step in reached { given[equalities[plan.step(step).equality]] = true }
      var solver = SparseSolver()
      var values = try system.solve(with: &solver, file: file) { given[$0] }
      plan.evaluate(&values)
      return values
    }
  }

  /// The constraint of the statement at `index`, which must be one.
  func constraint(at index: Int) -> Constraint {
    guard case .constraint(let constraint, _) = statements[index] else {
      preconditionFailure("statement \(index) is not a constraint")
    }
    return constraint
  }

  /// The line of the statement at `index`.
  func line(at index: Int) -> Int {
    switch statements[index] {
    case .constraint(_, let line), .edit(_, _, _, let line): line
    }
  }
}
