import AutoLayout
import Cassowary
import Testing

/// The behaviours the guide and the toolbox describe, beyond the recipes' frames.
@Suite("Model behaviours")
struct BehaviourTests {
  /// A label and a field in `root`, as Simple Label and Text Field.
  func labelAndField(_ root: View) -> (Label, TextField, [LayoutConstraint]) {
    let label = Label("Name"), field = TextField("Enter Name")
    root.addSubview(label)
    root.addSubview(field)
    let constraints = [
      label.leadingAnchor.constraint(equalTo: root.layoutMarginsGuide.leadingAnchor),
      field.trailingAnchor.constraint(equalTo: root.layoutMarginsGuide.trailingAnchor),
      field.leadingAnchor.constraint(equalToSystemSpacingAfter: label.trailingAnchor),
      field.topAnchor.constraint(equalTo: root.safeAreaLayoutGuide.topAnchor, constant: 20),
      label.lastBaselineAnchor.constraint(equalTo: field.lastBaselineAnchor),
    ]
    LayoutConstraint.activate(constraints)
    return (label, field, constraints)
  }

  @Test(
    "Right-to-left mirrors leading and trailing, never left and right",
    arguments: SolverStrategy.exact)
  func rightToLeft(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let (label, field, _) = labelAndField(root)
    let pinned = View()
    pinned.translatesAutoresizingMaskIntoConstraints = false
    root.addSubview(pinned)
    LayoutConstraint.activate([
      pinned.leftAnchor.constraint(equalTo: root.leftAnchor, constant: 10),
      pinned.topAnchor.constraint(equalTo: root.topAnchor),
      pinned.widthAnchor.constraint(equalToConstant: 5),
      pinned.heightAnchor.constraint(equalToConstant: 5),
    ])
    root.layoutIfNeeded()
    expectFrame(label, 16, 46.75, 34, 20.5)
    root.semanticContentAttribute = .forceRightToLeft
    root.layoutIfNeeded()
    // The label now starts at the right margin and the field runs from its left to the left
    // margin; the left-pinned view stays put.
    expectFrame(label, 375 - 16 - 34, 46.75, 34, 20.5)
    expectFrame(field, 16, 40, 301, 34)
    expectFrame(pinned, 10, 0, 5, 5)
    root.semanticContentAttribute = .unspecified
    root.layoutIfNeeded()
    expectFrame(label, 16, 46.75, 34, 20.5)
  }

  /// A view's effective direction is cached; moving a subtree, or changing an ancestor's
  /// attribute or direction, must be seen below it however deep.
  @Test("A view takes the direction of the tree it moves into")
  func directionFollowsMoves() {
    let root = View(frame: Rect(x: 0, y: 0, width: 375, height: 667))
    let rightToLeft = View()
    rightToLeft.semanticContentAttribute = .forceRightToLeft
    let leftToRight = View()
    root.addSubview(rightToLeft)
    root.addSubview(leftToRight)
    let child = View()
    let grandchild = View()
    child.addSubview(grandchild)
    leftToRight.addSubview(child)
    #expect(grandchild.effectiveUserInterfaceLayoutDirection == .leftToRight)
    child.removeFromSuperview()
    rightToLeft.addSubview(child)
    #expect(grandchild.effectiveUserInterfaceLayoutDirection == .rightToLeft)
    rightToLeft.semanticContentAttribute = .unspecified
    #expect(grandchild.effectiveUserInterfaceLayoutDirection == .leftToRight)
    root.userInterfaceLayoutDirection = .rightToLeft
    #expect(grandchild.effectiveUserInterfaceLayoutDirection == .rightToLeft)
    #expect(leftToRight.effectiveUserInterfaceLayoutDirection == .rightToLeft)
    child.removeFromSuperview()
    #expect(grandchild.effectiveUserInterfaceLayoutDirection == .leftToRight)
    leftToRight.addSubview(child)
    #expect(grandchild.effectiveUserInterfaceLayoutDirection == .rightToLeft)
  }

  @Test(
    "A constant changes in place, without removing the constraint", arguments: SolverStrategy.exact)
  func constantInPlace(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let (label, field, constraints) = labelAndField(root)
    root.layoutIfNeeded()
    let before = root.layoutEngine!.statistics
    constraints[3].constant = 50
    root.layoutIfNeeded()
    let after = root.layoutEngine!.statistics
    #expect(after.constraintsAdded == before.constraintsAdded)
    #expect(after.constraintsRemoved == before.constraintsRemoved)
    #expect(after.constantsChanged == before.constantsChanged + 1)
    expectFrame(field, 58, 70, 301, 34)
    expectFrame(label, 16, 76.75, 34, 20.5)
  }

