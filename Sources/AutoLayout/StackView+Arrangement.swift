/// The constraints a stack view makes, as UIKit's `_UIOrderedLayoutArrangement` (along the axis)
/// and `_UIAlignedLayoutArrangement` (across it) make them; `docs/model.md` lists them, with
/// where the model departs from UIKit.
extension StackView {
  /// The attributes of one axis: its two edges, its center and its size.
  struct AxisAttributes {
    var leading: LayoutAttribute
    var trailing: LayoutAttribute
    var center: LayoutAttribute
    var size: LayoutAttribute

    init(_ axis: LayoutAttribute.Axis) {
      switch axis {
      case .horizontal: (leading, trailing, center, size) = (.leading, .trailing, .centerX, .width)
      case .vertical: (leading, trailing, center, size) = (.top, .bottom, .centerY, .height)
      }
    }
  }

  /// One wanted constraint; the terms that identify it (everything but constant and priority)
  /// decide whether an existing constraint can be kept.
  struct Wanted {
    var first: LayoutItem
    var firstAttribute: LayoutAttribute
    var relation: LayoutRelation
    var second: LayoutItem?
    var secondAttribute: LayoutAttribute
    var multiplier: Double
    var constant: Double
    var priority: LayoutPriority
    var identifier: String

    var key: Key {
      Key(identifier, first, firstAttribute, relation, second, secondAttribute, multiplier)
    }
  }

  /// The terms that identify an arrangement constraint: all but its constant and priority.
  struct Key: Hashable {
    var identifier: String
    var first: ObjectIdentifier
    var firstAttribute: LayoutAttribute
    var relation: LayoutRelation
    var second: ObjectIdentifier?
    var secondAttribute: LayoutAttribute
    var multiplier: Double

    init(
      _ identifier: String, _ first: LayoutItem, _ firstAttribute: LayoutAttribute,
      _ relation: LayoutRelation, _ second: LayoutItem?, _ secondAttribute: LayoutAttribute,
      _ multiplier: Double
    ) {
      self.identifier = identifier
      self.first = ObjectIdentifier(first)
      self.firstAttribute = firstAttribute
      self.relation = relation
      self.second = second.map(ObjectIdentifier.init)
      self.secondAttribute = secondAttribute
      self.multiplier = multiplier
    }

    /// Hashes the items, attributes and relation only (equality compares every term): keys
    /// that share them are rare (a view's spacing and hiding constraints, across an update),
    /// and hashing the identifier's text cost more than the rest of the lookup.
    func hash(into hasher: inout Hasher) {
      hasher.combine(first)
      hasher.combine(second)
      hasher.combine(firstAttribute)
      hasher.combine(secondAttribute)
      hasher.combine(relation)
    }

    /// The key of an existing constraint (nil once its first item is gone).
    init?(_ constraint: LayoutConstraint) {
      guard let first = constraint.firstItem, let identifier = constraint.identifier else {
        return nil
      }
      self.init(
        identifier, first, constraint.firstAttribute, constraint.relation,
        constraint.secondItem, constraint.secondAttribute, constraint.multiplier)
    }
  }

  /// The item the views are laid out in: the stack, or its margins guide.
  var canvas: LayoutItem { storedMarginsRelative ? arrangementMarginsGuide : self }

