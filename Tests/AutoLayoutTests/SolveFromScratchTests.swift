import AutoLayout
import Cassowary
import Testing

/// `LayoutEngine.solveFromScratch()` closes the gaps that constraints coming and going left in
/// the solver ids: every constraint keeps working under its new ids.
@Suite("Solving from scratch")
struct SolveFromScratchTests {
  /// A column of labels under `root`, each below the one before, and twenty optional widths
  /// of which the first ten are gone again: gaps in the ids below ten that are still in use.
  static func makeScene(_ solver: SolverStrategy) -> (View, [Label], [LayoutConstraint]) {
    let root = makeRoot(solver)
    var labels: [Label] = []
    var constraints: [LayoutConstraint] = []
    for index in 0..<12 {
      let label = Label("Label \(index)")
      label.translatesAutoresizingMaskIntoConstraints = false
      root.addSubview(label)
      let above = labels.last?.bottomAnchor ?? root.safeAreaLayoutGuide.topAnchor
      constraints += [
        label.leadingAnchor.constraint(equalTo: root.layoutMarginsGuide.leadingAnchor),
        label.topAnchor.constraint(equalTo: above, constant: 8),
      ]
      labels.append(label)
    }
    LayoutConstraint.activate(constraints)
    root.layoutIfNeeded()
    let widths = (0..<20).map { index in
      labels[index % labels.count].widthAnchor.constraint(equalToConstant: Double(100 + index))
        .withPriority(LayoutPriority(Float(300 + index)))
    }
    LayoutConstraint.activate(widths)
    LayoutConstraint.deactivate(Array(widths.prefix(10)))
    root.layoutIfNeeded()
    return (root, labels, Array(widths.suffix(10)))
  }

  @Test(
    "Constraints keep working under their new ids after the gaps are closed",
    arguments: SolverStrategy.exact)
  func renumberedConstraintsKeepWorking(solver: SolverStrategy) throws {
    let (root, labels, widths) = Self.makeScene(solver)
    let (twin, twinLabels, twinWidths) = Self.makeScene(solver)
    try root.layoutEngine!.solveFromScratch()
    root.layoutIfNeeded()
    #expect(labels.map(\.frame) == twinLabels.map(\.frame))
    // A constant change, a priority change, new text (a content-size constraint, two ids), a
    // removal and a view that leaves: each must reach the constraint it names.
    for (scene, labels, widths) in [(root, labels, widths), (twin, twinLabels, twinWidths)] {
      widths[3].constant = 40
      widths[5].priority = 900
      labels[2].text = "A much longer text than before"
      widths[7].isActive = false
      labels[11].removeFromSuperview()
      scene.layoutIfNeeded()
    }
    #expect(labels.map(\.frame) == twinLabels.map(\.frame))
  }
}
