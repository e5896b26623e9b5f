import ArgumentParser
import Foundation
import Harness

extension Chart.Metric: ExpressibleByArgument {}

/// `bench plot CSV --output FILE.svg`: log-log charts of a results file.
struct Plot: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Draw log-log charts of a results CSV as SVG: one panel per scene, one line per "
      + "solver and mode.",
    discussion: ExitStatus.table)

  @Argument(help: "A results CSV (from bench run).")
  var results: String
  @Option(help: "The SVG file to write.")
  var output: String
  @Option(help: "The phase to draw.")
  var phase = Phase.firstSolve
  @Option(help: "What to draw: time (median), allocated (bytes) or peak (bytes).")
  var metric = Chart.Metric.time

  func run() throws {
    do {
      try OutputFile.prepare(output)
    } catch {
      throw BenchFailure("bench plot: --output", error)
    }
    let rows = try loadResults(results, command: "plot")
    let chart = Chart(rows: rows, phase: phase, metric: metric)
    guard !chart.panels.isEmpty else {
      throw BenchFailure(
        .badInput, "bench plot: no measured rows for phase '\(phase)' in \(results)")
    }
    do {
      try OutputFile.write(chart.svg, to: output)
    } catch {
      throw BenchFailure("bench plot", error)
    }
    printError("wrote \(output) (\(chart.panels.count) panels)")
  }
}
