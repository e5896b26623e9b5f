import AutoLayout
import Cassowary
import Scenes

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a benchmark matrix and reports one ``ResultRow`` per cell as soon as it is measured.
public struct BenchmarkRunner {
  public var configuration: BenchmarkConfiguration
  public var context: RunContext

  public init(configuration: BenchmarkConfiguration, context: RunContext) {
    self.configuration = configuration
    self.context = context
  }

  /// What the runner remembers between sizes, to skip cells that would pass the time budget.
  struct History {
    /// (views, seconds) of each group's fastest one-shot pass at each size so far, by
    /// scene/solver/mode: on a shared machine the fastest is the one least disturbed.
    var passes: [String: [(Double, Double)]] = [:]
    /// Each dense group's tableau after its first layout at its largest size so far, by
    /// scene/variant/solver/mode: what its next size's tableau is estimated from. A group's own,
    /// so that its plan does not depend on which groups ran before it in the process (a shard
    /// holds whole groups, in any company).
    var tableau: [String: (views: Int, rows: Int, columns: Int)] = [:]
    /// Why the solver refused a smaller size of a scene/solver/mode group for lack of memory.
    var refusals: [String: String] = [:]
    /// The sparse solver's tableau at each scene and size: a dense group's estimate at its first
    /// size, before it has a smaller size of its own (in the default matrix, 100 views, which
    /// no budget comes near).
    var sparseTableau: [String: (rows: Int, columns: Int)] = [:]
    /// Seconds of one unreported pass at an intermediate size, by group and size.
    var probes: [String: Double] = [:]
    /// Bytes a view at the largest size measured so far, by group: the most any of its phases
    /// held at its peak or retained, over its view count.
    var bytesPerView: [String: (views: Int, bytes: Double)] = [:]
    /// The checksum of the first lexicographic solver measured, by scene/variant/size/mode/
    /// phase: what a weighted-priority strategy's frames are compared with.
    var exactChecksums: [String: String] = [:]
  }

  /// How a group runs, or why it does not.
  public enum Plan: Equatable {
    /// Runs with `warmup` unmeasured passes first; `note` goes on every row when it says why
    /// the group runs differently from the configuration.
    case run(warmup: Int, note: String?)
    case skip(String)
  }

  /// Runs every cell; `emit` gets each row, `progress` each group as it starts (index, total,
  /// what). An error `emit` throws (the results file could not be written) ends the run.
  public func run<Failure: Error>(
    emit: (ResultRow) throws(Failure) -> Void, progress: (Int, Int, String) -> Void
  ) throws(Failure) {
    var history = History()
    var group = 0
    for (kind, variant) in configuration.scenes {
      for size in configuration.sizes {
        for solver in configuration.solvers {
          for mode in configuration.modes {
            let shardGroup = ShardGroup(
              scene: kind, variant: variant, solver: solver.name, mode: mode)
            guard configuration.includes(shardGroup) else { continue }
            group += 1
            progress(
              group, configuration.groupCount, "\(kind)/\(variant) \(size) \(solver) \(mode)")
            try runGroup(
              kind: kind, variant: variant, size: size, solver: solver, mode: mode,
              history: &history, emit: emit)
          }
        }
      }
    }
  }

  private func baseRow(
    _ kind: SceneKind, _ variant: String, _ size: Int, _ solver: SolverStrategy, _ mode: Mode,
    _ phase: Phase
  ) -> ResultRow {
    var row = ResultRow()
    row.setContext(context)
    row.scene = kind
    row.variant = variant
    row.views = size
    row.solver = ResultRow.Solver(solver)
    row.mode = mode
    row.phase = phase
    return row
  }

  /// The phases of a group that apply to its scene.
  private func phases(for kind: SceneKind, mode: Mode) -> [Phase] {
    configuration.phases.filter { $0.applies(to: kind, mode: mode) }
  }

