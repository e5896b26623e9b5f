import AutoLayout
import Cassowary
import Testing

/// The visual format language: every production of Apple's grammar, every option and every
/// error, each checked against constraints written by hand (compared by description, in order,
/// and by priority); then layouts solved by both solvers.
@Suite("VisualFormat")
struct VisualFormatTests {
  let root = View(frame: Rect(x: 0, y: 0, width: 375, height: 667))
  let a = View(), b = View(), c = View()
  let orphan = View()
  var views: [String: View] { ["a": a, "b": b, "c": c, "orphan": orphan] }

  init() {
    for view in [a, b, c] { root.addSubview(view) }
  }

  /// The constraints of `format`, failing the test on an error.
  func parse(
    _ format: String, _ options: LayoutConstraint.FormatOptions = [],
    metrics: [String: Double] = [:]
  ) throws -> [LayoutConstraint] {
    try LayoutConstraint.constraints(
      withVisualFormat: format, options: options, metrics: metrics, views: views)
  }

  /// The error `format` throws, or `nil`.
  func failure(
    _ format: String, _ options: LayoutConstraint.FormatOptions = [],
    metrics: [String: Double] = [:]
  ) -> VisualFormatError? {
    do {
      _ = try LayoutConstraint.constraints(
        withVisualFormat: format, options: options, metrics: metrics, views: views)
      return nil
    } catch {
      return error
    }
  }

  /// `item1.attr1 relation item2.attr2 + constant` at `priority`, by the item/attribute
  /// initializer.
  func make(
    _ item1: LayoutItem, _ attr1: LayoutAttribute, _ relation: LayoutRelation,
    _ item2: LayoutItem?, _ attr2: LayoutAttribute, _ constant: Double = 0,
    priority: LayoutPriority = .required
  ) throws -> LayoutConstraint {
    try LayoutConstraint(
      item: item1, attribute: attr1, relatedBy: relation, toItem: item2, attribute: attr2,
      constant: constant
    ).withPriority(priority)
  }

  /// A constraint's description without its own address: items, attributes, relation,
  /// multiplier, constant, priority and state.
  func body(_ constraint: LayoutConstraint) -> Substring {
    let description = constraint.description
    return description.drop { $0 != " " }
  }

  /// Expects `actual` to be `expected`: same descriptions in the same order, same priorities,
  /// none active.
  func expectSame(
    _ actual: [LayoutConstraint], _ expected: [LayoutConstraint],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(actual.map(body) == expected.map(body), sourceLocation: sourceLocation)
    #expect(actual.map(\.priority) == expected.map(\.priority), sourceLocation: sourceLocation)
    #expect(actual.allSatisfy { !$0.isActive }, sourceLocation: sourceLocation)
  }

  // MARK: Grammar

  @Test func aViewAloneMakesNoConstraints() throws {
    #expect(try parse("[a]").isEmpty)
    #expect(try parse("V:[a]").isEmpty)
  }

  @Test func orientationDefaultsToHorizontal() throws {
    let width = [a.widthAnchor.constraint(equalToConstant: 50)]
    expectSame(try parse("[a(50)]"), width)
    expectSame(try parse("H:[a(50)]"), width)
    expectSame(try parse("V:[a(50)]"), [a.heightAnchor.constraint(equalToConstant: 50)])
  }

  @Test func flushViewsAreZeroApart() throws {
    expectSame(try parse("[a][b]"), [b.leadingAnchor.constraint(equalTo: a.trailingAnchor)])
    expectSame(try parse("V:[a][b]"), [b.topAnchor.constraint(equalTo: a.bottomAnchor)])
  }

  @Test func bareDashIsTheStandardSpaceBetweenSiblings() throws {
    expectSame(
      try parse("[a]-[b]"), [b.leadingAnchor.constraint(equalTo: a.trailingAnchor, constant: 8)])
    expectSame(
      try parse("V:[a]-[b]"), [b.topAnchor.constraint(equalTo: a.bottomAnchor, constant: 8)])
  }

