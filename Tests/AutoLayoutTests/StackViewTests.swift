import AutoLayout
import Cassowary
import Testing

/// A view with a fixed intrinsic size and baselines, for stack-view arithmetic.
final class Box: View {
  let size: Size

  init(_ width: Double, _ height: Double, firstBaseline: Double = 0, lastBaseline: Double = 0) {
    size = Size(width: width, height: height)
    super.init()
    firstBaselineOffsetFromTop = firstBaseline
    baselineOffsetFromBottom = lastBaseline
  }

  override var intrinsicContentSize: Size { size }
}

/// Three boxes in a stack 300 long (its other dimension free), spacing 10. Along the axis the
/// boxes are 40, 60 and 80 long and hug at 251, 252 and 250, so the third one stretches in a
/// fill distribution; across it they are 20, 30 and 10 thick, with first baselines 15, 20 and 8
/// from the top and last baselines 5, 8 and 2 from the bottom.
struct StackFixture {
  let root: View
  let stack: StackView
  let boxes: [Box]

  init(
    _ solver: SolverStrategy, axis: LayoutAttribute.Axis,
    distribution: StackView.Distribution = .fill,
    alignment: StackView.Alignment = .fill
  ) {
    root = makeRoot(solver)
    let horizontal = axis == .horizontal
    boxes = [(40.0, 20.0, 15.0, 5.0), (60, 30, 20, 8), (80, 10, 8, 2)].map {
      along, across, fb, lb in
      horizontal
        ? Box(along, across, firstBaseline: fb, lastBaseline: lb)
        : Box(across, along, firstBaseline: fb, lastBaseline: lb)
    }
    for (box, hugging) in zip(boxes, [251, 252, 250] as [LayoutPriority]) {
      box.setContentHuggingPriority(hugging, for: axis)
    }
    stack = StackView(arrangedSubviews: boxes)
    stack.axis = axis
    stack.distribution = distribution
    stack.alignment = alignment
    stack.spacing = 10
    stack.translatesAutoresizingMaskIntoConstraints = false
    root.addSubview(stack)
    LayoutConstraint.activate([
      stack.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 10),
      stack.topAnchor.constraint(equalTo: root.topAnchor, constant: 100),
      horizontal
        ? stack.widthAnchor.constraint(equalToConstant: 300)
        : stack.heightAnchor.constraint(equalToConstant: 300),
    ])
    root.layoutIfNeeded()
  }

  /// Expects each box's (position, length) along the axis and (position, thickness) across it,
  /// in the stack's coordinates.
  func expect(
    along: [(Double, Double)], across: [(Double, Double)],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for (box, (a, c)) in zip(boxes, zip(along, across)) {
      if stack.axis == .horizontal {
        expectFrame(box, a.0, c.0, a.1, c.1, sourceLocation: sourceLocation)
      } else {
        expectFrame(box, c.0, a.0, c.1, a.1, sourceLocation: sourceLocation)
      }
    }
  }

  /// `identifier relation @priority` of every arrangement constraint, sorted.
  var signature: [String] {
    stack.arrangementConstraints.map(Self.signature).sorted()
  }

  static func signature(_ constraint: LayoutConstraint) -> String {
    "\(constraint.identifier ?? "?") \(constraint.relation) @\(constraint.priority)"
  }
}

/// Whether two lists hold the same objects (views, constraints) in the same order.
func identical<T: AnyObject>(_ lhs: [T], _ rhs: [T]) -> Bool {
  lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0 === $1 }
}

@Suite("Stack views")
struct StackViewTests {
  static let third = 280.0 / 3

  /// (position, length) along the axis of the three boxes, per distribution, worked out by hand.
  static func along(_ distribution: StackView.Distribution) -> [(Double, Double)] {
    switch distribution {
    // The lowest hugging (the third box) takes the 100 spare points.
    case .fill: [(0, 40), (50, 60), (120, 180)]
    case .fillEqually: [(0, third), (third + 10, third), (2 * third + 20, third)]
    // Multipliers 40/200, 60/200, 80/200 of 300 at 999, 998, 997: 60 and 90 hold, the last
    // gives (300 - 60 - 90 - 20 = 130).
    case .fillProportionally: [(0, 60), (70, 90), (170, 130)]
    // Intrinsic lengths, two equal gaps of (300 - 180) / 2.
    case .equalSpacing: [(0, 40), (100, 60), (220, 80)]
    // Centers 20 and 260, the middle one at 140.
    case .equalCentering: [(0, 40), (110, 60), (220, 80)]
    }
  }

