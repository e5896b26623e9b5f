import AutoLayout

extension Scene {
  /// Whether `operation` makes sense on this scene.
  public func supports(_ operation: SceneOperation) -> Bool {
    switch operation {
    case .resize, .teardown: true
    case .constantChange: deepConstraint != nil || deepStack != nil
    case .intrinsicSizeChange: !texts.isEmpty
    case .hideUnhide: !arranged.isEmpty
    case .sizeClassSwitch: kind == .sizeClassButtons
    case .churn: rows.count >= 3
    }
  }

  /// Performs `operation`; the next layout pass solves and writes the frames. Each operation
  /// undoes itself when repeated (portrait ↔ landscape, constant ± 1, texts back, sets swapped
  /// back), so a harness can repeat it.
  public func perform(_ operation: SceneOperation) {
    precondition(supports(operation), "\(kind) does not support \(operation)")
    switch operation {
    case .resize:
      isPortrait.toggle()
      let size =
        isPortrait ? portraitSize : Size(width: portraitSize.height, height: portraitSize.width)
      root.frame = Rect(origin: .zero, size: size)
    case .constantChange:
      deepConstantChanged.toggle()
      if let deepStack {
        deepStack.spacing += deepConstantChanged ? 1 : -1
      } else {
        deepConstraint!.constant += deepConstantChanged ? 1 : -1
      }
    case .intrinsicSizeChange:
      textsChanged.toggle()
      for (view, original, changed) in texts {
        view.text = textsChanged ? changed : original
      }
    case .hideUnhide:
      arrangedHidden.toggle()
      for index in stride(from: 0, to: arranged.count, by: 10) {
        arranged[index].isHidden = arrangedHidden
      }
    case .sizeClassSwitch:
      switchSizeClass()
    case .churn:
      churn(rows.count / 2)
    case .teardown:
      teardown()
    }
  }

  /// Performs again each toggling operation whose state differs from the scene's as built
  /// (orientation, deep constant, texts, hidden views, size class), so that every state the
  /// operations toggle is back where it started. Churn is not undone: a churned row keeps the
  /// constraints it was made again with (the flat scene's are copies of the old ones, with
  /// their current constants and priorities).
  public func undoOperations() {
    if !isPortrait { perform(.resize) }
    if deepConstantChanged { perform(.constantChange) }
    if textsChanged { perform(.intrinsicSizeChange) }
    if arrangedHidden { perform(.hideUnhide) }
    if isCompactRegular { perform(.sizeClassSwitch) }
  }

  private func inBatch(_ body: () -> Void) {
    let engine = root.layoutEngine
    engine?.beginBatch()
    body()
    engine?.endBatch()
  }

  private func switchSizeClass() {
    isCompactRegular.toggle()
    // Portrait ↔ landscape traits: the root swaps the sets in one batch.
    root.traitCollection = isCompactRegular ? .compactRegular : .compactCompact
  }

  /// Removes row `index` (its constraints go with it, and the next row's link to it) and adds it
  /// back with new constraints.
  ///
  /// The row's own constraints within one view (a spacer's zero height, a chain link's height)
  /// survive its removal from the superview, as in UIKit, left active but out of the engine;
  /// they are deactivated, or they would come back with the view beside their new copies, more
  /// constraints on every churn.
  private func churn(_ index: Int) {
    inBatch {
      for view in rows[index].views { view.removeFromSuperview() }
      for guide in rows[index].guides { root.removeLayoutGuide(guide) }
      LayoutConstraint.deactivate(rows[index].own)
      for view in rows[index].views { root.addSubview(view) }
      for guide in rows[index].guides { root.addLayoutGuide(guide) }
      var constraints: [LayoutConstraint] = []
      let (own, link) = rebuildConstraints(index)
      rows[index].own = own
      rows[index].link = link
      constraints += own + link
      if index + 1 < rows.count {
        let (_, next) = rebuildConstraints(index + 1)
        rows[index + 1].link = next
        constraints += next
      }
      LayoutConstraint.activate(constraints)
      if kind == .sizeClassButtons {
        root.removeSizeClassConstraints(rows[index].anyAny + rows[index].compactRegular)
        let (anyAny, compact) = sizeClassConstraints(index)
        rows[index].anyAny = anyAny
        rows[index].compactRegular = compact
        root.addConstraints(anyAny, installation: .except(.compactRegular))
        root.addConstraints(compact, installation: .only(.compactRegular))
      }
    }
  }

  /// Removes every row, the newest row first: its views and guides are then among the last of
  /// their parent's lists, found and removed at once, so the teardown is linear (removing the
  /// oldest first would shift the whole list each time).
  private func teardown() {
    inBatch {
      if kind == .sizeClassButtons {
        root.removeSizeClassConstraints(rows.flatMap { $0.anyAny + $0.compactRegular })
      }
      for row in rows.reversed() {
        for view in row.views { view.removeFromSuperview() }
        for guide in row.guides { root.removeLayoutGuide(guide) }
      }
    }
    rows.removeAll()
    texts.removeAll()
    arranged.removeAll()
    gridPlaces.removeAll()
    deepConstraint = nil
    deepStack = nil
    viewCount = 0
  }
}