  @Test func numbersAndMetricsAsSpaces() throws {
    expectSame(
      try parse("[a]-12-[b]-12.5-[c]"),
      [
        b.leadingAnchor.constraint(equalTo: a.trailingAnchor, constant: 12),
        c.leadingAnchor.constraint(equalTo: b.trailingAnchor, constant: 12.5),
      ])
    expectSame(
      try parse("[a]-gap-[b]", metrics: ["gap": 20]),
      [b.leadingAnchor.constraint(equalTo: a.trailingAnchor, constant: 20)])
  }

  @Test func predicateListsInSpaces() throws {
    expectSame(
      try parse("[a]-(>=8,<=gap@750)-[b]", metrics: ["gap": 20]),
      [
        b.leadingAnchor.constraint(greaterThanOrEqualTo: a.trailingAnchor, constant: 8),
        b.leadingAnchor.constraint(lessThanOrEqualTo: a.trailingAnchor, constant: 20)
          .withPriority(750),
      ])
    // A negative space needs parentheses; `==` and a priority metric are allowed too.
    expectSame(
      try parse("[a]-(==-5@low)-[b]-(-2.5)-[c]", metrics: ["low": 250]),
      [
        b.leadingAnchor.constraint(equalTo: a.trailingAnchor, constant: -5).withPriority(250),
        c.leadingAnchor.constraint(equalTo: b.trailingAnchor, constant: -2.5),
      ])
  }

  @Test func sizePredicatesWithEachRelation() throws {
    expectSame(
      try parse("[a(==50)][b(>=60)][c(<=70)]"),
      [
        a.widthAnchor.constraint(equalToConstant: 50),
        b.leadingAnchor.constraint(equalTo: a.trailingAnchor),
        b.widthAnchor.constraint(greaterThanOrEqualToConstant: 60),
        c.leadingAnchor.constraint(equalTo: b.trailingAnchor),
        c.widthAnchor.constraint(lessThanOrEqualToConstant: 70),
      ])
  }

  @Test func priorityAsNumberOrMetric() throws {
    expectSame(
      try parse("V:[a(50@750)]"),
      [a.heightAnchor.constraint(equalToConstant: 50).withPriority(750)])
    expectSame(
      try parse("[a(w@p)]", metrics: ["w": 40, "p": 999.5]),
      [a.widthAnchor.constraint(equalToConstant: 40).withPriority(999.5)])
    expectSame(
      try parse("[a(1e2@1000)]"), [a.widthAnchor.constraint(equalToConstant: 100)])
  }

  @Test func sizePredicatesNameOtherViews() throws {
    expectSame(try parse("[a(==b)]"), [a.widthAnchor.constraint(equalTo: b.widthAnchor)])
    expectSame(
      try parse("V:[a(>=b@250)]"),
      [a.heightAnchor.constraint(greaterThanOrEqualTo: b.heightAnchor).withPriority(250)])
  }

  @Test func multiplePredicatesMakeOneConstraintEach() throws {
    expectSame(
      try parse("[a(>=50@750,<=100,c)]"),
      [
        try make(a, .width, .greaterThanOrEqual, nil, .notAnAttribute, 50, priority: 750),
        try make(a, .width, .lessThanOrEqual, nil, .notAnAttribute, 100),
        try make(a, .width, .equal, c, .width),
      ])
  }

  @Test func metricsAreLookedUpBeforeViews() throws {
    expectSame(
      try parse("[a(b)]", metrics: ["b": 30]), [a.widthAnchor.constraint(equalToConstant: 30)])
    // A view's name as a space would be an error, but a metric of that name is fine.
    expectSame(
      try parse("[a]-b-[c]", metrics: ["b": 4]),
      [c.leadingAnchor.constraint(equalTo: a.trailingAnchor, constant: 4)])
  }

  @Test func superviewEdges() throws {
    expectSame(
      try parse("|-8-[a]-12-|"),
      [
        try make(a, .leading, .equal, root, .leading, 8),
        try make(root, .trailing, .equal, a, .trailing, 12),
      ])
    expectSame(
      try parse("V:|[a]|"),
      [try make(a, .top, .equal, root, .top), try make(root, .bottom, .equal, a, .bottom)])
  }

