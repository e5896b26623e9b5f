/// The constraints a view makes for itself: from its frame and autoresizing mask, from its
/// intrinsic content size (with its hugging and compression resistance priorities), and those
/// that pin its margins and safe-area guides.
extension View {
  /// Asks the next update pass to remake this view's system constraints, without a call to its
  /// ``updateConstraints()``: a stack's arrangement does not depend on them, and a stack nested
  /// in another enters the engine in the pass that arranges it.
  func markSystemConstraintsDirty() {
    systemConstraintsDirty = true
    needsOwnUpdate = true
    markAncestorsForUpdatePass()
  }

  /// Deactivates the autoresizing constraints and takes the content-size rows out of `engine`,
  /// to be remade on the next update pass (the view is leaving `engine`'s tree; its guides'
  /// pins left with its constraints, see `uninstallSubtree(from:)`).
  func dropSystemConstraints(from engine: LayoutEngine) {
    for constraint in autoresizingConstraints where constraint.active {
      constraint.engine?.uninstall(constraint)
      constraint.detach()
    }
    autoresizingConstraints.removeAll()
    dropContentSize(.horizontal, from: engine)
    dropContentSize(.vertical, from: engine)
    markSystemConstraintsDirty()
  }

  /// Takes the guides' pins out of `engine` where they are installed there, and forgets them.
  func dropGuidePins(from engine: LayoutEngine) {
    guard rareProperties != nil else { return }
    for which in PinnedGuide.allCases where !pinRows(which).isEmpty {
      if engine.ownsGuidePins(of: self, which) {
        engine.uninstallGuidePins(of: self, which)
      } else {
        setPinRows(GuidePinRows(), which)
      }
    }
  }

  /// Installs in `engine` the pins of each guide the view has and `engine` does not hold.
  func installGuidePins(in engine: LayoutEngine) {
    guard rareProperties != nil else { return }
    for which in PinnedGuide.allCases
    where pinnedGuide(which) != nil && !engine.ownsGuidePins(of: self, which) {
      engine.installGuidePins(of: self, which)
    }
  }

  private func dropContentSize(_ axis: LayoutAttribute.Axis, from engine: LayoutEngine) {
    guard let rows = contentSizeRows[axis] else { return }
    if engine.ownsContentSizeRow(rows.growth, of: self) {
      engine.uninstallContentSize(rows, of: self)
    }
    contentSizeRows[axis] = nil
  }

  /// Brings the autoresizing and content-size constraints up to date, changing constants in
  /// place where only they differ.
  func updateSystemConstraints() {
    systemConstraintsDirty = false
    let inEngine = engineBlock >= 0
    unretainedEngine?._withUnsafeGuaranteedRef { engine in
      updateAutoresizingConstraints(
        engine, wanted: inEngine && translatesAutoresizingMaskIntoConstraints)
      updateContentSizeConstraints(engine, wanted: inEngine)
      installGuidePins(in: engine)
    }
  }

  // MARK: Intrinsic content size

  /// Tells the view that its intrinsic content size changed: the next update pass changes the
  /// content-size constraints' constants in place.
  public func invalidateIntrinsicContentSize() {
    markSystemConstraintsDirty()
    arrangingStackView?.arrangedSubviewDidChange(self, intrinsicSize: true)
  }

  /// How much the view resists growing beyond its intrinsic size on `axis` (250 by default).
  public func contentHuggingPriority(for axis: LayoutAttribute.Axis) -> LayoutPriority {
    axis == .horizontal ? huggingPriorities.horizontal : huggingPriorities.vertical
  }

  /// Sets how much the view resists growing beyond its intrinsic size on `axis`.
  public func setContentHuggingPriority(_ priority: LayoutPriority, for axis: LayoutAttribute.Axis)
  {
    precondition(priority.isValid, LayoutError.invalidPriority(priority).message)
    guard priority != contentHuggingPriority(for: axis) else { return }
    if axis == .horizontal {
      huggingPriorities.horizontal = priority
    } else {
      huggingPriorities.vertical = priority
    }
    contentPrioritiesDidChange(axis)
  }