  /// Replaces the arrangement constraints with the wanted ones, keeping every existing
  /// constraint with the same terms (its constant and priority are edited in place).
  ///
  /// The constraints that leave are deactivated and let go before the new ones are made, so an
  /// item never lists the old and the new constraints at once: its lists (see
  /// ``LayoutItem/referringConstraints``) would keep the room for both for good.
  func updateArrangementConstraints() {
    // In the engine's room, handed back emptied (it holds views) but with its capacity.
    var wanted: [Wanted] = []
    let engine = layoutEngine
    if let engine { swap(&wanted, &engine.arrangementScratch) }
    defer {
      if let engine {
        wanted.removeAll(keepingCapacity: true)
        swap(&wanted, &engine.arrangementScratch)
      }
    }
    appendWantedConstraints(to: &wanted)
    if editInPlace(wanted) { return }
    if storedArrangementConstraints.isEmpty {
      // A first arrangement: nothing to match, every constraint is new.
      var made: [LayoutConstraint] = []
      made.reserveCapacity(wanted.count)
      for spec in wanted { made.append(makeConstraint(spec)) }
      storedArrangementConstraints = made
      LayoutConstraint.activate(made)
      dropUnusedGuides()
      return
    }
    var existing: [Key: LayoutConstraint] = [:]
    existing.reserveCapacity(storedArrangementConstraints.count)
    for constraint in storedArrangementConstraints {
      if let key = Key(constraint) { existing[key] = constraint }
    }
    var matched: [LayoutConstraint?] = []
    matched.reserveCapacity(wanted.count)
    for spec in wanted {
      let constraint = existing.removeValue(forKey: spec.key)
      if let constraint {
        constraint.constant = spec.constant
        constraint.priority = spec.priority
      }
      matched.append(constraint)
    }
    do {
      let keptIDs = Set(matched.lazy.compactMap { $0.map(ObjectIdentifier.init) })
      let leaving = storedArrangementConstraints.filter { !keptIDs.contains(ObjectIdentifier($0)) }
      LayoutConstraint.deactivate(leaving)
    }
    existing = [:]
    storedArrangementConstraints = []
    // At the exact size: the list is kept until the next update, and one grown by doubling
    // would hold up to twice the room.
    var kept: [LayoutConstraint] = []
    kept.reserveCapacity(wanted.count)
    var arriving: [LayoutConstraint] = []
    for (spec, match) in zip(wanted, matched) {
      if let constraint = match {
        if !constraint.active { arriving.append(constraint) }
        kept.append(constraint)
      } else {
        let constraint = makeConstraint(spec)
        arriving.append(constraint)
        kept.append(constraint)
      }
    }
    storedArrangementConstraints = kept
    LayoutConstraint.activate(arriving)
    dropUnusedGuides()
  }

  /// A new constraint as `spec` describes it.
  private func makeConstraint(_ spec: Wanted) -> LayoutConstraint {
    LayoutConstraint(
      kind: .standard, spec.first, spec.firstAttribute, spec.relation, spec.second,
      spec.secondAttribute, multiplier: spec.multiplier, constant: spec.constant,
      priority: spec.priority, identifier: spec.identifier)
  }

  /// When `wanted` asks for the constraints the stack has, in the same order (a new spacing or
  /// custom spacing), edits their constants and priorities in place and returns true; else
  /// changes nothing and returns false. Matching by key instead builds a dictionary and a set.
  ///
  /// - Complexity: O(*n*) for *n* arrangement constraints.
  private func editInPlace(_ wanted: [Wanted]) -> Bool {
    guard wanted.count == storedArrangementConstraints.count else { return false }
    for (spec, constraint) in zip(wanted, storedArrangementConstraints) {
      guard constraint.active, constraint.firstItem === spec.first,
        constraint.secondItem === spec.second, constraint.firstAttribute == spec.firstAttribute,
        constraint.secondAttribute == spec.secondAttribute, constraint.relation == spec.relation,
        constraint.multiplier == spec.multiplier, constraint.storedIdentifier == spec.identifier
      else { return false }
    }
    for (spec, constraint) in zip(wanted, storedArrangementConstraints) {
      constraint.constant = spec.constant
      constraint.priority = spec.priority
    }
    return true
  }

  /// Appends every constraint the current arrangement needs, in UIKit's order: distribution,
  /// then alignment, then the hidden views.
  func appendWantedConstraints(to result: inout [Wanted]) {
    // Filtered only when a view is hidden: else the list is shared, not copied.
    let visible =
      arrangedSubviews.contains { $0.isHidden }
      ? arrangedSubviews.filter { !$0.isHidden } : arrangedSubviews
    let along = AxisAttributes(storedAxis)
    let across = AxisAttributes(storedAxis == .horizontal ? .vertical : .horizontal)
    if !visible.isEmpty {
      distribute(visible, along, into: &result)
      align(visible, across, into: &result)
    }
    hide(along, across, firstVisible: visible.first, into: &result)
  }

  // MARK: Along the axis

