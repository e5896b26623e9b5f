import AutoLayout
import Scenes

/// One random step of a stress run, with every parameter drawn, so that the same step can be
/// applied to the scene under test and to its reference scene, and printed when it fails.
///
/// Views are named by their index in a depth-first walk of the root's tree (the root is 0);
/// extra constraints and views by their index in the run's own lists.
public enum StressOperation: Equatable, Sendable, CustomStringConvertible {
  /// One of the scene's own operations (never teardown).
  case scene(SceneOperation)
  /// The root resized to a random size (a new suggestion for its size).
  case resizeRoot(width: Double, height: Double)
  /// A new extra constraint, activated.
  case addConstraint(StressConstraint)
  /// Extra constraint `index` deactivated and forgotten.
  case removeConstraint(index: Int)
  /// A constraint's constant changed in place.
  case setConstant(StressTarget, Double)
  /// A constraint's priority changed in place (optional ↔ optional or required ↔ optional).
  case setPriority(StressTarget, LayoutPriority)
  /// A label's text changed, so its intrinsic size.
  case setText(view: Int, String)
  /// An arranged view hidden or shown (its stack view rearranges).
  case toggleHidden(view: Int)
  /// A new label added with constraints that place it, or as an arranged view of a stack.
  case addView(StressView)
  /// Extra view `index` removed from its superview (its constraints go with it).
  case removeView(index: Int)

  /// The operation's family, for the summary's counts.
  public var family: String {
    switch self {
    case .scene(let operation): "scene \(operation)"
    case .resizeRoot: "resize-root"
    case .addConstraint(let constraint):
      constraint.priority.isRequired
        ? "add-required" : "add-optional"
    case .removeConstraint: "remove-constraint"
    case .setConstant: "set-constant"
    case .setPriority: "set-priority"
    case .setText: "set-text"
    case .toggleHidden: "toggle-hidden"
    case .addView: "add-view"
    case .removeView: "remove-view"
    }
  }

  public var description: String {
    switch self {
    case .scene(let operation): "scene operation \(operation)"
    case .resizeRoot(let width, let height): "resize the root to \(width) × \(height)"
    case .addConstraint(let constraint): "add \(constraint)"
    case .removeConstraint(let index): "remove extra constraint #\(index)"
    case .setConstant(let target, let constant): "set the constant of \(target) to \(constant)"
    case .setPriority(let target, let priority):
      "set the priority of \(target) to \(priority.rawValue)"
    case .setText(let view, let text): "set the text of view #\(view) to \"\(text)\""
    case .toggleHidden(let view): "toggle isHidden of arranged view #\(view)"
    case .addView(let view): "add \(view)"
    case .removeView(let index): "remove extra view #\(index)"
    }
  }
}

/// Which constraint a constant or priority change edits.
public enum StressTarget: Equatable, Sendable, CustomStringConvertible {
  /// Extra constraint `index` of the run.
  case extra(Int)
  /// The `index`-th editable installed constraint of the scene (in solver id order).
  case installed(Int)

  public var description: String {
    switch self {
    case .extra(let index): "extra constraint #\(index)"
    case .installed(let index): "installed constraint #\(index)"
    }
  }
}

/// An extra constraint: `view[first].firstAttribute relation view[second].secondAttribute +
/// constant @priority` (no second view: a dimension against a constant).
public struct StressConstraint: Equatable, Sendable, CustomStringConvertible {
  /// The first view's index.
  public var first: Int
  /// The first view's attribute.
  public var firstAttribute: LayoutAttribute
  /// How the sides compare.
  public var relation: LayoutRelation
  /// The second view's index, if any.
  public var second: Int?
  /// The second view's attribute (`notAnAttribute` without a second view).
  public var secondAttribute: LayoutAttribute
  /// The constant.
  public var constant: Double
  /// The priority.
  public var priority: LayoutPriority

  public var description: String {
    let right = second.map { "view #\($0).\(secondAttribute) + " } ?? ""
    return "view #\(first).\(firstAttribute) \(relation) \(right)\(constant) @\(priority.rawValue)"
  }
}

/// An extra view: a label with `text`, arranged in stack view `parent`, or added to the root
/// with its leading edge at `anchor`'s leading edge + `dx` and its top at `anchor`'s bottom + `dy`
/// (required, always satisfiable: nothing else constrains the new view's position).
public struct StressView: Equatable, Sendable, CustomStringConvertible {
  /// The label's text.
  public var text: String
  /// The stack view (by view index) it is arranged in, if any.
  public var stack: Int?
  /// The view (by index) it is placed against when it is not arranged.
  public var anchor: Int
  /// Leading offset from the anchor.
  public var dx: Double
  /// Offset below the anchor.
  public var dy: Double

  public var description: String {
    if let stack { return "label \"\(text)\" arranged in stack view #\(stack)" }
    return "label \"\(text)\" at view #\(anchor) leading + \(dx), bottom + \(dy)"
  }
}
