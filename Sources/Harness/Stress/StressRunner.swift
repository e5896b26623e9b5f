import AutoLayout
import Cassowary
import Foundation
import Scenes

/// Runs a soak: random operations on a scene (see ``StressPlanner``), each followed by a layout
/// and the required-constraint check; every `checkEvery` operations and after the last, a
/// comparison with a full re-solve, with a reference scene on the other solver (small scenes),
/// and a memory sample. The first violation stops the run.
public struct StressRunner {
  /// The run's configuration.
  public let configuration: StressConfiguration

  /// A runner for `configuration`.
  public init(configuration: StressConfiguration) {
    self.configuration = configuration
  }

  /// Runs a short soak of the same scene kind, solvers and seed on a small scene of its own, and
  /// drops it: what the process allocates once and keeps (the Swift runtime instantiates a
  /// generic type's metadata on its first use, in pools of 16 KiB, and an unoptimized build
  /// does so for far more types) is then allocated before the real run's first memory sample,
  /// so that the verdict counts what the scene kept, not what the process learned. The run's
  /// own seed and, up to 200 views, its own size, so that the warm-up meets the operations the
  /// run begins with, on the same tree; 500 operations. A smaller or shorter one (20 views and
  /// 200 operations; 50 and 500; the next seed) left debug builds' soaks of 40 and 60 views to
  /// meet a 16 KiB metadata pool during the run, 1.7 to 2.4 % of what those scenes hold. A
  /// larger scene holds enough (200 views, some 2 MiB) that a pool stays under the 1 % verdict.
  private func warmUp() throws(SceneError) {
    var warmUp = configuration
    warmUp.views = min(configuration.views, 200)
    warmUp.operations = 500
    warmUp.seconds = nil
    warmUp.checkEvery = configuration.checkEvery
    warmUp.judgesMemory = false
    warmUp.heapSnapshotDirectory = nil
    _ = try StressRunner(configuration: warmUp).run()
    warmUpDiagnostics()
  }

  /// Meets the engine's conflict diagnostics once, on a tree of its own: a conflict found when a
  /// constraint is activated and one found when a constant changes, each reported with the
  /// constraints' descriptions. The first message a process formats instantiates runtime
  /// metadata (a 16 KiB pool, for the witness tables formatting an address needs), which the
  /// short soak above meets only if its own operations conflict; a run would otherwise meet it
  /// at its first conflict, after its first memory sample.
  private func warmUpDiagnostics() {
    let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    root.preferredSolver = configuration.solver
    let box = View()
    box.translatesAutoresizingMaskIntoConstraints = false
    root.addSubview(box)
    LayoutConstraint.activate([
      box.leadingAnchor.constraint(equalTo: root.leadingAnchor),
      box.topAnchor.constraint(equalTo: root.topAnchor),
      box.heightAnchor.constraint(equalToConstant: 10),
      box.widthAnchor.constraint(equalToConstant: 50),
    ])
    root.layoutIfNeeded()
    root.layoutEngine?.logHandler = { _ in }
    // Refused when it is activated.
    let tooWide = box.widthAnchor.constraint(greaterThanOrEqualToConstant: 80)
    tooWide.isActive = true
    root.layoutIfNeeded()
    tooWide.isActive = false
    // Refused when its constant changes.
    let cap = box.widthAnchor.constraint(lessThanOrEqualToConstant: 60)
    cap.isActive = true
    root.layoutIfNeeded()
    cap.constant = 20
    root.layoutIfNeeded()
    _ = String(describing: root) + String(describing: cap) + String(describing: box.widthAnchor)
  }

