import AutoLayout
import Cassowary
import Harness
import Scenes
import Testing

/// A scene whose views come and go gives the memory back once it is as before and re-solved
/// from scratch: the engine's and solver's tables hold what the scene needs, not what its
/// busiest moment needed. Per-thread byte counts are exact (jemalloc's), so the bytes are
/// asserted; what `bench stress` judges over a long soak, process-wide, this checks for one
/// burst.
@Suite struct MemoryReturnTests {
  /// Adds `count` labels one at a time, each laid out, to the scene's leaf views in turn (views
  /// that had no subviews before); then removes them, lays out and solves from scratch, as
  /// `bench stress` undoes a run.
  static func burst(_ scene: Scene, _ count: Int) throws {
    var leaves: [View] = []
    func collectLeaves(_ view: View) {
      if view.subviews.isEmpty { leaves.append(view) } else { view.subviews.forEach(collectLeaves) }
    }
    collectLeaves(scene.root)
    var extras: [Label] = []
    for index in 0..<count {
      let label = Label("Extra \(index)")
      label.translatesAutoresizingMaskIntoConstraints = false
      let host = leaves[index % leaves.count]
      host.addSubview(label)
      LayoutConstraint.activate([
        label.leadingAnchor.constraint(equalTo: host.leadingAnchor, constant: Double(index)),
        label.topAnchor.constraint(equalTo: host.topAnchor, constant: Double(index)),
      ])
      extras.append(label)
      scene.layOut()
    }
    for label in extras.reversed() { label.removeFromSuperview() }
    try settle(scene)
  }

  /// Lays `scene` out, solves it from scratch and lays it out again, as `bench stress` ends the
  /// undoing of a run.
  static func settle(_ scene: Scene) throws {
    scene.layOut()
    try scene.root.layoutEngine!.solveFromScratch()
    scene.layOut()
  }

  /// The bytes still held after `burst` of 100 was run and undone on `scene`, after a burst
  /// of 4. Before either, a scene of the same kind runs the burst of 100: what the runtime
  /// keeps for good the first time a path runs (type metadata and the like) is not the scene's,
  /// and the small burst does not meet every path the large one does (a table's compaction).
  /// Without it the first large burst of the process kept 16 to 288 bytes, so the test
  /// passed or failed on what other tests had run before it.
  static func bytesHeld(_ scene: Scene, by burst: (Scene, Int) throws -> Void) throws -> Int {
    let other = try Scene(scene.kind, views: scene.requestedViews, variant: scene.variant)
    other.layOut()
    try burst(other, 100)
    try burst(scene, 4)
    let meter = AllocationMeter()
    try burst(scene, 100)
    return meter.stop().netBytes
  }

  @Test(arguments: [SceneKind.stackGrid, .form, .nestedGrid])
  func viewsThatCameAndWentLeaveNothingBehind(kind: SceneKind) throws {
    let scene = try Scene(kind, views: 200)
    scene.layOut()
    // The larger burst grows every table indexed by constraint, view or variable by more than
    // the quarter a table may keep (`IDTable.compact()`), and must end where it started.
    let held = try Self.bytesHeld(scene, by: Self.burst)
    #expect(held <= 0, "\(kind): \(held) bytes still held after the burst was undone")
  }

  /// Gives `count` of the scene's views a layout guide, each laid out, then removes them,
  /// lays out and solves from scratch: the views' storage for rare properties, made for the
  /// guides, goes with them.
  static func guideBurst(_ scene: Scene, _ count: Int) throws {
    var views: [View] = []
    func collect(_ view: View) {
      views.append(view)
      view.subviews.forEach(collect)
    }
    collect(scene.root)
    var guides: [(View, LayoutGuide)] = []
    for index in 0..<count {
      let host = views[index % views.count]
      let guide = LayoutGuide()
      host.addLayoutGuide(guide)
      LayoutConstraint.activate([
        guide.leadingAnchor.constraint(equalTo: host.leadingAnchor, constant: Double(index)),
        guide.widthAnchor.constraint(equalToConstant: 10),
      ])
      guides.append((host, guide))
      scene.layOut()
    }
    for (host, guide) in guides.reversed() { host.removeLayoutGuide(guide) }
    try settle(scene)
  }

  @Test func guidesThatCameAndWentLeaveNothingBehind() throws {
    let scene = try Scene(.stackGrid, views: 200)
    scene.layOut()
    let held = try Self.bytesHeld(scene, by: Self.guideBurst)
    #expect(held <= 0, "\(held) bytes still held after the guides were removed")
  }

  /// A root with two containers, each the first item of 17 constraints (its edges, and the
  /// leading edges of 13 labels in it): 17 references hold 18 places appended one by one
  /// (320 bytes with jemalloc), where room for the next power of two, 32, holds 38 (640).
  static func twoContainers(_ solver: SolverStrategy) -> (root: View, containers: [View]) {
    let root = View(frame: Rect(x: 0, y: 0, width: 375, height: 667))
    root.preferredSolver = solver
    var containers: [View] = []
    for index in 0..<2 {
      let container = View()
      container.translatesAutoresizingMaskIntoConstraints = false
      root.addSubview(container)
      var constraints = [
        container.leadingAnchor.constraint(equalTo: root.leadingAnchor),
        container.trailingAnchor.constraint(equalTo: root.trailingAnchor),
        container.topAnchor.constraint(equalTo: root.topAnchor, constant: Double(300 * index)),
        container.heightAnchor.constraint(equalToConstant: 300),
      ]
      for row in 0..<13 {
        let label = Label("Row \(row)")
        label.translatesAutoresizingMaskIntoConstraints = false
        container.addSubview(label)
        constraints += [
          container.leadingAnchor.constraint(equalTo: label.leadingAnchor, constant: -8),
          label.topAnchor.constraint(equalTo: root.topAnchor, constant: Double(20 * row)),
        ]
      }
      LayoutConstraint.activate(constraints)
      containers.append(container)
    }
    root.layoutIfNeeded()
    return (root, containers)
  }

  /// Refers to `container` from `count` more constraints, one at a time, each laid out; then
  /// drops them, lays out and solves from scratch, as `bench stress` undoes a run.
  static func referenceBurst(_ root: View, _ container: View, _ count: Int) throws {
    var extras: [LayoutConstraint] = []
    for index in 0..<count {
      let extra = container.widthAnchor.constraint(
        greaterThanOrEqualToConstant: Double(index))
      extra.isActive = true
      root.layoutIfNeeded()
      extras.append(extra)
    }
    LayoutConstraint.deactivate(extras)
    extras = []
    root.layoutIfNeeded()
    try root.layoutEngine!.solveFromScratch()
    root.layoutIfNeeded()
  }

  @Test(arguments: SolverStrategy.exact)
  func listsThatGrewAndShrankHoldWhatAFirstLayoutLeft(solver: SolverStrategy) throws {
    let (root, containers) = Self.twoContainers(solver)
    try root.layoutEngine!.solveFromScratch()
    root.layoutIfNeeded()
    // The first container's burst meets every type and path once; the second's is measured
    // from its first layout's lists.
    try Self.referenceBurst(root, containers[0], 8)
    let meter = AllocationMeter()
    try Self.referenceBurst(root, containers[1], 8)
    let held = meter.stop().netBytes
    #expect(held <= 0, "\(solver): \(held) bytes still held after the references went")
  }
}
