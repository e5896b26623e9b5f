import AutoLayout
import Cassowary
import Testing

/// What is left when objects that others point to go. Constraints, subviews, guides and arranged
/// views hold what they point back to unowned, not weak (see `LayoutConstraint.firstItem`); the
/// object that goes sets those references to `nil` itself. Reading one it missed would stop the
/// program, so each test reads every reference after the object has gone.
@Suite("Lifetimes: references to an object that has gone read nil")
struct LifetimeTests {
  @Test("An inactive constraint outlives its views")
  func inactiveConstraintOutlivesItsViews() {
    var first: View? = View()
    var second: View? = View()
    let constraint = first!.widthAnchor.constraint(equalTo: second!.widthAnchor, constant: 8)
    // Constraints made and dropped on the same view take themselves off its list.
    for index in 0..<10 {
      _ = first!.heightAnchor.constraint(equalToConstant: Double(index))
    }
    let own = second!.heightAnchor.constraint(equalTo: second!.widthAnchor)
    #expect(constraint.firstItem === first && constraint.secondItem === second)
    first = nil
    #expect(constraint.firstItem == nil && constraint.secondItem === second)
    second = nil
    #expect(constraint.firstItem == nil && constraint.secondItem == nil)
    #expect(own.firstItem == nil && own.secondItem == nil)
    #expect(!constraint.isActive)
    _ = constraint.description
  }

  @Test(
    "Constraints kept by a client outlive the tree they were active in",
    arguments: SolverStrategy.exact)
  func activeConstraintsOutliveTheirTree(solver: SolverStrategy) {
    var kept: [LayoutConstraint] = []
    do {
      let root = makeRoot(solver)
      let child = View()
      child.translatesAutoresizingMaskIntoConstraints = false
      root.addSubview(child)
      let guide = LayoutGuide(identifier: "gap")
      root.addLayoutGuide(guide)
      kept = [
        child.leadingAnchor.constraint(equalTo: root.layoutMarginsGuide.leadingAnchor),
        child.topAnchor.constraint(equalTo: root.topAnchor, constant: 20),
        child.widthAnchor.constraint(equalToConstant: 100),
        child.heightAnchor.constraint(equalTo: child.widthAnchor),
        guide.leadingAnchor.constraint(equalTo: child.trailingAnchor),
        guide.widthAnchor.constraint(equalToConstant: 10),
        guide.topAnchor.constraint(equalTo: child.topAnchor),
        guide.heightAnchor.constraint(equalToConstant: 1),
      ]
      LayoutConstraint.activate(kept)
      root.layoutIfNeeded()
      #expect(child.frame == Rect(x: 16, y: 20, width: 100, height: 100))
    }
    // The root, its engine, the child and the guides are gone; the constraints are not.
    for constraint in kept {
      #expect(constraint.firstItem == nil && constraint.secondItem == nil)
      _ = constraint.description
    }
    LayoutConstraint.deactivate(kept)
    #expect(kept.allSatisfy { !$0.isActive })
  }

  @Test(
    "A view that outlives its tree's engine takes its constraints to the next tree",
    arguments: SolverStrategy.exact)
  func constraintsOutliveTheirEngine(solver: SolverStrategy) {
    let child = View()
    child.translatesAutoresizingMaskIntoConstraints = false
    let own = [
      child.widthAnchor.constraint(equalToConstant: 40),
      child.heightAnchor.constraint(equalTo: child.widthAnchor, multiplier: 2),
    ]
    do {
      let root = makeRoot(solver)
      root.addSubview(child)
      LayoutConstraint.activate(own)
      root.layoutIfNeeded()
      #expect(child.frame.size == Size(width: 40, height: 80))
    }
    // The first root and its engine went; the child's own constraints stayed active, and
    // install in the engine of the tree it joins.
    #expect(child.superview == nil && own.allSatisfy(\.isActive))
    own[0].constant = 30
    let next = makeRoot(solver)
    next.addSubview(child)
    LayoutConstraint.activate([
      child.leadingAnchor.constraint(equalTo: next.leadingAnchor, constant: 5),
      child.topAnchor.constraint(equalTo: next.topAnchor, constant: 7),
    ])
    next.layoutIfNeeded()
    #expect(child.frame == Rect(x: 5, y: 7, width: 30, height: 60))
    LayoutConstraint.deactivate(own)
    next.layoutIfNeeded()
    #expect(own.allSatisfy { !$0.isActive })
  }