  /// Runs the soak. `willApply` is called before each step with its number and operation (so a
  /// caller can say where a crash happened); `progress` after every check round with the report
  /// so far; `trace`, when given, after each step's layout with the step, its operation and the
  /// bit-exact hash of every frame (``exactFrameHash(_:)``), so two runs can be compared step by
  /// step. Throws only when the scene cannot be built (a bad view count or variant).
  public func run(
    willApply: (Int, StressOperation) -> Void = { _, _ in },
    progress: (StressReport) -> Void = { _ in },
    trace: ((Int, StressOperation?, UInt64) -> Void)? = nil
  ) throws(SceneError) -> StressReport {
    let c = configuration
    if c.judgesMemory { try warmUp() }
    let world = try StressWorld(
      c.kind, views: c.views, seed: c.seed, variant: c.variant, solver: c.solver,
      replacement: c.makeSolver?()
        ?? (c.verifiesTableau ? c.solver.makeVerifyingSolver(tolerance: 1e-6) : nil))
    let other: SolverStrategy = c.solver == .sparse ? .dense : .sparse
    let reference =
      world.scene.viewCount <= c.referenceLimit
      ? try StressWorld(
        c.kind, views: c.views, seed: c.seed, variant: c.variant, solver: other,
        replacement: c.verifiesTableau ? other.makeVerifyingSolver(tolerance: 1e-6) : nil)
      : nil
    var report = StressReport(configuration: c)
    // Room for every family and check up front: what the report allocates after the first
    // sample would count against the scene's memory.
    report.operationCounts.reserveCapacity(32)
    report.ties.reserveCapacity(4)
    report.memory = MemoryDrift(
      expectedSamples: (c.operations ?? 100_000) / max(1, c.checkEvery) + 4)
    report.progress.reserveCapacity((c.operations ?? 100_000) / max(1, c.checkEvery) + 4)
    report.views = world.scene.viewCount
    report.hasReference = reference != nil
    var planner = StressPlanner(seed: c.seed)
    let start = Date()
    let limit = c.operations ?? Int.max
    let every = max(1, c.checkEvery)

    func fail(_ check: String, _ step: Int, _ operation: StressOperation?, _ detail: String) {
      report.violation = StressViolation(
        check: check, step: step, operation: operation, detail: detail, seed: c.seed,
        reproduce: c.commandLine(operations: step))
    }
    /// Counts a tie or records a failure; false on a failure.
    func record(
      _ result: StressCheckResult, _ check: String, _ step: Int, _ operation: StressOperation?
    ) -> Bool {
      switch result {
      case .holds: return true
      case .tie(let detail):
        if report.ties.isEmpty { report.firstTie = "\(check) at step \(step): \(detail)" }
        report.ties[check, default: 0] += 1
        return true
      case .fails(let detail):
        fail(check, step, operation, detail)
        return false
      }
    }
    /// The checks of one round; false when one failed.
    func check(
      _ step: Int, _ operation: StressOperation?, full: Bool, samplesMemory: Bool = true
    ) -> Bool {
      report.requiredChecks += 1
      if let detail = StressChecks.requiredConstraints(world, tolerance: c.tolerance) {
        fail("required constraints", step, operation, detail)
        return false
      }
      report.frameChecks += 1
      if let detail = StressChecks.frames(world, tolerance: c.tolerance) {
        fail("frames", step, operation, detail)
        return false
      }
      guard full else { return true }
      report.fullResolveChecks += 1
      let resolve = StressChecks.fullResolve(world, tolerance: c.tolerance)
      if !record(resolve, "full re-solve", step, operation) { return false }
      if let reference {
        report.referenceChecks += 1
        let compared = StressChecks.reference(world, reference, tolerance: c.tolerance)
        if !record(compared, "reference solver", step, operation) { return false }
      }
      // What the scene holds, not the checks' scratch: the caches they filled go first.
      world.dropCaches()
      reference?.dropCaches()
      if samplesMemory {
        report.memory.sample(after: step)
        if step == 0, let directory = c.heapSnapshotDirectory {
          HeapSnapshot.writeSoakSnapshot(HeapSnapshot.firstLayoutName, in: directory)
        }
      }
      return true
    }

    var step = 0
    trace?(0, nil, exactFrameHash(world.scene.root))
    report.solverAtStart = world.engine.solverStatistics

    if check(0, nil, full: true) {
      while step < limit {
        if let seconds = c.seconds, Date().timeIntervalSince(start) >= seconds { break }
        step += 1
        let operation = planner.next(for: world)
        report.operationCounts[operation.family, default: 0] += 1
        willApply(step, operation)
        do {
          try world.apply(operation)
          try reference?.apply(operation)
        } catch {
          fail("operation", step, operation, "\(error)")
          break
        }
        trace?(step, operation, exactFrameHash(world.scene.root))
        let last = step == limit
        if !check(step, operation, full: last || step.isMultiple(of: every)) { break }
        if step.isMultiple(of: every) {
          report.operations = step
          report.seconds = Date().timeIntervalSince(start)
          report.progress.append((step, report.seconds))
          progress(report)
        }
      }
      // A run stopped by the clock ends with a full round too.
      if report.violation == nil, !step.isMultiple(of: every), step != limit {
        _ = check(step, nil, full: true)
      }
    }
    report.operations = step
    report.seconds = Date().timeIntervalSince(start)
    report.conflicts = world.loggedConflicts
    report.solverAtEnd = world.engine.solverStatistics
    report.finalChecksum = frameChecksum(world.scene.root)
    report.finalExactHash = exactFrameHash(world.scene.root)
    if report.violation == nil {
      // Undo the run and check the layout once more; then the scene is what it was after its
      // first layout, and so should its memory be.
      world.restore()
      reference?.restore()
      if check(step, nil, full: true, samplesMemory: false) {
        report.solverAfterUndo = world.engine.solverStatistics
        world.dropCaches()
        reference?.dropCaches()
        report.memory.sampleAfterUndo()
        if let directory = c.heapSnapshotDirectory {
          HeapSnapshot.writeSoakSnapshot(HeapSnapshot.afterUndoName, in: directory)
        }
        if c.judgesMemory && report.memory.returns == false {
          fail(
            "memory", step, nil,
            "after undoing the run, stats.allocated is \(report.memory.afterUndo!) bytes, "
              + "more than 1 % above the \(report.memory.start) held after the first layout")
        }
      }
    }
    return report
  }
}