  /// A subtree taken out and put back gets its variables again; while it was out, the solver
  /// reported their values falling to 0 to no item. Where the values it comes back with are
  /// those zeros, the solver reports no change, yet the frames are from before it left.
  @Test("A subtree put back has its frames copied again", arguments: SolverStrategy.exact)
  func subtreePutBack(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let container = View(), child = View()
    for view in [container, child] { view.translatesAutoresizingMaskIntoConstraints = false }
    container.addSubview(child)
    root.addSubview(container)
    let inside = [
      child.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 10),
      child.topAnchor.constraint(equalTo: container.topAnchor, constant: 10),
      child.widthAnchor.constraint(equalToConstant: 50),
      child.heightAnchor.constraint(equalToConstant: 50),
    ]
    func place() -> [LayoutConstraint] {
      [
        container.leadingAnchor.constraint(equalTo: root.leadingAnchor),
        container.topAnchor.constraint(equalTo: root.topAnchor),
        container.widthAnchor.constraint(equalToConstant: 100),
        container.heightAnchor.constraint(equalToConstant: 100),
      ]
    }
    LayoutConstraint.activate(inside + place())
    root.layoutIfNeeded()
    expectFrame(child, 10, 10, 50, 50)
    container.removeFromSuperview()
    root.layoutIfNeeded()
    for constraint in inside { constraint.constant = 0 }
    root.addSubview(container)
    LayoutConstraint.activate(place())
    root.layoutIfNeeded()
    expectFrame(container, 0, 0, 100, 100)
    expectFrame(child, 0, 0, 0, 0)
  }

  @Test("New text changes the content-size constants in place", arguments: SolverStrategy.exact)
  func intrinsicSizeInPlace(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let (label, field, _) = labelAndField(root)
    root.layoutIfNeeded()
    let before = root.layoutEngine!.statistics
    label.text = "Full name"  // 9 × 8.5 = 76.5 → 77
    root.layoutIfNeeded()
    let after = root.layoutEngine!.statistics
    #expect(after.constraintsAdded == before.constraintsAdded)
    #expect(after.constantsChanged == before.constantsChanged + 1)
    expectFrame(label, 16, 46.75, 77, 20.5)
    expectFrame(field, 101, 40, 258, 34)
    // Raising the field's hugging above the label's makes the label stretch instead.
    field.setContentHuggingPriority(252, for: .horizontal)
    root.layoutIfNeeded()
    expectFrame(field, 359 - 99, 40, 99, 34)
    #expect(root.layoutEngine!.statistics.constraintsAdded == before.constraintsAdded)
    // The content-size constraint describes the view's priorities as they are now, and setting
    // a priority the view already has re-weights nothing.
    let widthConstraint = field.constraintsAffectingLayout(for: .horizontal).first {
      $0.isContentSizeConstraint
    }
    #expect(widthConstraint?.description.contains("Hug:252 CompressionResistance:750") == true)
    let changed = root.layoutEngine!.statistics.prioritiesChanged
    field.setContentHuggingPriority(252, for: .horizontal)
    field.setContentCompressionResistancePriority(.defaultHigh, for: .horizontal)
    #expect(root.layoutEngine!.statistics.prioritiesChanged == changed)
    field.setContentCompressionResistancePriority(760, for: .horizontal)
    #expect(root.layoutEngine!.statistics.prioritiesChanged == changed + 1)
    #expect(widthConstraint?.description.contains("Hug:252 CompressionResistance:760") == true)
  }

  @Test(
    "Priorities change in place, between required and optional too", arguments: SolverStrategy.exact
  )
  func priorityChanges(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let (label, field, constraints) = labelAndField(root)
    let narrow = field.widthAnchor.constraint(equalToConstant: 100).withPriority(200)
    narrow.isActive = true
    root.layoutIfNeeded()
    expectFrame(field, 58, 40, 301, 34)
    // At 999 the width wins over the field's trailing edge once that is optional (998) too;
    // the trailing edge still beats the label's hugging (251), so the label stretches.
    narrow.priority = 999
    constraints[1].priority = 998
    root.layoutIfNeeded()
    expectFrame(field, 259, 40, 100, 34)
    expectFrame(label, 16, 46.75, 235, 20.5)
    constraints[1].priority = .required
    narrow.priority = 200
    root.layoutIfNeeded()
    expectFrame(field, 58, 40, 301, 34)
    #expect(root.layoutEngine!.conflicts.isEmpty)
  }

  @Test("Forgetting translatesAutoresizingMaskIntoConstraints is logged and recovered from")
  func forgottenAutoresizing() {
    for solver in SolverStrategy.exact {
      let root = makeRoot(solver)
      let view = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))  // translates its frame
      root.addSubview(view)
      let log = LogCollector()
      let width = view.widthAnchor.constraint(equalToConstant: 120)
      LayoutConstraint.activate([
        view.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 10),
        view.topAnchor.constraint(equalTo: root.topAnchor, constant: 10), width,
      ])
      log.attach(to: root)
      root.layoutIfNeeded()
      let conflicts = root.layoutEngine!.conflicts
      #expect(conflicts.count >= 1)
      let message = log.messages.first ?? ""
      #expect(
        message.hasPrefix("[LayoutConstraints] Unable to simultaneously satisfy constraints."))
      #expect(message.contains("(Note: If you're seeing AutoresizingMaskLayoutConstraints"))
      #expect(message.contains("Will attempt to recover by breaking constraint \n<"))
      #expect(message.contains("AutoresizingMaskLayoutConstraint:0x"))
      #expect(message.contains("h=--- v=---"))
      // The layout goes on with every broken constraint still pulling as hard as it can.
      #expect(conflicts.allSatisfy { $0.broken.isBroken && $0.broken.isActive })
    }
  }

  @Test(
    "Conflicting required constraints: one is broken, reported, and still pulls",
    arguments: SolverStrategy.exact)
  func conflictRecovery(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let box = View()
    box.translatesAutoresizingMaskIntoConstraints = false
    root.addSubview(box)
    let log = LogCollector()
    LayoutConstraint.activate([
      box.leadingAnchor.constraint(equalTo: root.leadingAnchor),
      box.topAnchor.constraint(equalTo: root.topAnchor),
      box.heightAnchor.constraint(equalToConstant: 10),
      box.widthAnchor.constraint(equalToConstant: 100),
    ])
    log.attach(to: root)
    let tooWide = box.widthAnchor.constraint(greaterThanOrEqualToConstant: 150)
    let hugging = box.widthAnchor.constraint(equalToConstant: 0).withPriority(750)
    hugging.isActive = true
    tooWide.isActive = true
    root.layoutIfNeeded()
    let report = root.layoutEngine!.conflicts.last!
    #expect(report.broken === tooWide)
    #expect(report.constraints.last === tooWide)
    #expect(report.constraints.count == 2)
    #expect(log.messages.count == 1)
    #expect(log.messages[0].contains("\(tooWide)"))
    // Broken, it is the strongest optional constraint: it beats the 750 pull towards 0, so the
    // width stays at the required 100.
    expectFrame(box, 0, 0, 100, 10)
    // Once the conflict goes, it holds fully again.
    // A one-item constraint is held by its view, as in UIKit.
    #expect(box.constraints.count == 4)
    box.constraints.first { $0.firstAttribute == .width && $0.constant == 100 }!.isActive = false
    root.layoutIfNeeded()
    expectFrame(box, 0, 0, 150, 10)
    #expect(tooWide.description.hasSuffix(".width >= 150   (active)>"))
  }

  @Test("Autoresizing masks follow the superview", arguments: SolverStrategy.exact)
  func autoresizing(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let banner = View(frame: Rect(x: 10, y: 20, width: 355, height: 44))
    banner.autoresizingMask = [.flexibleWidth, .flexibleBottomMargin]
    let corner = View(frame: Rect(x: 325, y: 617, width: 40, height: 40))
    corner.autoresizingMask = [.flexibleLeftMargin, .flexibleTopMargin]
    root.addSubview(banner)
    root.addSubview(corner)
    let probe = View()
    probe.translatesAutoresizingMaskIntoConstraints = false
    root.addSubview(probe)
    LayoutConstraint.activate([
      probe.leadingAnchor.constraint(equalTo: banner.leadingAnchor),
      probe.topAnchor.constraint(equalTo: banner.bottomAnchor),
      probe.trailingAnchor.constraint(equalTo: corner.leadingAnchor),
      probe.bottomAnchor.constraint(equalTo: corner.topAnchor),
    ])
    root.layoutIfNeeded()
    expectFrame(banner, 10, 20, 355, 44)
    expectFrame(corner, 325, 617, 40, 40)
    expectFrame(probe, 10, 64, 315, 553)
    resize(root, width: 667, height: 375)
    expectFrame(banner, 10, 20, 647, 44)
    expectFrame(corner, 617, 325, 40, 40)
    expectFrame(probe, 10, 64, 607, 261)
    #expect(root.layoutEngine!.conflicts.isEmpty)
  }

  @Test(
    "A subtree built apart keeps its constraints when attached", arguments: SolverStrategy.exact)
  func attachingSubtree(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let card = View()
    card.translatesAutoresizingMaskIntoConstraints = false
    let title = Label("Title")
    card.addSubview(title)
    LayoutConstraint.activate([
      title.leadingAnchor.constraint(equalTo: card.leadingAnchor, constant: 4),
      title.topAnchor.constraint(equalTo: card.topAnchor, constant: 4),
      card.trailingAnchor.constraint(equalTo: title.trailingAnchor, constant: 4),
      card.bottomAnchor.constraint(equalTo: title.bottomAnchor, constant: 4),
    ])
    // Measured alone: the title (43 × 20.5) plus 4 on each side.
    let fitting = card.systemLayoutSizeFitting(.zero)
    #expect(fitting == Size(width: 51, height: 28.5))
    root.addSubview(card)
    LayoutConstraint.activate([
      card.centerXAnchor.constraint(equalTo: root.centerXAnchor),
      card.centerYAnchor.constraint(equalTo: root.centerYAnchor),
    ])
    root.layoutIfNeeded()
    expectFrame(card, (375 - 51) / 2, (667 - 28.5) / 2, 51, 28.5)
    expectFrame(title, 4, 4, 43, 20.5)
    // Taken out again, the card keeps its own constraints and loses those to the root.
    card.removeFromSuperview()
    #expect(card.constraints.count == 4)
    #expect(card.constraintsAffectingLayout(for: .horizontal).count == 2)
    #expect(card.systemLayoutSizeFitting(.zero) == Size(width: 51, height: 28.5))
  }

  @Test("Constraints act on the alignment rectangle", arguments: SolverStrategy.exact)
  func alignmentRect(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let badge = View()
    badge.translatesAutoresizingMaskIntoConstraints = false
    badge.alignmentRectInsets = EdgeInsets(top: 2, left: 3, bottom: 6, right: 5)  // a shadow
    root.addSubview(badge)
    LayoutConstraint.activate([
      badge.leadingAnchor.constraint(equalTo: root.layoutMarginsGuide.leadingAnchor),
      badge.topAnchor.constraint(equalTo: root.topAnchor, constant: 10),
      badge.widthAnchor.constraint(equalToConstant: 100),
      badge.heightAnchor.constraint(equalToConstant: 50),
    ])
    root.layoutIfNeeded()
    // The frame surrounds the 100 × 50 alignment rectangle placed at (16, 10).
    expectFrame(badge, 13, 8, 108, 58)
    badge.alignmentRectInsets = .zero
    root.layoutIfNeeded()
    expectFrame(badge, 16, 10, 100, 50)
  }

  @Test("Fitting does not disturb the current layout", arguments: SolverStrategy.exact)
  func fittingLeavesLayoutAlone(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let (label, field, _) = labelAndField(root)
    root.layoutIfNeeded()
    let size = root.systemLayoutSizeFitting(
      Size(width: 320, height: 0), horizontalFittingPriority: .required)
    #expect(size.width == 320)
    root.layoutIfNeeded()
    expectFrame(label, 16, 46.75, 34, 20.5)
    expectFrame(field, 58, 40, 301, 34)
  }
}

