import AutoLayout
import Cassowary
import Testing

/// The red and blue views of "Anatomy of a Constraint" (Apple's Auto Layout Guide), written with
/// the item/attribute initializer exactly as listed, and what removing a view does to each.
@Suite("Anatomy of a Constraint")
struct AnatomyTests {
  func constraint(
    _ item1: LayoutItem, _ attr1: LayoutAttribute, _ item2: LayoutItem?,
    _ attr2: LayoutAttribute, _ constant: Double
  ) throws -> LayoutConstraint {
    try LayoutConstraint(
      item: item1, attribute: attr1, relatedBy: .equal, toItem: item2, attribute: attr2,
      multiplier: 1, constant: constant)
  }

  /// Builds the two views in `root`; `alignedToRed` is the second solution (blue's top and
  /// bottom aligned with red's rather than pinned to the superview).
  func build(_ root: View, alignedToRed: Bool) throws -> (View, View) {
    let red = View(), blue = View()
    for view in [red, blue] {
      view.translatesAutoresizingMaskIntoConstraints = false
      root.addSubview(view)
    }
    var constraints = [
      try constraint(red, .top, root, .top, 20),
      try constraint(root, .bottom, red, .bottom, 20),
    ]
    if alignedToRed {
      constraints += [
        try constraint(red, .top, blue, .top, 0), try constraint(red, .bottom, blue, .bottom, 0),
      ]
    } else {
      constraints += [
        try constraint(blue, .top, root, .top, 20),
        try constraint(root, .bottom, blue, .bottom, 20),
      ]
    }
    constraints += [
      try constraint(red, .leading, root, .leading, 20),
      try constraint(blue, .leading, red, .trailing, 8),
      try constraint(root, .trailing, blue, .trailing, 20),
      try constraint(red, .width, blue, .width, 0),
    ]
    LayoutConstraint.activate(constraints)
    return (red, blue)
  }

  @Test("Both solutions give two equal columns", arguments: SolverStrategy.exact, [false, true])
  func equalColumns(solver: SolverStrategy, alignedToRed: Bool) throws {
    let root = makeRoot(solver)
    let (red, blue) = try build(root, alignedToRed: alignedToRed)
    root.layoutIfNeeded()
    expectFrame(red, 20, 20, 163.5, 627)
    expectFrame(blue, 191.5, 20, 163.5, 627)
    resize(root, width: 667, height: 375)
    expectFrame(red, 20, 20, 309.5, 335)
    expectFrame(blue, 337.5, 20, 309.5, 335)
  }

  @Test("Removing the red view removes its constraints", arguments: SolverStrategy.exact)
  func removingRed(solver: SolverStrategy) throws {
    for alignedToRed in [false, true] {
      let root = makeRoot(solver)
      let (red, blue) = try build(root, alignedToRed: alignedToRed)
      root.layoutIfNeeded()
      let before = root.layoutEngine!.statistics.constraintsRemoved
      red.removeFromSuperview()
      root.layoutIfNeeded()
      // The first solution leaves blue its top, bottom and trailing; the second only trailing.
      #expect(blue.constraintsAffectingLayout(for: .vertical).count == (alignedToRed ? 0 : 2))
      #expect(blue.constraintsAffectingLayout(for: .horizontal).count == 1)
      // Every constraint that mentions red goes: five in the first solution, seven in the second.
      #expect(root.layoutEngine!.statistics.constraintsRemoved - before == (alignedToRed ? 7 : 5))
      #expect(red.constraintsAffectingLayout(for: .horizontal).isEmpty)
      #expect(blue.hasAmbiguousLayout)
      // With only its trailing edge pinned, blue's left edge and width can trade off.
      #expect(
        Set(blue.ambiguousVariables())
          == (alignedToRed ? ["minX", "minY", "width", "height"] : ["minX", "width"]))
      if !alignedToRed {
        // One more constraint and the layout is valid again.
        try constraint(blue, .leading, root, .leading, 20).isActive = true
        root.layoutIfNeeded()
        #expect(!blue.hasAmbiguousLayout)
        expectFrame(blue, 20, 20, 335, 627)
      }
    }
  }

  @Test("Listing 3-3: minimum and maximum sizes", arguments: SolverStrategy.exact)
  func minimumAndMaximum(solver: SolverStrategy) throws {
    let root = makeRoot(solver)
    let button = Button("A")  // 38 × 30
    root.addSubview(button)
    LayoutConstraint.activate([
      button.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 20),
      button.topAnchor.constraint(equalTo: root.topAnchor, constant: 20),
      button.widthAnchor.constraint(greaterThanOrEqualToConstant: 100),
      button.widthAnchor.constraint(lessThanOrEqualToConstant: 200),
    ])
    root.layoutIfNeeded()
    expectFrame(button, 20, 20, 100, 30)
    button.text = String(repeating: "W", count: 40)  // 330 wide
    root.layoutIfNeeded()
    expectFrame(button, 20, 20, 200, 30)
  }
}
