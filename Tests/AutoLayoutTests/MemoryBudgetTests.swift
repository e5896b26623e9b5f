import AutoLayout
import Cassowary
import Testing

/// The dense baseline refuses to grow past its memory budget. An engine whose solver refuses a
/// change keeps the refusal, stops changing the solver and goes on without crashing, so that the
/// harness reports a scene too large for the dense solver as skipped.
@Suite struct MemoryBudgetTests {
  /// Labels one under the other, each pinned to the margin and to the top.
  static func addLabels(_ count: Int, to root: View) -> [Label] {
    (0..<count).map { index in
      let label = Label("Label \(index)")
      root.addSubview(label)
      LayoutConstraint.activate([
        label.leadingAnchor.constraint(equalTo: root.layoutMarginsGuide.leadingAnchor),
        label.topAnchor.constraint(equalTo: root.topAnchor, constant: Double(20 + 30 * index)),
      ])
      return label
    }
  }

  @Test func aDenseSolverPastItsBudgetIsKeptAsARefusalNotACrash() throws {
    let root = makeRoot(.dense)
    root.layoutIfNeeded()
    // 64 KiB: a matrix of about 90 rows by 90 columns; 40 labels need several times that.
    root.replaceSolver(with: DenseSolver(memoryBudget: 64 << 10))
    let labels = Self.addLabels(40, to: root)
    root.layoutIfNeeded()
    let engine = try #require(root.layoutEngine)
    let refusal = try #require(engine.refusal)
    guard case .memoryBudgetExceeded(_, _, let bytes, let budget) = refusal else {
      Issue.record("refused with \(refusal), not for memory")
      return
    }
    #expect(bytes > budget && budget == 64 << 10)

    // What follows changes nothing in the solver and does not crash: a resize, a new content
    // size, a removal, a constant change.
    resize(root, width: 667, height: 375)
    labels[0].text = "A much longer label than before"
    labels[3].removeFromSuperview()
    root.constraints.first?.constant += 1
    root.layoutIfNeeded()
    #expect(engine.refusal == refusal)
    #expect(throws: SolverError.self) { try engine.solveFromScratch() }
  }

  @Test func aConstraintInstalledAfterARefusalOutlivesItsEngineSafely() throws {
    // Constraints hold their engine unowned, and an engine that goes clears what it lists; one
    // installed while the solver refuses must be listed too, or it would keep pointing at the
    // engine that went (debug builds trap on that read, release builds would read freed memory).
    let label = Label("Kept")
    let width: LayoutConstraint
    do {
      let root = makeRoot(.dense)
      root.layoutIfNeeded()
      root.replaceSolver(with: DenseSolver(memoryBudget: 64 << 10))
      _ = Self.addLabels(40, to: root)
      root.layoutIfNeeded()
      #expect(root.layoutEngine?.refusal != nil)
      root.addSubview(label)
      width = label.widthAnchor.constraint(equalToConstant: 100)
      width.isActive = true
      root.layoutIfNeeded()
    }
    // The root and its engine are gone; the constraint is still active on the label.
    #expect(width.isActive)
    width.constant = 120
    width.priority = LayoutPriority(999)
    #expect(!width.isBroken)
    width.isActive = false
    #expect(width.constant == 120)
  }

  @Test func withinItsBudgetTheDenseSolverLaysOutAsTheSparseOneDoes() {
    var frames: [[Rect]] = []
    for solver in SolverStrategy.exact {
      let root = makeRoot(solver)
      let labels = Self.addLabels(40, to: root)
      root.layoutIfNeeded()
      #expect(root.layoutEngine?.refusal == nil)
      frames.append(labels.map(\.frame))
    }
    #expect(frames[0] == frames[1])
  }
}