  private func distribute(_ visible: [View], _ along: AxisAttributes, into result: inout [Wanted]) {
    let canvas = self.canvas
    func add(
      _ first: LayoutItem, _ attribute1: LayoutAttribute, _ relation: LayoutRelation,
      _ second: LayoutItem?, _ attribute2: LayoutAttribute, multiplier: Double = 1,
      constant: Double = 0, priority: LayoutPriority = .required, _ identifier: String
    ) {
      result.append(
        Wanted(
          first: first, firstAttribute: attribute1, relation: relation, second: second,
          secondAttribute: attribute2, multiplier: multiplier, constant: constant,
          priority: priority, identifier: identifier))
    }
    add(canvas, along.leading, .equal, visible[0], along.leading, "UISV-canvas-connection")
    add(
      canvas, along.trailing, .equal, visible[visible.count - 1], along.trailing,
      "UISV-canvas-connection")
    let equalGaps = storedDistribution == .equalSpacing || storedDistribution == .equalCentering
    let baselines = storedAxis == .vertical && storedBaselineRelative
    for (previous, next) in zip(visible, visible.dropFirst()) {
      add(
        next, baselines ? .firstBaseline : along.leading, equalGaps ? .greaterThanOrEqual : .equal,
        previous, baselines ? .lastBaseline : along.trailing, constant: spacing(after: previous),
        "UISV-spacing")
    }
    switch storedDistribution {
    case .fill:
      break
    case .fillEqually:
      for view in visible.dropFirst() {
        add(view, along.size, .equal, visible[0], along.size, "UISV-fill-equally")
      }
    case .fillProportionally:
      let lengths = visible.map { max(0, $0.intrinsicLength(along.size)) }
      let spaces = zip(visible, visible.dropFirst()).reduce(0.0) { $0 + spacing(after: $1.0) }
      let total = lengths.reduce(0, +) + spaces
      if total <= max(spaces, 1) {
        for view in visible.dropFirst() {
          add(view, along.size, .equal, visible[0], along.size, "UISV-fill-equally")
        }
      } else {
        for (index, view) in visible.enumerated() {
          let multiplier = lengths[index] / total
          let priority = LayoutPriority(
            multiplier == 1 ? 1000 : Float(max(999 - index, 751)))
          add(
            view, along.size, .equal, canvas, along.size, multiplier: multiplier,
            priority: priority, "UISV-fill-proportionally")
        }
      }
    case .equalSpacing, .equalCentering:
      let guides = gaps(visible.count - 1)
      let edge = storedDistribution == .equalSpacing
      for (index, guide) in guides.enumerated() {
        let previous = visible[index], next = visible[index + 1]
        add(
          guide, along.leading, .equal, previous, edge ? along.trailing : along.center,
          "UISV-distributing-edge")
        add(
          guide, along.trailing, .equal, next, edge ? along.leading : along.center,
          "UISV-distributing-edge")
      }
      for (index, guide) in guides.enumerated().dropFirst() {
        let priority = edge ? LayoutPriority.required : LayoutPriority(Float(max(150 - index, 50)))
        add(
          guide, along.size, .equal, guides[0], along.size, priority: priority,
          "UISV-fill-equally")
      }
      add(canvas, along.size, .equal, nil, .notAnAttribute, priority: 49, "UISV-canvas-fit")
    }
  }

  /// The space after `view`: its custom spacing, else the stack's; the system spacing is 8.
  func spacing(after view: View) -> Double {
    let value = customSpacings[ObjectIdentifier(view)] ?? storedSpacing
    return value == Self.spacingUseSystem ? standardSpacing : value
  }

  // MARK: Across the axis

  private func align(_ visible: [View], _ across: AxisAttributes, into result: inout [Wanted]) {
    let canvas = self.canvas
    let first = visible[0]
    func add(
      _ item1: LayoutItem, _ attribute1: LayoutAttribute, _ relation: LayoutRelation,
      _ item2: LayoutItem?, _ attribute2: LayoutAttribute, priority: LayoutPriority = .required,
      _ identifier: String
    ) {
      result.append(
        Wanted(
          first: item1, firstAttribute: attribute1, relation: relation, second: item2,
          secondAttribute: attribute2, multiplier: 1, constant: 0, priority: priority,
          identifier: identifier))
    }
    guard let aligned = alignedAttribute(across) else {
      // Fill: every view spans the canvas.
      add(canvas, across.leading, .equal, first, across.leading, "UISV-canvas-connection")
      add(canvas, across.trailing, .equal, first, across.trailing, "UISV-canvas-connection")
      for view in visible.dropFirst() {
        add(first, across.leading, .equal, view, across.leading, "UISV-alignment")
        add(first, across.trailing, .equal, view, across.trailing, "UISV-alignment")
      }
      return
    }
    for view in visible.dropFirst() {
      add(first, aligned, .equal, view, aligned, "UISV-alignment")
    }
    // The spanner encloses the views; the canvas hugs the spanner.
    let spanner = spanner()
    add(canvas, across.leading, .equal, spanner, across.leading, "UISV-canvas-connection")
    add(canvas, across.trailing, .equal, spanner, across.trailing, "UISV-canvas-connection")
    if aligned == across.center {
      add(canvas, across.center, .equal, first, across.center, "UISV-canvas-connection")
    }
    // Each view inside the spanner; on the aligned edge, held there at 999.5.
    func boundary(_ view: View, _ edge: LayoutAttribute, outward: LayoutRelation) {
      let isAligned = aligned == edge
      add(
        spanner, edge, isAligned ? .equal : outward, view, edge,
        priority: isAligned ? 999.5 : .required, "UISV-spanning-boundary")
    }
    for view in visible {
      boundary(view, across.leading, outward: .lessThanOrEqual)
      boundary(view, across.trailing, outward: .greaterThanOrEqual)
    }
    add(spanner, across.size, .equal, nil, .notAnAttribute, priority: 51, "UISV-spanning-fit")
    for view in visible {
      add(
        view, across.size, .equal, nil, .notAnAttribute, priority: 25,
        "UISV-ambiguity-suppression")
    }
  }