  private func runGroup<Failure: Error>(
    kind: SceneKind, variant: String, size: Int, solver: SolverStrategy, mode: Mode,
    history: inout History, emit: (ResultRow) throws(Failure) -> Void
  ) throws(Failure) {
    let phases = phases(for: kind, mode: mode)
    guard !phases.isEmpty else { return }
    let group = Group(kind: kind, variant: variant, size: size, solver: solver, mode: mode)
    switch plan(kind, variant, size, solver, mode, group.key, &history) {
    case .skip(let reason):
      for phase in phases {
        var row = baseRow(kind, variant, size, solver, mode, phase)
        row.status = .skipped
        row.note = reason
        try emit(row)
      }
    case .run(let warmup, let note):
      guard let measurement = measure(group, phases: phases, warmup: warmup, &history) else {
        return
      }
      for phase in phases {
        try emit(row(phase, of: group, measurement, planNote: note, &history))
      }
    }
  }

  /// The passes of one group: fresh scenes for the one-shot phases, the steady phases on the
  /// first (every phase's first pair of measured repetitions, then the rest); `nil` when the
  /// scene cannot be made.
  private func measure(
    _ group: Group, phases: [Phase], warmup: Int, _ history: inout History
  ) -> GroupMeasurement? {
    let (kind, variant, size, solver, mode) = (
      group.kind, group.variant, group.size, group.solver, group.mode
    )
    var measurement = GroupMeasurement()
    // The callgrind label of a cell, when this run counts instructions.
    let label = { (phase: Phase) -> String? in
      guard configuration.countsInstructions else { return nil }
      return Callgrind.label(forCell: baseRow(kind, variant, size, solver, mode, phase).key)
    }
    // The phases whose times an injected slowdown stretches (a test of the time gate).
    var slowdowns: [Phase: Double] = [:]
    if let slowdown = configuration.slowdown {
      for phase in phases
      where baseRow(kind, variant, size, solver, mode, phase).key.description.contains(
        slowdown.cells)
      {
        slowdowns[phase] = slowdown.factor
      }
    }
    let groupStart = monotonicNanoseconds()
    var iteration = 0
    // One-shot phases repeat on fresh scenes; the steady phases run on the first one.
    repeat {
      let measured = iteration >= warmup || mode == .full
      // Instructions are counted in the first measured pass.
      let counted = measured && measurement.samples[.build] == nil
      var oneShot: UInt64 = 0
      var meter = AllocationMeter()
      var start = monotonicNanoseconds()
      guard
        let scene = instrumented(
          counted ? label(.build) : nil,
          {
            try? Scene(
              kind, views: size, seed: configuration.seed, variant: variant, solver: solver)
          })
      else { return nil }
      var elapsed = monotonicNanoseconds() - start
      oneShot += elapsed
      var delta = meter.stop()
      if measured {
        record(.build, elapsed, delta, scene, slowdowns[.build], &measurement)
      }
      meter = AllocationMeter()
      start = monotonicNanoseconds()
      instrumented(counted ? label(.firstSolve) : nil) { scene.layOut() }
      elapsed = monotonicNanoseconds() - start
      oneShot += elapsed
      delta = meter.stop()
      if counted, let directory = configuration.heapSnapshotDirectory {
        let key = baseRow(kind, variant, size, solver, mode, .firstSolve).key
        HeapSnapshot.write(to: directory + "/" + HeapSnapshot.fileName(forCell: key))
      }
      if let reason = Self.refusal(of: scene) {
        measurement.refusal = (.firstSolve, reason)
        break
      }
      if measured {
        record(.firstSolve, elapsed, delta, scene, slowdowns[.firstSolve], &measurement)
        measurement.checksums[.build] = measurement.checksums[.firstSolve]
      }
      if iteration == 0 {
        if let solverStatistics = scene.solverStatistics {
          measurement.statistics = (solverStatistics.variables, solverStatistics.constraints)
        }
        if let solverStatistics = scene.solverStatistics {
          if solver == .dense {
            history.tableau[group.key] = (size, solverStatistics.rows, solverStatistics.symbols)
          } else if solver == .sparse {
            history.sparseTableau["\(kind)/\(variant)/\(size)"] = (
              solverStatistics.rows, solverStatistics.symbols
            )
          }
        }
        // Every phase's first pair, then every phase's rest (see measureSteady).
        for firstPair in [true, false] where measurement.refusal == nil {
          for phase in phases where !phase.isOneShot {
            measureSteady(
              phase, scene, mode, label(phase), slowdowns[phase], firstPair: firstPair,
              &measurement)
            if let reason = Self.refusal(of: scene) {
              measurement.refusal = (phase, reason)
              break
            }
          }
        }
        if measurement.refusal != nil { break }
      }
      meter = AllocationMeter()
      start = monotonicNanoseconds()
      instrumented(counted ? label(.teardown) : nil) {
        scene.perform(.teardown)
        scene.layOut()
      }
      elapsed = monotonicNanoseconds() - start
      oneShot += elapsed
      delta = meter.stop()
      if measured {
        record(.teardown, elapsed, delta, scene, slowdowns[.teardown], &measurement)
      }
      measurement.fastestPass = min(measurement.fastestPass, Double(oneShot) / 1e9)
      iteration += 1
      if mode == .full { break }
      let groupSeconds = Double(monotonicNanoseconds() - groupStart) / 1e9
      let measuredCount = measurement.samples[.build]?.count ?? 0
      // Enough samples and time, or over the budget with at least one measured pass.
      if measuredCount >= configuration.repetitions && groupSeconds >= configuration.minimumTime {
        break
      }
      if measuredCount >= 1 && groupSeconds > configuration.cellBudget { break }
    } while true
    if measurement.fastestPass.isFinite {
      history.passes[group.key, default: []].append((Double(size), measurement.fastestPass))
    }
    let mostBytes = measurement.mostBytes
    if mostBytes > 0 {
      let memoryKey = group.key
      let perView = Double(mostBytes) / Double(max(1, size))
      if size >= history.bytesPerView[memoryKey]?.views ?? 0 {
        history.bytesPerView[memoryKey] = (size, perView)
      }
    }
    if let refusal = measurement.refusal { history.refusals[group.key] = refusal.reason }
    return measurement
  }