/// The update-constraints and layout passes: order, coalescing and statistics.
@Suite("Layout passes")
struct LayoutPassTests {
  final class Recorder {
    var events: [String] = []
  }

  final class RecordingView: View {
    let name: String
    let recorder: Recorder
    init(_ name: String, _ recorder: Recorder) {
      self.name = name
      self.recorder = recorder
      super.init()
      translatesAutoresizingMaskIntoConstraints = false
    }
    override func updateConstraints() {
      recorder.events.append("update \(name)")
      super.updateConstraints()
    }
    override func layoutSubviews() {
      super.layoutSubviews()
      recorder.events.append("layout \(name)")
    }
  }

  @Test func updatePassIsBottomUpAndLayoutPassTopDown() {
    let recorder = Recorder()
    let root = makeRoot(.sparse)
    let outer = RecordingView("outer", recorder), inner = RecordingView("inner", recorder)
    root.addSubview(outer)
    outer.addSubview(inner)
    LayoutConstraint.activate([
      outer.leadingAnchor.constraint(equalTo: root.leadingAnchor),
      outer.topAnchor.constraint(equalTo: root.topAnchor),
      outer.widthAnchor.constraint(equalToConstant: 100),
      outer.heightAnchor.constraint(equalToConstant: 100),
      inner.leadingAnchor.constraint(equalTo: outer.leadingAnchor, constant: 10),
      inner.topAnchor.constraint(equalTo: outer.topAnchor, constant: 10),
      inner.widthAnchor.constraint(equalToConstant: 10),
      inner.heightAnchor.constraint(equalToConstant: 10),
    ])
    root.layoutIfNeeded()
    #expect(recorder.events == ["update inner", "update outer", "layout outer", "layout inner"])
    // Requests coalesce: two requests, one pass; nothing pending, nothing runs.
    recorder.events.removeAll()
    outer.setNeedsLayout()
    outer.setNeedsLayout()
    root.layoutIfNeeded()
    root.layoutIfNeeded()
    #expect(recorder.events == ["layout outer"])
    expectFrame(inner, 10, 10, 10, 10)
    let statistics = root.layoutEngine!.statistics
    #expect(statistics.layoutPasses == 3)
    #expect(statistics.constraintsAdded >= 8)
  }

