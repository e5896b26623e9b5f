import Cassowary

extension ConstraintFile {
  /// Parses `text` (the contents of `file`) and solves it with an ``EqualityPlan`` alone, no
  /// solver: each edit variable at its suggested value, every other variable fixed by the
  /// required equalities, block by block. `bench solve --by-blocks` prints it; it measures what
  /// the determined part of a layout costs without a tableau.
  ///
  /// A file the plan cannot decide on its own is refused with status 3 (which says nothing
  /// about the file's satisfiability): a constraint that is not a required equality, a variable
  /// no required equality fixes, a required equality left over once every variable is fixed
  /// (implied by the others, or in conflict with them), or dependent equalities. A malformed
  /// file is status 2, as with a solver.
  ///
  /// - Complexity: O(*t*) for *t* terms when the equalities can be matched in the order they
  ///   are written (see ``EqualityPlan/init(equalities:variableCount:known:)``).
  public static func solveByBlocks(text: String, file: String) -> SolveResult {
    let system: ConstraintFile
    do throws(ConstraintFileError) {
      system = try ConstraintFile(parsing: text, file: file)
    } catch {
      return SolveResult(output: "", error: error.description, status: 2)
    }
    func refusal(_ line: Int?, _ message: String) -> SolveResult {
      let place = line.map { "\(file):\($0):1" } ?? file
      return SolveResult(
        output: "",
        error: "\(place): error: \(message) (--by-blocks solves only files whose "
          + "required equalities fix every variable but the edited ones)",
        status: 3)
    }
    var values = [Double](repeating: 0, count: system.variables.count)
    var known: [Variable] = []
    var equalities: [LinearExpression] = []
    var lines: [Int] = []
    for statement in system.statements {
      switch statement {
      case .edit(let name, let value, _, _):
        guard let variable = system.index[name] else { continue }
        values[Int(variable.id)] = value
        known.append(variable)
      case .constraint(let constraint, let line):
        guard constraint.relation == .equal, constraint.priority.isRequired else {
          return refusal(line, "the constraint is not a required equality")
        }
        equalities.append(constraint.expression)
        lines.append(line)
      }
    }
    let plan: EqualityPlan
    do throws(EqualityPlanError) {
      plan = try EqualityPlan(
        equalities: equalities, variableCount: system.variables.count, known: known)
    } catch {
      switch error {
      case .singularBlock(let dependent):
        let others = dependent.dropFirst().map { String(lines[$0]) }.joined(separator: ", ")
        return refusal(
          lines[dependent[0]], "the required equality is dependent on those on lines \(others)")
      }
    }
    if let first = plan.freeVariables.first {
      return refusal(
        nil,
        "\(plan.freeVariables.count) variable(s) are not fixed by a required equality, "
          + "\(system.variables.name(of: first)) first")
    }
    if let first = plan.unmatchedEqualities.first {
      return refusal(
        lines[first], "the required equality is implied by the others or conflicts with them")
    }
    plan.evaluate(&values)
    if let index = values.firstIndex(where: { !$0.isFinite }) {
      return SolveResult(
        output: "",
        error: system.overflowMessage(variable: index, value: values[index], file: file),
        status: 2)
    }
    return SolveResult(output: system.solutionText(values), error: "", status: 0)
  }
}
