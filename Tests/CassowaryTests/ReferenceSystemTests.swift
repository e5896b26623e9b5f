import Cassowary
import Testing

/// Hand-written systems from the reference documents and the `.constraints` spec, with their
/// known solutions.
@Suite struct ReferenceSystemTests {
  /// The spec's example: Simple Label and Text Field on a 375-point root with 16-point margins.
  /// Every strategy this build has: kiwi's weighted priorities pick the same answer here.
  @Test(arguments: SolverStrategy.all.filter(\.isAvailable))
  func simpleLabelAndTextField(kind: SolverStrategy) throws {
    var solver = kind.makeSolver()
    var b = SystemBuilder()
    let rootWidth = b.variable("root.width")
    let labelLeft = b.variable("label.left")
    let labelWidth = b.variable("label.width")
    let fieldLeft = b.variable("field.left")
    let fieldWidth = b.variable("field.width")
    try solver.addEditVariable(rootWidth, priority: 999)
    try solver.suggestValue(rootWidth, 375)
    try solver.add(
      [
        labelLeft == 16,
        fieldLeft + fieldWidth == rootWidth - 16,
        fieldLeft == labelLeft + labelWidth + 8,
        (labelWidth >= 80).at(750), (labelWidth <= 80).at(251),
        (fieldWidth >= 97).at(750), (fieldWidth <= 97).at(250),
      ], ids: &b)
    #expect(solver.value(of: rootWidth) == 375)
    #expect(solver.value(of: labelLeft) == 16)
    #expect(solver.value(of: fieldLeft) == 104)
    #expect(solver.value(of: fieldWidth) == 255)
    #expect(solver.value(of: labelWidth) == 80)

    // Landscape: the field stretches (its hugging, 250, is weaker than the label's, 251).
    try solver.suggestValue(rootWidth, 667)
    #expect(solver.value(of: labelWidth) == 80)
    #expect(solver.value(of: fieldWidth) == 547)
  }

  /// "Anatomy of a Constraint": two equal-width views, red and blue, with 20-point margins and
  /// 8 points between them, in both published variants.
  @Test(arguments: SolverStrategy.exact, [false, true])
  func redAndBlueEqualWidthViews(kind: SolverStrategy, alignBlueToRed: Bool) throws {
    var solver = kind.makeSolver()
    var b = SystemBuilder()
    let width = b.variable("superview.width")
    let height = b.variable("superview.height")
    let red = (
      leading: b.variable("red.leading"), width: b.variable("red.width"),
      top: b.variable("red.top"), height: b.variable("red.height")
    )
    let blue = (
      leading: b.variable("blue.leading"), width: b.variable("blue.width"),
      top: b.variable("blue.top"), height: b.variable("blue.height")
    )
    for edit in [width, height] { try solver.addEditVariable(edit, priority: 999) }
    try solver.suggestValue(width, 375)
    try solver.suggestValue(height, 667)
    var vertical: [Constraint] = [
      red.top == 20,  // Red.top = 1.0 * Superview.top + 20.0
      height == red.top + red.height + 20,  // Superview.bottom = 1.0 * Red.bottom + 20.0
    ]
    if alignBlueToRed {
      vertical += [
        red.top == LinearExpression(blue.top), red.top + red.height == blue.top + blue.height,
      ]
    } else {
      vertical += [blue.top == 20, height == blue.top + blue.height + 20]
    }
    let horizontal: [Constraint] = [
      red.leading == 20,  // Red.leading = 1.0 * Superview.leading + 20.0
      blue.leading == red.leading + red.width + 8,  // Blue.leading = 1.0 * Red.trailing + 8.0
      width == blue.leading + blue.width + 20,  // Superview.trailing = Blue.trailing + 20.0
      red.width == LinearExpression(blue.width),  // Red.width = 1.0 * Blue.width + 0.0
    ]
    try solver.add(vertical + horizontal, ids: &b)

    for (superWidth, superHeight) in [(375.0, 667.0), (667.0, 375.0)] {
      try solver.suggestValue(width, superWidth)
      try solver.suggestValue(height, superHeight)
      let viewWidth = (superWidth - 48) / 2
      #expect(solver.value(of: red.leading) == 20)
      #expect(solver.value(of: red.width) == viewWidth)
      #expect(solver.value(of: blue.width) == viewWidth)
      #expect(solver.value(of: blue.leading) == 28 + viewWidth)
      #expect(solver.value(of: red.top) == 20)
      #expect(solver.value(of: blue.top) == 20)
      #expect(solver.value(of: red.height) == superHeight - 40)
      #expect(solver.value(of: blue.height) == superHeight - 40)
    }
  }

  /// Listings 3-3 and 3-4: a pair of inequalities behaves as the equality; min/max bounds hold.
  @Test(arguments: SolverStrategy.exact)
  func inequalityPairsAndBounds(kind: SolverStrategy) throws {
    var solver = kind.makeSolver()
    var b = SystemBuilder()
    let redTrailing = b.variable("red.trailing")
    let blueLeading = b.variable("blue.leading")
    let viewWidth = b.variable("view.width")
    try solver.add(
      [
        redTrailing == 100,
        blueLeading >= redTrailing + 8,
        blueLeading <= redTrailing + 8,
        viewWidth >= 40, viewWidth <= 280,
        (viewWidth == 1000).at(500),  // pulls against the maximum
      ], ids: &b)
    #expect(solver.value(of: blueLeading) == 108)
    #expect(solver.value(of: viewWidth) == 280)

    // The required ≥ with an optional ≤ at 250: as close to 8 as the other constraints allow.
    var relaxed = kind.makeSolver()
    var c = SystemBuilder()
    let red = c.variable("red.trailing")
    let blue = c.variable("blue.leading")
    try relaxed.add(
      [
        red == 100, blue >= red + 8, (blue <= red + 8).at(250), (blue == 150).at(249),
      ], ids: &c)
    #expect(relaxed.value(of: blue) == 108)
    try relaxed.setPriority(ConstraintID(3), 251)
    #expect(relaxed.value(of: blue) == 150)
  }
}