  @Test(
    "A pass that moves a view and changes its subview copies the frame and keeps no stale entry",
    arguments: SolverStrategy.exact)
  func movedViewWithChangedSubview(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let outer = View()
    outer.translatesAutoresizingMaskIntoConstraints = false
    root.addSubview(outer)
    weak var removed: View?
    do {
      let inner = View()
      inner.translatesAutoresizingMaskIntoConstraints = false
      outer.addSubview(inner)
      let left = outer.leadingAnchor.constraint(equalTo: root.leadingAnchor)
      let width = inner.widthAnchor.constraint(equalToConstant: 10)
      LayoutConstraint.activate([
        left, outer.topAnchor.constraint(equalTo: root.topAnchor),
        outer.widthAnchor.constraint(equalToConstant: 100),
        outer.heightAnchor.constraint(equalToConstant: 100),
        inner.leadingAnchor.constraint(equalTo: outer.leadingAnchor, constant: 10),
        inner.topAnchor.constraint(equalTo: outer.topAnchor, constant: 10), width,
        inner.heightAnchor.constraint(equalToConstant: 10),
      ])
      root.layoutIfNeeded()
      // In one pass, the inner view's width changes (it is listed as a dirty subview of
      // `outer`) and `outer` moves (so it lays out all of its subviews, not the listed ones).
      width.constant = 20
      left.constant = 5
      root.layoutIfNeeded()
      expectFrame(outer, 5, 0, 100, 100)
      expectFrame(inner, 10, 10, 20, 10)
      #expect(inner.solvedFrameInRootSpace == Rect(x: 15, y: 10, width: 20, height: 10))
      removed = inner
      inner.removeFromSuperview()
    }
    // The dirty list was emptied: a view taken out is not kept alive by it.
    #expect(removed == nil)
  }