  @Test func standardSpaceToTheSuperviewIsItsMargins() throws {
    let margins = root.layoutMarginsGuide
    expectSame(
      try parse("|-[a]-|"),
      [
        a.leadingAnchor.constraint(equalTo: margins.leadingAnchor),
        margins.trailingAnchor.constraint(equalTo: a.trailingAnchor),
      ])
    expectSame(
      try parse("V:|-[a]-|"),
      [
        a.topAnchor.constraint(equalTo: margins.topAnchor),
        margins.bottomAnchor.constraint(equalTo: a.bottomAnchor),
      ])
  }

  @Test func inequalitiesKeepTheLaterItemFirst() throws {
    expectSame(
      try parse("|-(>=20)-[a]-(>=8)-[b]-(<=20)-|"),
      [
        try make(a, .leading, .greaterThanOrEqual, root, .leading, 20),
        try make(b, .leading, .greaterThanOrEqual, a, .trailing, 8),
        try make(root, .trailing, .lessThanOrEqual, b, .trailing, 20),
      ])
  }

  @Test func constraintsComeOutInParseOrder() throws {
    // Each view's leading space, then its sizes; the trailing space; then the alignments.
    let margins = root.layoutMarginsGuide
    expectSame(
      try parse("|-[a(50)]-[b(>=60,<=c)]-|", .alignAllTop),
      [
        try make(a, .leading, .equal, margins, .leading),
        try make(a, .width, .equal, nil, .notAnAttribute, 50),
        try make(b, .leading, .equal, a, .trailing, 8),
        try make(b, .width, .greaterThanOrEqual, nil, .notAnAttribute, 60),
        try make(b, .width, .lessThanOrEqual, c, .width),
        try make(margins, .trailing, .equal, b, .trailing),
        try make(a, .top, .equal, b, .top),
      ])
  }

  @Test func constraintsAreInactive() throws {
    let constraints = try parse("|-8-[a]-[b]-8-|")
    #expect(constraints.count == 3)
    #expect(constraints.allSatisfy { !$0.isActive })
    #expect(root.constraints.isEmpty && a.constraints.isEmpty)
  }

  // MARK: Options

  static let horizontalLayoutAlignments: [(LayoutConstraint.FormatOptions, LayoutAttribute)] = [
    (.alignAllTop, .top), (.alignAllBottom, .bottom), (.alignAllCenterY, .centerY),
    (.alignAllLastBaseline, .lastBaseline), (.alignAllFirstBaseline, .firstBaseline),
  ]

  static let verticalLayoutAlignments: [(LayoutConstraint.FormatOptions, LayoutAttribute)] = [
    (.alignAllLeft, .left), (.alignAllRight, .right), (.alignAllLeading, .leading),
    (.alignAllTrailing, .trailing), (.alignAllCenterX, .centerX),
  ]

