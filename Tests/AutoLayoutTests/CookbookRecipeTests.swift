import AutoLayout
import Cassowary
import Testing

/// Every recipe of the Auto Layout Cookbook's "Views with Intrinsic Content Size" chapter
/// (Apple's Auto Layout Guide), built with its listed constraints and Interface Builder's
/// CHCR priorities, with frames worked out by hand at 375 × 667 and 667 × 375.
///
/// Metrics (``FontMetrics``): a 17-point character is 8.5 wide, a line 20.5 high with its baseline
/// 16 from the top; a text field adds 7 a side and is 34 high (baseline 22.75 from the top); a
/// 15-point button title is 7.5 a character plus 15 a side, 30 high.
@Suite("Cookbook recipes")
struct CookbookRecipeTests {
  @Test("Simple Label and Text Field", arguments: SolverStrategy.exact)
  func simpleLabelAndTextField(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let label = Label("Name")  // 34 × 20.5, hugging 251
    let field = TextField("Enter Name")  // 99 × 34, hugging 250
    root.addSubview(label)
    root.addSubview(field)
    let top = root.safeAreaLayoutGuide.topAnchor
    LayoutConstraint.activate([
      label.leadingAnchor.constraint(equalTo: root.layoutMarginsGuide.leadingAnchor),
      field.trailingAnchor.constraint(equalTo: root.layoutMarginsGuide.trailingAnchor),
      field.leadingAnchor.constraint(equalToSystemSpacingAfter: label.trailingAnchor),
      field.topAnchor.constraint(equalTo: top, constant: 20),
      label.lastBaselineAnchor.constraint(equalTo: field.lastBaselineAnchor),
    ])
    root.layoutIfNeeded()
    // The label hugs its text; the field stretches to the trailing margin. Baselines: the
    // field's is at 40 + 34 - 11.25 = 62.75, so the label's top is 62.75 - 16 = 46.75.
    expectFrame(label, 16, 46.75, 34, 20.5)
    expectFrame(field, 58, 40, 301, 34)
    #expect(!label.hasAmbiguousLayout && !field.hasAmbiguousLayout)

    resize(root, width: 667, height: 375)
    expectFrame(label, 16, 46.75, 34, 20.5)
    expectFrame(field, 58, 40, 593, 34)
  }

  @Test("Dynamic Height Label and Text Field", arguments: SolverStrategy.exact)
  func dynamicHeightLabelAndTextField(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let label = Label("Name")
    let field = TextField("Enter Name")
    root.addSubview(label)
    root.addSubview(field)
    let top = root.safeAreaLayoutGuide.topAnchor
    LayoutConstraint.activate([
      label.leadingAnchor.constraint(equalTo: root.layoutMarginsGuide.leadingAnchor),
      field.trailingAnchor.constraint(equalTo: root.layoutMarginsGuide.trailingAnchor),
      field.leadingAnchor.constraint(equalToSystemSpacingAfter: label.trailingAnchor),
      label.topAnchor.constraint(greaterThanOrEqualTo: top, constant: 20),
      label.topAnchor.constraint(equalTo: top, constant: 20).withPriority(249),
      field.topAnchor.constraint(greaterThanOrEqualTo: top, constant: 20),
      field.topAnchor.constraint(equalTo: top, constant: 20).withPriority(249),
      label.lastBaselineAnchor.constraint(equalTo: field.lastBaselineAnchor),
    ])
    root.layoutIfNeeded()
    // At 17 points the field is taller: it sits at 20 below the guide, as in the simple recipe.
    expectFrame(label, 16, 46.75, 34, 20.5)
    expectFrame(field, 58, 40, 301, 34)

    // At 36 points the label is taller (43.5 high, baseline 34 from its top): now the label sets
    // the top spacing and the field moves down to share its baseline at 40 + 34 = 74.
    label.font = FontMetrics(pointSize: 36)
    root.layoutIfNeeded()
    expectFrame(label, 16, 40, 72, 43.5)
    expectFrame(field, 96, 51.25, 263, 34)

    resize(root, width: 667, height: 375)
    expectFrame(field, 96, 51.25, 555, 34)
  }

