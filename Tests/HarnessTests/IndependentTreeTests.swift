import Cassowary
import Dispatch
import Harness
import Scenes
import Synchronization
import Testing

/// Trees that share nothing share no state: they lay out on separate threads as on one, and a
/// tree that goes gives back every byte it took. The contract the model keeps while its data
/// moves into engine-owned tables.
@Suite("Independent trees")
struct IndependentTreeTests {
  /// Every kind and variant, small, each with one of the exact solvers in turn.
  static let scenes: [(kind: SceneKind, variant: String, solver: SolverStrategy)] = {
    let kinds = SceneKind.allCases.flatMap { kind in kind.variants.map { (kind, $0) } }
    return kinds.enumerated().map { index, scene in
      (scene.0, scene.1, SolverStrategy.exact[index % SolverStrategy.exact.count])
    }
  }()

  /// Builds scene `index` of ``scenes``, lays it out, runs every operation it supports but the
  /// teardown once (each followed by a layout pass) and returns the frames' checksum.
  static func exercise(_ index: Int, views: Int) throws -> String {
    let (kind, variant, solver) = scenes[index]
    let scene = try Scene(
      kind, views: views, seed: UInt64(index + 1), variant: variant, solver: solver)
    scene.layOut()
    for operation in SceneOperation.allCases
    where operation != .teardown && scene.supports(operation) {
      scene.perform(operation)
      scene.layOut()
    }
    return frameChecksum(scene.root)
  }

  @Test("Trees lay out on separate threads as they do on one")
  func separateThreads() throws {
    let count = Self.scenes.count
    var serial: [String] = []
    for index in 0..<count { serial.append(try Self.exercise(index, views: 120)) }
    // Each scene three times, so that every thread runs trees of several kinds side by side.
    let results = Mutex([String?](repeating: nil, count: 3 * count))
    DispatchQueue.concurrentPerform(iterations: 3 * count) { run in
      let checksum = try? Self.exercise(run % count, views: 120)
      results.withLock { $0[run] = checksum }
    }
    let parallel = results.withLock { $0 }
    for run in parallel.indices {
      let (kind, variant, solver) = Self.scenes[run % count]
      #expect(
        parallel[run] == serial[run % count],
        """
        \(kind)/\(variant) with \(solver.name): \(parallel[run] ?? "failed") on a thread of \
        its own, \(serial[run % count]) alone
        """)
    }
  }

  /// Exact per-thread counters (``AllocationDelta/netBytes``): a constraint, row or list left
  /// behind by each tree would leave at least 16 KiB over a thousand.
  @Test("Building and dropping 1,000 trees gives every byte back")
  func memoryReturns() throws {
    // One of each first: what the runtime keeps for good on first use (type metadata,
    // conformance caches) is not the trees'.
    for index in Self.scenes.indices { _ = try Self.exercise(index, views: 20) }
    let meter = AllocationMeter()
    for tree in 0..<1_000 { _ = try Self.exercise(tree % Self.scenes.count, views: 20) }
    let delta = meter.stop()
    #expect(delta.allocatedBytes > 0)
    #expect(abs(delta.netBytes) < 4_096, "1,000 trees left \(delta.netBytes) bytes live")
  }
}
