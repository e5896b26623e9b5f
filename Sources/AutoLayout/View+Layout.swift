/// The update-constraints pass (bottom-up) and the layout pass (top-down), as the Advanced Auto
/// Layout Toolbox describes them. Requests are coalesced: flags are set on the view and its
/// ancestors, and a pass visits only flagged branches.
extension View {
  // MARK: Update-constraints pass

  /// Asks for an update-constraints pass on this view before the next layout.
  public func setNeedsUpdateConstraints() {
    needsUpdateConstraintsFlag = true
    needsOwnUpdate = true
    markAncestorsForUpdatePass()
  }

  /// Flags the branches above this view, so that the next update pass reaches it.
  func markAncestorsForUpdatePass() {
    flagAncestors { view in
      if view.subtreeNeedsUpdateConstraints { return true }
      view.subtreeNeedsUpdateConstraints = true
      return false
    }
  }

  /// Whether an update-constraints pass is pending for this view.
  public var needsUpdateConstraints: Bool { needsUpdateConstraintsFlag }

  /// Runs the update-constraints pass now for this view's subtree, if any view needs it:
  /// subviews before their superviews, all changes in one solver batch. A view that a
  /// superview's new constraints brought into the engine during the pass (a stack view's
  /// arranged views) asks for another round, which the same batch runs.
  public func updateConstraintsIfNeeded() {
    guard needsOwnUpdate || subtreeNeedsUpdateConstraints else { return }
    let engine = rootView.ensureEngine()
    engine.beginBatch()
    engine.counters.updateConstraintsPasses += 1
    var rounds = 0
    repeat {
      updateSubtreeConstraints()
      rounds += 1
    } while (needsOwnUpdate || subtreeNeedsUpdateConstraints) && rounds < 8
    engine.endBatch()
  }

  private func updateSubtreeConstraints() {
    if subtreeNeedsUpdateConstraints {
      subtreeNeedsUpdateConstraints = false
      forEachSubviewUnretained { subview in
        if subview.needsOwnUpdate || subview.subtreeNeedsUpdateConstraints {
          subview.updateSubtreeConstraints()
        }
      }
    }
    if needsOwnUpdate {
      let requested = needsUpdateConstraintsFlag
      needsUpdateConstraintsFlag = false
      needsOwnUpdate = false
      if systemConstraintsDirty { updateSystemConstraints() }
      if requested { updateConstraints() }
    }
  }

  // MARK: Layout pass

  /// Asks for a layout pass on this view (its subviews' frames) before the next display.
  public func setNeedsLayout() {
    needsLayoutFlag = true
    flagAncestors { view in
      if view.subtreeNeedsLayout { return true }
      view.subtreeNeedsLayout = true
      return false
    }
  }

  /// Whether a layout pass is pending for this view.
  public var needsLayout: Bool { needsLayoutFlag }

  /// Lays out this view's subtree now if anything is pending: first the update-constraints pass
  /// for the whole tree, then, top-down, every view whose subviews' solver values changed
  /// copies them into their frames (``layoutSubviews()``).
  public func layoutIfNeeded() {
    let root = rootView
    root.updateConstraintsIfNeeded()
    let engine = root.ensureEngine()
    engine.counters.layoutPasses += 1
    engine.forEachChangedItem { $0.solverValuesDidChange() }
    if root.isFrameDirty { root.applyRootFrame(engine) }
    // `engine` stays alive to the end: the root holds it, and so does this call.
    withExtendedLifetime(engine) { layoutSubtreeIfNeeded(Unmanaged.passUnretained(engine)) }
  }

  /// Asks the superview to copy this view's frame from the solver in the next layout pass.
  func markFrameDirty() {
    guard !isFrameDirty else { return }
    isFrameDirty = true
    // The superview not retained: it holds this view, and a first install marks every item.
    if let parent = unretainedSuperview {
      parent._withUnsafeGuaranteedRef { parent in
        parent.changeDirtySubviews { $0.append(self) }
        // A view flagged for layout has its ancestors flagged too (`setNeedsLayout()` sees to
        // it, and a layout pass clears a view's flags only on its way down to them): the walk
        // up is needed only the first time.
        if !parent.needsLayoutFlag { parent.setNeedsLayout() }
      }
    } else {
      setNeedsLayout()
    }
  }

  private func applyRootFrame(_ engine: LayoutEngine) {
    isFrameDirty = false
    guard let rect = engine.reportedValues.rect(at: engineBlock) else { return }
    let frame = frameFromAlignmentRect(rect)
    engine.counters.framesWritten += 1
    if absoluteOrigin != frame.origin { originMoved = true }
    absoluteOrigin = frame.origin
    storedFrame = frame
  }

  /// Lays out this view and the flagged views below it, top-down, for the layout pass of
  /// `engine`, which outlives the call.
  private func layoutSubtreeIfNeeded(_ engine: Unmanaged<LayoutEngine>) {
    if needsLayoutFlag {
      needsLayoutFlag = false
      layoutPassEngine = engine
      layoutSubviews()
      layoutPassEngine = nil
      originMoved = false
    }
    guard subtreeNeedsLayout else { return }
    subtreeNeedsLayout = false
    forEachSubviewUnretained { subview in
      if subview.needsLayoutFlag || subview.subtreeNeedsLayout {
        subview.layoutSubtreeIfNeeded(engine)
      }
    }
  }