  /// Three rows of Fixed Height Columns; `dynamic` adds Dynamic Height Columns' top pairs.
  func buildColumns(_ root: View, dynamic: Bool) -> [(Label, TextField)] {
    let rows = [
      ("First Name", "Enter first name"), ("Middle Name", "Enter middle name"),
      ("Last Name", "Enter last name"),
    ].map { (Label($0.0), TextField($0.1)) }
    var constraints: [LayoutConstraint] = []
    let margins = root.layoutMarginsGuide
    let top = root.safeAreaLayoutGuide.topAnchor
    for (label, field) in rows {
      root.addSubview(label)
      root.addSubview(field)
      constraints += [
        label.leadingAnchor.constraint(equalTo: margins.leadingAnchor),
        field.leadingAnchor.constraint(equalToSystemSpacingAfter: label.trailingAnchor),
        field.trailingAnchor.constraint(equalTo: margins.trailingAnchor),
        label.lastBaselineAnchor.constraint(equalTo: field.lastBaselineAnchor),
      ]
    }
    constraints += [
      rows[0].1.widthAnchor.constraint(equalTo: rows[1].1.widthAnchor),
      rows[0].1.widthAnchor.constraint(equalTo: rows[2].1.widthAnchor),
    ]
    if dynamic {
      constraints += [
        rows[0].0.topAnchor.constraint(greaterThanOrEqualTo: top, constant: 20),
        rows[0].0.topAnchor.constraint(equalTo: top, constant: 20).withPriority(249),
        rows[0].1.topAnchor.constraint(greaterThanOrEqualTo: top, constant: 20),
        rows[0].1.topAnchor.constraint(equalTo: top, constant: 20).withPriority(249),
      ]
      for (above, below) in zip(rows, rows.dropFirst()) {
        constraints += [
          below.0.topAnchor.constraint(
            greaterThanOrEqualToSystemSpacingBelow: above.0.bottomAnchor),
          below.0.topAnchor.constraint(equalToSystemSpacingBelow: above.0.bottomAnchor)
            .withPriority(249),
          below.1.topAnchor.constraint(
            greaterThanOrEqualToSystemSpacingBelow: above.1.bottomAnchor),
          below.1.topAnchor.constraint(equalToSystemSpacingBelow: above.1.bottomAnchor)
            .withPriority(249),
        ]
      }
    } else {
      constraints.append(rows[0].1.topAnchor.constraint(equalTo: top, constant: 20))
      for (above, below) in zip(rows, rows.dropFirst()) {
        constraints.append(
          below.1.topAnchor.constraint(equalToSystemSpacingBelow: above.1.bottomAnchor))
      }
    }
    LayoutConstraint.activate(constraints)
    return rows
  }