  /// How much the view resists shrinking below its intrinsic size on `axis` (750 by default).
  public func contentCompressionResistancePriority(for axis: LayoutAttribute.Axis)
    -> LayoutPriority
  { axis == .horizontal ? resistancePriorities.horizontal : resistancePriorities.vertical }

  /// Sets how much the view resists shrinking below its intrinsic size on `axis`.
  public func setContentCompressionResistancePriority(
    _ priority: LayoutPriority, for axis: LayoutAttribute.Axis
  ) {
    precondition(priority.isValid, LayoutError.invalidPriority(priority).message)
    guard priority != contentCompressionResistancePriority(for: axis) else { return }
    if axis == .horizontal {
      resistancePriorities.horizontal = priority
    } else {
      resistancePriorities.vertical = priority
    }
    contentPrioritiesDidChange(axis)
  }

  /// Re-weights the content-size rows on `axis` to the view's new priorities.
  private func contentPrioritiesDidChange(_ axis: LayoutAttribute.Axis) {
    guard let rows = contentSizeRows[axis] else { return }
    unretainedEngine?._withUnsafeGuaranteedRef { engine in
      guard engine.ownsContentSizeRow(rows.growth, of: self) else { return }
      engine.contentPrioritiesDidChange(of: self, axis, rows: rows)
    }
  }

  /// Brings the content-size rows on both axes up to date with ``intrinsicContentSize`` (none
  /// when `wanted` is false): made, removed, or their length changed in place.
  private func updateContentSizeConstraints(_ engine: LayoutEngine, wanted: Bool) {
    let size = wanted ? intrinsicContentSize : Size(width: -1, height: -1)
    updateContentSize(engine, .horizontal, length: size.width)
    updateContentSize(engine, .vertical, length: size.height)
  }

  private func updateContentSize(
    _ engine: LayoutEngine, _ axis: LayoutAttribute.Axis, length: Double
  ) {
    var existing = contentSizeRows[axis]
    // Ids kept from an engine that went with the view's old root name nothing here.
    if let rows = existing, !engine.ownsContentSizeRow(rows.growth, of: self) {
      contentSizeRows[axis] = nil
      existing = nil
    }
    guard length >= 0, length.isFinite else {
      if let existing {
        engine.uninstallContentSize(existing, of: self)
        contentSizeRows[axis] = nil
      }
      return
    }
    if let existing {
      guard length != contentSizeRows.length(axis) else { return }
      contentSizeRows.setLength(length, axis)
      engine.setContentSizeLength(length, of: existing)
      return
    }
    contentSizeRows.setLength(length, axis)
    contentSizeRows[axis] = engine.installContentSize(of: self, axis, length: length)
  }

  /// A constraint that stands for the view's content-size rows on `axis` (UIKit's
  /// `NSContentSizeLayoutConstraint`), made for the asking: it reads the rows' length and
  /// whether they are installed from the view as they are now, and describes the view's
  /// priorities. Nil when the axis has no rows.
  ///
  /// - Complexity: O(1); allocates the constraint.
  func contentSizeConstraint(_ axis: LayoutAttribute.Axis) -> LayoutConstraint? {
    guard contentSizeRows[axis] != nil else { return nil }
    return LayoutConstraint(
      kind: .contentSize, self, axis == .horizontal ? .width : .height, .equal, nil,
      .notAnAttribute, multiplier: 0, constant: contentSizeRows.length(axis))
  }

  /// ``contentSizeConstraint(_:)`` for the axis whose growth row has solver id `id`; nil for
  /// any other id.
  ///
  /// - Complexity: O(1); allocates the constraint.
  func contentSizeConstraint(growthRow id: Int32) -> LayoutConstraint? {
    contentSizeRows.axis(ofGrowthRow: id).flatMap { contentSizeConstraint($0) }
  }

