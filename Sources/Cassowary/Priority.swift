/// How strongly a constraint should hold: an Auto Layout priority, a value in (0, 1000].
///
/// 1000 is required: the solver satisfies it or refuses it. Every distinct lower value is its own
/// level, ordered strictly: the solver minimizes the error at the highest optional level first and
/// only then looks at the next, so any error at 251 outweighs any amount of error at 250. Within one
/// level, errors add up. (Scalar-weight ports of Cassowary, such as kiwi's strengths, only
/// approximate this.)
public struct Priority: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The priority value as Auto Layout writes it.
  public var rawValue: Float

  /// A priority of `rawValue`, which must lie in (0, 1000] to be used in a constraint.
  public init(_ rawValue: Float) { self.rawValue = rawValue }

  /// 1000: the constraint must hold.
  public static let required = Priority(1000)
  /// 750: the default for compression resistance.
  public static let defaultHigh = Priority(750)
  /// 250: the default for content hugging.
  public static let defaultLow = Priority(250)
  /// 50: the level at which `systemLayoutSizeFitting` applies its target size.
  public static let fittingSizeLevel = Priority(50)

  /// Whether the constraint must hold (priority 1000).
  public var isRequired: Bool { rawValue == 1000 }

  /// Whether the value is a priority a constraint may carry: finite and in (0, 1000].
  public var isValid: Bool { rawValue > 0 && rawValue <= 1000 }

  public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }

  public var description: String {
    abs(rawValue) < 1e6 && Float(Int(rawValue)) == rawValue
      ? String(Int(rawValue)) : String(rawValue)
  }
}

extension Priority: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
  public init(floatLiteral value: Float) { self.init(value) }
  public init(integerLiteral value: Int) { self.init(Float(value)) }
}
