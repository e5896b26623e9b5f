import Cassowary

/// The rows the engine makes and owns to pin a view's margins and safe-area guides inside its
/// bounds (see ``GuidePinRows``), with no ``LayoutConstraint`` object behind them. They are
/// required: a row that conflicts is broken, logged and held at ``brokenPriority``, as a
/// constraint would be.
extension LayoutEngine {
  /// Installs the four rows that pin `view`'s guide `which` (which it must have) at its insets,
  /// and records their ids on the view. Counts as four constraints added.
  ///
  /// - Complexity: that of four solver adds (deferred inside a batch), plus O(log free ids).
  func installGuidePins(of view: View, _ which: PinnedGuide) {
    guard let guide = view.pinnedGuide(which) else { preconditionFailure("no guide to pin") }
    // The guide first, as its pins were activated: the first to be given variables comes first.
    retain(guide)
    retain(view)
    counters.constraintsAdded += 4
    let owner = RowOwner.guidePin(.passUnretained(view))
    var rows = GuidePinRows()
    for edge in 0..<4 { rows[edge] = installed.insert(owner) }
    // Recorded before any add: a conflict's recovery marks the edge it breaks on the view.
    view.setPinRows(rows, which)
    // A refused engine still lists the rows (freed on removal); it no longer gives them to the
    // solver.
    guard !isRefused else { return }
    if batchDepth > 0 || holdsFirstLayout {
      for edge in 0..<4 {
        appendGuidePinTerms(view, guide, edge, to: &tables.pointee.pendingAdds)
        tables.pointee.pendingAdds.endConstraint(
          ConstraintID(rows[edge]), constant: 0 - view.guidePinConstant(which, edge),
          relation: .equal,
          priority: .required)
        tables.pointee.pendingOwners.append(owner)
      }
      return
    }
    // A refusal stops the adds (the engine gives the solver nothing more).
    for edge in 0..<4 where !isRefused {
      let row = guidePinRow(view, guide, edge, constant: view.guidePinConstant(which, edge))
      add(rows[edge], row) { breakGuidePin(rows[edge], of: view, conflictingWith: $0) }
    }
  }

  /// Removes the rows that pin `view`'s guide `which` (installed here) and forgets them on the
  /// view. Counts as four constraints removed.
  ///
  /// - Complexity: that of four solver removals.
  func uninstallGuidePins(of view: View, _ which: PinnedGuide) {
    guard let guide = view.pinnedGuide(which) else { preconditionFailure("no guide to unpin") }
    let rows = view.pinRows(which)
    for edge in 0..<4 { removeFromSolver(rows[edge]) }
    view.setPinRows(GuidePinRows(), which)
    counters.constraintsRemoved += 4
    release(guide)
    release(view)
  }

  /// Makes the rows that pin `view`'s guide `which` hold the constants its insets give now, in
  /// place, where they differ from those `insets` and `alignment` gave before; a required row
  /// that cannot take its constant is broken first. Counts a constant changed a row.
  ///
  /// - Complexity: that of up to four solver constant changes.
  func guidePinConstantsDidChange(
    of view: View, _ which: PinnedGuide, from insets: EdgeInsets, alignment: EdgeInsets
  ) {
    for edge in 0..<4 {
      let new = view.guidePinConstant(which, edge)
      guard new != View.guidePinConstant(edge, insets: insets, alignment: alignment) else {
        continue
      }
      counters.constantsChanged += 1
      guard !hasRefused else { continue }
      let id = view.pinRows(which)[edge]
      setConstant(0 - new, ofRow: id) { breakGuidePin(id, of: view, conflictingWith: $0) }
      if isRefused { return }
    }
  }

  /// Breaks the pin row `id` of `view`, which cannot hold with the required rows `others`:
  /// marks it broken on the view and records and logs the conflict (``recover(breaking:conflictingWith:)``)
  /// with a constraint made to describe it. The caller holds it at ``brokenPriority``.
  func breakGuidePin(
    _ id: Int32, of view: View, conflictingWith others: [ConstraintID: Constraint]
  ) {
    guard let (which, edge) = view.pinnedEdge(ofRow: id) else {
      preconditionFailure("row \(id) is not a pin of \(view)")
    }
    var rows = view.pinRows(which)
    rows.setBroken(edge)
    view.setPinRows(rows, which)
    var others = others
    others[ConstraintID(id)] = nil
    recover(breaking: view.guidePinConstraint(which, edge: edge)!, conflictingWith: others)
  }

  /// Whether `view`'s rows pinning its guide `which` are installed in this engine: false when
  /// it has none, and for the ids a view kept from an engine that went with its old root.
  ///
  /// - Complexity: O(1).
  func ownsGuidePins(of view: View, _ which: PinnedGuide) -> Bool {
    let rows = view.pinRows(which)
    guard !rows.isEmpty, case .guidePin(let owner)? = installed[Int(rows[0])] else {
      return false
    }
    return owner.toOpaque() == Unmanaged.passUnretained(view).toOpaque()
  }