  // MARK: Autoresizing mask

  /// The autoresizing constraints UIKit would make for this frame, mask and superview.
  private func wantedAutoresizingConstraints() -> AutoresizingShapes {
    let insets = alignmentRectInsets
    let frame = storedFrame
    guard let superview else {
      return AutoresizingShapes(
        (.left, .notAnAttribute, 0, frame.minX + insets.left),
        (.width, .notAnAttribute, 0, frame.width - insets.left - insets.right),
        (.top, .notAnAttribute, 0, frame.minY + insets.top),
        (.height, .notAnAttribute, 0, frame.height - insets.top - insets.bottom))
    }
    let outer = superview.alignmentRectInsets
    let bounds = superview.bounds
    let horizontal = Self.autoresizing(
      flexible: (
        autoresizingMask.contains(.flexibleLeftMargin), autoresizingMask.contains(.flexibleWidth),
        autoresizingMask.contains(.flexibleRightMargin)
      ),
      position: frame.minX, length: frame.width, available: bounds.width,
      inner: (insets.left, insets.right), outer: (outer.left, outer.right),
      attributes: (.left, .right, .width))
    let vertical = Self.autoresizing(
      flexible: (
        autoresizingMask.contains(.flexibleTopMargin), autoresizingMask.contains(.flexibleHeight),
        autoresizingMask.contains(.flexibleBottomMargin)
      ),
      position: frame.minY, length: frame.height, available: bounds.height,
      inner: (insets.top, insets.bottom), outer: (outer.top, outer.bottom),
      attributes: (.top, .bottom, .height))
    return AutoresizingShapes(horizontal.0, horizontal.1, vertical.0, vertical.1)
  }

  /// One axis of UIKit's autoresizing table, in the engine's space: `position` is the frame's
  /// offset in the superview's bounds and `available` the bounds' length; `inner` and `outer` are
  /// the alignment-rect insets of the view and of the superview.
  private static func autoresizing(
    flexible: (Bool, Bool, Bool), position: Double, length: Double, available: Double,
    inner: (Double, Double), outer: (Double, Double),
    attributes: (LayoutAttribute, LayoutAttribute, LayoutAttribute)
  ) -> (AutoresizingShape, AutoresizingShape) {
    let (minEdge, maxEdge, size) = attributes
    let leadingMargin = position
    let trailingMargin = available - position - length
    let outerSum = outer.0 + outer.1
    let fixedPosition = (minEdge, minEdge, 1.0, leadingMargin + inner.0 - outer.0)
    let fixedLength = (size, LayoutAttribute.notAnAttribute, 0.0, length - inner.0 - inner.1)
    let fixedTrailing = (maxEdge, maxEdge, 1.0, outer.1 - inner.1 - trailingMargin)
    func ratio(_ numerator: Double, _ denominator: Double, _ fallback: Double) -> Double {
      abs(denominator) < 1e-9 ? fallback : numerator / denominator
    }
    switch flexible {
    case (false, false, _):
      return (fixedPosition, fixedLength)
    case (true, false, false):
      return (fixedTrailing, fixedLength)
    case (false, true, false):
      return (fixedPosition, fixedTrailing)
    case (true, true, false):
      let m = ratio(length, available - trailingMargin, 0.5)
      return (
        fixedTrailing, (size, size, m, m * outerSum - trailingMargin * m - inner.0 - inner.1)
      )
    case (true, false, true):
      let m = ratio(position, available - length, 0.5)
      return (fixedLength, (minEdge, size, m, m * outerSum - length * m + inner.0))
    case (false, true, true):
      let m = ratio(length, available - leadingMargin, 1.0)
      return (fixedPosition, (size, size, m, m * outerSum - leadingMargin * m - inner.0 - inner.1))
    case (true, true, true):
      let p = ratio(position, available, 0), l = ratio(length, available, 0)
      return (
        (minEdge, size, p, p * outerSum + inner.0),
        (size, size, l, l * outerSum - inner.0 - inner.1)
      )
    }
  }

