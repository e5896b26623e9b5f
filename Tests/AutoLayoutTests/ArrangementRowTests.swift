import AutoLayout
import Cassowary
import Glibc
import Testing

/// A stack view's `UISV-…` constraints are rows its engine holds, and a constraint describes one
/// only when asked: it reads the stack as it is now.
@Suite("Stack arrangement rows")
struct ArrangementRowTests {
  /// The engine's rows that name `view` on either side.
  func rows(on view: View, in engine: LayoutEngine) -> [LayoutConstraint] {
    engine.loweredConstraints().map(\.constraint).filter {
      $0.firstItem === view || $0.secondItem === view
    }
  }

  @Test(
    "A described arrangement constraint reads the stack as it is now",
    arguments: SolverStrategy.exact)
  func describedRowReadsTheStack(solver: SolverStrategy) throws {
    let fixture = StackFixture(solver, axis: .horizontal)
    let (a, b) = (fixture.boxes[0], fixture.boxes[1])
    let spacing = try #require(
      fixture.stack.arrangementConstraints.first {
        $0.identifier == "UISV-spacing" && $0.firstItem === b && $0.secondItem === a
      })
    #expect(spacing.constant == 10 && spacing.isActive && !spacing.isBroken)
    #expect(spacing.description.contains("'UISV-spacing'"))
    fixture.stack.spacing = 4
    fixture.root.layoutIfNeeded()
    #expect(spacing.constant == 4)
    // The rows are the engine's, each once, and the views list those they take part in.
    let engine = try #require(fixture.root.layoutEngine)
    let installed = engine.loweredConstraints().filter {
      $0.constraint.identifier?.hasPrefix("UISV-") ?? false
    }
    #expect(installed.count == fixture.stack.arrangementConstraints.count)
    #expect(
      fixture.stack.constraints.filter { $0.identifier?.hasPrefix("UISV-") ?? false }.count
        == installed.count)
    #expect(
      a.constraintsAffectingLayout(for: .horizontal).contains {
        $0.identifier == "UISV-spacing" && $0.secondItem === a
      })
    fixture.stack.removeArrangedSubview(b)
    #expect(!spacing.isActive)
  }

  @Test("An arranged view that leaves takes its rows out at once", arguments: SolverStrategy.exact)
  func leavingViewTakesItsRows(solver: SolverStrategy) throws {
    let fixture = StackFixture(solver, axis: .horizontal)
    let engine = try #require(fixture.root.layoutEngine)
    let b = fixture.boxes[1]
    #expect(!rows(on: b, in: engine).isEmpty)
    b.removeFromSuperview()
    #expect(rows(on: b, in: engine).isEmpty)
    #expect(fixture.stack.arrangedSubviews.count == 2)
    fixture.root.layoutIfNeeded()
    // A and C, 10 apart; C stretches to the end.
    expectFrame(fixture.boxes[0], 0, 0, 40, 20)
    expectFrame(fixture.boxes[2], 50, 0, 250, 20)
    // Released, the view leaves nothing behind in the engine.
    #expect(engine.loweredConstraints().allSatisfy { $0.constraint.firstItem != nil })
  }

  @Test("A stack's rows move with it between engines", arguments: SolverStrategy.exact)
  func rowsMoveWithTheirStack(solver: SolverStrategy) throws {
    let fixture = StackFixture(solver, axis: .horizontal, alignment: .center)
    let oldEngine = try #require(fixture.root.layoutEngine)
    let count = fixture.stack.arrangementConstraints.count
    let root = makeRoot(solver)
    root.addSubview(fixture.stack)
    LayoutConstraint.activate([
      fixture.stack.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 10),
      fixture.stack.topAnchor.constraint(equalTo: root.topAnchor, constant: 100),
    ])
    root.layoutIfNeeded()
    fixture.expect(
      along: StackViewTests.along(.fill), across: StackViewTests.across(.center, .horizontal))
    #expect(
      !oldEngine.loweredConstraints().contains {
        $0.constraint.identifier?.hasPrefix("UISV-") ?? false
      })
    let newEngine = try #require(root.layoutEngine)
    #expect(
      newEngine.loweredConstraints().filter {
        $0.constraint.identifier?.hasPrefix("UISV-") ?? false
      }.count == count)
  }

  @Test(
    "A conflicting arrangement row is broken, reported and mended",
    arguments: SolverStrategy.exact)
  func conflictingRowIsBrokenAndMended(solver: SolverStrategy) throws {
    let fixture = StackFixture(solver, axis: .horizontal)
    let engine = try #require(fixture.root.layoutEngine)
    var logged: [String] = []
    engine.logHandler = { logged.append($0) }
    let c = fixture.boxes[2]
    // C 5 from the stack's leading edge: it holds while A comes first.
    let pin = c.leadingAnchor.constraint(equalTo: fixture.stack.leadingAnchor, constant: 125)
    pin.isActive = true
    fixture.root.layoutIfNeeded()
    #expect(engine.conflicts.isEmpty)
    // With A and B hidden, C comes first: its canvas connection cannot hold with the pin.
    fixture.boxes[0].isHidden = true
    fixture.boxes[1].isHidden = true
    fixture.root.layoutIfNeeded()
    let report = try #require(engine.conflicts.last)
    #expect(report.broken.identifier == "UISV-canvas-connection" && report.broken.isBroken)
    #expect(report.constraints.contains { $0 === pin })
    #expect(logged.count == 1)
    #expect(fixture.stack.arrangementConstraints.filter(\.isBroken).count == 1)
    expectFrame(c, 125, 0, 175, 10)
    // The pin gone, the row holds once installed again.
    pin.isActive = false
    engine.reinstallBrokenConstraints()
    fixture.root.layoutIfNeeded()
    #expect(fixture.stack.arrangementConstraints.allSatisfy { !$0.isBroken })
    #expect(logged.count == 1)
    expectFrame(c, 0, 0, 300, 10)
  }

  @Test("Moving baselines move the rows on them", arguments: SolverStrategy.exact)
  func baselinesMoveTheRows(solver: SolverStrategy) {
    let fixture = StackFixture(solver, axis: .vertical, alignment: .leading)
    fixture.stack.isBaselineRelativeArrangement = true
    fixture.root.layoutIfNeeded()
    fixture.boxes[1].firstBaselineOffsetFromTop = 30
    fixture.root.layoutIfNeeded()
    // B's first baseline 10 below A's last (35): B at 45 - 30 = 15; C's first baseline 10 below
    // B's last (15 + 60 - 8 = 67): C at 77 - 8 = 69, stretched to the end.
    fixture.expect(
      along: [(0, 40), (15, 60), (69, 231)],
      across: StackViewTests.across(.leading, .vertical))
  }

  @Test("A new reading direction turns the rows around", arguments: SolverStrategy.exact)
  func directionTurnsTheRows(solver: SolverStrategy) {
    let fixture = StackFixture(solver, axis: .horizontal)
    fixture.stack.semanticContentAttribute = .forceRightToLeft
    fixture.root.layoutIfNeeded()
    // A at the right end of the 300 points, then B, then C stretched to the left end.
    fixture.expect(
      along: [(260, 40), (190, 60), (0, 180)], across: StackViewTests.across(.fill, .horizontal))
    fixture.stack.semanticContentAttribute = .forceLeftToRight
    fixture.root.layoutIfNeeded()
    fixture.expect(
      along: StackViewTests.along(.fill), across: StackViewTests.across(.fill, .horizontal))
  }

  @Test("Changing a described arrangement constraint stops the program")
  func changingADescribedRowTraps() async {
    await #expect(processExitsWith: .failure) {
      let stack = StackView(arrangedSubviews: [View(), View()])
      let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
      root.addSubview(stack)
      root.layoutIfNeeded()
      // A row not found exits cleanly, which fails the expectation.
      guard let row = stack.arrangementConstraints.first else { exit(0) }
      row.constant = 3
    }
  }
}
