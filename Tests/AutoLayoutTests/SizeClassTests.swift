import AutoLayout
import Cassowary
import Testing

@Suite("Size classes")
struct SizeClassTests {
  @Test("Patterns: Any matches everything, the most specific pattern wins")
  func patterns() {
    let portrait = TraitCollection.compactRegular
    #expect(TraitCollection.any.matches(portrait))
    #expect(TraitCollection(horizontalSizeClass: .compact).matches(portrait))
    #expect(!TraitCollection(verticalSizeClass: .compact).matches(portrait))
    #expect(!TraitCollection.regularRegular.matches(portrait))
    let installation = SizeClassInstallation([
      .any: true, TraitCollection(horizontalSizeClass: .compact): false,
      TraitCollection(verticalSizeClass: .regular): true, .compactRegular: true,
    ])
    #expect(installation.isInstalled(for: .compactRegular))
    // Compact-Any outranks Any-Regular: a width class is more specific than a height class.
    #expect(!installation.isInstalled(for: .compactCompact))
    #expect(installation.isInstalled(for: .regularRegular))
    #expect(installation.isInstalled(for: .regularCompact))
    #expect(!SizeClassInstallation([.compactRegular: true]).isInstalled(for: .any))
    #expect(SizeClassInstallation.only(.compactRegular).isInstalled(for: .compactRegular))
    #expect(!SizeClassInstallation.except(.compactRegular).isInstalled(for: .compactRegular))
    #expect(TraitCollection.compactRegular.description == "wC hR")
  }

  /// The cookbook's "Two Buttons with Size Class-Based Layouts", exactly as written: constraints
  /// 1–6 (Two Equal-Width Buttons) in Any-Any; in Compact-Regular, 2 and 5 uninstalled and 7, 8,
  /// 9 installed, so the buttons stack (the long one below the short one, which keeps its 20
  /// points above the bottom guide).
  func buildRecipe(_ root: View) -> (short: Button, long: Button) {
    let short = Button("short"), long = Button("Much Longer Button Title")
    root.addSubview(short)
    root.addSubview(long)
    let margins = root.layoutMarginsGuide, bottom = root.safeAreaLayoutGuide.bottomAnchor
    LayoutConstraint.activate([
      short.leadingAnchor.constraint(equalTo: margins.leadingAnchor),  // 1
      long.trailingAnchor.constraint(equalTo: margins.trailingAnchor),  // 3
      bottom.constraint(equalTo: short.bottomAnchor, constant: 20),  // 4
      short.widthAnchor.constraint(equalTo: long.widthAnchor),  // 6
    ])
    root.addConstraints(
      [
        long.leadingAnchor.constraint(equalToSystemSpacingAfter: short.trailingAnchor),  // 2
        bottom.constraint(equalTo: long.bottomAnchor, constant: 20),  // 5
      ], installation: .except(.compactRegular))
    root.addConstraints(
      [
        long.leadingAnchor.constraint(equalTo: margins.leadingAnchor),  // 7
        short.trailingAnchor.constraint(equalTo: margins.trailingAnchor),  // 8
        long.topAnchor.constraint(equalToSystemSpacingBelow: short.bottomAnchor),  // 9
      ], installation: .only(.compactRegular))
    return (short, long)
  }

  func expectRow(_ short: Button, _ long: Button) {
    // Landscape, Any-Any: equal widths (651 - 16 - 8) / 2 side by side, 20 above the bottom.
    expectFrame(short, 16, 325, 313.5, 30)
    expectFrame(long, 337.5, 325, 313.5, 30)
  }

  func expectStack(_ short: Button, _ long: Button) {
    // Portrait, Compact-Regular: both span the margins; the long one 8 below the short one.
    expectFrame(short, 16, 617, 343, 30)
    expectFrame(long, 16, 655, 343, 30)
  }

  @Test(
    "Two Buttons with Size Class-Based Layouts: portrait, then landscape, then back",
    arguments: SolverStrategy.exact)
  func portraitFirst(solver: SolverStrategy) throws {
    let root = makeRoot(solver)
    root.traitCollection = .compactRegular
    let (short, long) = buildRecipe(root)
    root.layoutIfNeeded()
    expectStack(short, long)
    #expect(!short.hasAmbiguousLayout && !long.hasAmbiguousLayout)

    let engine = try #require(root.layoutEngine)
    let before = engine.statistics
    root.frame = Rect(x: 0, y: 0, width: 667, height: 375)
    root.traitCollection = .compactCompact
    root.layoutIfNeeded()
    expectRow(short, long)
    #expect(engine.statistics.constraintsRemoved - before.constraintsRemoved == 3)
    #expect(engine.statistics.constraintsAdded - before.constraintsAdded == 2)
    #expect(engine.statistics.conflicts == 0)

    root.frame = Rect(x: 0, y: 0, width: 375, height: 667)
    root.traitCollection = .compactRegular
    root.layoutIfNeeded()
    expectStack(short, long)
    #expect(engine.statistics.conflicts == 0)
  }

  @Test(
    "Two Buttons with Size Class-Based Layouts: landscape first", arguments: SolverStrategy.exact)
  func landscapeFirst(solver: SolverStrategy) {
    let root = makeRoot(solver, width: 667, height: 375)
    root.traitCollection = .compactCompact
    let (short, long) = buildRecipe(root)
    root.layoutIfNeeded()
    expectRow(short, long)
    root.frame = Rect(x: 0, y: 0, width: 375, height: 667)
    root.traitCollection = .compactRegular
    root.layoutIfNeeded()
    expectStack(short, long)
    // A subview inherits its root's traits.
    #expect(short.traitCollection == .compactRegular)
  }

  @Test(
    "A view installed per size class leaves and rejoins the tree with its constraints",
    arguments: SolverStrategy.exact)
  func sizeClassViews(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let badge = Label("new")  // 3 × 8.5 rounded up to 26 wide
    root.addSubview(badge, installation: .only(.regularRegular))
    #expect(badge.superview == nil)
    let pins = [
      badge.leadingAnchor.constraint(equalTo: root.layoutMarginsGuide.leadingAnchor),
      badge.topAnchor.constraint(equalTo: root.safeAreaLayoutGuide.topAnchor),
    ]
    root.addConstraints(pins, installation: SizeClassInstallation([.any: true]))
    #expect(pins.allSatisfy { !$0.isActive })
    root.layoutIfNeeded()
    root.traitCollection = .regularRegular
    root.layoutIfNeeded()
    #expect(badge.superview === root && pins.allSatisfy(\.isActive))
    expectFrame(badge, 16, 20, 26, 20.5)
    root.traitCollection = .compactRegular
    root.layoutIfNeeded()
    #expect(badge.superview == nil && pins.allSatisfy { !$0.isActive })
    root.traitCollection = .regularRegular
    root.layoutIfNeeded()
    expectFrame(badge, 16, 20, 26, 20.5)
  }
}
