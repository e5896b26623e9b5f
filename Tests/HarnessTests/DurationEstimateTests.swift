import Cassowary
import Harness
import Scenes
import Testing

/// The plan's estimated duration, from a baseline's rows.
@Suite struct DurationEstimateTests {
  func row(
    _ solver: ResultRow.Solver, _ mode: Mode, _ phase: Phase, median: UInt64, repetitions: Int,
    note: String = "", status: ResultRow.Status = .ok
  ) -> ResultRow {
    var row = ResultRow()
    row.scene = .form
    row.variant = "standard"
    row.views = 100
    row.solver = solver
    row.mode = mode
    row.phase = phase
    row.medianNanoseconds = median
    row.repetitions = repetitions
    row.note = note
    row.status = status
    return row
  }

  @Test func eachCellCountsItsRepetitionsAndWarmUps() {
    var configuration = BenchmarkConfiguration(
      scenes: [(.form, "standard"), (.flat, "standard")], sizes: [100],
      solvers: [.sparse, .kiwi], modes: [.incremental], phases: [.build, .resize])
    configuration.warmup = 1
    let rows = [
      // 5 repetitions and 1 warm-up pass of 1 s.
      row(.sparse, .incremental, .build, median: 1_000_000_000, repetitions: 5),
      // A steady phase warms up an even number of times: 2, then 10 of 0.5 s.
      row(.sparse, .incremental, .resize, median: 500_000_000, repetitions: 10),
      // Run without warm-up: 1 pass of 4 s.
      row(
        .kiwi, .incremental, .build, median: 4_000_000_000, repetitions: 1,
        note: "no warm-up: one pass estimated at 40 s"),
      // Not in this matrix, or not measured: nothing.
      row(.sparse, .incremental, .churn, median: 9_000_000_000, repetitions: 5),
      row(.sparse, .full, .resize, median: 9_000_000_000, repetitions: 5),
      row(.dense, .incremental, .build, median: 9_000_000_000, repetitions: 5),
      row(.kiwi, .incremental, .resize, median: 9_000_000_000, repetitions: 5, status: .skipped),
    ]
    let (seconds, missing) = configuration.estimatedDuration(from: rows)
    #expect(seconds == 6 + 6 + 4)
    // flat's two groups are not in the rows.
    #expect(missing == 2)
    #expect(configuration.estimatedDuration(from: []) == (0, 4))
  }
}