  @Test func optionRawValuesAreUIKits() {
    let values: [(LayoutConstraint.FormatOptions, UInt)] = [
      (.alignAllLeft, 2), (.alignAllRight, 4), (.alignAllTop, 8), (.alignAllBottom, 16),
      (.alignAllLeading, 32), (.alignAllTrailing, 64), (.alignAllCenterX, 512),
      (.alignAllCenterY, 1024), (.alignAllLastBaseline, 2048), (.alignAllFirstBaseline, 4096),
      (.directionLeadingToTrailing, 0), (.directionLeftToRight, 65536),
      (.directionRightToLeft, 131072), (.spacingEdgeToEdge, 0),
      (.spacingBaselineToBaseline, 524288),
    ]
    for (option, raw) in values { #expect(option.rawValue == raw) }
  }

  @Test(arguments: horizontalLayoutAlignments)
  func alignmentInHorizontalLayouts(option: LayoutConstraint.FormatOptions, attr: LayoutAttribute)
    throws
  {
    expectSame(
      try parse("[a][b]-[c]", option),
      [
        try make(b, .leading, .equal, a, .trailing),
        try make(c, .leading, .equal, b, .trailing, 8),
        try make(a, attr, .equal, b, attr),
        try make(b, attr, .equal, c, attr),
      ])
  }

  @Test(arguments: verticalLayoutAlignments)
  func alignmentInVerticalLayouts(option: LayoutConstraint.FormatOptions, attr: LayoutAttribute)
    throws
  {
    expectSame(
      try parse("V:[a]-[b]", option),
      [try make(b, .top, .equal, a, .bottom, 8), try make(a, attr, .equal, b, attr)])
  }

  @Test func severalAlignmentsGoPairByPairInAttributeOrder() throws {
    expectSame(
      try parse("[a][b][c]", [.alignAllBottom, .alignAllTop]),
      [
        try make(b, .leading, .equal, a, .trailing),
        try make(c, .leading, .equal, b, .trailing),
        try make(a, .top, .equal, b, .top),
        try make(a, .bottom, .equal, b, .bottom),
        try make(b, .top, .equal, c, .top),
        try make(b, .bottom, .equal, c, .bottom),
      ])
  }

  @Test func directionLeadingToTrailingIsTheDefault() throws {
    expectSame(
      try parse("|-8-[a]-[b]-8-|", .directionLeadingToTrailing),
      [
        try make(a, .leading, .equal, root, .leading, 8),
        try make(b, .leading, .equal, a, .trailing, 8),
        try make(root, .trailing, .equal, b, .trailing, 8),
      ])
  }

  @Test func directionLeftToRightUsesLeftAndRight() throws {
    let margins = root.layoutMarginsGuide
    expectSame(
      try parse("|-[a]-[b]-(>=8)-|", .directionLeftToRight),
      [
        try make(a, .left, .equal, margins, .left),
        try make(b, .left, .equal, a, .right, 8),
        try make(root, .right, .greaterThanOrEqual, b, .right, 8),
      ])
  }

  @Test func directionRightToLeftMirrors() throws {
    // The first view is the rightmost: each constraint reads from the right, the earlier item
    // first, so positive spaces still push views apart.
    let margins = root.layoutMarginsGuide
    expectSame(
      try parse("|-8-[a]-(>=4)-[b]-|", .directionRightToLeft),
      [
        try make(root, .right, .equal, a, .right, 8),
        try make(a, .left, .greaterThanOrEqual, b, .right, 4),
        try make(b, .left, .equal, margins, .left),
      ])
  }

  @Test(arguments: [
    LayoutConstraint.FormatOptions.directionLeadingToTrailing, .directionLeftToRight,
    .directionRightToLeft,
  ])
  func directionsLeaveVerticalLayoutsAlone(direction: LayoutConstraint.FormatOptions) throws {
    expectSame(
      try parse("V:|-8-[a]-[b]|", direction),
      [
        try make(a, .top, .equal, root, .top, 8),
        try make(b, .top, .equal, a, .bottom, 8),
        try make(root, .bottom, .equal, b, .bottom),
      ])
  }

  @Test func baselineToBaselineSpacesViewsButNotTheSuperview() throws {
    let margins = root.layoutMarginsGuide
    expectSame(
      try parse("V:|-[a]-[b]-20-[c]-10-|", .spacingBaselineToBaseline),
      [
        try make(a, .top, .equal, margins, .top),
        try make(b, .firstBaseline, .equal, a, .lastBaseline, 8),
        try make(c, .firstBaseline, .equal, b, .lastBaseline, 20),
        try make(root, .bottom, .equal, c, .bottom, 10),
      ])
    expectSame(
      try parse("V:[a][b]", .spacingEdgeToEdge), [try make(b, .top, .equal, a, .bottom)])
  }

  // MARK: Errors

  /// A format, its options, the message it fails with and the caret's offset.
  struct ErrorCase: CustomTestStringConvertible, Sendable {
    var format: String
    var options: LayoutConstraint.FormatOptions = []
    var message: String
    var offset: Int
    var testDescription: String { "\"\(format)\" (options \(options.rawValue))" }
  }

  static let errorCases: [ErrorCase] = [
    // Names. The caret goes after the name, as in Apple's guide ("blackBox" example).
    ErrorCase(format: "[x]", message: "x is not a key in the views dictionary.", offset: 2),
    ErrorCase(
      format: "|-[a]-[button]", message: "button is not a key in the views dictionary.",
      offset: 13),
    ErrorCase(
      format: "[a]-gap-[b]",
      message: "Encountered metric with name \"gap\", but value was not specified in metrics or "
        + "views dictionaries", offset: 7),
    ErrorCase(
      format: "[a(w)]",
      message: "Encountered metric with name \"w\", but value was not specified in metrics or "
        + "views dictionaries", offset: 4),
    ErrorCase(
      format: "[a(50@p)]",
      message: "Encountered metric with name \"p\", but value was not specified in metrics or "
        + "views dictionaries", offset: 7),
    // Orientation, as in Apple's guide.
    ErrorCase(
      format: "V|[a]|", message: "Expected ':' after 'V' to specify vertical arrangement",
      offset: 1),
    ErrorCase(
      format: "H[a]", message: "Expected ':' after 'H' to specify horizontal arrangement",
      offset: 1),
    // Options: checked once the format has parsed; the caret is past its end.
    ErrorCase(
      format: "[a]-[b]", options: .alignAllLeading,
      message: "Options mask required views to be aligned on a horizontal edge, which is not "
        + "allowed for layout that is also horizontal.", offset: 7),
    ErrorCase(
      format: "[a]", options: .alignAllCenterX,
      message: "Options mask required views to be aligned on a horizontal edge, which is not "
        + "allowed for layout that is also horizontal.", offset: 3),
    ErrorCase(
      format: "V:[a][b]", options: [.alignAllLeft, .alignAllTop],
      message: "Options mask required views to be aligned on a vertical edge, which is not "
        + "allowed for layout that is also vertical.", offset: 8),
    ErrorCase(
      format: "[a]-[b]", options: .spacingBaselineToBaseline,
      message: "BaselineToBaseline format option not valid for horizontal layout", offset: 7),
    ErrorCase(
      format: "[a][b]", options: LayoutConstraint.FormatOptions(rawValue: 1 << 7),
      message: "Options mask contains an alignment bit that names no alignable attribute.",
      offset: 6),
    ErrorCase(
      format: "[a][b]", options: [.directionLeftToRight, .directionRightToLeft],
      message: "Options mask asks for both directionLeftToRight and directionRightToLeft.",
      offset: 6),
    // Priorities must lie in (0, 1000]; the caret goes after the priority.
    ErrorCase(
      format: "[a(50@0)]",
      message: "Invalid priority specified. Priorities must be greater than 0 and less than or "
        + "equal to 1000.", offset: 7),
    ErrorCase(
      format: "[a]-(8@1001)-[b]",
      message: "Invalid priority specified. Priorities must be greater than 0 and less than or "
        + "equal to 1000.", offset: 11),
    ErrorCase(
      format: "[a(50@-1)]",
      message: "Invalid priority specified. Priorities must be greater than 0 and less than or "
        + "equal to 1000.", offset: 8),
    // Spaces.
    ErrorCase(
      format: "[a]--8-[b]",
      message: "Cannot tell if this - is a minus sign or an accidental extra bar in the "
        + "connection. Use parentheses around negative numbers.", offset: 4),
    ErrorCase(
      format: "[a]-c-[b]",
      message: "It's not possible to set a space equal to the width or height of a view. Perhaps "
        + "you want to use a view as a spacer?", offset: 5),
    ErrorCase(
      format: "[a]-(>=c)-[b]",
      message: "It's not possible to set a space equal to the width or height of a view. Perhaps "
        + "you want to use a view as a spacer?", offset: 8),
    ErrorCase(format: "[a]-8[b]", message: "Expected a '-' here", offset: 5),
    ErrorCase(format: "[a]-(8)|", message: "Expected a '-' here", offset: 7),
    ErrorCase(format: "[a]-(8]", message: "Expected ',' or ')' here", offset: 6),
    ErrorCase(format: "[a]-", message: "Expected a view or '|' here", offset: 4),
    ErrorCase(format: "[a]-8-", message: "Expected a view or '|' here", offset: 6),
    ErrorCase(
      format: "[a]-(1e999)-[b]", message: "Numbers and metrics must be finite.", offset: 10),
    // The superview. Apple's own reports put the caret after the view next to a leading '|'
    // (`|[view]|` at 7, `H:|-(>=50)-[view(100)]` at 22); a trailing '|' gets it under the bar.
    ErrorCase(
      format: "|[orphan]|",
      message: "Unable to interpret '|' character, because the related view doesn't have a "
        + "superview", offset: 9),
    ErrorCase(
      format: "H:|-(>=50)-[orphan(100)]",
      message: "Unable to interpret '|' character, because the related view doesn't have a "
        + "superview", offset: 24),
    ErrorCase(
      format: "[orphan]-8-|",
      message: "Unable to interpret '|' character, because the related view doesn't have a "
        + "superview", offset: 11),
    // Views and predicates.
    ErrorCase(format: "[a", message: "Expected a ']' here", offset: 2),
    ErrorCase(format: "[a(50)b]", message: "Expected a ']' here", offset: 6),
    ErrorCase(
      format: "[a][b(50]",
      message: "A predicate on a view's thickness must end with ')' and the view must end with "
        + "']'", offset: 8),
    ErrorCase(
      format: "V:|[a(!=50)]|", message: "Unknown relation. Must be ==, >=, or <=", offset: 6),
    ErrorCase(format: "[a(=50)]", message: "Unknown relation. Must be ==, >=, or <=", offset: 3),
    ErrorCase(
      format: "[a(@5)]",
      message: "Expected a number or key from the metrics dictionary, but encountered something "
        + "else", offset: 3),
    ErrorCase(
      format: "[a]-*-[b]",
      message: "Expected a number or key from the metrics dictionary, but encountered something "
        + "else", offset: 4),
    ErrorCase(
      format: "[1a]",
      message: "Expected a view name: a letter or an underscore, then letters, digits and "
        + "underscores", offset: 1),
    // Structure.
    ErrorCase(format: "", message: "Expected a view", offset: 0),
    ErrorCase(format: "|", message: "Expected a view", offset: 1),
    ErrorCase(format: "|-8-|", message: "Expected a view", offset: 4),
    ErrorCase(format: "V:", message: "Expected a view", offset: 2),
    ErrorCase(format: "[a]x", message: "Expected a connection, a view or '|' here", offset: 3),
    ErrorCase(
      format: "[a]|[b]", message: "Expected the end of the format after the final '|'",
      offset: 4),
    // Whitespace is not part of the grammar.
    ErrorCase(format: "H: [a]", message: "Expected a view", offset: 2),
    ErrorCase(format: "[a] -[b]", message: "Expected a connection, a view or '|' here", offset: 3),
    ErrorCase(
      format: "[a]- [b]",
      message: "Expected a number or key from the metrics dictionary, but encountered something "
        + "else", offset: 4),
    ErrorCase(
      format: "[ a]",
      message: "Expected a view name: a letter or an underscore, then letters, digits and "
        + "underscores", offset: 1),
    ErrorCase(
      format: "[a(50 )]",
      message: "A predicate on a view's thickness must end with ')' and the view must end with "
        + "']'", offset: 5),
    // ASCII only: the caret counts characters.
    ErrorCase(
      format: "[a]-[bé]", message: "Visual format strings may contain ASCII characters only.",
      offset: 6),
  ]

  @Test(arguments: errorCases)
  func errors(_ errorCase: ErrorCase) {
    let error = failure(errorCase.format, errorCase.options)
    #expect(error?.message == errorCase.message)
    #expect(error?.offset == errorCase.offset)
    #expect(error?.format == errorCase.format)
  }

  @Test func descriptionHasUIKitsLayout() {
    let error = failure("|[orphan]|")
    #expect(
      error?.description
        == "Unable to parse constraint format: \nUnable to interpret '|' character, because the "
        + "related view doesn't have a superview \n|[orphan]| \n         ^")
    #expect(
      failure("[x]")?.description
        == "Unable to parse constraint format: \nx is not a key in the views dictionary. \n[x] \n"
        + "  ^")
  }

  @Test func anErrorBuildsNothing() {
    // The standard space to the superview would need its margins guide: a failure later in the
    // format must not have made it.
    #expect(failure("|-[a]-[b]-[x]") != nil)
    #expect(root.layoutGuides.isEmpty)
    #expect(a.superview === root && root.constraints.isEmpty)
  }

  // MARK: Layout

  @Test("Labels and a button laid out by VFL", arguments: SolverStrategy.exact)
  func layout(solver: SolverStrategy) throws {
    let root = makeRoot(solver)  // margins 16 on the sides
    let label = Label("Name")  // 34 × 20.5, hugging 251
    let button = Button("Save")  // 60 × 30, hugging 250: it stretches
    root.addSubview(label)
    root.addSubview(button)
    let views = ["label": label, "button": button]
    LayoutConstraint.activate(
      try LayoutConstraint.constraints(
        withVisualFormat: "|-[label]-[button]-|", options: .alignAllCenterY, views: views)
        + LayoutConstraint.constraints(withVisualFormat: "V:|-40-[label]", views: views))
    root.layoutIfNeeded()
    // The label's center is at 40 + 10.25 = 50.25; the button's top at 50.25 - 15.
    expectFrame(label, 16, 40, 34, 20.5)
    expectFrame(button, 58, 35.25, 301, 30)
    #expect(!label.hasAmbiguousLayout && !button.hasAmbiguousLayout)
  }

  @Test("Baseline-to-baseline spacing", arguments: SolverStrategy.exact)
  func baselineLayout(solver: SolverStrategy) throws {
    let root = makeRoot(solver)
    let title = Label("Title"), body = Label("Body")
    root.addSubview(title)
    root.addSubview(body)
    let views = ["title": title, "body": body]
    LayoutConstraint.activate(
      try LayoutConstraint.constraints(
        withVisualFormat: "V:|-20-[title]-30-[body]",
        options: [
          .spacingBaselineToBaseline, .alignAllLeading,
        ], views: views)
        + LayoutConstraint.constraints(withVisualFormat: "|-[title]", views: views))
    root.layoutIfNeeded()
    // The title's last baseline is at 20 + 16 = 36; the body's first at 66, its top at 50.
    expectFrame(title, 16, 20, 43, 20.5)  // 42.5 rounded up
    expectFrame(body, 16, 50, 34, 20.5)
  }

  @Test("Right to left", arguments: SolverStrategy.exact)
  func rightToLeftLayout(solver: SolverStrategy) throws {
    let root = makeRoot(solver)
    let first = View(), second = View()
    for view in [first, second] {
      view.translatesAutoresizingMaskIntoConstraints = false
      root.addSubview(view)
    }
    let views = ["first": first, "second": second]
    LayoutConstraint.activate(
      try LayoutConstraint.constraints(
        withVisualFormat: "|-10-[first(50)]-[second(60)]",
        options: [
          .directionRightToLeft, .alignAllTop,
        ], views: views)
        + LayoutConstraint.constraints(withVisualFormat: "V:|[first(10)]", views: views)
        + LayoutConstraint.constraints(withVisualFormat: "V:[second(20)]", views: views))
    root.layoutIfNeeded()
    // The first view is the rightmost: 10 from the right edge; the second 8 to its left.
    expectFrame(first, 315, 0, 50, 10)
    expectFrame(second, 247, 0, 60, 20)
  }

  @Test func readmeExample() throws {
    let root = View(frame: Rect(x: 0, y: 0, width: 375, height: 667))
    let name = Label("Name"), save = Button("Save")
    root.addSubview(name)
    root.addSubview(save)
    let views = ["name": name, "save": save]
    LayoutConstraint.activate(
      try LayoutConstraint.constraints(
        withVisualFormat: "|-[name]-[save]-|", options: .alignAllCenterY, views: views)
        + LayoutConstraint.constraints(withVisualFormat: "V:|-20-[save]", views: views))
    root.layoutIfNeeded()
    // name: (8, 24.75, 34, 20.5)   save: (50, 20, 317, 30)
    #expect("\(name.frame) \(save.frame)" == "(8, 24.75, 34, 20.5) (50, 20, 317, 30)")
  }
}
