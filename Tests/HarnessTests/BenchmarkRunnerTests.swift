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
    let context = RunContext(runID: "test", timestamp: "", commit: "", machine: "")
    var rows: [ResultRow] = []
    BenchmarkRunner(configuration: configuration, context: context).run(
      emit: { rows.append($0) }, progress: { _, _, _ in })
    let steady = rows.filter { $0.phase == .resize || $0.phase == .constantChange }
    #expect(steady.count == 2)
    for row in steady {
      #expect(row.status == .ok, "\(row.phase): \(row.note)")
      #expect(row.repetitions == 2, "\(row.phase) measured \(row.repetitions) repetitions")
    }
  }
}
