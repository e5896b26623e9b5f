import Cassowary
import Foundation

/// What a stress run did and found: the figures of its summary, and the violation that stopped
/// it, if any.
public struct StressReport {
  /// The run's configuration.
  public var configuration: StressConfiguration
  /// The views the scene had when built.
  public var views = 0
  /// Whether a reference scene on the other solver was checked against.
  public var hasReference = false
  /// Operations applied (the step of a violation included).
  public var operations = 0
  /// Wall-clock seconds of the soak, checks included.
  public var seconds = 0.0
  /// Operations applied of each family (`add-required`, `scene churn`, …).
  public var operationCounts: [String: Int] = [:]
  /// Required-constraint checks run (one per step, and one after the first layout).
  public var requiredChecks = 0
  /// Frame checks run (with each required-constraint check): every frame where the engine's
  /// values put it.
  public var frameChecks = 0
  /// Comparisons with a full re-solve.
  public var fullResolveChecks = 0
  /// Comparisons with the reference solver.
  public var referenceChecks = 0
  /// Comparisons (by check) whose solutions differed but were equally good: the layout had
  /// several optima, so the incremental path and the other solve may both be right.
  public var ties: [String: Int] = [:]
  /// The first tie, described.
  public var firstTie: String?
  /// Conflicts the engine recovered from by breaking a required constraint (UIKit's behaviour,
  /// not a failure: a required extra constraint may stop being satisfiable after a resize).
  public var conflicts = 0
  /// The solver under test's size after the first layout and at the end: where memory that
  /// does not return is held, and whether its rows filled in.
  public var solverAtStart: SolverStatistics?
  public var solverAtEnd: SolverStatistics?
  /// The solver under test's size after the run was undone (see ``StressWorld/restore()``).
  public var solverAfterUndo: SolverStatistics?
  /// Memory samples.
  public var memory = MemoryDrift()
  /// The first violation, which stopped the run.
  public var violation: StressViolation?
  /// The harness's frame checksum of the last layout (``frameChecksum(_:)``).
  public var finalChecksum = ""
  /// The bit-exact hash of the last layout's frames (``exactFrameHash(_:)``): equal in two runs
  /// of the same command, since a run is a deterministic function of its configuration.
  public var finalExactHash: UInt64 = 0

  /// An empty report of a run of `configuration`, which the runner fills in.
  public init(configuration: StressConfiguration) {
    self.configuration = configuration
  }

  /// Operations per second, checks included.
  public var operationsPerSecond: Double { seconds > 0 ? Double(operations) / seconds : 0 }

  /// The operations done and the seconds taken at each check round, for ``pace``.
  public var progress: [(operations: Int, seconds: Double)] = []

  /// Operations per second over the first and the last tenth of the check rounds (checks
  /// included): whether the run slowed down as it went on. Nil for runs of fewer than 20 rounds.
  public var pace: (first: Double, last: Double)? {
    guard progress.count >= 20 else { return nil }
    func rate(_ from: Int, _ to: Int) -> Double {
      let (a, b) = (progress[from], progress[to])
      guard b.seconds > a.seconds else { return 0 }
      return Double(b.operations - a.operations) / (b.seconds - a.seconds)
    }
    let tenth = progress.count / 10
    return (rate(0, tenth), rate(progress.count - 1 - tenth, progress.count - 1))
  }

  /// The summary `bench stress` prints.
  public var summary: String {
    let c = configuration
    var lines = [
      "bench stress: \(c.sceneName), \(views) views, \(c.solver) solver, seed \(c.seed)",
      "operations: \(operations) in \(format(seconds, 2)) s (\(format(operationsPerSecond, 1))/s)"
        + (pace.map {
          "; \(format($0.first, 1))/s over the first tenth, \(format($0.last, 1))/s over the last"
        } ?? ""),
      "mix: "
        + operationCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        .joined(separator: ", "),
      "checks: \(requiredChecks) required-constraint, \(frameChecks) frames, "
        + "\(fullResolveChecks) full re-solve, "
        + (hasReference
          ? "\(referenceChecks) reference (\(c.solver == .sparse ? "dense" : "sparse"))"
          : "no reference (over \(c.referenceLimit) views)"),
      "conflicts recovered: \(conflicts)",
      "refactorizations: \(solverAtEnd?.refactorizations ?? 0)",
    ]
    if !ties.isEmpty {
      lines.append(
        "ties (different but equally good solutions): "
          + ties.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
          .joined(separator: ", "))
    }
    if let start = solverAtStart, let end = solverAtEnd {
      func size(_ statistics: SolverStatistics) -> String {
        "rows \(statistics.rows), cells \(statistics.cells), longest row "
          + "\(statistics.maximumRowCells), priority levels \(statistics.priorityLevels), "
          + bytes(statistics.tableauBytes + statistics.bookkeepingBytes)
      }
      lines.append("solver after the first layout: \(size(start))")
      lines.append("solver at the end:              \(size(end))")
      if let undone = solverAfterUndo {
        lines.append("solver after undoing the run:   \(size(undone))")
      }
    }
    if !memory.samples.isEmpty {
      lines.append(
        "memory drift (stats.allocated): \(bytes(memory.start)) after the first layout, "
          + "\(bytes(memory.end)) at the end, \(bytes(memory.maximum)) at most; "
          + "\(signed(memory.bytesPerThousandOperations)) B/1000 ops overall, "
          + "\(signed(memory.lateBytesPerThousandOperations)) B/1000 ops in the second half")
    }
    if let undone = memory.afterUndo, let returns = memory.returns {
      let change = Double(undone - memory.start) / Double(max(1, memory.start)) * 100
      lines.append(
        "memory: \(returns ? "returns" : "does not return") (\(bytes(undone)) after undoing the "
          + "run, \(String(format: "%+.2f", change)) % against the first layout; at most "
          + "+\(String(format: "%g", MemoryDrift.returnTolerance * 100)) % passes)")
    }
    lines.append(
      "final layout checksum: \(finalChecksum) (bit-exact \(String(finalExactHash, radix: 16)))")
    lines.append(violation.map { "FAILED: \($0)" } ?? "result: ok")
    return lines.joined(separator: "\n")
  }

  private func format(_ value: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", value)
  }

  private func bytes(_ value: Int) -> String {
    String(format: "%.2f MiB", Double(value) / 1_048_576)
  }

  private func signed(_ value: Double) -> String { String(format: "%+.0f", value) }
}

/// An invariant that failed: where, what, and how to make it fail again.
public struct StressViolation: Error, CustomStringConvertible {
  /// Which check failed: `required constraints`, `full re-solve`, `reference solver` or
  /// `operation` (the reference scene could not apply an operation).
  public var check: String
  /// The step (1 is the first operation; 0 the first layout).
  public var step: Int
  /// The operation of that step (`nil` at step 0).
  public var operation: StressOperation?
  /// What was found.
  public var detail: String
  /// The run's seed.
  public var seed: UInt64
  /// The command line that replays the run up to this step.
  public var reproduce: String

  public var description: String {
    let what =
      operation.map { "after operation \($0)" }
      ?? (step == 0 ? "after the first layout" : "after the last operation")
    return "\(check) check failed at step \(step) (seed \(seed)) \(what): \(detail)\n"
      + "reproduce: \(reproduce)"
  }
}
