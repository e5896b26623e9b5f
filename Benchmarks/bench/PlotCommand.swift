import ArgumentParser
import Foundation
import Harness

extension Chart.Metric: ExpressibleByArgument {}

/// `bench plot CSV --output FILE.svg`: log-log charts of a results file.
struct Plot: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Draw log-log charts of a results CSV as SVG: one panel per scene, one line per "
      + "solver and mode.")

  @Argument(help: "A results CSV (from bench run).")
  var results: String
  @Option(help: "The SVG file to write.")
  var output: String
  @Option(help: "The phase to draw.")
  var phase = Phase.firstSolve
  @Option(help: "What to draw: time (median), allocated (bytes) or peak (bytes).")
  var metric = Chart.Metric.time

  func run() throws {
    guard let data = FileManager.default.contents(atPath: results) else {
      printError("bench plot: cannot read \(results)")
      throw ExitCode(2)
    }
    let rows: [ResultRow]
    do {
      rows = try ResultsFile.rows(String(decoding: data, as: UTF8.self))
    } catch {
      printError("bench plot: \(results): \(error)")
      throw ExitCode(2)
    }
    let chart = Chart(rows: rows, phase: phase, metric: metric)
    guard !chart.panels.isEmpty else {
      printError("bench plot: no measured rows for phase '\(phase)' in \(results)")
      throw ExitCode(2)
    }
    try writeAtomically(chart.svg, to: output)
    printError("wrote \(output) (\(chart.panels.count) panels)")
  }
}