  /// Copies the solver's values into the frames of the subviews whose values changed (all of
  /// them when this view moved): the default layout.
  func applySolverFrames() {
    // A leaf, or a view none of whose subviews changed, has nothing to copy.
    if storedSubviews.isEmpty && dirtySubviews.isEmpty { return }
    if !originMoved && dirtySubviews.isEmpty { return }
    guard let engine = layoutPassEngine?.takeUnretainedValue() ?? rootView.engineStorage else {
      return
    }
    let origin = absoluteFrameOrigin()
    let values = engine.reportedValues
    var written = 0
    // Swap the dirty list out (no copy), walk it, and hand its storage back emptied (the
    // property is only swapped: see `changeSubviews(_:)`).
    var dirty: [View] = []
    if !dirtySubviews.isEmpty { swap(&dirty, &dirtySubviews) }
    // The subviews not retained: the tree holds them, and the dirty list its own.
    if originMoved {
      // Every subview, each of which is this view's; the dirty ones among them.
      forEachSubviewUnretained { applySolverFrame(to: $0, values, origin, &written) }
    } else {
      // A subview marked dirty may have moved to another superview since.
      let me = Unmanaged.passUnretained(self).toOpaque()
      dirty.forEachUnretained { subview in
        if subview.unretainedSuperview?.toOpaque() == me {
          applySolverFrame(to: subview, values, origin, &written)
        }
      }
    }
    // Kept for the next pass, so a steady state allocates nothing (a solve from scratch gives
    // the room back: see `compactLists()`).
    if !dirty.isEmpty {
      dirty.removeAll(keepingCapacity: true)
      if dirtySubviews.isEmpty { swap(&dirty, &dirtySubviews) }
    }
    engine.counters.framesWritten += written
  }

  /// Copies `subview`'s values from `values` (the engine's ``LayoutEngine/reportedValues``) into
  /// its frame, relative to this view's frame origin `origin`, and asks for a layout of its own
  /// subviews when it moved or changed size.
  @inline(__always)
  private func applySolverFrame(
    to subview: View, _ values: [Double], _ origin: Point, _ written: inout Int
  ) {
    subview.isFrameDirty = false
    guard let rect = values.rect(at: subview.engineBlock) else { return }
    let absolute = subview.frameFromAlignmentRect(rect)
    written += 1
    var needsLayout = false
    if subview.absoluteOrigin != absolute.origin {
      subview.absoluteOrigin = absolute.origin
      subview.originMoved = true
      needsLayout = true
    }
    let frame = Rect(
      x: absolute.minX - origin.x, y: absolute.minY - origin.y, width: absolute.width,
      height: absolute.height)
    if frame.size != subview.storedFrame.size { needsLayout = true }
    subview.storedFrame = frame
    if needsLayout {
      // `setNeedsLayout()` without its walk up: this view's subtree is being laid out, and
      // flagging it is enough for the loop that follows to visit the subview.
      subview.needsLayoutFlag = true
      subtreeNeedsLayout = true
    }
  }

  /// The frame that surrounds alignment rectangle `rect` (the insets added back).
  func frameFromAlignmentRect(_ rect: Rect) -> Rect {
    // Most views hold no rare properties, and so no insets: the frame is the rectangle.
    guard let insets = rareProperties?.alignmentRectInsets else { return rect }
    return Rect(
      x: rect.minX - insets.left, y: rect.minY - insets.top,
      width: rect.width + insets.left + insets.right,
      height: rect.height + insets.top + insets.bottom)
  }

  /// This view's frame origin in the root's superview space.
  func absoluteFrameOrigin() -> Point {
    if engineBlock >= 0, let absoluteOrigin { return absoluteOrigin }
    guard let superview else { return storedFrame.origin }
    let parent = superview.absoluteFrameOrigin()
    return Point(x: parent.x + storedFrame.minX, y: parent.y + storedFrame.minY)
  }

  /// Converts `rect` from this view's bounds to `view`'s (the root's superview space if `nil`).
  public func convert(_ rect: Rect, to view: View?) -> Rect {
    let from = absoluteFrameOrigin()
    let to = view?.absoluteFrameOrigin() ?? .zero
    return Rect(
      x: rect.minX + from.x - to.x, y: rect.minY + from.y - to.y, width: rect.width,
      height: rect.height)
  }
}

extension View {
  /// Marks every view of the subtree so that the next layout pass rewrites every frame from the
  /// solver (a full layout pass, for measuring frame assignment).
  public func setNeedsLayoutOfSubtree() {
    setNeedsLayout()
    markSubtreeForFullLayout()
  }

  /// Flags every view of the subtree for layout, with its origin moved, top-down: the flags
  /// ``setNeedsLayout()`` sets, without its walk up from each view.
  private func markSubtreeForFullLayout() {
    originMoved = true
    needsLayoutFlag = true
    subtreeNeedsLayout = true
    forEachSubviewUnretained { $0.markSubtreeForFullLayout() }
  }
}

extension Array where Element == Double {
  /// The alignment rectangle held in the four values from `base` (minX, minY, width, height),
  /// or `nil` for an item without variables (`base` −1). Values past the end read 0: an item
  /// that entered the engine during a layout pass has had none reported yet.
  @inline(__always)
  func rect(at base: Int32) -> Rect? {
    guard base >= 0 else { return nil }
    let index = Int(base)
    guard index + 3 < count else { return .zero }
    return Rect(
      x: self[index], y: self[index + 1], width: self[index + 2], height: self[index + 3])
  }
}