  /// The attribute the alignment lines up, or `nil` for fill.
  private func alignedAttribute(_ across: AxisAttributes) -> LayoutAttribute? {
    switch storedAlignment {
    case .fill: nil
    case .leading: across.leading
    case .trailing: across.trailing
    case .center: across.center
    case .firstBaseline: storedAxis == .horizontal ? .firstBaseline : across.leading
    case .lastBaseline: storedAxis == .horizontal ? .lastBaseline : across.trailing
    }
  }

  // MARK: Hidden views

  /// A hidden arranged view collapses to zero length (`UISV-hiding` at 999.999), hangs after its
  /// predecessor at half the spacing (`UISV-spacing-hidden` at 50), and, so that its frame is
  /// not ambiguous, rests at the canvas's leading edge across the axis with no size of its own
  /// beyond its content (`UISV-ambiguity-suppression` at 25).
  private func hide(
    _ along: AxisAttributes, _ across: AxisAttributes, firstVisible: View?,
    into result: inout [Wanted]
  ) {
    // The canvas only when needed: asking an empty stack for it would make its margins guide.
    for (index, view) in arrangedSubviews.enumerated() where view.isHidden {
      let canvas = self.canvas
      func add(
        _ item1: LayoutItem, _ attribute1: LayoutAttribute, _ item2: LayoutItem?,
        _ attribute2: LayoutAttribute, constant: Double = 0, priority: LayoutPriority,
        _ identifier: String
      ) {
        result.append(
          Wanted(
            first: item1, firstAttribute: attribute1, relation: .equal, second: item2,
            secondAttribute: attribute2, multiplier: 1, constant: constant, priority: priority,
            identifier: identifier))
      }
      add(view, along.size, nil, .notAnAttribute, priority: 999.999, "UISV-hiding")
      if index > 0 {
        let previous = arrangedSubviews[index - 1]
        add(
          view, along.leading, previous, along.trailing,
          constant: previous.isHidden ? 0 : spacing(after: previous) / 2, priority: 50,
          "UISV-spacing-hidden")
      } else {
        add(view, along.leading, canvas, along.leading, priority: 50, "UISV-spacing-hidden")
      }
      add(
        view, across.leading, canvas, across.leading, priority: 25,
        "UISV-ambiguity-suppression")
      add(view, across.size, nil, .notAnAttribute, priority: 25, "UISV-ambiguity-suppression")
    }
  }

  // MARK: Guides

  /// `count` gap guides, made or reused.
  private func gaps(_ count: Int) -> [LayoutGuide] {
    while gapGuides.count < count {
      let guide = LayoutGuide(identifier: "UISV-distributing")
      addLayoutGuide(guide)
      gapGuides.append(guide)
    }
    return Array(gapGuides.prefix(count))
  }

  private func spanner() -> LayoutGuide {
    if let spannerGuide { return spannerGuide }
    let guide = LayoutGuide(identifier: "UISV-alignment-spanner")
    addLayoutGuide(guide)
    spannerGuide = guide
    return guide
  }

  /// Removes the guides no arrangement constraint uses any more.
  private func dropUnusedGuides() {
    while let last = gapGuides.last, last.activeConstraints.isEmpty {
      removeLayoutGuide(last)
      gapGuides.removeLast()
    }
    if let guide = spannerGuide, guide.activeConstraints.isEmpty {
      removeLayoutGuide(guide)
      spannerGuide = nil
    }
    // A margins guide the arrangement made (an empty stack has none until a view arrives) goes,
    // with its pins, when no constraint uses it, so that views arriving and leaving do not
    // leave a guide and four rows behind for good.
    if marginsGuideIsArrangementOnly, let guide = marginsGuide, guide.activeConstraints.isEmpty {
      removeMarginsGuide()
    }
  }
}

extension View {
  /// The intrinsic length of the view along `size` (width or height), or ``noIntrinsicMetric``.
  func intrinsicLength(_ size: LayoutAttribute) -> Double {
    let intrinsic = intrinsicContentSize
    return size == .width ? intrinsic.width : intrinsic.height
  }
}