  private func updateAutoresizingConstraints(_ engine: LayoutEngine, wanted: Bool) {
    // Most views of a layout built in code neither want nor have any: nothing to compare.
    guard wanted || !autoresizingConstraints.isEmpty else { return }
    let shapes = wanted ? wantedAutoresizingConstraints() : nil
    let count = shapes == nil ? 0 : AutoresizingShapes.count
    let sameShape =
      count == autoresizingConstraints.count
      && (0..<count).allSatisfy { index in
        let shape = shapes![index], constraint = autoresizingConstraints[index]
        return constraint.firstAttribute == shape.0 && constraint.secondAttribute == shape.1
          && constraint.multiplier == shape.2 && constraint.kind == .autoresizingMask
          && constraint.secondItem === (shape.1 == .notAnAttribute ? nil : superview)
      }
    if sameShape {
      for index in 0..<count { autoresizingConstraints[index].constant = shapes![index].3 }
      return
    }
    for constraint in autoresizingConstraints where constraint.active {
      engine.uninstall(constraint)
      constraint.detach()
    }
    autoresizingConstraints = (0..<count).map { index in
      let shape = shapes![index]
      return LayoutConstraint(
        kind: .autoresizingMask, self, shape.0, .equal,
        shape.1 == .notAnAttribute ? nil : superview, shape.1, multiplier: shape.2,
        constant: shape.3)
    }
    for constraint in autoresizingConstraints {
      constraint.attach()
      engine.install(constraint)
    }
  }

  // MARK: Margins and safe area

  /// The space between the view's edges and its content, 8 on every side by default; the
  /// ``layoutMarginsGuide`` and the margin attributes follow it (constants change in place).
  public var layoutMargins: EdgeInsets {
    get { storedLayoutMargins }
    set {
      guard newValue != storedLayoutMargins else { return }
      let old = storedLayoutMargins
      storedLayoutMargins = newValue
      guidePinsDidChange(.margins, from: old, alignment: alignmentRectInsets)
    }
  }

  /// The insets of the safe area (status bar, home indicator) on this view; zero by default.
  /// Set it on a root to model a device; it is not propagated to descendants.
  public var safeAreaInsets: EdgeInsets {
    get { storedSafeAreaInsets }
    set {
      guard newValue != storedSafeAreaInsets else { return }
      let old = storedSafeAreaInsets
      storedSafeAreaInsets = newValue
      guidePinsDidChange(.safeArea, from: old, alignment: alignmentRectInsets)
    }
  }

  /// The view's bounds inset by its layout margins, as a layout guide (UIKit's
  /// `UIViewLayoutMarginsGuide`), made on first use.
  public var layoutMarginsGuide: LayoutGuide {
    marginsGuideIsArrangementOnly = false
    return makeMarginsGuide()
  }

  /// The margins guide for a stack view's arrangement: made if need be, and then droppable by
  /// the arrangement (see ``StackView``'s guides) until a client asks for it.
  var arrangementMarginsGuide: LayoutGuide {
    if let marginsGuide { return marginsGuide }
    marginsGuideIsArrangementOnly = true
    return makeMarginsGuide()
  }

  /// Takes the margins guide and its pins away; a later use makes a new one.
  func removeMarginsGuide() {
    guard let guide = marginsGuide else { return }
    removeLayoutGuide(guide)
  }

  /// Takes the pins of the guide `which` out of the engine and forgets the guide (it is being
  /// removed); a later use makes a new one.
  func unpinGuide(_ which: PinnedGuide) {
    if let engine = rootView.engineStorage, engine.ownsGuidePins(of: self, which) {
      engine.uninstallGuidePins(of: self, which)
    }
    setPinRows(GuidePinRows(), which)
    if which == .margins {
      marginsGuide = nil
      marginsGuideIsArrangementOnly = false
    } else {
      safeAreaGuide = nil
    }
  }