  /// The row of `phase` in what `measurement` holds for `group`.
  private func row(
    _ phase: Phase, of group: Group, _ measurement: GroupMeasurement, planNote: String?,
    _ history: inout History
  ) -> ResultRow {
    var row = baseRow(group.kind, group.variant, group.size, group.solver, group.mode, phase)
    row.variables = measurement.statistics.variables
    row.constraints = measurement.statistics.constraints
    if let refusal = measurement.refusal, Self.order(of: phase) >= Self.order(of: refusal.phase) {
      row.status = .skipped
      row.note = refusal.reason
      return row
    }
    if let error = measurement.errors[phase] {
      row.status = .error
      row.note = error
      return row
    }
    guard let times = measurement.samples[phase], !times.isEmpty else {
      row.status = .skipped
      row.note = "not applicable"
      return row
    }
    row.note = planNote ?? ""
    let samples = phase.isOneShot ? times : Self.pairMeans(times)
    let summary = TimingSummary(samples)
    row.repetitions = times.count
    row.medianNanoseconds = summary.median
    row.minimumNanoseconds = summary.minimum
    row.p90Nanoseconds = summary.p90
    row.maximumNanoseconds = summary.maximum
    row.samples = [ResultRow.keptSamples(samples)]
    if let figures = measurement.figures[phase] {
      row.allocations = figures.delta.allocations
      row.allocatedBytes = figures.delta.allocatedBytes
      row.peakBytes = figures.delta.peakBytes
      row.retainedBytes = figures.retained
    }
    row.checksum = measurement.checksums[phase]
    row.note = Self.joined(
      row.note,
      Self.strategyNote(group.solver, phase, row.checksum ?? "", group.cell(phase), &history))
    if configuration.countsInstructions {
      row.repetitions = 1
      row.medianNanoseconds = nil
      row.minimumNanoseconds = nil
      row.p90Nanoseconds = nil
      row.maximumNanoseconds = nil
      row.samples = []
      row.note = "callgrind: instructions of one repetition; times not measured"
    }
    return row
  }

