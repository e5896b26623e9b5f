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
      fall back to the medians and the min-max ranges. The complexity gate \
      (--slope-tolerance, 0.1) compares each series' log-log slope of instructions, each file's \
      over the sizes it measured: a cost that turns quadratic at the largest size fails it \
      even where no cell moved past its percentage.

      Exit status: 0 unchanged; 1 a regression; 4 improvements only (the baseline may be \
      updated); 2 when the files cannot be compared: a file missing, malformed or of another \
      schema, a cell listed twice, a measured row without a checksum or allocated bytes, no \
      cell measured in both files, or (without --allow-subset) cells the baseline measured missing from \
      the current run.
      """ + "\n\n" + ExitStatus.table)

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
  @Option(
    name: .customLong("slope-tolerance"),
    help: ArgumentHelp(
      "The complexity gate: fail when a series' log-log slope of instructions (a scene, "
        + "solver, mode and phase measured at two sizes or more in both files) exceeds the "
        + "baseline's by more than this; `off` to leave it out.",
      valueName: "T"))
  var slopeTolerance = SlopeTolerance.value(0.1)

  func validate() throws {
    guard timeThreshold >= 0 else { throw ValidationError("--time-threshold cannot be negative") }
    if case .value(let tolerance) = slopeTolerance, !(tolerance >= 0) {
      throw ValidationError("--slope-tolerance must be a number at least 0, or off")
    }
    guard significance > 0 && significance < 1 else {
      throw ValidationError("--significance must lie between 0 and 1")
    }
  }

  func run() throws {
    if let markdown {
      do {
        try OutputFile.prepare(markdown)
      } catch {
        throw BenchFailure("bench compare: --markdown", error)
      }
    }
    let baselineRows = try loadResults(baseline, command: "compare")
    let currentRows = try loadResults(current, command: "compare")
    var comparison = Comparison(
      baseline: baselineRows, current: currentRows,
      timeThreshold: ignoreTime ? .infinity : timeThreshold, significance: significance)
    if case .value(let tolerance) = slopeTolerance {
      // Instructions only: times measured in two runs are not comparable, nor their slopes.
      comparison.judgeSlopes(
        baseline: baselineRows, current: currentRows, figure: .instructions,
        tolerance: tolerance)
    }
    let report = comparison.markdown(allowingSubset: allowSubset, verbose: verbose)
    printOutput(report, terminator: "")
    if let markdown {
      do {
        try OutputFile.write(report, to: markdown)
      } catch {
        throw BenchFailure("bench compare", error)
      }
    }
    switch comparison.outcome(allowingSubset: allowSubset) {
    case .unchanged: return
    case .regression: throw ExitCode(ExitStatus.failed.rawValue)
    case .improvementsOnly: throw ExitCode(ExitStatus.improvementsOnly.rawValue)
    case .unusable(let problems):
      for problem in problems.prefix(10) { printError("bench compare: \(problem)") }
      throw ExitCode(ExitStatus.badInput.rawValue)
    }
  }
}

/// The rows of the results CSV at `path`, or a failure (exit 2) that names it and says why.
func loadResults(_ path: String, command: String) throws -> [ResultRow] {
  do {
    return try ResultsFile.load(path)
  } catch {
    throw BenchFailure(.badInput, "bench \(command): \(error)")
  }
}

/// `--slope-tolerance`: how much a series' log-log slope may grow, or `off`.
enum SlopeTolerance: ExpressibleByArgument, Equatable {
  case value(Double)
  case off

  init?(argument: String) {
    if argument == "off" {
      self = .off
    } else if let value = Double(argument) {
      self = .value(value)
    } else {
      return nil
    }
  }

  var defaultValueDescription: String {
    switch self {
    case .value(let value): String(value)
    case .off: "off"
    }
  }
}
