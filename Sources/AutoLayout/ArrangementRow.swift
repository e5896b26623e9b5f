/// The names UIKit gives the constraints a stack view makes (``ArrangementRow``), one byte a
/// row instead of a string.
enum ArrangementIdentifier: UInt8, CaseIterable {
  case canvasConnection
  case spacing
  case fillEqually
  case fillProportionally
  case distributingEdge
  case canvasFit
  case alignment
  case spanningBoundary
  case spanningFit
  case ambiguitySuppression
  case hiding
  case spacingHidden

  /// UIKit's identifier, as a dump prints it.
  var name: String {
    switch self {
    case .canvasConnection: "UISV-canvas-connection"
    case .spacing: "UISV-spacing"
    case .fillEqually: "UISV-fill-equally"
    case .fillProportionally: "UISV-fill-proportionally"
    case .distributingEdge: "UISV-distributing-edge"
    case .canvasFit: "UISV-canvas-fit"
    case .alignment: "UISV-alignment"
    case .spanningBoundary: "UISV-spanning-boundary"
    case .spanningFit: "UISV-spanning-fit"
    case .ambiguitySuppression: "UISV-ambiguity-suppression"
    case .hiding: "UISV-hiding"
    case .spacingHidden: "UISV-spacing-hidden"
    }
  }
}

/// One constraint a stack view makes, as a row of the stack's table: its terms, constant and
/// priority by value, and the solver id its engine holds it under.
///
/// No ``LayoutConstraint`` stands for it. The stack computes the rows its arrangement wants in
/// the update pass and diffs them against the rows it has (``hasSameTerms(as:)``): a row with the
/// same terms keeps its solver id and has its constant and priority changed in place. A
/// constraint object describing one is made only when someone asks
/// (``StackView/arrangementConstraints``, ``View/constraints``, a conflict, an export).
///
/// The items are unowned: the stack keeps them (its arranged views, its guides, itself), and it
/// takes out every row that refers to a view or guide the moment it lets go of it.
struct ArrangementRow {
  // Widest first: fields are laid out in declaration order, and this order leaves no padding
  // (48 bytes a row).
  var first: Unmanaged<LayoutItem>
  var second: Unmanaged<LayoutItem>?
  var multiplier: Double
  var constant: Double
  var priority: LayoutPriority
  var solverID: Int32 = -1
  var firstAttribute: LayoutAttribute
  var secondAttribute: LayoutAttribute
  var relation: LayoutRelation
  var identifier: ArrangementIdentifier
  /// Whether the engine broke the row to recover from a conflict (it holds it at the strongest
  /// optional priority).
  var isBroken = false

  /// A row over items given unretained (the stack holds them).
  init(
    _ first: Unmanaged<LayoutItem>, _ firstAttribute: LayoutAttribute,
    _ relation: LayoutRelation, _ second: Unmanaged<LayoutItem>?,
    _ secondAttribute: LayoutAttribute, multiplier: Double = 1, constant: Double = 0,
    priority: LayoutPriority = .required, _ identifier: ArrangementIdentifier
  ) {
    self.first = first
    self.second = second
    self.firstAttribute = firstAttribute
    self.secondAttribute = secondAttribute
    self.relation = relation
    self.identifier = identifier
    self.multiplier = multiplier
    self.constant = constant
    self.priority = priority
  }

  /// The item on the left side (never nil: optional as a constraint's, for lowering).
  var firstItem: LayoutItem? { first.takeUnretainedValue() }
  /// The item on the right side, if any.
  var secondItem: LayoutItem? { second?.takeUnretainedValue() }
  var unretainedFirstItem: Unmanaged<LayoutItem>? { first }
  var unretainedSecondItem: Unmanaged<LayoutItem>? { second }
  /// The constant, as lowering reads it.
  var storedConstant: Double { constant }

  /// Whether the row has `other`'s terms: everything but its constant, priority and solver
  /// state. A row kept across an update is one with the same terms.
  ///
  /// - Complexity: O(1).
  func hasSameTerms(as other: ArrangementRow) -> Bool {
    first.toOpaque() == other.first.toOpaque()
      && second?.toOpaque() == other.second?.toOpaque()
      && firstAttribute == other.firstAttribute && secondAttribute == other.secondAttribute
      && relation == other.relation && identifier == other.identifier
      && multiplier == other.multiplier
  }

  /// Whether the row refers to `item` on either side.
  ///
  /// - Complexity: O(1).
  func refers(to item: LayoutItem) -> Bool {
    let pointer = Unmanaged.passUnretained(item).toOpaque()
    return first.toOpaque() == pointer || second?.toOpaque() == pointer
  }

  /// The terms that identify a row (``hasSameTerms(as:)``), as a dictionary key.
  struct Key: Hashable {
    var first: UnsafeMutableRawPointer
    var second: UnsafeMutableRawPointer?
    var firstAttribute: LayoutAttribute
    var secondAttribute: LayoutAttribute
    var relation: LayoutRelation
    var identifier: ArrangementIdentifier
    var multiplier: Double

    /// Hashes the items and attributes only (equality compares every term): keys that share
    /// them are rare (a view's spacing and hiding rows, across an update).
    func hash(into hasher: inout Hasher) {
      hasher.combine(first)
      hasher.combine(second)
      hasher.combine(firstAttribute)
      hasher.combine(secondAttribute)
    }
  }

  /// The row's ``Key``.
  var key: Key {
    Key(
      first: first.toOpaque(), second: second?.toOpaque(), firstAttribute: firstAttribute,
      secondAttribute: secondAttribute, relation: relation, identifier: identifier,
      multiplier: multiplier)
  }

  /// The closest view that contains both items (a guide counts as its owning view).
  func commonAncestor() throws(LayoutError) -> View {
    if let ancestor = unretainedCommonAncestor() { return ancestor.takeUnretainedValue() }
    // Never reached for a row a stack made: its items are the stack, its guides and its
    // arranged views.
    throw LayoutError.noCommonAncestor(
      "\"\(first.takeUnretainedValue().layoutDescription).\(firstAttribute)\"",
      secondItem.map { "\"\($0.layoutDescription).\(secondAttribute)\"" } ?? "nil")
  }
}

extension ArrangementRow: LoweredRelation {}