  /// The pin row on `edge` of `view`'s `guide`, holding `constant`, as a solver constraint.
  func guidePinRow(_ view: View, _ guide: LayoutGuide, _ edge: Int, constant: Double)
    -> Constraint
  {
    var terms: [Term] = []
    terms.reserveCapacity(4)
    appendGuidePinTerms(view, guide, edge, to: &terms)
    return Constraint(LinearExpression(terms, constant: 0 - constant), .equal, priority: .required)
  }

  /// The terms of the pin row on `edge`, as a constraint between the guide and the view would
  /// lower: the guide's terms first (the guide is the first item on the left and top edges,
  /// and a view's own guide is written first on the right and bottom ones).
  func appendGuidePinTerms(
    _ view: View, _ guide: LayoutGuide, _ edge: Int, to terms: inout some TermSink
  ) {
    let g = guide.engineBlock, v = view.engineBlock
    switch edge {
    case 0:
      terms.append(Term(Variable(id: g), 1))
      terms.append(Term(Variable(id: v), -1))
    case 1:
      terms.append(Term(Variable(id: g + 1), 1))
      terms.append(Term(Variable(id: v + 1), -1))
    case 2:
      terms.append(Term(Variable(id: g), -1))
      terms.append(Term(Variable(id: g + 2), -1))
      terms.append(Term(Variable(id: v), 1))
      terms.append(Term(Variable(id: v + 2), 1))
    default:
      terms.append(Term(Variable(id: g + 1), -1))
      terms.append(Term(Variable(id: g + 3), -1))
      terms.append(Term(Variable(id: v + 1), 1))
      terms.append(Term(Variable(id: v + 3), 1))
    }
  }
}

extension View {
  /// The constant of the row pinning the guide `which` on `edge` (0 left, 1 top, 2 right, 3
  /// bottom): the guide's inset on that edge less the alignment-rect inset (the rows act on the
  /// alignment rect).
  ///
  /// - Complexity: O(1).
  func guidePinConstant(_ which: PinnedGuide, _ edge: Int) -> Double {
    Self.guidePinConstant(edge, insets: pinInsets(which), alignment: alignmentRectInsets)
  }

  /// The constant on `edge` that places a guide at `insets` inside a bounds whose alignment
  /// rect is inset by `alignment`.
  static func guidePinConstant(_ edge: Int, insets: EdgeInsets, alignment: EdgeInsets) -> Double {
    switch edge {
    case 0: insets.left - alignment.left
    case 1: insets.top - alignment.top
    case 2: insets.right - alignment.right
    default: insets.bottom - alignment.bottom
    }
  }

  /// The guide and edge whose pin row has solver id `id`, if one has.
  ///
  /// - Complexity: O(1).
  func pinnedEdge(ofRow id: Int32) -> (PinnedGuide, Int)? {
    for which in PinnedGuide.allCases {
      if let edge = pinRows(which).edge(ofRow: id) { return (which, edge) }
    }
    return nil
  }

  /// A constraint that stands for the pin row on `edge` of the guide `which` (as UIKit's
  /// `UIView-leftMargin-guide-constraint`), made for the asking: it reads its constant and
  /// whether it is active from the view as they are now, and whether the engine broke it as of
  /// when it was made. Nil when the view has no such guide.
  ///
  /// - Complexity: O(1); allocates the constraint.
  func guidePinConstraint(_ which: PinnedGuide, edge: Int) -> LayoutConstraint? {
    guard let guide = pinnedGuide(which) else { return nil }
    let attribute = GuidePinRows.edges[edge]
    let (first, second): (LayoutItem, LayoutItem) = edge < 2 ? (guide, self) : (self, guide)
    let constraint = LayoutConstraint(
      kind: .guidePin, first, attribute, .equal, second, attribute, multiplier: 1,
      constant: guidePinConstant(which, edge), identifier: which.identifiers[edge])
    constraint.isHeldBroken = pinRows(which).isBroken(edge)
    return constraint
  }

  /// The constraints that stand for the guides' pin rows (see ``guidePinConstraint(_:edge:)``)
  /// on `axis`, or on both when it is nil.
  ///
  /// - Complexity: O(1); allocates the constraints.
  func guidePinConstraints(on axis: LayoutAttribute.Axis? = nil) -> [LayoutConstraint] {
    var result: [LayoutConstraint] = []
    for which in PinnedGuide.allCases where pinnedGuide(which) != nil {
      for edge in 0..<4 where axis == nil || GuidePinRows.edges[edge].axis == axis {
        result.append(guidePinConstraint(which, edge: edge)!)
      }
    }
    return result
  }
}
