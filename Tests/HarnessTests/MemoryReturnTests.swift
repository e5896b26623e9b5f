import AutoLayout
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
    scene.layOut()
    try scene.root.layoutEngine!.solveFromScratch()
    scene.layOut()
  }

  @Test(arguments: [SceneKind.stackGrid, .form, .nestedGrid])
  func viewsThatCameAndWentLeaveNothingBehind(kind: SceneKind) throws {
    let scene = try Scene(kind, views: 200)
    scene.layOut()
    // A small burst meets every type and path once (the runtime caches what it looks up); the
    // larger one after it grows every table indexed by constraint, view or variable by more
    // than the quarter a table may keep (`IDTable.compact()`), and must end where it started.
    try Self.burst(scene, 4)
    let meter = AllocationMeter()
    try Self.burst(scene, 100)
    let held = meter.stop().netBytes
    #expect(held <= 0, "\(kind): \(held) bytes still held after the burst was undone")
  }
}
