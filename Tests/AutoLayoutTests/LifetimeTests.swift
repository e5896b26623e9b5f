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