  @Test func ambiguityIsReportedAndExercised() {
    let root = makeRoot(.sparse)
    let loose = View()
    loose.translatesAutoresizingMaskIntoConstraints = false
    root.addSubview(loose)
    LayoutConstraint.activate([
      loose.topAnchor.constraint(equalTo: root.topAnchor, constant: 10),
      loose.heightAnchor.constraint(equalToConstant: 10),
      loose.widthAnchor.constraint(equalToConstant: 10),
      loose.leadingAnchor.constraint(greaterThanOrEqualTo: root.leadingAnchor),
    ])
    root.layoutIfNeeded()
    #expect(loose.hasAmbiguousLayout)
    #expect(loose.ambiguousVariables() == ["minX"])
    #expect(!root.hasAmbiguousLayout)
    let trace = root.autolayoutTrace()
    let lines = trace.split(separator: "\n")
    #expect(lines.first?.hasPrefix("•View:0x") == true)
    #expect(lines.last?.hasPrefix("| *View:0x") == true)
    #expect(lines.last?.contains("- AMBIGUOUS LAYOUT for View:0x") == true)
    #expect(lines.last?.contains(".minX{id: ") == true)
    let before = loose.frame.minX
    loose.exerciseAmbiguityInLayout()
    #expect(loose.frame.minX != before)
    #expect(loose.frame.minX >= 0)
  }
}
