import ArgumentParser
import Harness

/// The version `bench --version` prints: the project's release, which changes with the
/// command line or the results' meaning.
let benchVersion = "0.10.0"

/// The `bench` command: LayoutBench's benchmark and stress harness.
@main
struct Bench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Benchmark and stress harness for LayoutBench's Auto Layout solvers.",
    discussion: """
      Builds generated view trees of 100 to 10,000+ views, solves them with the plan-first \
      solver (the default), the sparse-tableau solver it is checked against and the dense \
      baseline, and reports time, allocations and memory per phase.
      """ + "\n\n" + ExitStatus.table,
    version:
      "LayoutBench bench \(benchVersion) (results schema \(ResultsDocument.currentSchemaVersion))",
    subcommands: [
      Run.self, Compare.self, AB.self, Merge.self, Report.self, Plot.self, HistoryCommand.self,
      Publish.self,
      Stress.self,
      ListScenes.self,
      ListSolvers.self,
      Export.self,
      Solve.self, SolverProbe.self, Environment.self,
    ],
    defaultSubcommand: Run.self
  )
}

/// Prints the facts a benchmark result depends on: the allocator and the build.
struct Environment: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print the measurement environment (allocator, build configuration).")

  func run() throws {
    printOutput(
      "allocator: \(AllocatorStatistics.version.map { "jemalloc \($0)" } ?? "not jemalloc")")
    #if DEBUG
      printOutput("build: debug (measure with `swift run -c release bench`)")
    #else
      printOutput("build: release")
    #endif
  }
}