  /// (position, thickness) across the axis; the stack is as thick as its spanner (30).
  static func across(_ alignment: StackView.Alignment, _ axis: LayoutAttribute.Axis) -> [(
    Double, Double
  )] {
    switch (alignment, axis) {
    case (.fill, _): [(0, 30), (0, 30), (0, 30)]
    case (.leading, _), (.firstBaseline, .vertical): [(0, 20), (0, 30), (0, 10)]
    case (.center, _): [(5, 20), (0, 30), (10, 10)]
    case (.trailing, _), (.lastBaseline, .vertical): [(10, 20), (0, 30), (20, 10)]
    // First baselines at 20: tops 20 - 15, 20 - 20, 20 - 8.
    case (.firstBaseline, .horizontal): [(5, 20), (0, 30), (12, 10)]
    // Last baselines at 22: tops 22 - 15, 22 - 22, 22 - 8.
    case (.lastBaseline, .horizontal): [(7, 20), (0, 30), (14, 10)]
    }
  }

  /// The constraints UIKit makes for three visible views, by identifier, relation and priority.
  static func expectedSignature(
    _ distribution: StackView.Distribution, _ alignment: StackView.Alignment,
    _ axis: LayoutAttribute.Axis
  ) -> [String] {
    let equalGaps = distribution == .equalSpacing || distribution == .equalCentering
    var result = Array(repeating: "UISV-canvas-connection == @1000", count: 2)
    result += Array(repeating: "UISV-spacing \(equalGaps ? ">=" : "==") @1000", count: 2)
    switch distribution {
    case .fill: break
    case .fillEqually: result += Array(repeating: "UISV-fill-equally == @1000", count: 2)
    case .fillProportionally:
      result += ["999", "998", "997"].map { "UISV-fill-proportionally == @\($0)" }
    case .equalSpacing, .equalCentering:
      result += Array(repeating: "UISV-distributing-edge == @1000", count: 4)
      result.append("UISV-fill-equally == @\(distribution == .equalSpacing ? 1000 : 149)")
      result.append("UISV-canvas-fit == @49")
    }
    if alignment == .fill {
      result += Array(repeating: "UISV-canvas-connection == @1000", count: 2)
      result += Array(repeating: "UISV-alignment == @1000", count: 4)
    } else {
      result += Array(repeating: "UISV-alignment == @1000", count: 2)
      result += Array(
        repeating: "UISV-canvas-connection == @1000", count: alignment == .center ? 3 : 2)
      let top = alignment == .leading || (alignment == .firstBaseline && axis == .vertical)
      let bottom = alignment == .trailing || (alignment == .lastBaseline && axis == .vertical)
      result += Array(
        repeating: top ? "UISV-spanning-boundary == @999.5" : "UISV-spanning-boundary <= @1000",
        count: 3)
      result += Array(
        repeating: bottom ? "UISV-spanning-boundary == @999.5" : "UISV-spanning-boundary >= @1000",
        count: 3)
      result.append("UISV-spanning-fit == @51")
      result += Array(repeating: "UISV-ambiguity-suppression == @25", count: 3)
    }
    return result.sorted()
  }

  static let combinations: [(StackView.Distribution, StackView.Alignment, LayoutAttribute.Axis)] =
    StackView.Distribution.allCases.flatMap { distribution in
      StackView.Alignment.allCases.flatMap { alignment in
        LayoutAttribute.Axis.allCases.map { (distribution, alignment, $0) }
      }
    }

