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
      // The two repetitions (one each way) make one sample.
      #expect(row.samples.map(\.count) == [1], "\(row.phase)")
    }
  }

  /// A steady phase's samples are the means of consecutive pairs: a phase whose two directions
  /// cost 100 and 300 has samples of 200, and a median of 200, not one that falls between the
  /// two clusters.
  @Test func steadySamplesArePairMeans() {
    #expect(BenchmarkRunner.pairMeans([100, 300, 101, 301, 99, 299]) == [200, 201, 199])
    #expect(BenchmarkRunner.pairMeans([3, 4, 7]) == [3, 7])  // rounded down; an odd last stays
    #expect(BenchmarkRunner.pairMeans([UInt64.max, UInt64.max]) == [UInt64.max])
    #expect(BenchmarkRunner.pairMeans([]) == [])
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
