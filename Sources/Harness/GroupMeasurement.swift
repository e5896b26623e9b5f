import Cassowary
import Scenes

/// One group of the matrix: a scene kind and variant at a size, with a solver and a mode.
struct Group {
  var kind: SceneKind
  var variant: String
  var size: Int
  var solver: SolverStrategy
  var mode: Mode

  /// The group's key in the runner's history (its sizes share it): `kind/variant/solver/mode`.
  var key: String { "\(kind)/\(variant)/\(solver)/\(mode)" }

  /// The cell of `phase` whatever the solver, `kind/variant/size/mode/phase`: what solvers'
  /// checksums are compared by.
  func cell(_ phase: Phase) -> String { "\(kind)/\(variant)/\(size)/\(mode)/\(phase)" }
}

/// What one group's passes measured, phase by phase, until it becomes the group's rows.
struct GroupMeasurement {
  /// Every measured repetition's time, in order, by phase.
  var samples: [Phase: [UInt64]] = [:]
  /// The first measured repetition's allocator figures, and the bytes held after it.
  var figures: [Phase: (delta: AllocationDelta, retained: UInt64)] = [:]
  /// The frames' checksum after the first measured repetition.
  var checksums: [Phase: String] = [:]
  /// The error a phase threw, which ends that phase.
  var errors: [Phase: String] = [:]
  /// The first phase in which the solver refused a change (its memory budget, a failure
  /// inside), and why: it and every later phase are reported as skipped, and the group stops.
  var refusal: (phase: Phase, reason: String)?
  /// The solver's variables and constraints after the first layout.
  var statistics = (variables: 0, constraints: 0)
  /// The seconds each steady phase has run so far (warm-ups included), for its minimum time
  /// and budget.
  var steadySeconds: [Phase: Double] = [:]
  /// The fastest pass of the one-shot phases (build, first solve, teardown), in seconds: on a
  /// shared machine the least disturbed, what the next size's time budget is estimated from.
  var fastestPass = Double.infinity

  /// The most bytes any phase held at its peak or retained after it.
  var mostBytes: Int {
    figures.values.map { max(Int($0.delta.peakBytes), Int($0.retained)) }.max() ?? 0
  }
}
