import Cassowary

/// How strongly a constraint should hold: Auto Layout's priority, a value in (0, 1000].
public typealias LayoutPriority = Cassowary.Priority

/// How the two sides of a layout constraint compare.
public typealias LayoutRelation = Cassowary.Relation

/// A part of a view's or layout guide's alignment rectangle that a constraint can refer to.
///
/// The raw values are UIKit's (`NSLayoutConstraint.Attribute`), so that exported systems and
/// dumps use the same numbering.
public enum LayoutAttribute: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  case notAnAttribute = 0
  case left = 1
  case right
  case top
  case bottom
  case leading
  case trailing
  case width
  case height
  case centerX
  case centerY
  case lastBaseline
  case firstBaseline
  case leftMargin
  case rightMargin
  case topMargin
  case bottomMargin
  case leadingMargin
  case trailingMargin
  case centerXWithinMargins
  case centerYWithinMargins

  /// The two axes of a layout.
  public enum Axis: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case horizontal
    case vertical

    public var description: String { self == .horizontal ? "horizontal" : "vertical" }
  }

  /// The axis the attribute lies along; `nil` for `notAnAttribute`.
  public var axis: Axis? {
    switch self {
    case .notAnAttribute: nil
    case .left, .right, .leading, .trailing, .width, .centerX, .leftMargin, .rightMargin,
      .leadingMargin, .trailingMargin, .centerXWithinMargins:
      .horizontal
    case .top, .bottom, .height, .centerY, .lastBaseline, .firstBaseline, .topMargin,
      .bottomMargin, .centerYWithinMargins:
      .vertical
    }
  }

  /// Whether the attribute is a size (width or height) rather than a location.
  public var isDimension: Bool {
    // A switch, not `==`: comparing cases of a raw-value enum goes through its raw values'
    // equality, a call per comparison where a switch is a compare of the tag.
    switch self {
    case .width, .height: true
    default: false
    }
  }

  /// Whether the attribute is leading or trailing (or their margins): it flips in right-to-left.
  public var isDirectional: Bool {
    switch self {
    case .leading, .trailing, .leadingMargin, .trailingMargin: true
    default: false
    }
  }

  /// Whether the attribute is left or right (or their margins): it never flips.
  public var isAbsoluteHorizontal: Bool {
    switch self {
    case .left, .right, .leftMargin, .rightMargin: true
    default: false
    }
  }

  /// For a margin attribute, the edge attribute of the margins guide it stands for.
  var edgeOfMargins: LayoutAttribute? {
    switch self {
    case .leftMargin: .left
    case .rightMargin: .right
    case .topMargin: .top
    case .bottomMargin: .bottom
    case .leadingMargin: .leading
    case .trailingMargin: .trailing
    case .centerXWithinMargins: .centerX
    case .centerYWithinMargins: .centerY
    default: nil
    }
  }

  /// The attribute's name as UIKit's descriptions print it.
  public var description: String {
    switch self {
    case .notAnAttribute: "notAnAttribute"
    case .left: "left"
    case .right: "right"
    case .top: "top"
    case .bottom: "bottom"
    case .leading: "leading"
    case .trailing: "trailing"
    case .width: "width"
    case .height: "height"
    case .centerX: "centerX"
    case .centerY: "centerY"
    case .lastBaseline: "lastBaseline"
    case .firstBaseline: "firstBaseline"
    case .leftMargin: "leftMargin"
    case .rightMargin: "rightMargin"
    case .topMargin: "topMargin"
    case .bottomMargin: "bottomMargin"
    case .leadingMargin: "leadingMargin"
    case .trailingMargin: "trailingMargin"
    case .centerXWithinMargins: "centerXWithinMargins"
    case .centerYWithinMargins: "centerYWithinMargins"
    }
  }
}

/// The direction in which leading and trailing run.
public enum LayoutDirection: Hashable, Sendable {
  case leftToRight
  case rightToLeft
}

/// How a view's content should be laid out with respect to the layout direction, as UIKit's
/// `semanticContentAttribute`: `unspecified` follows the superview (and the root's direction).
public enum SemanticContentAttribute: Hashable, Sendable {
  case unspecified
  case playback
  case spatial
  case forceLeftToRight
  case forceRightToLeft
}