  @Test(
    "A subtree that outlives its root leaves the constraints across the cut, as one removed does",
    arguments: SolverStrategy.exact)
  func outlivingSubtreeLeavesTheCut(solver: SolverStrategy) {
    let kept = View()
    let inner = View()
    let guide = LayoutGuide(identifier: "kept")
    for view in [kept, inner] { view.translatesAutoresizingMaskIntoConstraints = false }
    var crossing: [LayoutConstraint] = []
    var inside: [LayoutConstraint] = []
    do {
      let root = makeRoot(solver)
      // A sibling that goes with the root.
      let dropped = View()
      dropped.translatesAutoresizingMaskIntoConstraints = false
      root.addSubview(kept)
      root.addSubview(dropped)
      kept.addSubview(inner)
      root.addLayoutGuide(guide)
      crossing = [
        kept.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 3),
        kept.topAnchor.constraint(equalTo: guide.bottomAnchor),
        inner.topAnchor.constraint(equalTo: root.layoutMarginsGuide.topAnchor),
        inner.widthAnchor.constraint(equalTo: dropped.widthAnchor),
        // A guide that outlives its view leaves it as one removed does: with none of its
        // constraints.
        guide.heightAnchor.constraint(equalToConstant: 4),
      ]
      inside = [
        kept.widthAnchor.constraint(equalToConstant: 40),
        kept.heightAnchor.constraint(equalToConstant: 30),
        inner.leadingAnchor.constraint(equalTo: kept.leadingAnchor, constant: 2),
        inner.heightAnchor.constraint(equalToConstant: 10),
      ]
      LayoutConstraint.activate(
        crossing + inside + [
          dropped.widthAnchor.constraint(equalToConstant: 20),
          guide.topAnchor.constraint(equalTo: root.topAnchor),
        ])
      root.layoutIfNeeded()
      #expect(kept.frame == Rect(x: 3, y: 4, width: 40, height: 30))
      #expect(inner.frame.width == 20)
    }
    #expect(crossing.allSatisfy { !$0.isActive })
    #expect(inside.allSatisfy { $0.isActive })
    #expect(crossing[0].firstItem === kept && crossing[0].secondItem == nil)
    #expect(crossing[1].secondItem === guide && guide.owningView == nil)
    // The subtree's own constraints go with it into the next tree.
    let next = makeRoot(solver)
    next.addSubview(kept)
    LayoutConstraint.activate([
      kept.leadingAnchor.constraint(equalTo: next.leadingAnchor, constant: 5),
      kept.topAnchor.constraint(equalTo: next.topAnchor, constant: 7),
      inner.topAnchor.constraint(equalTo: kept.topAnchor, constant: 1),
      inner.widthAnchor.constraint(equalToConstant: 15),
    ])
    next.layoutIfNeeded()
    #expect(kept.frame == Rect(x: 5, y: 7, width: 40, height: 30))
    #expect(inner.frame == Rect(x: 2, y: 1, width: 15, height: 10))
  }

  @Test(
    "A view whose superview goes with its root leaves the constraints across its cut",
    arguments: SolverStrategy.exact)
  func outlivingGrandchildLeavesTheCut(solver: SolverStrategy) {
    let leaf = View()
    leaf.translatesAutoresizingMaskIntoConstraints = false
    var crossing: [LayoutConstraint] = []
    var own: LayoutConstraint?
    do {
      let root = makeRoot(solver)
      // Held by the root only: it goes with it, and lets the leaf go as it does.
      let middle = View()
      middle.translatesAutoresizingMaskIntoConstraints = false
      root.addSubview(middle)
      middle.addSubview(leaf)
      crossing = [
        leaf.leadingAnchor.constraint(equalTo: middle.leadingAnchor),
        leaf.topAnchor.constraint(equalTo: root.topAnchor, constant: 6),
        middle.widthAnchor.constraint(equalTo: leaf.widthAnchor, multiplier: 2),
      ]
      own = leaf.widthAnchor.constraint(equalToConstant: 25)
      LayoutConstraint.activate(crossing + [own!])
      root.layoutIfNeeded()
      #expect(leaf.frame.width == 25 && leaf.superview === middle)
    }
    #expect(leaf.superview == nil)
    #expect(crossing.allSatisfy { !$0.isActive } && own!.isActive)
    let next = makeRoot(solver)
    next.addSubview(leaf)
    LayoutConstraint.activate([
      leaf.leadingAnchor.constraint(equalTo: next.leadingAnchor),
      leaf.topAnchor.constraint(equalTo: next.topAnchor),
      leaf.heightAnchor.constraint(equalToConstant: 5),
    ])
    next.layoutIfNeeded()
    #expect(leaf.frame == Rect(x: 0, y: 0, width: 25, height: 5))
  }

  @Test("A subview and a guide outlive their view", arguments: SolverStrategy.exact)
  func subviewAndGuideOutliveTheirView(solver: SolverStrategy) {
    let child = View()
    let guide = LayoutGuide()
    do {
      let root = makeRoot(solver)
      root.addSubview(child)
      root.addLayoutGuide(guide)
      child.translatesAutoresizingMaskIntoConstraints = false
      LayoutConstraint.activate([
        child.leadingAnchor.constraint(equalTo: guide.trailingAnchor),
        guide.widthAnchor.constraint(equalToConstant: 10),
      ])
      root.layoutIfNeeded()
      #expect(child.superview === root && guide.owningView === root)
    }
    #expect(child.superview == nil && guide.owningView == nil)
    #expect(guide.layoutFrame == .zero)
    // The child can start a tree of its own.
    let other = makeRoot(solver)
    other.addSubview(child)
    other.addLayoutGuide(guide)
    other.layoutIfNeeded()
    #expect(child.superview === other && guide.owningView === other)
  }

  @Test("An arranged view outlives its stack view", arguments: SolverStrategy.exact)
  func arrangedViewOutlivesItsStack(solver: SolverStrategy) {
    let arranged = Label("kept")
    do {
      let root = makeRoot(solver)
      let stack = StackView(arrangedSubviews: [arranged, Label("dropped")])
      stack.translatesAutoresizingMaskIntoConstraints = false
      root.addSubview(stack)
      root.layoutIfNeeded()
      #expect(arranged.superview === stack)
    }
    #expect(arranged.superview == nil)
    // Hiding an arranged view tells its stack view, which has gone.
    arranged.isHidden = true
    let other = StackView(arrangedSubviews: [arranged])
    #expect(other.arrangedSubviews.count == 1 && arranged.superview === other)
  }
}
