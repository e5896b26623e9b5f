/// How much room an axis has, as UIKit's `UIUserInterfaceSizeClass`: an iPhone in portrait is
/// compact wide and regular tall; in landscape it is compact both ways (regular wide on the
/// largest models); an iPad is regular both ways.
public enum UserInterfaceSizeClass: Hashable, Sendable, CustomStringConvertible {
  /// No size class: in a pattern, "Any".
  case unspecified
  /// A constrained amount of room.
  case compact
  /// An expansive amount of room.
  case regular

  public var description: String {
    switch self {
    case .unspecified: "Any"
    case .compact: "Compact"
    case .regular: "Regular"
    }
  }
}

/// The traits layout depends on: a horizontal and a vertical size class.
///
/// A trait collection is both what a view is in (``View/traitCollection``) and a pattern for
/// Interface Builder's size-class variations, where ``UserInterfaceSizeClass/unspecified`` means
/// "Any": `TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .unspecified)` is
/// the Compact-Any pattern.
public struct TraitCollection: Hashable, Sendable, CustomStringConvertible {
  /// The size class of the width.
  public var horizontalSizeClass: UserInterfaceSizeClass
  /// The size class of the height.
  public var verticalSizeClass: UserInterfaceSizeClass

  /// Traits with the given size classes.
  public init(
    horizontalSizeClass: UserInterfaceSizeClass = .unspecified,
    verticalSizeClass: UserInterfaceSizeClass = .unspecified
  ) {
    self.horizontalSizeClass = horizontalSizeClass
    self.verticalSizeClass = verticalSizeClass
  }

  /// Any-Any: the pattern every trait collection matches, and the traits of a view that no one
  /// gave any.
  public static let any = TraitCollection()
  /// Compact width, regular height: an iPhone in portrait.
  public static let compactRegular = TraitCollection(
    horizontalSizeClass: .compact, verticalSizeClass: .regular)
  /// Compact width, compact height: most iPhones in landscape.
  public static let compactCompact = TraitCollection(
    horizontalSizeClass: .compact, verticalSizeClass: .compact)
  /// Regular width, compact height: the largest iPhones in landscape.
  public static let regularCompact = TraitCollection(
    horizontalSizeClass: .regular, verticalSizeClass: .compact)
  /// Regular width, regular height: an iPad.
  public static let regularRegular = TraitCollection(
    horizontalSizeClass: .regular, verticalSizeClass: .regular)

  /// Whether traits `self`, used as a pattern, apply to `traits`: each axis is Any or equal.
  public func matches(_ traits: TraitCollection) -> Bool {
    (horizontalSizeClass == .unspecified || horizontalSizeClass == traits.horizontalSizeClass)
      && (verticalSizeClass == .unspecified || verticalSizeClass == traits.verticalSizeClass)
  }

  /// How specific the pattern is, for "the most specific wins": 0 for Any-Any, 2 for a final
  /// class such as Compact-Regular; a width class outranks a height class (Compact-Any beats
  /// Any-Regular), as Interface Builder resolves such ties.
  var specificity: Int {
    (horizontalSizeClass == .unspecified ? 0 : 2) + (verticalSizeClass == .unspecified ? 0 : 1)
  }

  /// `wC hR`, the way Interface Builder names a size class.
  public var description: String {
    func letter(_ sizeClass: UserInterfaceSizeClass) -> String {
      switch sizeClass {
      case .unspecified: "Any"
      case .compact: "C"
      case .regular: "R"
      }
    }
    return "w\(letter(horizontalSizeClass)) h\(letter(verticalSizeClass))"
  }
}

/// Interface Builder's "Installed" checkboxes for one constraint or view: installed or not in
/// Any-Any and in any number of variations. The most specific pattern that matches the current
/// traits decides; with no matching pattern the item is not installed.
public struct SizeClassInstallation: Hashable, Sendable {
  /// The patterns with a checkbox, and whether each is ticked.
  public var patterns: [TraitCollection: Bool]

  /// Checkboxes from a pattern → installed table, e.g. `[.any: true, .compactRegular: false]`.
  public init(_ patterns: [TraitCollection: Bool]) {
    self.patterns = patterns
  }

  /// Installed everywhere except in `pattern`'s classes.
  public static func except(_ pattern: TraitCollection) -> SizeClassInstallation {
    SizeClassInstallation([.any: true, pattern: false])
  }

  /// Installed only in `pattern`'s classes.
  public static func only(_ pattern: TraitCollection) -> SizeClassInstallation {
    SizeClassInstallation([.any: false, pattern: true])
  }

  /// Whether the item is installed for `traits`.
  public func isInstalled(for traits: TraitCollection) -> Bool {
    var best: (specificity: Int, installed: Bool)?
    for (pattern, installed) in patterns where pattern.matches(traits) {
      let specificity = pattern.specificity
      if best == nil || specificity > best!.specificity { best = (specificity, installed) }
    }
    return best?.installed ?? false
  }
}