  private func makeMarginsGuide() -> LayoutGuide {
    if let marginsGuide { return marginsGuide }
    let guide = LayoutGuide(identifier: "UIViewLayoutMarginsGuide")
    marginsGuide = guide
    pinGuide(guide, .margins)
    return guide
  }

  /// The view's bounds inset by its safe-area insets, as a layout guide (UIKit's
  /// `UIViewSafeAreaLayoutGuide`), made on first use.
  public var safeAreaLayoutGuide: LayoutGuide {
    if let safeAreaGuide { return safeAreaGuide }
    let guide = LayoutGuide(identifier: "UIViewSafeAreaLayoutGuide")
    safeAreaGuide = guide
    pinGuide(guide, .safeArea)
    return guide
  }

  /// Adds `guide` and has the engine pin it inside the bounds at the insets of `which` with
  /// four required rows, as activating four constraints would (making the tree's engine).
  private func pinGuide(_ guide: LayoutGuide, _ which: PinnedGuide) {
    addLayoutGuide(guide)
    // A new engine installs what its tree holds, this guide's pins among them. Not retained: a
    // grid's every container asks for its margins guide.
    withEngine { engine in
      guard !engine.ownsGuidePins(of: self, which) else { return }
      engine.beginBatch()
      engine.installGuidePins(of: self, which)
      engine.endBatch()
    }
  }

  /// Brings the pins of the guide `which` to the insets and alignment-rect insets the view has
  /// now, in place, from those it had (`insets`, `alignment`).
  func guidePinsDidChange(_ which: PinnedGuide, from insets: EdgeInsets, alignment: EdgeInsets) {
    // Not retained: a grid's every view sets its margins as it is made.
    unretainedEngine?._withUnsafeGuaranteedRef { engine in
      guard engine.ownsGuidePins(of: self, which) else { return }
      engine.guidePinConstantsDidChange(of: self, which, from: insets, alignment: alignment)
    }
  }

  /// Re-applies the margins and safe-area guides' constants after the alignment insets changed
  /// from `alignment`.
  func refreshGuideConstants(from alignment: EdgeInsets) {
    guidePinsDidChange(.margins, from: layoutMargins, alignment: alignment)
    guidePinsDidChange(.safeArea, from: safeAreaInsets, alignment: alignment)
  }
}

/// A constraint UIKit makes from a frame and an autoresizing mask: the view's attribute, the
/// superview's attribute (or none), the multiplier and the constant.
typealias AutoresizingShape = (LayoutAttribute, LayoutAttribute, Double, Double)

/// The autoresizing constraints of one view: always four, two an axis. Inline, so that comparing
/// them with the installed ones on every change of frame (a resize) allocates nothing.
struct AutoresizingShapes {
  static let count = 4
  private let shapes: (AutoresizingShape, AutoresizingShape, AutoresizingShape, AutoresizingShape)

  init(
    _ a: AutoresizingShape, _ b: AutoresizingShape, _ c: AutoresizingShape,
    _ d: AutoresizingShape
  ) {
    shapes = (a, b, c, d)
  }

  subscript(index: Int) -> AutoresizingShape {
    switch index {
    case 0: shapes.0
    case 1: shapes.1
    case 2: shapes.2
    case 3: shapes.3
    default: preconditionFailure("autoresizing shape \(index) of 4")
    }
  }
}

extension AutoresizingMask {
  /// UIKit's spelling of the mask in descriptions: `h=--& v=--&` (`&` flexible, `-` fixed).
  var layoutDescription: String {
    func mark(_ option: AutoresizingMask) -> String { contains(option) ? "&" : "-" }
    return "h=" + mark(.flexibleLeftMargin) + mark(.flexibleWidth) + mark(.flexibleRightMargin)
      + " v=" + mark(.flexibleTopMargin) + mark(.flexibleHeight) + mark(.flexibleBottomMargin)
  }
}