  /// What a row of `strategy` must say about how it differs from Auto Layout's semantics: a
  /// phase that changes constants without in-place changes measures a remove and an add, and
  /// weighted priorities may give other frames than the lexicographic solver measured first
  /// (whose checksum `history` keeps under `cell`).
  static func strategyNote(
    _ strategy: SolverStrategy, _ phase: Phase, _ checksum: String, _ cell: String,
    _ history: inout History
  ) -> String {
    var notes: [String] = []
    if !strategy.capabilities.contains(.inPlaceConstants),
      [.resize, .constantChange, .updateConstraints].contains(phase)
    {
      notes.append("constants changed by remove + add (no in-place change)")
    }
    if strategy.capabilities.contains(.lexicographicPriorities) {
      if !checksum.isEmpty, history.exactChecksums[cell] == nil {
        history.exactChecksums[cell] = checksum
      }
    } else if let exact = history.exactChecksums[cell], !checksum.isEmpty {
      notes.append(
        exact == checksum
          ? "same frames as the lexicographic solvers"
          : "weighted priorities: frames differ from the lexicographic solvers'")
    }
    return notes.joined(separator: "; ")
  }

  /// The mean, rounded down, of each two consecutive repetitions of a steady phase (a last one
  /// alone stays as it is): its samples. Toggling phases alternate directions (portrait to
  /// landscape, then back), which may cost differently, so single repetitions form two
  /// clusters, and a median of an even count of them falls on the gap between the clusters,
  /// where it jumps from run to run; a pair holds one repetition of each direction.
  ///
  /// - Complexity: O(n).
  public static func pairMeans(_ times: [UInt64]) -> [UInt64] {
    stride(from: 0, to: times.count, by: 2).map { index in
      guard index + 1 < times.count else { return times[index] }
      let (a, b) = (times[index], times[index + 1])
      return a / 2 + b / 2 + (a % 2 + b % 2) / 2  // no overflow
    }
  }

  /// `a` and `b` joined by "; ", either may be empty.
  static func joined(_ a: String, _ b: String) -> String {
    a.isEmpty ? b : b.isEmpty ? a : a + "; " + b
  }

  /// Runs `body`; with a callgrind label, with instrumentation on around it and its counters
  /// dumped under the label (``Callgrind/measure(_:_:)``).
  @inline(__always)
  private func instrumented<Result>(
    _ label: String?, _ body: () throws -> Result
  ) rethrows -> Result {
    guard let label else { return try body() }
    return try Callgrind.measure(label, body)
  }

  /// Why the scene's solver stopped taking changes (the dense solver's memory budget), if it
  /// did: the phase that hit it measured a solver that no longer holds every constraint.
  private static func refusal(of scene: Scene) -> String? {
    guard let error = scene.solverRefusal else { return nil }
    return "the solver refused a change: \(error)"
  }

  /// Where `phase` comes in a group's run.
  private static func order(of phase: Phase) -> Int {
    Phase.allCases.firstIndex(of: phase) ?? 0
  }

