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

  /// Replaces the arrangement rows with the wanted ones, keeping every existing row with the
  /// same terms (its constant and priority are changed in place), in the stack's engine.
  ///
  /// The rows that leave are removed before the new ones are added, in one batch, as a
  /// deactivation and an activation would.
  ///
  /// - Complexity: that of ``replace(_:with:_:)`` (O(*n*) for *n* rows when only constants
  ///   change), plus the solver's work on the rows that change.
  func updateArrangementConstraints() {
    // A stack with nothing to arrange, no rows and no guides to drop (a grid's leaves) has
    // nothing to update.
    if storedArrangedSubviews.isEmpty, arrangementRows.isEmpty, gapGuides.isEmpty,
      spannerGuide == nil, !marginsGuideIsArrangementOnly
    {
      return
    }
    // The engine not retained: a stack grid's update pass runs this for every stack.
    withEngine { updateArrangementConstraints(in: $0) }
  }

  private func updateArrangementConstraints(in engine: LayoutEngine) {
    // In the engine's room, handed back emptied but with its capacity.
    var wanted: [ArrangementRow] = []
    swap(&wanted, &engine.arrangementScratch)
    defer {
      wanted.removeAll(keepingCapacity: true)
      swap(&wanted, &engine.arrangementScratch)
    }
    appendWantedConstraints(to: &wanted)
    // Changed out of place (see `View.changeSubviews(_:)`).
    var rows: [ArrangementRow] = []
    swap(&rows, &arrangementRows)
    // An empty table goes the long way: rows dropped with a view that left may leave guides
    // to drop.
    if !rows.isEmpty, editInPlace(&rows, wanted, engine) {
      swap(&rows, &arrangementRows)
      return
    }
    engine.beginBatch()
    replace(&rows, with: &wanted, engine)
    // Stored before the batch ends: an add that fails then finds its row.
    swap(&rows, &arrangementRows)
    engine.endBatch()
    dropUnusedGuides()
  }

  /// Matches `wanted` with `rows` by terms: a match keeps its solver id and takes the wanted
  /// constant and priority in place; the rows left over are removed, and the wanted rows with
  /// no match added; then `rows` holds the wanted rows, in order, at their exact count (the
  /// table is kept until the next update, and one grown by doubling would hold up to twice the
  /// room). Called inside a batch, which holds the adds.
  ///
  /// - Complexity: O(*n*²) key comparisons for *n* rows up to ``rowsMatchedByScan``, O(*n*)
  ///   hashes above, plus the solver's work on the rows that change.
  private func replace(
    _ rows: inout [ArrangementRow], with wanted: inout [ArrangementRow], _ engine: LayoutEngine
  ) {
    if !rows.isEmpty {
      var existing: [ArrangementRow.Key: Int] = [:]
      let isHashed = rows.count > Self.rowsMatchedByScan
      if isHashed {
        existing.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() { existing[row.key] = index }
      }
      // Scanning, a row matched is marked here, by its index.
      var matched: UInt64 = 0
      for index in wanted.indices {
        let key = wanted[index].key
        let found: Int?
        if isHashed {
          found = existing.removeValue(forKey: key)
        } else {
          found = Self.lastRow(in: rows, with: key, unless: matched)
          if let found { matched |= 1 << UInt64(found) }
        }
        guard let match = found else { continue }
        var row = rows[match]
        engine.updateArrangementRow(&row, to: wanted[index])
        wanted[index] = row
        // Kept: not to be removed below.
        rows[match].solverID = -1
      }
      for index in rows.indices where rows[index].solverID >= 0 {
        engine.uninstallArrangementRow(&rows[index])
      }
    }
    for index in wanted.indices where wanted[index].solverID < 0 {
      engine.installArrangementRow(&wanted[index], of: self)
    }
    var result: [ArrangementRow] = []
    result.reserveCapacity(wanted.count)
    result.append(contentsOf: wanted)
    rows = result
  }

  /// The most rows a stack's update matches by scanning them rather than through a dictionary
  /// of their keys: a stack's table is a few rows a view, and hashing every key cost a hidden
  /// view's update more than comparing them.
  static var rowsMatchedByScan: Int { 64 }

  /// The row of `rows` that `key` matches, as the dictionary of ``replace(_:with:_:)`` finds
  /// it: the last row with `key`, unless `matched` (a bit an index) says a wanted row took it
  /// already; nil when there is none.
  ///
  /// - Complexity: O(rows).
  private static func lastRow(
    in rows: [ArrangementRow], with key: ArrangementRow.Key, unless matched: UInt64
  ) -> Int? {
    guard let last = rows.lastIndex(where: { $0.key == key }) else { return nil }
    return matched & (1 << UInt64(last)) == 0 ? last : nil
  }

  /// When `wanted` asks for the rows the stack has, in the same order (a new spacing or custom
  /// spacing), and they are installed, changes their constants and priorities in place and
  /// returns true; else changes nothing and returns false. Matching by key instead builds a
  /// dictionary.
  ///
  /// - Complexity: O(*n*) for *n* rows.
  private func editInPlace(
    _ rows: inout [ArrangementRow], _ wanted: [ArrangementRow], _ engine: LayoutEngine
  ) -> Bool {
    guard wanted.count == rows.count else { return false }
    for (spec, row) in zip(wanted, rows) where row.solverID < 0 || !row.hasSameTerms(as: spec) {
      return false
    }
    for index in rows.indices { engine.updateArrangementRow(&rows[index], to: wanted[index]) }
    return true
  }

  /// Appends every constraint the current arrangement needs, in UIKit's order: distribution,
  /// then alignment, then the hidden views.
  ///
  /// The arranged views are walked unretained (the stack holds them): retained for each row
  /// they appear in, they were a fifth of a stack grid's first update pass.
  func appendWantedConstraints(to result: inout [ArrangementRow]) {
    let along = AxisAttributes(storedAxis)
    let across = AxisAttributes(storedAxis == .horizontal ? .vertical : .horizontal)
    let arrangedViews = storedArrangedSubviews
    arrangedViews.withUnsafeBufferPointer { views in
      views.withMemoryRebound(to: Unmanaged<View>.self) { arranged in
        guard arranged.contains(where: { $0._withUnsafeGuaranteedRef { $0.isHidden } }) else {
          guard !arranged.isEmpty else { return }
          distribute(arranged, along, into: &result)
          align(arranged, across, into: &result)
          return
        }
        let visible = arranged.filter { !$0._withUnsafeGuaranteedRef { $0.isHidden } }
        visible.withUnsafeBufferPointer { visible in
          guard !visible.isEmpty else { return }
          distribute(visible, along, into: &result)
          align(visible, across, into: &result)
        }
        hide(arranged, along, across, into: &result)
      }
    }
  }

  /// The item the views are laid out in, the stack or its margins guide, not retained: the
  /// stack holds it.
  private var unretainedCanvas: Unmanaged<LayoutItem> {
    guard storedMarginsRelative else { return .passUnretained(self) }
    if let guide = unretainedMarginsGuide { return guide.item }
    return .passUnretained(arrangementMarginsGuide)
  }

  // MARK: Along the axis

  private func distribute(
    _ visible: UnsafeBufferPointer<Unmanaged<View>>, _ along: AxisAttributes,
    into result: inout [ArrangementRow]
  ) {
    let canvas = unretainedCanvas
    func add(
      _ first: Unmanaged<LayoutItem>, _ attribute1: LayoutAttribute, _ relation: LayoutRelation,
      _ second: Unmanaged<LayoutItem>?, _ attribute2: LayoutAttribute, multiplier: Double = 1,
      constant: Double = 0, priority: LayoutPriority = .required,
      _ identifier: ArrangementIdentifier
    ) {
      result.append(
        ArrangementRow(
          first, attribute1, relation, second, attribute2, multiplier: multiplier,
          constant: constant, priority: priority, identifier))
    }
    let first = visible[0].item, last = visible[visible.count - 1].item
    add(canvas, along.leading, .equal, first, along.leading, .canvasConnection)
    add(canvas, along.trailing, .equal, last, along.trailing, .canvasConnection)
    let equalGaps = storedDistribution == .equalSpacing || storedDistribution == .equalCentering
    let baselines = storedAxis == .vertical && storedBaselineRelative
    for index in visible.indices.dropFirst() {
      let previous = visible[index - 1], next = visible[index]
      add(
        next.item, baselines ? .firstBaseline : along.leading,
        equalGaps ? .greaterThanOrEqual : .equal,
        previous.item, baselines ? .lastBaseline : along.trailing,
        constant: spacing(after: previous), .spacing)
    }
    switch storedDistribution {
    case .fill:
      break
    case .fillEqually:
      for view in visible.dropFirst() {
        add(view.item, along.size, .equal, first, along.size, .fillEqually)
      }
    case .fillProportionally:
      let lengths = visible.map { view in
        max(0, view._withUnsafeGuaranteedRef { $0.intrinsicLength(along.size) })
      }
      var spaces = 0.0
      for index in visible.indices.dropFirst() { spaces += spacing(after: visible[index - 1]) }
      let total = lengths.reduce(0, +) + spaces
      if total <= max(spaces, 1) {
        for view in visible.dropFirst() {
          add(view.item, along.size, .equal, first, along.size, .fillEqually)
        }
      } else {
        for (index, view) in visible.enumerated() {
          let multiplier = lengths[index] / total
          let priority = LayoutPriority(
            multiplier == 1 ? 1000 : Float(max(999 - index, 751)))
          add(
            view.item, along.size, .equal, canvas, along.size, multiplier: multiplier,
            priority: priority, .fillProportionally)
        }
      }
    case .equalSpacing, .equalCentering:
      let edge = storedDistribution == .equalSpacing
      // The gap guides walked unretained too (the stack holds them).
      let gapList = gaps(visible.count - 1)
      gapList.withUnsafeBufferPointer { gapBuffer in
        gapBuffer.withMemoryRebound(to: Unmanaged<LayoutGuide>.self) { guides in
          for index in guides.indices {
            let guide = guides[index].item
            let previous = visible[index].item, next = visible[index + 1].item
            add(
              guide, along.leading, .equal, previous, edge ? along.trailing : along.center,
              .distributingEdge)
            add(
              guide, along.trailing, .equal, next, edge ? along.leading : along.center,
              .distributingEdge)
          }
          for index in guides.indices.dropFirst() {
            let priority =
              edge ? LayoutPriority.required : LayoutPriority(Float(max(150 - index, 50)))
            add(
              guides[index].item, along.size, .equal, guides[0].item, along.size,
              priority: priority, .fillEqually)
          }
        }
      }
      add(canvas, along.size, .equal, nil, .notAnAttribute, priority: 49, .canvasFit)
    }
  }

  /// The space after `view`, an arranged view walked unretained: its custom spacing, else the
  /// stack's; the system spacing is 8.
  private func spacing(after view: Unmanaged<View>) -> Double {
    // Looked up only when some view has one: hashing every pair cost a stack's update more
    // than its rows.
    let value =
      customSpacings.isEmpty
      ? storedSpacing
      : customSpacings[view._withUnsafeGuaranteedRef { ObjectIdentifier($0) }] ?? storedSpacing
    return value == Self.spacingUseSystem ? standardSpacing : value
  }

  // MARK: Across the axis

  private func align(
    _ visible: UnsafeBufferPointer<Unmanaged<View>>, _ across: AxisAttributes,
    into result: inout [ArrangementRow]
  ) {
    let canvas = unretainedCanvas
    let first = visible[0].item
    func add(
      _ item1: Unmanaged<LayoutItem>, _ attribute1: LayoutAttribute, _ relation: LayoutRelation,
      _ item2: Unmanaged<LayoutItem>?, _ attribute2: LayoutAttribute,
      priority: LayoutPriority = .required, _ identifier: ArrangementIdentifier
    ) {
      result.append(
        ArrangementRow(
          item1, attribute1, relation, item2, attribute2, priority: priority, identifier))
    }
    guard let aligned = alignedAttribute(across) else {
      // Fill: every view spans the canvas.
      add(canvas, across.leading, .equal, first, across.leading, .canvasConnection)
      add(canvas, across.trailing, .equal, first, across.trailing, .canvasConnection)
      for view in visible.dropFirst() {
        add(first, across.leading, .equal, view.item, across.leading, .alignment)
        add(first, across.trailing, .equal, view.item, across.trailing, .alignment)
      }
      return
    }
    for view in visible.dropFirst() {
      add(first, aligned, .equal, view.item, aligned, .alignment)
    }
    // The spanner encloses the views; the canvas hugs the spanner.
    let spanner = Unmanaged<LayoutItem>.passUnretained(spanner())
    add(canvas, across.leading, .equal, spanner, across.leading, .canvasConnection)
    add(canvas, across.trailing, .equal, spanner, across.trailing, .canvasConnection)
    if aligned == across.center {
      add(canvas, across.center, .equal, first, across.center, .canvasConnection)
    }
    // Each view inside the spanner; on the aligned edge, held there at 999.5.
    func boundary(_ view: Unmanaged<LayoutItem>, _ edge: LayoutAttribute, outward: LayoutRelation) {
      let isAligned = aligned == edge
      add(
        spanner, edge, isAligned ? .equal : outward, view, edge,
        priority: isAligned ? 999.5 : .required, .spanningBoundary)
    }
    for view in visible {
      boundary(view.item, across.leading, outward: .lessThanOrEqual)
      boundary(view.item, across.trailing, outward: .greaterThanOrEqual)
    }
    add(spanner, across.size, .equal, nil, .notAnAttribute, priority: 51, .spanningFit)
    for view in visible {
      add(
        view.item, across.size, .equal, nil, .notAnAttribute, priority: 25,
        .ambiguitySuppression)
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
    _ arranged: UnsafeBufferPointer<Unmanaged<View>>, _ along: AxisAttributes,
    _ across: AxisAttributes, into result: inout [ArrangementRow]
  ) {
    func add(
      _ item1: Unmanaged<LayoutItem>, _ attribute1: LayoutAttribute,
      _ item2: Unmanaged<LayoutItem>?, _ attribute2: LayoutAttribute, constant: Double = 0,
      priority: LayoutPriority, _ identifier: ArrangementIdentifier
    ) {
      result.append(
        ArrangementRow(
          item1, attribute1, .equal, item2, attribute2, constant: constant, priority: priority,
          identifier))
    }
    for (index, view) in arranged.enumerated()
    where view._withUnsafeGuaranteedRef({ $0.isHidden }) {
      // The canvas only when needed: asking an empty stack for it would make its margins guide.
      let canvas = unretainedCanvas
      add(view.item, along.size, nil, .notAnAttribute, priority: 999.999, .hiding)
      if index > 0 {
        let previous = arranged[index - 1]
        add(
          view.item, along.leading, previous.item, along.trailing,
          constant: previous._withUnsafeGuaranteedRef { $0.isHidden }
            ? 0 : spacing(after: previous) / 2,
          priority: 50, .spacingHidden)
      } else {
        add(view.item, along.leading, canvas, along.leading, priority: 50, .spacingHidden)
      }
      add(
        view.item, across.leading, canvas, across.leading, priority: 25,
        .ambiguitySuppression)
      add(view.item, across.size, nil, .notAnAttribute, priority: 25, .ambiguitySuppression)
    }
  }

  // MARK: Guides

  /// `count` gap guides, made or reused.
  private func gaps(_ count: Int) -> [LayoutGuide] {
    if gapGuides.count < count {
      changeGapGuides { guides in
        while guides.count < count {
          let guide = LayoutGuide(identifier: "UISV-distributing")
          addLayoutGuide(guide)
          guides.append(guide)
        }
      }
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

  /// Removes the guides no arrangement row or constraint uses any more.
  private func dropUnusedGuides() {
    if let last = gapGuides.last, isUnused(last) {
      changeGapGuides { guides in
        while let last = guides.last, isUnused(last) {
          removeLayoutGuide(last)
          guides.removeLast()
        }
      }
    }
    if let guide = spannerGuide, isUnused(guide) {
      removeLayoutGuide(guide)
      // Swapped out, so that the guide is released outside any access to the property.
      var gone: LayoutGuide? = nil
      swap(&gone, &spannerGuide)
    }
    // A margins guide the arrangement made (an empty stack has none until a view arrives) goes,
    // with its pins, when nothing uses it, so that views arriving and leaving do not leave a
    // guide and four rows behind for good.
    if marginsGuideIsArrangementOnly, let guide = marginsGuide, isUnused(guide) {
      removeMarginsGuide()
    }
  }

  /// Whether neither a row nor an active constraint refers to `guide`.
  ///
  /// - Complexity: O(rows).
  private func isUnused(_ guide: LayoutGuide) -> Bool {
    !guide.hasActiveConstraints && !arrangementRows.contains { $0.refers(to: guide) }
  }

  /// Takes out, at once, every row that refers to `item`, which the stack lets go of (an
  /// arranged view that leaves, a guide removed): a row must not outlive its items. The next
  /// update pass makes what the arrangement wants then.
  ///
  /// - Complexity: O(rows), plus a solver removal a row taken out.
  func dropRows(referringTo item: LayoutItem) {
    guard arrangementRows.contains(where: { $0.refers(to: item) }) else { return }
    var rows: [ArrangementRow] = []
    swap(&rows, &arrangementRows)
    let engine = layoutEngine
    engine?.beginBatch()
    for index in rows.indices where rows[index].refers(to: item) && rows[index].solverID >= 0 {
      engine?.uninstallArrangementRow(&rows[index])
    }
    engine?.endBatch()
    rows.removeAll { $0.refers(to: item) }
    swap(&rows, &arrangementRows)
    setNeedsUpdateConstraints()
  }
}

extension View {
  /// The intrinsic length of the view along `size` (width or height), or ``noIntrinsicMetric``.
  func intrinsicLength(_ size: LayoutAttribute) -> Double {
    let intrinsic = intrinsicContentSize
    return size == .width ? intrinsic.width : intrinsic.height
  }
}