  @Test(
    "Every distribution × alignment, both axes: frames and UIKit's constraints",
    arguments: SolverStrategy.exact, combinations)
  func distributionAndAlignment(
    solver: SolverStrategy,
    combination: (StackView.Distribution, StackView.Alignment, LayoutAttribute.Axis)
  ) {
    let (distribution, alignment, axis) = combination
    let fixture = StackFixture(solver, axis: axis, distribution: distribution, alignment: alignment)
    fixture.expect(along: Self.along(distribution), across: Self.across(alignment, axis))
    #expect(fixture.signature == Self.expectedSignature(distribution, alignment, axis))
    let stackFrame = fixture.stack.frame
    #expect(
      stackFrame.size
        == (axis == .horizontal ? Size(width: 300, height: 30) : Size(width: 30, height: 300)))
    for box in fixture.boxes { #expect(!box.hasAmbiguousLayout) }
  }

  @Test(
    "Hiding and showing a view changes only its own constraints", arguments: SolverStrategy.exact)
  func hidingAndShowing(solver: SolverStrategy) throws {
    let fixture = StackFixture(solver, axis: .horizontal)
    let engine = try #require(fixture.root.layoutEngine)
    let before = engine.statistics
    let constraintCount = fixture.stack.arrangementConstraints.count
    fixture.boxes[1].isHidden = true
    fixture.root.layoutIfNeeded()
    // A and C are joined by one spacing; C stretches to the end. B collapses half a spacing after
    // A, keeps its own height and rests at the top.
    expectFrame(fixture.boxes[0], 0, 0, 40, 20)
    expectFrame(fixture.boxes[1], 45, 0, 0, 30)
    expectFrame(fixture.boxes[2], 50, 0, 250, 20)
    #expect(fixture.stack.subviews.count == 3 && fixture.stack.arrangedSubviews.count == 3)
    let hidden = engine.statistics
    // Out: two spacings and B's two alignments. In: one spacing, the hiding, the hidden spacing
    // and two ambiguity suppressions.
    #expect(hidden.constraintsRemoved - before.constraintsRemoved == 4)
    #expect(hidden.constraintsAdded - before.constraintsAdded == 5)
    let hiding = fixture.stack.arrangementConstraints.filter { $0.identifier == "UISV-hiding" }
    #expect(
      hiding.count == 1 && hiding[0].priority == 999.999 && hiding[0].firstItem === fixture.boxes[1]
    )

