import Harness

extension BenchmarkConfiguration {
  /// Every row of this matrix, run in this process with a test's run context.
  func runRows() -> [ResultRow] {
    let context = RunContext(runID: "test", timestamp: "", commit: "", machine: "")
    var rows: [ResultRow] = []
    BenchmarkRunner(configuration: self, context: context).run(
      emit: { rows.append($0) }, progress: { _, _, _ in })
    return rows
  }
}
