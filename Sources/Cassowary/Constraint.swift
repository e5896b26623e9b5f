/// How the two sides of a constraint compare.
public enum Relation: Hashable, Sendable, CustomStringConvertible {
  case equal
  case lessThanOrEqual
  case greaterThanOrEqual

  public var description: String {
    switch self {
    case .equal: "=="
    case .lessThanOrEqual: "<="
    case .greaterThanOrEqual: ">="
    }
  }
}

/// A constraint's identity in a solver: a dense integer chosen by the client.
///
/// Solvers index their constraint tables by it, so keep ids small and reuse freed ones.
public struct ConstraintID: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The dense id.
  public var rawValue: Int32

  /// The constraint id `rawValue`, which must not be negative.
  public init(_ rawValue: Int32) {
    precondition(rawValue >= 0, "constraint ids are not negative")
    self.rawValue = rawValue
  }

  /// The constraint id `rawValue`.
  public init(_ rawValue: Int) { self.init(Int32(rawValue)) }

  public static func < (lhs: ConstraintID, rhs: ConstraintID) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  public var description: String { "c\(rawValue)" }
}

/// A linear constraint `expression relation 0` with an Auto Layout priority.
///
/// Write it with the relation operators: `try solver.add(ConstraintID(0), x + 8 == y)` or
/// `Constraint(x + 8, .lessThanOrEqual, y, priority: 250)`.
public struct Constraint: Hashable, Sendable {
  /// The left side minus the right side.
  public var expression: LinearExpression
  /// How the expression compares with zero.
  public var relation: Relation
  /// How strongly the constraint should hold.
  public var priority: Priority
  /// A name used in error messages and dumps (for example the source line it came from).
  public var label: String?

  /// The constraint `expression relation 0`.
  public init(
    _ expression: LinearExpression, _ relation: Relation, priority: Priority = .required,
    label: String? = nil
  ) {
    self.expression = expression
    self.relation = relation
    self.priority = priority
    self.label = label
  }

  /// The constraint `lhs relation rhs`.
  public init(
    _ lhs: LinearExpression, _ relation: Relation, _ rhs: LinearExpression,
    priority: Priority = .required,
    label: String? = nil
  ) {
    self.init(lhs - rhs, relation, priority: priority, label: label)
  }

  /// The same constraint at another priority.
  public func at(_ priority: Priority) -> Constraint {
    var copy = self
    copy.priority = priority
    return copy
  }

  /// The same constraint with a label.
  public func labeled(_ label: String) -> Constraint {
    var copy = self
    copy.label = label
    return copy
  }

  /// The constraint written out (its label, if it has one), naming variables with `name`.
  public func description(naming name: (Variable) -> String) -> String {
    if let label { return label }
    let suffix = priority.isRequired ? "" : " @\(priority)"
    return "\(expression.description(naming: name)) \(relation) 0\(suffix)"
  }
}

extension Constraint: CustomStringConvertible {
  public var description: String { description(naming: \.description) }
}

/// `lhs == rhs`, `lhs <= rhs` and `lhs >= rhs` make constraints; `@` is spelled `.at(_:)`.
extension LinearExpression {
  public static func == (lhs: LinearExpression, rhs: LinearExpression) -> Constraint {
    Constraint(lhs, .equal, rhs)
  }
  public static func <= (lhs: LinearExpression, rhs: LinearExpression) -> Constraint {
    Constraint(lhs, .lessThanOrEqual, rhs)
  }
  public static func >= (lhs: LinearExpression, rhs: LinearExpression) -> Constraint {
    Constraint(lhs, .greaterThanOrEqual, rhs)
  }
}

extension Variable {
  public static func == (lhs: Variable, rhs: LinearExpression) -> Constraint {
    LinearExpression(lhs) == rhs
  }
  public static func <= (lhs: Variable, rhs: LinearExpression) -> Constraint {
    LinearExpression(lhs) <= rhs
  }
  public static func >= (lhs: Variable, rhs: LinearExpression) -> Constraint {
    LinearExpression(lhs) >= rhs
  }
}
