import Cassowary

/// A constraint system in the `.constraints` text format (`docs/constraints-format.md`): the
/// solver-neutral form in which scenes are exported and replayed by other solvers.
public struct ConstraintFile: Sendable {
  /// One statement, with the line it came from (1-based; 0 when made in code).
  public enum Statement: Sendable {
    /// `edit NAME = VALUE @PRIORITY`: an edit variable suggested to a value.
    case edit(name: String, value: Double, priority: Priority, line: Int)
    /// `EXPR RELATION EXPR @PRIORITY`, kept as left side minus right side.
    case constraint(Constraint, line: Int)
  }

  /// Variable names in order of first appearance (the order solutions are printed in).
  public var variables = VariableTable()
  /// The statements in order.
  public var statements: [Statement] = []

  /// An empty system.
  public init() {}

  /// The variable called `name`, made on first use.
  public mutating func variable(_ name: String) -> Variable {
    if let existing = index[name] { return existing }
    let variable = variables.make(name)
    index[name] = variable
    return variable
  }

  var index: [String: Variable] = [:]

  /// The number of constraints (edits excluded).
  public var constraintCount: Int {
    statements.count { if case .constraint = $0 { true } else { false } }
  }
}

// MARK: - Writing

extension ConstraintFile {
  /// The system as text: a comment header, then one statement a line. Numbers are written so
  /// that they read back exactly; a priority of 1000 is left out.
  public func text(header: [String] = []) -> String {
    var output = header.map { "# \($0)\n" }.joined()
    output.reserveCapacity(statements.count * 48)
    for statement in statements {
      switch statement {
      case .edit(let name, let value, let priority, _):
        output += "edit \(name) = \(formatNumber(value)) @\(priorityText(priority))\n"
      case .constraint(let constraint, _):
        output += line(for: constraint) + "\n"
      }
    }
    return output
  }

  private func line(for constraint: Constraint) -> String {
    // Terms with positive coefficients on the left, negative ones (negated) on the right, and
    // the constant on the side that keeps it positive.
    var left: [String] = [], right: [String] = []
    for term in constraint.expression.terms where term.coefficient != 0 {
      let name = variables.name(of: term.variable)
      let magnitude = abs(term.coefficient)
      let text = magnitude == 1 ? name : "\(formatNumber(magnitude)) * \(name)"
      if term.coefficient > 0 { left.append(text) } else { right.append(text) }
    }
    let constant = constraint.expression.constant
    if constant < 0 {
      right.append(formatNumber(-constant))
    } else if constant > 0 {
      left.append(formatNumber(constant))
    }
    var relation = constraint.relation
    if left.isEmpty {
      swap(&left, &right)
      relation =
        switch relation {
        case .lessThanOrEqual: .greaterThanOrEqual
        case .greaterThanOrEqual: .lessThanOrEqual
        case .equal: .equal
        }
    }
    let rightText = right.isEmpty ? "0" : right.joined(separator: " + ")
    var text = "\(left.joined(separator: " + ")) \(relation) \(rightText)"
    if !constraint.priority.isRequired { text += " @\(priorityText(constraint.priority))" }
    return text
  }

  private func priorityText(_ priority: Priority) -> String {
    let value = priority.rawValue
    return value == value.rounded() ? String(Int(value)) : "\(value)"
  }
}
