import Cassowary
import Harness
import Scenes
import Testing

/// The solvers' incremental operations allocate nothing once warmed up. Allocated bytes per thread
/// are exact (jemalloc's), so this is asserted, unlike any timing. It holds for optimized code
/// only (a debug build allocates closure contexts), so the test runs in release builds:
/// `swift test -c release --filter SteadyStateAllocationTests`, which `.ci/run` does.
@Suite struct SteadyStateAllocationTests {
  #if DEBUG
    static let isOptimized = false
  #else
    static let isOptimized = true
  #endif

  /// `count` root resizes and constant changes, reading the changed values after each.
  static func churn(_ solver: inout SparseSolver, _ system: SolverSystem, _ count: Int) throws {
    let constant = solver.constraint(system.middleSpacing)!.expression.constant
    for index in 0..<count {
      let width = index.isMultiple(of: 2) ? system.rootWidths.portrait : system.rootWidths.landscape
      try solver.suggestValue(system.rootWidth, width)
      try solver.setConstant(system.middleSpacing, constant - Double(index % 2))
      solver.forEachChangedValue { _, _ in }
    }
  }

  @Test(
    .enabled(if: isOptimized, "allocation-free only when optimized: swift test -c release"),
    arguments: SolverSystem.Kind.allCases)
  func suggestionsAndConstantChangesDoNotAllocate(kind: SolverSystem.Kind) throws {
    let system = SolverSystem(kind, views: 40)
    var solver = SparseSolver()
    try system.install(in: &solver)
    try Self.churn(&solver, system, 50)  // warm up: pooled scratch buffers reach working sizes
    // Per-thread byte counts are exact. Measuring 100 and then 300 operations, any fixed cost
    // (the meter's own reads, a buffer reaching its size) cancels out; a cost per operation does
    // not.
    var meter = AllocationMeter()
    try Self.churn(&solver, system, 100)
    let short = meter.stop().allocatedBytes
    meter = AllocationMeter()
    try Self.churn(&solver, system, 300)
    let long = meter.stop().allocatedBytes
    let perOperation = long > short ? Double(long - short) / 400 : 0
    #expect(perOperation == 0, "\(kind): \(perOperation) bytes allocated per operation")
  }

  /// A scene's resize and constant change, each followed by a layout pass, allocate nothing
  /// once warmed up: the model's update-constraints and layout passes as well as the solver's
  /// (a stack view's new spacing edits its constraints in place).
  @Test(
    .enabled(if: isOptimized, "allocation-free only when optimized: swift test -c release"),
    arguments: SceneKind.allCases, [SolverStrategy.plan, .sparse])
  func sceneResizesAndConstantChangesDoNotAllocate(
    kind: SceneKind, solver: SolverStrategy
  ) throws {
    let scene = try Scene(kind, views: 200, solver: solver)
    scene.layOut()
    for operation in [SceneOperation.resize, .constantChange] where scene.supports(operation) {
      func repeatOperation(_ count: Int) -> UInt64 {
        let meter = AllocationMeter()
        for _ in 0..<count {
          scene.perform(operation)
          scene.layOut()
        }
        return meter.stop().allocatedBytes
      }
      _ = repeatOperation(20)  // warm up
      let short = repeatOperation(10)
      let long = repeatOperation(30)
      let perOperation = long > short ? Double(long - short) / 20 : 0
      #expect(
        perOperation == 0, "\(kind) \(solver) \(operation): \(perOperation) bytes per operation")
    }
  }
}