    fixture.boxes[1].isHidden = false
    fixture.root.layoutIfNeeded()
    fixture.expect(along: Self.along(.fill), across: Self.across(.fill, .horizontal))
    #expect(fixture.stack.arrangementConstraints.count == constraintCount)
    #expect(engine.statistics.constraintsAdded - hidden.constraintsAdded == 4)
    #expect(engine.statistics.constraintsRemoved - hidden.constraintsRemoved == 5)
  }

  @Test("Hiding the first and the last view", arguments: SolverStrategy.exact)
  func hidingEnds(solver: SolverStrategy) {
    let fixture = StackFixture(
      solver, axis: .horizontal, distribution: .equalSpacing, alignment: .center)
    fixture.boxes[0].isHidden = true
    fixture.root.layoutIfNeeded()
    // B and C alone: one gap of 300 - 140; the stack is as thick as B.
    expectFrame(fixture.boxes[1], 0, 0, 60, 30)
    expectFrame(fixture.boxes[2], 220, 10, 80, 10)
    expectFrame(fixture.boxes[0], 0, 0, 0, 20)
    fixture.boxes[2].isHidden = true
    fixture.root.layoutIfNeeded()
    // B alone spans the stack; C hangs half a spacing after it.
    expectFrame(fixture.boxes[1], 0, 0, 300, 30)
    expectFrame(fixture.boxes[2], 305, 0, 0, 10)
    #expect(
      !fixture.stack.arrangementConstraints.contains { $0.identifier == "UISV-distributing-edge" })
  }

  @Test("Layout margins relative arrangement", arguments: SolverStrategy.exact)
  func marginsRelative(solver: SolverStrategy) {
    let fixture = StackFixture(solver, axis: .horizontal)
    fixture.stack.layoutMargins = EdgeInsets(all: 5)
    fixture.stack.isLayoutMarginsRelativeArrangement = true
    fixture.root.layoutIfNeeded()
    fixture.expect(
      along: [(5, 40), (55, 60), (125, 170)], across: Array(repeating: (5, 30), count: 3))
    #expect(fixture.stack.frame.height == 40)
  }

  @Test("Baseline relative arrangement in a vertical stack", arguments: SolverStrategy.exact)
  func baselineRelative(solver: SolverStrategy) {
    let fixture = StackFixture(solver, axis: .vertical, alignment: .leading)
    fixture.stack.isBaselineRelativeArrangement = true
    fixture.root.layoutIfNeeded()
    // B's first baseline 10 below A's last (35): B at 45 - 20 = 25; C's at 10 below B's last
    // (25 + 60 - 8 = 77): C at 87 - 8 = 79, stretched to the end.
    fixture.expect(along: [(0, 40), (25, 60), (79, 221)], across: Self.across(.leading, .vertical))
    let spacing = fixture.stack.arrangementConstraints.filter { $0.identifier == "UISV-spacing" }
    #expect(spacing.map(\.firstAttribute) == [.firstBaseline, .firstBaseline])
    #expect(spacing.map(\.secondAttribute) == [.lastBaseline, .lastBaseline])
  }

  @Test("Custom and system spacing", arguments: SolverStrategy.exact)
  func customSpacing(solver: SolverStrategy) throws {
    let fixture = StackFixture(solver, axis: .horizontal)
    fixture.stack.setCustomSpacing(30, after: fixture.boxes[0])
    fixture.root.layoutIfNeeded()
    fixture.expect(along: [(0, 40), (70, 60), (140, 160)], across: Self.across(.fill, .horizontal))
    #expect(fixture.stack.customSpacing(after: fixture.boxes[0]) == 30)
    #expect(fixture.stack.customSpacing(after: fixture.boxes[1]) == StackView.spacingUseDefault)
    // A new spacing edits the stack's rows in place: none added or removed, new constants.
    let engine = try #require(fixture.root.layoutEngine)
    let before = engine.statistics
    let signature = fixture.signature
    fixture.stack.setCustomSpacing(StackView.spacingUseDefault, after: fixture.boxes[0])
    fixture.stack.spacing = StackView.spacingUseSystem
    fixture.root.layoutIfNeeded()
    fixture.expect(along: [(0, 40), (48, 60), (116, 184)], across: Self.across(.fill, .horizontal))
    #expect(fixture.signature == signature)
    #expect(engine.statistics.constraintsAdded == before.constraintsAdded)
    #expect(engine.statistics.constraintsRemoved == before.constraintsRemoved)
    #expect(engine.statistics.constantsChanged - before.constantsChanged == 2)
    let spacing = fixture.stack.arrangementConstraints.filter { $0.identifier == "UISV-spacing" }
    #expect(spacing.map(\.constant) == [8, 8])
  }

  @Test("Adding, inserting and removing arranged views", arguments: SolverStrategy.exact)
  func arrangedViews(solver: SolverStrategy) {
    let fixture = StackFixture(solver, axis: .horizontal, distribution: .fillEqually)
    let (a, b, c) = (fixture.boxes[0], fixture.boxes[1], fixture.boxes[2])
    fixture.stack.removeArrangedSubview(b)
    fixture.root.layoutIfNeeded()
    #expect(b.superview === fixture.stack && identical(fixture.stack.arrangedSubviews, [a, c]))
    #expect(
      !fixture.stack.arrangementConstraints.contains { $0.firstItem === b || $0.secondItem === b })
    expectFrame(a, 0, 0, 145, 20)
    expectFrame(c, 155, 0, 145, 20)
    fixture.stack.insertArrangedSubview(b, at: 0)
    fixture.root.layoutIfNeeded()
    #expect(identical(fixture.stack.arrangedSubviews, [b, a, c]))
    expectFrame(b, 0, 0, Self.third, 30)
    expectFrame(a, Self.third + 10, 0, Self.third, 30)
    c.removeFromSuperview()
    fixture.root.layoutIfNeeded()
    #expect(identical(fixture.stack.arrangedSubviews, [b, a]))
    expectFrame(b, 0, 0, 145, 30)
    expectFrame(a, 155, 0, 145, 30)
    let extra = Box(10, 10)
    fixture.stack.addArrangedSubview(extra)
    fixture.root.layoutIfNeeded()
    #expect(!extra.translatesAutoresizingMaskIntoConstraints && extra.superview === fixture.stack)
    expectFrame(extra, 2 * Self.third + 20, 0, Self.third, 30)
  }

  @Test("Fill proportionally follows intrinsic size changes", arguments: SolverStrategy.exact)
  func proportionalUpdates(solver: SolverStrategy) {
    let root = makeRoot(solver)
    let first = Label("abcd")  // 34 wide
    let second = Label("abcdefgh")  // 68 wide
    let stack = StackView(arrangedSubviews: [first, second])
    stack.distribution = .fillProportionally
    stack.translatesAutoresizingMaskIntoConstraints = false
    root.addSubview(stack)
    LayoutConstraint.activate([
      stack.leadingAnchor.constraint(equalTo: root.leadingAnchor),
      stack.topAnchor.constraint(equalTo: root.topAnchor),
      stack.widthAnchor.constraint(equalToConstant: 204),
    ])
    root.layoutIfNeeded()
    expectFrame(first, 0, 0, 68, 20.5)
    expectFrame(second, 68, 0, 136, 20.5)
    first.text = "abcdefgh"
    root.layoutIfNeeded()
    expectFrame(first, 0, 0, 102, 20.5)
    expectFrame(second, 102, 0, 102, 20.5)
  }

  @Test("The dump reads like UIKit's")
  func descriptions() {
    let fixture = StackFixture(.sparse, axis: .horizontal, alignment: .top)
    fixture.boxes[2].isHidden = true
    fixture.root.layoutIfNeeded()
    let lines = fixture.stack.arrangementConstraints.map { constraint in
      constraint.description.replacing(/0x[0-9a-f]+/, with: "0x…")
    }
    #expect(
      lines.contains(
        "<LayoutConstraint:0x… 'UISV-hiding' Box:0x….width == 0 priority:999.999   (active)>"))
    #expect(
      lines.contains(
        "<LayoutConstraint:0x… 'UISV-spacing' Box:0x….leading == Box:0x….trailing + 10   (active)>")
    )
    #expect(
      lines.contains(
        "<LayoutConstraint:0x… 'UISV-spanning-fit' LayoutGuide:0x…'UISV-alignment-spanner'.height == 0 priority:51   (active)>"
      ))
    #expect(
      lines.contains(
        "<LayoutConstraint:0x… 'UISV-canvas-connection' StackView:0x….leading == Box:0x….leading   (active)>"
      ))
  }

  /// A stack nested in a stack enters the engine when its container's arrangement is made, in
  /// the update pass that made its own: that remakes its system constraints, not its
  /// arrangement. A view's `updateConstraints()` runs once a pass unless it asks again.
  @Test("A nested stack's arrangement is made once in the first layout")
  func nestedStackIsArrangedOnce() {
    final class CountingStack: StackView {
      var updates = 0
      override func updateConstraints() {
        updates += 1
        super.updateConstraints()
      }
    }
    let root = makeRoot(.sparse)
    let inner = CountingStack(arrangedSubviews: [Box(40, 20), Box(60, 30)])
    let outer = CountingStack(arrangedSubviews: [inner, Box(80, 10)])
    outer.axis = .vertical
    outer.translatesAutoresizingMaskIntoConstraints = false
    root.addSubview(outer)
    LayoutConstraint.activate([
      outer.leadingAnchor.constraint(equalTo: root.leadingAnchor),
      outer.topAnchor.constraint(equalTo: root.topAnchor),
    ])
    root.layoutIfNeeded()
    #expect(inner.updates == 1)
    #expect(outer.updates == 1)
    #expect(inner.frame.size == Size(width: 100, height: 30))
    inner.spacing = 5
    root.layoutIfNeeded()
    #expect(inner.updates == 2)
    #expect(outer.updates == 1)
    #expect(inner.frame.size == Size(width: 105, height: 30))
  }
}
