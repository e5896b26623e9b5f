import Cassowary

/// Why a `.constraints` file has no solution: a required constraint that conflicts with others.
public struct UnsatisfiableFileError: Error, CustomStringConvertible {
  /// The file as named on the command line.
  public var file: String
  /// The line of the constraint that could not be added.
  public var line: Int
  /// The lines of the required constraints it conflicts with.
  public var conflictingLines: [Int]
  /// Whether the constraint is false whatever its variables' values (no lines conflict then).
  public var isFalseOnItsOwn = false

  public var description: String {
    guard !conflictingLines.isEmpty else {
      return "\(file):\(line):1: error: unsatisfiable required constraint; "
        + (isFalseOnItsOwn
          ? "it is false on its own"
          // A solver that names no conflicts (kiwi).
          : "it conflicts with the required constraints before it")
    }
    let others =
      "line" + (conflictingLines.count == 1 ? " " : "s ")
      + conflictingLines.map(String.init).joined(separator: ", ")
    return
      "\(file):\(line):1: error: unsatisfiable required constraint; it conflicts with \(others)"
  }
}

extension ConstraintFile {
  /// Solves the system with `solver` (constraints in one batch, then every edit suggested) and
  /// returns each variable's value, in order of first appearance. With `including`, only the
  /// constraints whose statement index it accepts are added.
  public func solve<Solver: LayoutSolver>(
    with solver: inout Solver, file: String, including: (Int) -> Bool = { _ in true }
  ) throws -> [Double] {
    var lines: [Int] = []
    var constraints: [(ConstraintID, Constraint)] = []
    for (index, statement) in statements.enumerated() where including(index) {
      guard case .constraint(let constraint, let line) = statement else { continue }
      constraints.append((ConstraintID(lines.count), constraint))
      lines.append(line)
    }
    solver.beginBatch()
    defer { solver.endBatch() }
    do throws(SolverError) {
      try solver.add(contentsOf: constraints)
    } catch {
      if case .unsatisfiable(let id, let constraint, let conflicts) = error {
        throw UnsatisfiableFileError(
          file: file, line: lines[Int(id.rawValue)],
          conflictingLines: conflicts.keys.sorted().map { lines[Int($0.rawValue)] },
          isFalseOnItsOwn: Self.isFalseOnItsOwn(constraint))
      }
      throw error
    }
    for statement in statements {
      guard case .edit(let name, let value, let priority, _) = statement, let variable = index[name]
      else { continue }
      try solver.addEditVariable(variable, priority: priority)
      try solver.suggestValue(variable, value)
    }
    solver.endBatch()
    solver.beginBatch()
    return (0..<variables.count).map { solver.value(of: Variable($0)) }
  }

  /// Whether `constraint` holds for no values: every variable's coefficients cancel, and the
  /// constant alone fails the relation.
  static func isFalseOnItsOwn(_ constraint: Constraint) -> Bool {
    var sums: [Variable: Double] = [:]
    for term in constraint.expression.terms { sums[term.variable, default: 0] += term.coefficient }
    guard sums.values.allSatisfy({ $0 == 0 }) else { return false }
    let constant = constraint.expression.constant
    switch constraint.relation {
    case .equal: return constant != 0
    case .lessThanOrEqual: return constant > 0
    case .greaterThanOrEqual: return constant < 0
    }
  }

  /// A solution in the spec's output form: `NAME = VALUE` a line, in order of first appearance.
  public func solutionText(_ values: [Double]) -> String {
    var output = ""
    output.reserveCapacity(values.count * 24)
    for (index, value) in values.enumerated() {
      output += "\(variables.names[index]) = \(value == 0 ? "0" : "\(value)")\n"
    }
    return output
  }
}
