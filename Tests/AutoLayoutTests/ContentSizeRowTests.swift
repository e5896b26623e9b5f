import AutoLayout
import Cassowary
import Testing

/// A view's content-size rows belong to the engine, and a constraint describes them only when
/// asked: it reads the view as it is now, and cannot be changed by hand.
@Suite("Content-size rows")
struct ContentSizeRowTests {
  /// A label in `root`, placed by its leading and top edges: its size comes from its text.
  func placedLabel(_ root: View, _ text: String) -> Label {
    let label = Label(text)
    root.addSubview(label)
    LayoutConstraint.activate([
      label.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 10),
      label.topAnchor.constraint(equalTo: root.topAnchor, constant: 10),
    ])
    return label
  }

  @Test(
    "A described content-size constraint reads the view as it is now",
    arguments: SolverStrategy.exact)
  func describedConstraintReadsTheView(solver: SolverStrategy) throws {
    let root = makeRoot(solver)
    let label = placedLabel(root, "Name")  // 4 × 8.5 = 34 wide, 20.5 high
    root.layoutIfNeeded()
    expectFrame(label, 10, 10, 34, 20.5)
    let width = try #require(
      label.constraintsAffectingLayout(for: .horizontal).first { $0.isContentSizeConstraint })
    let height = try #require(
      label.constraintsAffectingLayout(for: .vertical).first { $0.isContentSizeConstraint })
    #expect(width.firstItem === label && width.firstAttribute == .width)
    #expect(height.firstAttribute == .height && height.constant == 20.5)
    #expect(width.constant == 34 && width.isActive)
    #expect(width.description.hasPrefix("<ContentSizeLayoutConstraint:0x"))
    #expect(width.description.contains(".width == 34 Hug:251 CompressionResistance:750"))
    // The view's own constraints list both, as UIKit's `constraints` does.
    #expect(label.constraints.filter(\.isContentSizeConstraint).count == 2)

    // New text changes the rows' length in place; the constraint made before reads it.
    let added = root.layoutEngine!.statistics.constraintsAdded
    label.text = "Full name"  // 9 × 8.5 = 76.5 → 77
    root.layoutIfNeeded()
    expectFrame(label, 10, 10, 77, 20.5)
    #expect(width.constant == 77)
    #expect(root.layoutEngine!.statistics.constraintsAdded == added)

    // Out of the tree, the rows go; the constraint reads inactive, and the engine holds no
    // row for the label.
    label.removeFromSuperview()
    #expect(!width.isActive && !height.isActive)
    #expect(
      label.constraintsAffectingLayout(for: .horizontal).allSatisfy { !$0.isContentSizeConstraint })
    let rows = root.layoutEngine!.loweredConstraints().flatMap(\.rows)
    #expect(!rows.contains { $0.expression.terms.count == 1 && $0.expression.constant == -77 })
  }

  @Test("Exports and checks see the rows, once per axis", arguments: SolverStrategy.exact)
  func inspectionSeesTheRows(solver: SolverStrategy) {
    let root = makeRoot(solver)
    _ = placedLabel(root, "Name")
    root.layoutIfNeeded()
    let engine = root.layoutEngine!
    let lowered = engine.loweredConstraints().filter { $0.constraint.isContentSizeConstraint }
    #expect(lowered.count == 2)
    #expect(lowered.allSatisfy { $0.rows.count == 2 })
    #expect(
      lowered.map { $0.rows.map(\.relation) } == [
        [.lessThanOrEqual, .greaterThanOrEqual], [.lessThanOrEqual, .greaterThanOrEqual],
      ])
    var streamed: [Constraint] = []
    var owners = 0
    engine.forEachLoweredRow { constraint, row in
      if constraint == nil {
        streamed.append(row)
      } else {
        owners += 1
      }
    }
    #expect(streamed == lowered.flatMap(\.rows))
    var described = 0
    engine.forEachInstalledConstraint { if $0.isContentSizeConstraint { described += 1 } }
    #expect(described == 2)
  }

  @Test("A described content-size constraint outlives its view and reads it as gone")
  func describedConstraintOutlivesItsView() {
    var kept: LayoutConstraint?
    do {
      let root = makeRoot(.plan)
      let label = placedLabel(root, "Name")
      root.layoutIfNeeded()
      kept = label.constraintsAffectingLayout(for: .horizontal).first { $0.isContentSizeConstraint }
    }
    #expect(kept?.firstItem == nil)
    #expect(kept?.isActive == false)
    #expect(kept?.constant == 34)
  }

  @Test("Rows kept from an engine that went are not taken for another's")
  func rowsFromAGoneEngine() {
    let label = Label("Name")
    do {
      let root = makeRoot(.plan)
      root.addSubview(label)
      LayoutConstraint.activate([
        label.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 10),
        label.topAnchor.constraint(equalTo: root.topAnchor, constant: 10),
      ])
      root.layoutIfNeeded()
    }
    // The old root and its engine are gone; the label joins a new tree, whose engine hands
    // out the same low ids to other rows.
    let other = makeRoot(.plan)
    let first = placedLabel(other, "Longer text")
    other.layoutIfNeeded()
    other.addSubview(label)
    LayoutConstraint.activate([
      label.leadingAnchor.constraint(equalTo: first.trailingAnchor, constant: 8),
      label.topAnchor.constraint(equalTo: other.topAnchor, constant: 10),
    ])
    label.text = "Full name"
    other.layoutIfNeeded()
    expectFrame(first, 10, 10, 94, 20.5)  // 11 × 8.5 = 93.5 → 94
    expectFrame(label, 112, 10, 77, 20.5)
  }
}

/// A text's width counts characters as `String` does, whether it takes the ASCII path or not.
@Suite("Text measure")
struct TextMeasureTests {
  @Test(
    "A text is as wide as its characters",
    arguments: [
      ("", 0), ("Name", 4), ("a b\tc", 5), ("naïve", 5), ("👩‍👩‍👧", 1), ("e\u{301}", 1),
      ("line\r\nnext", 9), ("\r", 1), ("\n\r", 2), ("abc\u{7F}", 4),
    ])
  func widthCountsCharacters(text: String, characters: Int) {
    let font = FontMetrics(pointSize: 17)
    #expect(text.count == characters)
    #expect(font.width(of: text) == (Double(characters) * 8.5).rounded(.up))
  }

  @Test("A text cut from another, or a long one, is measured by its characters")
  func substringsAndCopies() {
    let font = FontMetrics(pointSize: 17)
    let line = "first\r\nsecond"
    let tail = String(line.dropFirst(5))  // "\r\nsecond": 7 characters
    #expect(font.width(of: tail) == (7 * 8.5).rounded(.up))
    #expect(font.width(of: String(repeating: "x", count: 300)) == 2550)
  }
}
