import ArgumentParser
import Foundation
import Harness

/// `bench compare BASELINE CURRENT`: the regression gate.
struct Compare: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Compare a run with a baseline; exit 1 on a regression.",
    discussion: """
      Deterministic figures must match: the frame checksum exactly; allocated bytes and \
      instructions within 1% (allocation request counts are not gated: jemalloc's thread \
      caches batch them, and they are shown only with --verbose). A cell's time regresses (or \
      improves) when the Mann-Whitney U test on the two runs' repetition times (the samples_ns \
      column) finds them different at --significance and the medians differ by more than \
      --time-threshold. A cell with too few repetitions for the test to reach the significance \
      level (fewer than 5 in a run at 0.01) is counted as not judged. Files without samples \
      fall back to the medians and the min-max ranges.

      Exit status: 0 unchanged; 1 a regression; 4 improvements only (the baseline may be \
      updated); 2 when the files cannot be compared: a file missing, malformed or of another \
      schema, a cell listed twice, a measured row without a checksum or allocated bytes, no \
      cell measured in both files, or (without --allow-subset) cells the baseline measured missing from \
      the current run.
      """)

  @Argument(help: "The baseline CSV.")
  var baseline: String
  @Argument(help: "The CSV of the run to check.")
  var current: String
  @Option(name: .customLong("time-threshold"), help: "Allowed growth of a median time.")
  var timeThreshold = 0.10
  @Option(help: "The U test's significance level for a time verdict.")
  var significance = 0.01
  @Flag(name: .customLong("ignore-time"), help: "Gate on the deterministic figures only.")
  var ignoreTime = false
  @Flag(
    name: .customLong("allow-subset"),
    help: "Accept a current run that measured only some of the baseline's cells.")
  var allowSubset = false
  @Flag(help: "Also list the figures that changed without being judged.")
  var verbose = false
  @Option(help: "Also write the Markdown report here.")
  var markdown: String?

  func validate() throws {
    guard timeThreshold >= 0 else { throw ValidationError("--time-threshold cannot be negative") }
    guard significance > 0 && significance < 1 else {
      throw ValidationError("--significance must lie between 0 and 1")
    }
  }

  func run() throws {
    let baselineRows = try load(baseline)
    let currentRows = try load(current)
    let comparison = Comparison(
      baseline: baselineRows, current: currentRows,
      timeThreshold: ignoreTime ? .infinity : timeThreshold, significance: significance)
    let report = comparison.markdown(allowingSubset: allowSubset, verbose: verbose)
    print(report, terminator: "")
    if let markdown { try writeAtomically(report, to: markdown) }
    switch comparison.outcome(allowingSubset: allowSubset) {
    case .unchanged: return
    case .regression: throw ExitCode(1)
    case .improvementsOnly: throw ExitCode(4)
    case .unusable(let problems):
      for problem in problems.prefix(10) { printError("bench compare: \(problem)") }
      throw ExitCode(2)
    }
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
