/// The kinds of generated view tree, each derived from a recipe of the reference documents.
public enum SceneKind: String, CaseIterable, Sendable, CustomStringConvertible {
  case form
  case dynamicForm = "dynamic-form"
  case equalWidthButtons = "equal-width-buttons"
  case equalSpacing = "equal-spacing"
  case sizeClassButtons = "size-class-buttons"
  case nestedGrid = "nested-grid"
  case stackGrid = "stack-grid"
  case flat
  case chain

  public var description: String { rawValue }

  /// One line about the kind, for `bench scenes`.
  public var summary: String {
    switch self {
    case .form:
      "Fixed Height Columns: rows of a right-aligned label and a text field; fields equal width, rows chained top to bottom"
    case .dynamicForm:
      "Dynamic Height Columns: the form with >= and @249 top pairs and baselines; some labels are 36 pt, so the taller view sets the spacing"
    case .equalWidthButtons:
      "Two (variant two) or three (variant three) Equal-Width Buttons a row, rows stacked"
    case .equalSpacing:
      "Two Buttons with Equal Spacing a row; variant spacer-views (three dummy views) or layout-guides (three guides, so 2 of every 5 requested views are views)"
    case .sizeClassButtons:
      "Two Buttons with Size Class-Based Layouts: both constraint sets installed per size class (Any-Any, Compact-Regular); size-class-switch changes the root's traits"
    case .nestedGrid:
      "Containers of containers, 4 children each (breadth first), alternating rows and columns with margins and standard spacing; equal widths and heights"
    case .stackGrid:
      "The nested grid built with nested stack views (fill equally, fill alignment, margins-relative, spacing 8): the same frames, UIKit's stack constraints"
    case .flat:
      "Independent labels, each placed against the root on its own (the case Apple made linear in iOS 12)"
    case .chain:
      "One long chain of equal-width views, each below and aligned with the previous one (worst case for propagation)"
    }
  }

  /// The variants the kind accepts, the default first.
  public var variants: [String] {
    switch self {
    case .equalWidthButtons: ["two", "three"]
    case .equalSpacing: ["spacer-views", "layout-guides"]
    default: ["standard"]
    }
  }
}

/// What a harness can do to a built scene between layout passes.
public enum SceneOperation: String, CaseIterable, Sendable, CustomStringConvertible {
  /// Rotate the root between portrait and landscape.
  case resize
  /// Change one constraint constant deep in the tree (in place).
  case constantChange = "constant-change"
  /// Change the text (so the intrinsic size) of 10% of the labels and buttons.
  case intrinsicSizeChange = "intrinsic-size-change"
  /// Hide and unhide 10% of the stack-arranged views (stack-grid only).
  case hideUnhide = "hide-unhide"
  /// Swap the size-class constraint sets (size-class-buttons only).
  case sizeClassSwitch = "size-class-switch"
  /// Remove the middle row and add it back with its constraints.
  case churn
  /// Remove every row from the root.
  case teardown

  public var description: String { rawValue }
}

/// A scene request the generators cannot honour.
public struct SceneError: Error, CustomStringConvertible {
  public var description: String
}