  @Test("Fixed Height Columns", arguments: SolverStrategy.exact)
  func fixedHeightColumns(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let rows = buildColumns(root, dynamic: false)
    root.layoutIfNeeded()
    // The labels hug (251) and the fields are equal in width, so the widest label, "Middle Name"
    // (11 × 8.5 = 93.5, rounded up to 94), decides the column: every field starts at
    // 16 + 94 + 8 = 118.
    for (index, (label, field)) in rows.enumerated() {
      let y = 40 + Double(index) * 42
      expectFrame(field, 118, y, 241, 34)
      #expect(abs(label.frame.minY - (y + 6.75)) < 1e-6)
    }
    expectFrame(rows[1].0, 16, 88.75, 94, 20.5)
    resize(root, width: 667, height: 375)
    for (_, field) in rows { #expect(abs(field.frame.width - 533) < 1e-6) }
  }

  @Test("Dynamic Height Columns", arguments: SolverStrategy.exact)
  func dynamicHeightColumns(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let rows = buildColumns(root, dynamic: true)
    root.layoutIfNeeded()
    for (index, (_, field)) in rows.enumerated() {
      expectFrame(field, 118, 40 + Double(index) * 42, 241, 34)
    }
    // A 36-point middle label is taller than its field: it sets that row's spacing (8 below
    // the first row's label), and the rows below follow. It is also 198 wide, which would
    // squeeze all three equal-width fields below their intrinsic widths (150, 159, 142) by
    // 13 + 22 + 5 at compression resistance 750; squeezing the label by 22 instead costs 22 at
    // the same level, so the label gives way: 176 wide, and the fields 159.
    rows[1].0.font = FontMetrics(pointSize: 36)
    root.layoutIfNeeded()
    let firstLabelBottom = 46.75 + 20.5
    expectFrame(rows[1].0, 16, firstLabelBottom + 8, 176, 43.5)
    #expect(abs(rows[1].1.frame.width - 159) < 1e-6)
    #expect(abs(rows[1].1.frame.minY - (firstLabelBottom + 8 + 34 - 22.75)) < 1e-6)
    #expect(rows[2].1.frame.minY >= rows[1].1.frame.maxY + 8 - 1e-6)
    #expect(rows[2].0.frame.minY >= rows[1].0.frame.maxY + 8 - 1e-6)
  }

  @Test("Two Equal-Width Buttons", arguments: SolverStrategy.exact)
  func twoEqualWidthButtons(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let short = Button("short"), long = Button("Much Longer Button Title")
    root.addSubview(short)
    root.addSubview(long)
    let margins = root.layoutMarginsGuide, bottom = root.safeAreaLayoutGuide.bottomAnchor
    LayoutConstraint.activate([
      short.leadingAnchor.constraint(equalTo: margins.leadingAnchor),
      long.leadingAnchor.constraint(equalToSystemSpacingAfter: short.trailingAnchor),
      long.trailingAnchor.constraint(equalTo: margins.trailingAnchor),
      bottom.constraint(equalTo: short.bottomAnchor, constant: 20),
      bottom.constraint(equalTo: long.bottomAnchor, constant: 20),
      short.widthAnchor.constraint(equalTo: long.widthAnchor),
    ])
    root.layoutIfNeeded()
    // The title lengths do not matter: (343 - 8) / 2 each.
    expectFrame(short, 16, 617, 167.5, 30)
    expectFrame(long, 191.5, 617, 167.5, 30)
    resize(root, width: 667, height: 375)
    expectFrame(short, 16, 325, 313.5, 30)
    expectFrame(long, 337.5, 325, 313.5, 30)
  }

  @Test("Three Equal-Width Buttons", arguments: SolverStrategy.exact)
  func threeEqualWidthButtons(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let short = Button("short"), medium = Button("medium"), long = Button("Much Longer Title")
    for button in [short, medium, long] { root.addSubview(button) }
    let margins = root.layoutMarginsGuide, bottom = root.safeAreaLayoutGuide.bottomAnchor
    LayoutConstraint.activate([
      short.leadingAnchor.constraint(equalTo: margins.leadingAnchor),
      medium.leadingAnchor.constraint(equalToSystemSpacingAfter: short.trailingAnchor),
      long.leadingAnchor.constraint(equalToSystemSpacingAfter: medium.trailingAnchor),
      long.trailingAnchor.constraint(equalTo: margins.trailingAnchor),
      bottom.constraint(equalTo: short.bottomAnchor, constant: 20),
      bottom.constraint(equalTo: medium.bottomAnchor, constant: 20),
      bottom.constraint(equalTo: long.bottomAnchor, constant: 20),
      short.widthAnchor.constraint(equalTo: medium.widthAnchor),
      short.widthAnchor.constraint(equalTo: long.widthAnchor),
    ])
    root.layoutIfNeeded()
    // (343 - 16) / 3 = 109 each.
    expectFrame(short, 16, 617, 109, 30)
    expectFrame(medium, 133, 617, 109, 30)
    expectFrame(long, 250, 617, 109, 30)
  }

  /// Two Buttons with Equal Spacing: three spacers (dummy views or layout guides) of equal width
  /// around two equal-width buttons.
  func equalSpacing(_ root: View, guides: Bool) -> (Button, Button, [LayoutItem]) {
    let short = Button("short"), long = Button("Much Longer Button Title")  // 68 and 210 wide
    root.addSubview(short)
    root.addSubview(long)
    let spacers: [LayoutItem] = (0..<3).map { _ in
      if guides {
        let guide = LayoutGuide()
        root.addLayoutGuide(guide)
        return guide
      }
      let view = View()
      view.translatesAutoresizingMaskIntoConstraints = false
      root.addSubview(view)
      return view
    }
    let margins = root.layoutMarginsGuide, bottom = root.safeAreaLayoutGuide.bottomAnchor
    var constraints = [
      spacers[0].leadingAnchor.constraint(equalTo: margins.leadingAnchor),
      short.leadingAnchor.constraint(equalTo: spacers[0].trailingAnchor),
      spacers[1].leadingAnchor.constraint(equalTo: short.trailingAnchor),
      long.leadingAnchor.constraint(equalTo: spacers[1].trailingAnchor),
      spacers[2].leadingAnchor.constraint(equalTo: long.trailingAnchor),
      spacers[2].trailingAnchor.constraint(equalTo: margins.trailingAnchor),
      short.leadingAnchor.constraint(greaterThanOrEqualTo: margins.leadingAnchor),
      long.leadingAnchor.constraint(greaterThanOrEqualToSystemSpacingAfter: short.trailingAnchor),
      margins.trailingAnchor.constraint(greaterThanOrEqualTo: long.trailingAnchor),
      spacers[0].widthAnchor.constraint(equalTo: spacers[1].widthAnchor),
      spacers[0].widthAnchor.constraint(equalTo: spacers[2].widthAnchor),
      short.widthAnchor.constraint(equalTo: long.widthAnchor),
    ]
    for item in [spacers[0], short, spacers[1], long, spacers[2]] as [LayoutItem] {
      constraints.append(bottom.constraint(equalTo: item.bottomAnchor, constant: 20))
    }
    for spacer in spacers { constraints.append(spacer.heightAnchor.constraint(equalToConstant: 0)) }
    LayoutConstraint.activate(constraints)
    return (short, long, spacers)
  }

  @Test(
    "Two Buttons with Equal Spacing", arguments: SolverStrategy.exact, [false, true])
  func twoButtonsWithEqualSpacing(solver: SolverStrategy, guides: Bool) {
    let root = makeRoot(solver)
    let (short, long, spacers) = equalSpacing(root, guides: guides)
    root.layoutIfNeeded()
    // Portrait: the long button's compression resistance (750) wants 210, but the center spacer
    // keeps the standard 8, so every spacer is 8 and each button (343 - 24) / 2 = 159.5.
    expectFrame(short, 24, 617, 159.5, 30)
    expectFrame(long, 191.5, 617, 159.5, 30)
    // Landscape: both buttons take the long title's width, 210; the spacers share the rest.
    resize(root, width: 667, height: 375)
    let spacer = (635.0 - 420) / 3
    expectFrame(short, 16 + spacer, 325, 210, 30)
    expectFrame(long, 16 + 2 * spacer + 210, 325, 210, 30)
    if guides {
      let frame = (spacers[1] as! LayoutGuide).layoutFrame
      #expect(abs(frame.width - spacer) < 1e-6 && abs(frame.minX - (16 + spacer + 210)) < 1e-6)
    } else {
      expectFrame(spacers[2] as! View, 651 - spacer, 355, spacer, 0)
    }
  }
}
