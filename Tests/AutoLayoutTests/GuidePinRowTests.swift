import AutoLayout
import Cassowary
import Glibc
import Testing

/// The rows that pin a view's margins and safe-area guides belong to the engine, and a
/// constraint describes one only when asked: it reads the view as it is now.
@Suite("Guide pin rows")
struct GuidePinRowTests {
  /// A box in `root` at (20, 30), 200 × 100, and a child filling the box's margins guide.
  func boxWithChild(_ root: View) -> (box: View, child: View) {
    let box = View()
    box.translatesAutoresizingMaskIntoConstraints = false
    box.layoutMargins = EdgeInsets(top: 5, left: 10, bottom: 15, right: 20)
    let child = View()
    child.translatesAutoresizingMaskIntoConstraints = false
    root.addSubview(box)
    box.addSubview(child)
    LayoutConstraint.activate([
      box.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 20),
      box.topAnchor.constraint(equalTo: root.topAnchor, constant: 30),
      box.widthAnchor.constraint(equalToConstant: 200),
      box.heightAnchor.constraint(equalToConstant: 100),
    ])
    fill(child, box.layoutMarginsGuide)
    return (box, child)
  }

  /// Pins `view`'s four edges to `guide`'s.
  func fill(_ view: View, _ guide: LayoutGuide) {
    LayoutConstraint.activate([
      view.leadingAnchor.constraint(equalTo: guide.leadingAnchor),
      view.trailingAnchor.constraint(equalTo: guide.trailingAnchor),
      view.topAnchor.constraint(equalTo: guide.topAnchor),
      view.bottomAnchor.constraint(equalTo: guide.bottomAnchor),
    ])
  }

  func pins(_ view: View) -> [LayoutConstraint] {
    view.constraints.filter { $0.identifier?.contains("Margin-guide-constraint") ?? false }
  }

  @Test("A described pin reads the view as it is now", arguments: SolverStrategy.exact)
  func describedPinReadsTheView(solver: SolverStrategy) throws {
    let root = makeRoot(solver)
    let (box, child) = boxWithChild(root)
    root.layoutIfNeeded()
    expectFrame(child, 10, 5, 170, 80)
    let pins = pins(box)
    #expect(
      pins.map(\.identifier)
        == ["left", "top", "right", "bottom"].map {
          "UIView-\($0)Margin-guide-constraint"
        })
    #expect(pins.map(\.constant) == [10, 5, 20, 15])
    #expect(pins.allSatisfy { $0.isActive && !$0.isBroken && $0.priority == .required })
    let left = pins[0], right = pins[2]
    #expect(left.firstItem === box.layoutMarginsGuide && left.secondItem === box)
    #expect(right.firstItem === box && right.secondItem === box.layoutMarginsGuide)
    #expect(right.description.contains("'UIView-rightMargin-guide-constraint'"))
    #expect(
      box.constraintsAffectingLayout(for: .horizontal).filter {
        $0.identifier?.hasSuffix("Margin-guide-constraint") ?? false
      }.count == 2)

    // New margins change the rows' constants in place, one a changed edge; the constraints
    // made before read them.
    let engine = try #require(root.layoutEngine)
    let before = engine.statistics
    box.layoutMargins = EdgeInsets(top: 5, left: 4, bottom: 15, right: 6)
    root.layoutIfNeeded()
    expectFrame(child, 4, 5, 190, 80)
    #expect(left.constant == 4 && right.constant == 6)
    #expect(engine.statistics.constraintsAdded == before.constraintsAdded)
    #expect(engine.statistics.constantsChanged == before.constantsChanged + 2)

    // Out of the tree, the rows leave the engine; back in, they return.
    let rows = engine.loweredConstraints().count
    box.removeFromSuperview()
    // The pins, the box's size, the child's four and the box's two to the root.
    #expect(engine.loweredConstraints().count == rows - 4 - 2 - 4 - 2)
    #expect(left.isActive)  // the guide and its pins go with the view
    root.addSubview(box)
    // All but the two that crossed the cut, which removal deactivated.
    #expect(engine.loweredConstraints().count == rows - 2)
    #expect(
      engine.loweredConstraints().filter {
        $0.constraint.identifier?.hasSuffix("Margin-guide-constraint") ?? false
      }.count == 4)
  }

  @Test("A pin that conflicts is broken and reported", arguments: SolverStrategy.exact)
  func conflictingPinIsBroken(solver: SolverStrategy) throws {
    let root = makeRoot(solver)
    let (box, _) = boxWithChild(root)
    var logged: [String] = []
    let engine = try #require(root.layoutEngine)
    engine.logHandler = { logged.append($0) }
    box.layoutMarginsGuide.widthAnchor.constraint(equalToConstant: 170).isActive = true
    root.layoutIfNeeded()
    #expect(engine.conflicts.isEmpty)
    // 200 - 30 - 20 = 150, not 170: the changed pin is the one broken.
    box.layoutMargins = EdgeInsets(top: 5, left: 30, bottom: 15, right: 20)
    root.layoutIfNeeded()
    let report = try #require(engine.conflicts.last)
    #expect(report.broken.identifier == "UIView-leftMargin-guide-constraint")
    #expect(report.broken.isBroken)
    #expect(report.constraints.contains { $0.identifier == "UIView-rightMargin-guide-constraint" })
    #expect(logged.count == 1)
    // Described afresh, the pin still reads broken; the check of required rows skips it.
    #expect(pins(box)[0].isBroken && !pins(box)[2].isBroken)
    var required = 0
    engine.forEachLoweredRow { constraint, row in
      if constraint == nil, row.priority.isRequired { required += 1 }
    }
    #expect(required == 3)
  }

  @Test("A subtree's pins move with it between engines", arguments: SolverStrategy.exact)
  func pinsMoveWithTheirSubtree(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let other = makeRoot(solver)
    let (box, child) = boxWithChild(other)
    other.layoutIfNeeded()
    let otherEngine = other.layoutEngine!
    box.removeFromSuperview()
    root.addSubview(box)
    LayoutConstraint.activate([
      box.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 20),
      box.topAnchor.constraint(equalTo: root.topAnchor, constant: 30),
    ])
    root.layoutIfNeeded()
    expectFrame(child, 10, 5, 170, 80)
    let pinned = root.layoutEngine!.loweredConstraints().filter {
      $0.constraint.identifier?.hasSuffix("Margin-guide-constraint") ?? false
    }
    #expect(pinned.count == 4)
    #expect(!otherEngine.loweredConstraints().contains { $0.constraint.identifier != nil })
  }

  @Test(
    "A stack's arrangement drops its margins guide with the pins", arguments: SolverStrategy.exact)
  func arrangementDropsTheGuide(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let stack = StackView()
    stack.translatesAutoresizingMaskIntoConstraints = false
    stack.isLayoutMarginsRelativeArrangement = true
    root.addSubview(stack)
    LayoutConstraint.activate([
      stack.leadingAnchor.constraint(equalTo: root.leadingAnchor),
      stack.topAnchor.constraint(equalTo: root.topAnchor),
    ])
    root.layoutIfNeeded()
    let engine = root.layoutEngine!
    let empty = engine.loweredConstraints().count
    let item = View()
    stack.addArrangedSubview(item)
    root.layoutIfNeeded()
    #expect(pins(stack).count == 4)
    stack.removeArrangedSubview(item)
    item.removeFromSuperview()
    root.layoutIfNeeded()
    #expect(pins(stack).isEmpty)
    #expect(engine.loweredConstraints().count == empty)
  }

  @Test("Removing the margins guide takes its pins away", arguments: SolverStrategy.exact)
  func removingTheGuideUnpinsIt(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let (box, child) = boxWithChild(root)
    root.layoutIfNeeded()
    let engine = root.layoutEngine!
    let rows = engine.loweredConstraints().count
    let old = box.layoutMarginsGuide
    let described = pins(box)
    box.removeLayoutGuide(old)
    // The pins and the child's four constraints on the guide.
    #expect(engine.loweredConstraints().count == rows - 4 - 4)
    #expect(described.allSatisfy { !$0.isActive })
    #expect(pins(box).isEmpty)
    // The next use makes a new guide, pinned at the same margins.
    let margins = box.layoutMarginsGuide
    #expect(margins !== old && pins(box).count == 4)
    fill(child, margins)
    root.layoutIfNeeded()
    expectFrame(child, 10, 5, 170, 80)
    #expect(engine.loweredConstraints().count == rows)
  }

  @Test("Changing a described pin stops the program")
  func changingADescribedPinTraps() async {
    await #expect(processExitsWith: .failure) {
      let view = View()
      _ = view.layoutMarginsGuide
      // A pin not found exits cleanly, which fails the expectation.
      guard
        let pin = view.constraints.first(where: {
          $0.identifier == "UIView-leftMargin-guide-constraint"
        })
      else { exit(0) }
      pin.constant = 3
    }
    await #expect(processExitsWith: .failure) {
      let view = View()
      _ = view.safeAreaLayoutGuide
      guard
        let pin = view.constraints.first(where: {
          $0.identifier == "UIViewSafeAreaLayoutGuide-top"
        })
      else { exit(0) }
      pin.isActive = false
    }
  }
}