  /// Whether and how a group runs: not when the dense tableau would pass its memory budget, or
  /// when the group would pass the time budget, extrapolated from the smaller sizes; without its
  /// warm-up passes when those alone would pass it.
  private func plan(
    _ kind: SceneKind, _ variant: String, _ size: Int, _ solver: SolverStrategy, _ mode: Mode,
    _ groupKey: String, _ history: inout History
  ) -> Plan {
    if let refusal = history.refusals[groupKey] { return .skip(refusal + " (at a smaller size)") }
    if let reason = Self.memoryRefusal(
      views: size, measured: history.bytesPerView[groupKey],
      budget: configuration.memoryBudget)
    {
      return .skip(reason)
    }
    if solver == .dense {
      // Rows and columns grow with the views (a row per constraint, a column per symbol): the
      // group's own tableau at a smaller size, scaled; before it has one, the sparse solver's
      // at this size, when this process measured it.
      var estimate: (rows: Int, columns: Int, basis: String)?
      if let measured = history.tableau[groupKey], measured.views < size {
        let scale = Double(size) / Double(measured.views)
        estimate = (
          Int(Double(measured.rows) * scale), Int(Double(measured.columns) * scale),
          "scaled from \(measured.views) views"
        )
      } else if let sparse = history.sparseTableau["\(kind)/\(variant)/\(size)"] {
        estimate = (sparse.rows, sparse.columns, "the sparse tableau's")
      }
      if let estimate {
        let bytes = DenseTableau.bytesNeeded(rows: estimate.rows, columns: estimate.columns)
        if bytes > configuration.denseMemoryBudget {
          return .skip(
            "dense tableau of about \(estimate.rows) rows x \(estimate.columns) columns "
              + "(\(estimate.basis)) needs \(bytes / (1 << 20)) MiB, over the "
              + "\(configuration.denseMemoryBudget / (1 << 20)) MiB memory budget")
        }
      }
    }
    let warmup = configuration.warmup
    guard var points = history.passes[groupKey], !points.isEmpty else {
      return .run(warmup: warmup, note: nil)
    }
    // A full group makes one pass, and every steady phase then solves from scratch at least
    // once, about as long as the pass itself; an incremental group makes its warm-up passes and
    // at least one measured pass.
    let steadyPhases = phases(for: kind, mode: mode).filter { !$0.isOneShot }.count
    let fullPasses = mode == .full ? Double(1 + steadyPhases) : 1
    let warmupPasses = mode == .full ? 0 : warmup
    if points.count == 1,
      let probed = probe(
        kind, variant, size, solver, groupKey: groupKey, from: points[0],
        passes: Double(warmupPasses + 1) * fullPasses, &history)
    {
      points.append(probed)
    }
    guard let (estimate, slope) = extrapolate(points.map { (x: $0.0, y: $0.1) }, to: Double(size))
    else { return .run(warmup: warmup, note: nil) }
    return Self.plan(
      estimate: estimate, slope: slope, warmup: warmupPasses, fullPasses: fullPasses,
      budget: configuration.cellBudget)
  }

  /// Why a group of `views` views is not built, if its estimated memory passes `budget`: the
  /// bytes a view `measured` at a smaller size (or ``BenchmarkConfiguration/assumedBytesPerView``
  /// when nothing was measured) times the views. Refused before anything is allocated, so that
  /// a size far past the machine (10,000,000 views) is a skipped row, not a process the kernel
  /// kills.
  public static func memoryRefusal(
    views: Int, measured: (views: Int, bytes: Double)?, budget: Int
  ) -> String? {
    let perView = measured?.bytes ?? Double(BenchmarkConfiguration.assumedBytesPerView)
    let estimate = perView * Double(views)
    guard estimate > Double(budget) else { return nil }
    let basis =
      measured.map { "\(Int($0.bytes.rounded())) bytes a view, measured at \($0.views) views" }
      ?? "\(BenchmarkConfiguration.assumedBytesPerView) bytes a view, assumed before any size "
      + "was measured"
    return "estimated \(Int(estimate / 1_048_576)) MiB (\(basis)), over the memory budget of "
      + "\(budget >> 20) MiB (--memory-budget)"
  }

  /// How a group runs whose one pass is estimated at `estimate` seconds (extrapolated along
  /// `slope`): with its `warmup` passes when they and a measured pass fit the `budget`, times
  /// `fullPasses` (a full group's re-solves); else without them when one measured pass fits;
  /// else not at all.
  public static func plan(
    estimate: Double, slope: Double, warmup: Int, fullPasses: Double, budget: Double
  ) -> Plan {
    let seconds = Int(estimate.rounded())
    let basis = "slope \((slope * 100).rounded() / 100) from smaller sizes"
    if estimate * Double(warmup + 1) * fullPasses <= budget {
      return .run(warmup: warmup, note: nil)
    }
    if warmup > 0 && estimate * fullPasses <= budget {
      return .run(
        warmup: 0,
        note: "no warm-up: one pass estimated at \(seconds) s (\(basis)); with \(warmup) "
          + "warm-up passes the group would pass the \(Int(budget)) s cell budget")
    }
    return .skip(
      "estimated \(seconds) s to build, solve and tear down once (\(basis)) x "
        + "\(Int(fullPasses)) passes" + (fullPasses > 1 ? " (full re-solves included)" : "")
        + ", over the \(Int(budget)) s cell budget")
  }

