#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A programming error that UIKit reports by raising an exception, with UIKit's words.
///
/// The throwing entry points (``LayoutConstraint/init(item:attribute:relatedBy:toItem:attribute:multiplier:constant:)``,
/// ``LayoutConstraint/activateChecked(_:)``) throw it and change nothing; the non-throwing ones that
/// mirror UIKit's API stop the program with its description, as UIKit's exception would.
public struct LayoutError: Error, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Equatable, Sendable {
    /// A size paired with a location, or a horizontal with a vertical attribute.
    case invalidPairing
    /// Leading/trailing paired with left/right.
    case directionalMismatch
    /// A location with no second item (or a multiplier of 0): a location equal to a constant.
    case locationEqualToConstant
    /// `notAnAttribute` as the first attribute, or a second attribute without a second item.
    case missingAttribute
    /// The items are not in one view hierarchy.
    case noCommonAncestor
    /// A priority outside (0, 1000].
    case invalidPriority
    /// A constant or multiplier that is infinite or NaN.
    case notFinite
  }

  /// What went wrong.
  public var kind: Kind
  /// UIKit's message for it.
  public var message: String

  public var description: String { message }

  static let initializer =
    "+[LayoutConstraint constraintWithItem:attribute:relatedBy:toItem:attribute:multiplier:constant:]"

  static func invalidPairing(_ first: LayoutAttribute, _ second: LayoutAttribute) -> LayoutError {
    LayoutError(
      kind: .invalidPairing,
      message: "*** \(initializer): Invalid pairing of layout attributes (\(first) and \(second))")
  }

  static var directionalMismatch: LayoutError {
    LayoutError(
      kind: .directionalMismatch,
      message: "*** \(initializer): A constraint cannot be made between a leading/trailing "
        + "attribute and a right/left attribute. Use leading/trailing for both or neither.")
  }

  static func locationEqualToConstant(_ item: LayoutItem) -> LayoutError {
    LayoutError(
      kind: .locationEqualToConstant,
      message: "LayoutConstraint for \(item): A multiplier of 0 or a nil second item together "
        + "with a location for the first attribute creates an illegal constraint of a location "
        + "equal to a constant. Location attributes must be specified in pairs.")
  }

  static func missingAttribute(_ what: String) -> LayoutError {
    LayoutError(kind: .missingAttribute, message: "*** \(initializer): \(what)")
  }

  static func noCommonAncestor(_ first: String, _ second: String) -> LayoutError {
    LayoutError(
      kind: .noCommonAncestor,
      message: "Unable to activate constraint with anchors \(first) and \(second) because they "
        + "have no common ancestor.  Does the constraint or its anchors reference items in "
        + "different view hierarchies?  That's illegal.")
  }

  /// The error for setting `priority` outside (0, 1000].
  public static func invalidPriority(_ priority: LayoutPriority) -> LayoutError {
    LayoutError(
      kind: .invalidPriority,
      message: "It's illegal to set priority:\(formatG(Double(priority.rawValue))). Priorities "
        + "must be greater than 0 and less or equal to LayoutPriorityRequired, which is "
        + "1000.000000.")
  }

  static func notFinite(_ constraint: LayoutConstraint, _ what: String, _ value: Double)
    -> LayoutError
  {
    LayoutError(
      kind: .notFinite,
      message: "\(constraint) \(what) is not finite! That's illegal. \(what):\(value)")
  }
}

/// `value` as C's `%g` writes it (six significant digits, no trailing zeros), as UIKit prints
/// priorities and multipliers.
func formatG(_ value: Double) -> String {
  var buffer = [CChar](repeating: 0, count: 40)
  _ = withVaList([value]) { arguments in
    buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, 40, "%g", arguments) }
  }
  let length = buffer.firstIndex(of: 0) ?? buffer.count
  return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
