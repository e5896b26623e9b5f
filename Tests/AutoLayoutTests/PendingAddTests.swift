import AutoLayout
import Cassowary
import Testing

/// The engine gives the solver the constraints installed in a batch all at once, at the batch's
/// end or before anything else asks the solver; what a client sees is what adding them one at a
/// time shows.
@Suite struct PendingAddTests {
  /// A root whose engine exists: a view of its own, pinned.
  func rootWithEngine(_ solver: SolverStrategy) -> View {
    let root = makeRoot(solver)
    let pin = View()
    pin.translatesAutoresizingMaskIntoConstraints = false
    root.addSubview(pin)
    LayoutConstraint.activate([
      pin.leadingAnchor.constraint(equalTo: root.leadingAnchor),
      pin.topAnchor.constraint(equalTo: root.bottomAnchor),
      pin.widthAnchor.constraint(equalToConstant: 1),
      pin.heightAnchor.constraint(equalToConstant: 1),
    ])
    root.layoutIfNeeded()
    return root
  }

  /// A row of boxes, each placed from the one before: four constraints a box.
  func boxes(_ count: Int, in root: View) -> ([View], [LayoutConstraint]) {
    var views: [View] = []
    var constraints: [LayoutConstraint] = []
    for index in 0..<count {
      let box = View()
      box.translatesAutoresizingMaskIntoConstraints = false
      root.addSubview(box)
      let leading =
        index == 0
        ? box.leadingAnchor.constraint(equalTo: root.leadingAnchor)
        : box.leadingAnchor.constraint(equalTo: views[index - 1].trailingAnchor, constant: 2)
      constraints += [
        leading,
        box.topAnchor.constraint(equalTo: root.topAnchor),
        box.widthAnchor.constraint(equalToConstant: 5),
        box.heightAnchor.constraint(equalToConstant: 10),
      ]
      views.append(box)
    }
    return (views, constraints)
  }

  @Test(
    "A conflict in a large batch is reported and broken as one at a time would",
    arguments: SolverStrategy.exact)
  func conflictInABatch(solver: SolverStrategy) {
    let root = rootWithEngine(solver)
    let log = LogCollector()
    log.attach(to: root)
    var (views, constraints) = boxes(40, in: root)
    // Box 7's width again, wider: later than its first, so it is the one broken.
    let tooWide = views[7].widthAnchor.constraint(equalToConstant: 8)
    constraints.insert(tooWide, at: 100)
    LayoutConstraint.activate(constraints)
    root.layoutIfNeeded()
    #expect(root.layoutEngine!.conflicts.count == 1)
    #expect(root.layoutEngine!.conflicts.last?.broken === tooWide)
    #expect(log.messages.count == 1)
    expectFrame(views[7], 49, 0, 5, 10)
    expectFrame(views[39], 273, 0, 5, 10)
  }

  @Test(
    "Inside a batch, a change to a constraint not yet given to the solver applies in order",
    arguments: SolverStrategy.exact)
  func changesInsideABatch(solver: SolverStrategy) throws {
    let root = rootWithEngine(solver)
    let engine = try #require(root.layoutEngine)
    let (views, constraints) = boxes(30, in: root)
    engine.beginBatch()
    LayoutConstraint.activate(constraints)
    constraints[2].constant = 6  // box 0's width, pending until now
    constraints[7].isActive = false  // box 1's height
    views[1].heightAnchor.constraint(equalToConstant: 12).isActive = true
    engine.endBatch()
    root.layoutIfNeeded()
    expectFrame(views[0], 0, 0, 6, 10)
    expectFrame(views[1], 8, 0, 5, 12)
    expectFrame(views[29], 8 + 28 * 7, 0, 5, 10)
    #expect(engine.conflicts.isEmpty)
  }
}
