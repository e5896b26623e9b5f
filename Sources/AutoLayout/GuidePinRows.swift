/// The guides a view pins inside its bounds with four required rows the engine owns: its
/// margins guide (at ``View/layoutMargins``) and its safe-area guide (at
/// ``View/safeAreaInsets``).
enum PinnedGuide: CaseIterable {
  case margins
  case safeArea

  /// UIKit's identifiers of the four pins, left, top, right and bottom, made once.
  var identifiers: [String] {
    switch self {
    case .margins: Self.marginsIdentifiers
    case .safeArea: Self.safeAreaIdentifiers
    }
  }

  private static let marginsIdentifiers = ["left", "top", "right", "bottom"].map {
    "UIView-" + $0 + "Margin-guide-constraint"
  }
  private static let safeAreaIdentifiers = ["left", "top", "right", "bottom"].map {
    "UIViewSafeAreaLayoutGuide-" + $0
  }
}

/// The four rows that pin a view's margins or safe-area guide inside its bounds, as its engine
/// holds them: `guide.left == view.left + l`, `guide.top == view.top + t`,
/// `view.right == guide.right + r` and `view.bottom == guide.bottom + b`, required, under
/// solver ids the engine owns (``RowOwner/guidePin(_:)``), and which of them the engine broke
/// to recover from a conflict.
///
/// No ``LayoutConstraint`` stands for them: the engine makes them when the guide is made (or
/// the view's tree gets an engine), changes their constants in place when the insets change,
/// and removes them with the guide or when the view leaves the engine's tree. A constraint
/// object describing one is made only when someone asks (``View/constraints``,
/// ``View/constraintsAffectingLayout(for:)``, a conflict, an export).
struct GuidePinRows {
  /// The edges, in the order of the rows.
  static let edges: [LayoutAttribute] = [.left, .top, .right, .bottom]

  /// The rows' solver ids, left, top, right, bottom; all -1 when the guide has none.
  private var ids: (Int32, Int32, Int32, Int32) = (-1, -1, -1, -1)
  /// A bit an edge: whether the engine broke the row (it holds it as the strongest optional).
  private var brokenEdges: UInt8 = 0

  /// Whether there are no rows.
  ///
  /// - Complexity: O(1).
  var isEmpty: Bool { ids.0 < 0 }

  /// The solver id of the row on `edge` (0 left, 1 top, 2 right, 3 bottom).
  ///
  /// - Complexity: O(1).
  subscript(edge: Int) -> Int32 {
    get {
      switch edge {
      case 0: ids.0
      case 1: ids.1
      case 2: ids.2
      default: ids.3
      }
    }
    set {
      switch edge {
      case 0: ids.0 = newValue
      case 1: ids.1 = newValue
      case 2: ids.2 = newValue
      default: ids.3 = newValue
      }
    }
  }

  /// The edge whose row has solver id `id`, if one has.
  ///
  /// - Complexity: O(1).
  func edge(ofRow id: Int32) -> Int? {
    guard id >= 0 else { return nil }
    return (0..<4).first { self[$0] == id }
  }

  /// Whether the engine broke the row on `edge`.
  ///
  /// - Complexity: O(1).
  func isBroken(_ edge: Int) -> Bool { brokenEdges & (1 << edge) != 0 }

  /// Records that the engine broke the row on `edge`.
  ///
  /// - Complexity: O(1).
  mutating func setBroken(_ edge: Int) { brokenEdges |= 1 << edge }

  /// Gives the row with solver id `old` the id `new` (see ``ContentSizeRows/renumber(_:to:)``).
  ///
  /// - Complexity: O(1).
  mutating func renumber(_ old: Int32, to new: Int32) {
    if let edge = edge(ofRow: old) { self[edge] = new }
  }
}
