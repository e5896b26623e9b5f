import Harness
import Scenes
import Testing

/// The runner's repetition rules, on a cell small enough to run in the test suite.
@Suite struct BenchmarkRunnerTests {
  /// A cell stopped by its budget still measures an even number of repetitions, so a toggling
  /// phase ends where it started and its checksum does not depend on the machine's speed.
  @Test func aPhaseStoppedByTheBudgetMeasuresAnEvenNumberOfRepetitions() {
    var configuration = BenchmarkConfiguration(
      scenes: [(.form, "standard")], sizes: [20], solvers: [.sparse], modes: [.incremental],
      phases: [.resize, .constantChange])
    configuration.repetitions = 3
    configuration.minimumTime = 0
    configuration.cellBudget = 1e-9  // every steady phase is over budget at once
    let rows = configuration.runRows()
    let steady = rows.filter { $0.phase == .resize || $0.phase == .constantChange }
    #expect(steady.count == 2)
    for row in steady {
      #expect(row.status == .ok, "\(row.phase): \(row.note)")
      #expect(row.repetitions == 2, "\(row.phase) measured \(row.repetitions) repetitions")
    }
  }

  /// What a steady phase's first measured repetition allocates does not depend on how many
  /// repetitions the phases before it ran (which the minimum time decides, by the machine's
  /// speed): every phase takes its first pair before any phase repeats further.
  @Test func aSteadyPhaseBytesDoNotDependOnEarlierPhasesRepetitions() {
    func run(repetitions: Int) -> [ResultRow] {
      var configuration = BenchmarkConfiguration(
        scenes: [(.stackGrid, "standard")], sizes: [40], solvers: [.sparse],
        modes: [.incremental, .full],
        phases: [.layoutPass, .updateConstraints, .resize, .constantChange, .hideUnhide, .churn])
      configuration.repetitions = repetitions
      configuration.warmup = 1
      configuration.minimumTime = 0
      return configuration.runRows().filter { $0.status == .ok && !$0.phase.isOneShot }
    }
    // A first run pays what the process allocates once (type metadata, lazy globals) in
    // whichever phase first needs it; the two compared runs come after it.
    _ = run(repetitions: 2)
    let few = run(repetitions: 2)
    let many = run(repetitions: 12)
    #expect(few.count >= 8)
    #expect(few.map(\.key) == many.map(\.key))
    for (a, b) in zip(few, many) {
      #expect(a.repetitions == 2 && b.repetitions == 12, "\(a.key)")
      #expect(a.allocatedBytes == b.allocatedBytes, "\(a.key)")
      #expect(a.checksum == b.checksum, "\(a.key)")
    }
  }
}
