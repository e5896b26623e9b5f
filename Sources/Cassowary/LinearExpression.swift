/// A variable with its coefficient in a linear expression.
public struct Term: Hashable, Sendable {
  /// The variable.
  public var variable: Variable
  /// What it is multiplied by.
  public var coefficient: Double

  /// `coefficient × variable`.
  public init(_ variable: Variable, _ coefficient: Double = 1) {
    self.variable = variable
    self.coefficient = coefficient
  }
}

/// A linear expression: a sum of terms plus a constant.
///
/// Terms are kept as written; a variable may appear more than once (the solver adds them up).
public struct LinearExpression: Hashable, Sendable {
  /// The terms, in the order they were written.
  public var terms: [Term]
  /// The constant part.
  public var constant: Double

  /// `Σ terms + constant`.
  public init(_ terms: [Term] = [], constant: Double = 0) {
    self.terms = terms
    self.constant = constant
  }

  /// The expression `1 × variable`.
  public init(_ variable: Variable) { self.init([Term(variable)]) }

  /// Whether every coefficient and the constant are finite.
  public var isFinite: Bool { constant.isFinite && terms.allSatisfy { $0.coefficient.isFinite } }

  /// The expression's value when each variable takes the value `value(variable)`.
  public func evaluate(_ value: (Variable) -> Double) -> Double {
    terms.reduce(constant) { $0 + $1.coefficient * value($1.variable) }
  }

  /// The expression written out, naming variables with `name`.
  public func description(naming name: (Variable) -> String) -> String {
    var text = ""
    for term in terms {
      let magnitude = abs(term.coefficient)
      let factor = magnitude == 1 ? "" : "\(formatNumber(magnitude))*"
      if text.isEmpty {
        text = (term.coefficient < 0 ? "-" : "") + factor + name(term.variable)
      } else {
        text += (term.coefficient < 0 ? " - " : " + ") + factor + name(term.variable)
      }
    }
    if text.isEmpty { return formatNumber(constant) }
    if constant != 0 { text += (constant < 0 ? " - " : " + ") + formatNumber(abs(constant)) }
    return text
  }
}

/// `8` rather than `8.0` (and `0` for `-0`), as the `.constraints` format and Auto Layout's
/// descriptions write numbers; other values in Swift's shortest round-tripping form.
public func formatNumber(_ value: Double) -> String {
  if abs(value) < 1e15, Double(Int64(value)) == value { return String(Int64(value)) }
  return String(value)
}

extension LinearExpression: CustomStringConvertible {
  public var description: String { description(naming: \.description) }
}

extension LinearExpression: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
  public init(floatLiteral value: Double) { self.init(constant: value) }
  public init(integerLiteral value: Int) { self.init(constant: Double(value)) }
}

// MARK: - Arithmetic

extension LinearExpression {
  public static func + (lhs: LinearExpression, rhs: LinearExpression) -> LinearExpression {
    LinearExpression(lhs.terms + rhs.terms, constant: lhs.constant + rhs.constant)
  }

  public static func - (lhs: LinearExpression, rhs: LinearExpression) -> LinearExpression {
    lhs + -rhs
  }

  public static prefix func - (operand: LinearExpression) -> LinearExpression { operand * -1 }

  public static func * (lhs: LinearExpression, rhs: Double) -> LinearExpression {
    LinearExpression(
      lhs.terms.map { Term($0.variable, $0.coefficient * rhs) }, constant: lhs.constant * rhs)
  }

  public static func * (lhs: Double, rhs: LinearExpression) -> LinearExpression { rhs * lhs }

  public static func / (lhs: LinearExpression, rhs: Double) -> LinearExpression { lhs * (1 / rhs) }
}

extension Variable {
  public static func + (lhs: Variable, rhs: Variable) -> LinearExpression {
    LinearExpression(lhs) + LinearExpression(rhs)
  }
  public static func - (lhs: Variable, rhs: Variable) -> LinearExpression {
    LinearExpression(lhs) - LinearExpression(rhs)
  }
  public static func * (lhs: Double, rhs: Variable) -> LinearExpression {
    LinearExpression([Term(rhs, lhs)])
  }
  public static func * (lhs: Variable, rhs: Double) -> LinearExpression {
    LinearExpression([Term(lhs, rhs)])
  }
  public static prefix func - (operand: Variable) -> LinearExpression {
    LinearExpression([Term(operand, -1)])
  }
  public static func + (lhs: LinearExpression, rhs: Variable) -> LinearExpression {
    lhs + LinearExpression(rhs)
  }
  public static func - (lhs: LinearExpression, rhs: Variable) -> LinearExpression {
    lhs - LinearExpression(rhs)
  }
  public static func + (lhs: Variable, rhs: LinearExpression) -> LinearExpression {
    LinearExpression(lhs) + rhs
  }
  public static func - (lhs: Variable, rhs: LinearExpression) -> LinearExpression {
    LinearExpression(lhs) - rhs
  }
}