  /// One pass (build, first solve, teardown) at the geometric mean of `size` and the one smaller
  /// size measured, `(views, seconds)`, so that the group's estimate rests on a measured slope
  /// rather than an assumed one: from 100 to 1,000 views the dense solver's slope was 2.25 to
  /// 3.68 (the baseline at 7590583), and an assumed 2 let a group that needed minutes a pass
  /// through. Only when the assumption matters (at slope 3 the group's `passes` would pass the
  /// budget) and the pass is cheap (at slope 3, within a quarter of the budget); nil otherwise,
  /// or when the pass fails.
  private func probe(
    _ kind: SceneKind, _ variant: String, _ size: Int, _ solver: SolverStrategy,
    groupKey: String, from measured: (Double, Double), passes: Double, _ history: inout History
  ) -> (Double, Double)? {
    guard
      let middle = Self.probeSize(
        between: measured, and: size, passes: passes, budget: configuration.cellBudget)
    else { return nil }
    let key = "\(groupKey)/\(Int(middle))"
    if let known = history.probes[key] { return (middle, known) }
    let start = monotonicNanoseconds()
    guard
      let scene = try? Scene(
        kind, views: Int(middle), seed: configuration.seed, variant: variant, solver: solver)
    else { return nil }
    scene.root.layoutIfNeeded()
    guard Self.refusal(of: scene) == nil else { return nil }
    scene.perform(.teardown)
    scene.root.layoutIfNeeded()
    let elapsed = Double(monotonicNanoseconds() - start) / 1e9
    history.probes[key] = elapsed
    return (middle, elapsed)
  }

  /// The size to probe between a measured `(views, seconds)` and `size`, their geometric mean:
  /// only when at slope 3 the group's `passes` would pass the `budget` and the probe's one pass
  /// would not pass a quarter of it.
  public static func probeSize(
    between measured: (Double, Double), and size: Int, passes: Double, budget: Double
  ) -> Double? {
    let (views, seconds) = measured
    let middle = (views * Double(size)).squareRoot().rounded()
    guard middle > views, middle < Double(size),
      seconds * pow(Double(size) / views, 3) * passes > budget,
      seconds * pow(middle / views, 3) <= budget / 4
    else { return nil }
    return middle
  }

  private func record(
    _ phase: Phase, _ elapsed: UInt64, _ delta: AllocationDelta, _ scene: Scene,
    _ slowdown: Double?, _ measurement: inout GroupMeasurement
  ) {
    var elapsed = elapsed
    if let slowdown {
      // Spin for the extra time, so that the run takes as long as a slower build would and
      // the machine's noise falls on the stretched time too.
      let start = monotonicNanoseconds()
      let end = start + UInt64(Double(elapsed) * (slowdown - 1))
      while monotonicNanoseconds() < end {}
      elapsed += monotonicNanoseconds() - start
    }
    measurement.samples[phase, default: []].append(elapsed)
    if measurement.figures[phase] == nil {
      AllocatorStatistics.refresh()
      measurement.figures[phase] = (delta, UInt64(AllocatorStatistics.allocatedBytes))
      measurement.checksums[phase] = frameChecksum(scene.root)
    }
  }

