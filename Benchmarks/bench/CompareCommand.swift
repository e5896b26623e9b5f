import ArgumentParser
import Foundation
import Harness

/// `bench compare BASELINE CURRENT`: the regression gate.
struct Compare: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Compare a run with a baseline; exit 1 on a regression.",
    discussion: """
      Deterministic figures must match: the frame checksum exactly; allocated bytes and \
      instructions within 1% (allocation request counts are reported, not gated: jemalloc's \
      thread caches batch them). A timing regresses only when the median grew by \
      more than --time-threshold and the min-max ranges do not overlap. Exit 2 when a file is \
      missing, malformed or of another schema.
      """)

  @Argument(help: "The baseline CSV.")
  var baseline: String
  @Argument(help: "The CSV of the run to check.")
  var current: String
  @Option(name: .customLong("time-threshold"), help: "Allowed growth of a median time.")
  var timeThreshold = 0.10
  @Flag(name: .customLong("ignore-time"), help: "Gate on the deterministic figures only.")
  var ignoreTime = false
  @Option(help: "Also write the Markdown report here.")
  var markdown: String?

  func run() throws {
    let baselineRows = try load(baseline)
    let currentRows = try load(current)
    let comparison = Comparison(
      baseline: baselineRows, current: currentRows,
      timeThreshold: ignoreTime ? .infinity : timeThreshold)
    print(comparison.markdown, terminator: "")
    if let markdown { try writeAtomically(comparison.markdown, to: markdown) }
    if comparison.hasRegression { throw ExitCode(1) }
  }

  private func load(_ path: String) throws -> [ResultRow] {
    guard let data = FileManager.default.contents(atPath: path) else {
      printError("bench compare: cannot read \(path)")
      throw ExitCode(2)
    }
    do {
      return try ResultsFile.rows(String(decoding: data, as: UTF8.self))
    } catch {
      printError("bench compare: \(path): \(error)")
      throw ExitCode(2)
    }
  }
}