  /// Repeats one steady-state phase on `scene`: with `firstPair`, its warm-ups and two measured
  /// repetitions, the first of which gives the row its bytes, checksum and instruction count;
  /// without, more measured repetitions, until the phase has its minimum count and time (or a
  /// quarter of the cell budget), always an even number.
  ///
  /// A group takes every phase's first pair before any phase's rest, so that what a phase's
  /// first measured repetition allocates depends on a fixed history (the earlier phases' warm-ups
  /// and pairs), not on how many repetitions the machine's speed let them run in the minimum
  /// time. An even count means a phase that toggles (portrait and landscape) ends where it
  /// started, so the next phase's checksum does not depend on speed either.
  private func measureSteady(
    _ phase: Phase, _ scene: Scene, _ mode: Mode, _ label: String?, _ slowdown: Double?,
    firstPair: Bool, _ measurement: inout GroupMeasurement
  ) {
    if let operation = phase.operation, !scene.supports(operation) { return }
    if !firstPair && (measurement.errors[phase] != nil || measurement.samples[phase] == nil) {
      return
    }
    let warmup = firstPair ? configuration.warmup + configuration.warmup % 2 : 0
    var measured = measurement.samples[phase]?.count ?? 0
    var count = 0
    let start = monotonicNanoseconds()
    let spentBefore = measurement.steadySeconds[phase] ?? 0
    defer {
      measurement.steadySeconds[phase] =
        spentBefore + Double(monotonicNanoseconds() - start) / 1e9
    }
    while true {
      if count >= warmup {
        let seconds = spentBefore + Double(monotonicNanoseconds() - start) / 1e9
        let enough =
          firstPair
          ? measured >= 2
          : (measured >= configuration.repetitions && seconds >= configuration.minimumTime
            && measured % 2 == 0)
        if enough { break }
        // A slow phase stops at a quarter of the cell budget once it has a measured repetition
        // (the row's repetition count says how many it got), after an even number of them.
        if seconds > configuration.cellBudget / 4 && measured >= 1 && measured % 2 == 0 {
          break
        }
      }
      let meter = AllocationMeter()
      let before = monotonicNanoseconds()
      do {
        // Instructions are counted in the first measured repetition.
        try instrumented(firstPair && count == warmup ? label : nil) {
          try step(phase, scene, mode)
        }
      } catch {
        measurement.errors[phase] = "\(error)"
        return
      }
      if scene.solverRefusal != nil { return }
      let elapsed = monotonicNanoseconds() - before
      let delta = meter.stop()
      count += 1
      if count > warmup {
        record(phase, elapsed, delta, scene, slowdown, &measurement)
        measured += 1
      }
    }
  }

  /// One repetition of a steady phase.
  private func step(_ phase: Phase, _ scene: Scene, _ mode: Mode) throws {
    guard let operation = phase.operation else {
      scene.root.setNeedsLayoutOfSubtree()
      scene.layOut()
      return
    }
    switch mode {
    case .incremental:
      scene.perform(operation)
      scene.layOut()
    case .full:
      try scene.performWithFullResolve(operation)
    }
  }
}

/// FNV-1a over every frame of the tree (depth first), each coordinate in millionths of a point:
/// equal layouts give equal checksums whichever solver made them.
///
/// The millionths are counted from a third of one below zero (`(x · 10⁶ − ⅓).rounded()`), not
/// from zero: layouts halve lengths again and again (a nested grid's cells), and a value with 128
/// in its denominator, such as 12.7109375, lies exactly halfway between two millionths, where the
/// last bit of rounding error (1e-15 between two solvers) decided which way it went. A dyadic
/// value never lies on the shifted boundaries, which fall at five sixths of a millionth.
public func frameChecksum(_ root: View) -> String {
  String(frameHash(root) { UInt64(bitPattern: Int64(($0 * 1e6 - 1.0 / 3).rounded())) }, radix: 16)
}

/// A hash of the bit patterns of every frame in `root`'s subtree (FNV-1a over the four values of
/// each frame, depth first): equal only when every value is the same to the last bit, where
/// ``frameChecksum(_:)`` rounds to a millionth of a point.
///
/// - Complexity: O(views).
public func exactFrameHash(_ root: View) -> UInt64 {
  frameHash(root) { $0.bitPattern }
}

/// FNV-1a over the bytes of `bits` of each frame value (x, y, width, height) in `root`'s
/// subtree, depth first: the hash behind ``frameChecksum(_:)`` and ``exactFrameHash(_:)``.
private func frameHash(_ root: View, bits: (Double) -> UInt64) -> UInt64 {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  root.visitSubtree { view in
    let frame = view.frame
    for value in [frame.minX, frame.minY, frame.width, frame.height] {
      var word = bits(value)
      for _ in 0..<8 {
        hash ^= word & 0xff
        hash = hash &* 0x100_0000_01b3
        word >>= 8
      }
    }
  }
  return hash
}
