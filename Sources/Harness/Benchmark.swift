import AutoLayout
import Cassowary
import Foundation
import Scenes

/// A stretch of work the harness times on its own.
public enum Phase: String, CaseIterable, Sendable, CustomStringConvertible {
  /// Views made and constraints activated (added to the solver in one batch).
  case build
  /// The first layout: the update pass (content-size and autoresizing constraints), the solve,
  /// and every frame written.
  case firstSolve = "first-solve"
  /// A layout pass that rewrites every frame from the solver.
  case layoutPass = "layout-pass"
  /// New text in 10% of the labels and buttons, then the update pass and layout.
  case updateConstraints = "update-constraints"
  /// The root rotated between portrait and landscape, then layout.
  case resize
  /// One constant deep in the tree changed in place, then layout.
  case constantChange = "constant-change"
  /// The size-class constraint sets swapped in one batch, then layout.
  case sizeClassSwitch = "size-class-switch"
  /// 10% of stack-arranged views hidden and shown (needs stack views).
  case hideUnhide = "hide-unhide"
  /// The middle row removed and added back with its constraints, then layout.
  case churn
  /// Every row removed.
  case teardown

  public var description: String { rawValue }

  /// The scene operation a steady-state phase repeats.
  var operation: SceneOperation? {
    switch self {
    case .updateConstraints: .intrinsicSizeChange
    case .resize: .resize
    case .constantChange: .constantChange
    case .sizeClassSwitch: .sizeClassSwitch
    case .hideUnhide: .hideUnhide
    case .churn: .churn
    default: nil
    }
  }

  /// Whether each repetition needs a new scene (build, first solve, teardown).
  public var isOneShot: Bool { self == .build || self == .firstSolve || self == .teardown }

  /// Whether a group of `kind` in `mode` measures this phase: a full re-solve has no one-shot
  /// phases and no layout pass of its own, and only the size-class scene switches size class.
  ///
  /// - Complexity: O(1).
  public func applies(to kind: SceneKind, mode: Mode) -> Bool {
    if mode == .full && (isOneShot || self == .layoutPass) { return false }
    if self == .sizeClassSwitch { return kind == .sizeClassButtons }
    return true
  }
}

/// How updates are solved.
public enum Mode: String, CaseIterable, Sendable, CustomStringConvertible {
  /// The solver's incremental path (dual simplex, constants in place).
  case incremental
  /// Each update applied in a batch, then the whole tableau rebuilt and solved from scratch.
  case full

  public var description: String { rawValue }
}

/// What to run.
public struct BenchmarkConfiguration: Sendable {
  public var scenes: [(kind: SceneKind, variant: String)]
  public var sizes: [Int]
  public var solvers: [SolverStrategy]
  public var modes: [Mode]
  public var phases: [Phase]
  public var seed: UInt64 = 1
  /// How many times the whole matrix runs, each cell's rounds pooled (``ResultRow/pooling``).
  /// Rounds minutes apart see different load on a shared machine, which the time gate needs
  /// to tell a change from a burst of load (``TimeTest``).
  public var rounds = 1
  /// At least this many measured repetitions per cell.
  public var repetitions = 5
  /// Unmeasured repetitions first.
  public var warmup = 2
  /// And at least this much measured time per cell, in seconds.
  public var minimumTime = 0.2
  /// A group whose one-shot passes are estimated to pass this many seconds runs without its
  /// warm-up passes, or is skipped if one pass alone would pass it; a group stops repeating once
  /// it has a measured pass and has taken this long, a slow steady phase at a quarter of it.
  /// 30 s lets the dense solver's groups at 1,000 views run once (9 to 29 s a pass here).
  public var cellBudget = 30.0
  /// The dense solver's memory budget, in bytes.
  public var denseMemoryBudget = 2 << 30
  /// The most bytes a group's scene and solver are estimated to need before it is skipped:
  /// half the machine's memory by default. The estimate is the bytes a view the same scene
  /// and solver took at the largest size measured so far (its largest peak or retained figure),
  /// or ``assumedBytesPerView`` before any size was measured, times the view count.
  public var memoryBudget = Int(ProcessInfo.processInfo.physicalMemory / 2)
  /// The bytes a view assumed before a scene and solver were measured at any size: above what
  /// any scene kind takes at 10,000 views, so that the estimate errs on the side of skipping.
  public static let assumedBytesPerView = 16 << 10
  /// Count instructions with callgrind (the process must run under `valgrind --tool=callgrind
  /// --instr-atstart=no`): the first measured repetition of each cell runs with instrumentation
  /// on around the phase's body only, and its counters are dumped under the cell's label
  /// (``Callgrind/label(forCell:)``). Its rows report one repetition and no times, since
  /// times under valgrind are not comparable with anything.
  public var countsInstructions = false
  /// Where to write a detailed heap snapshot after each cell's first layout (the process must
  /// run under `valgrind --tool=massif`): one file a cell, named by
  /// ``HeapSnapshot/fileName(forCell:)``, taken in the first measured pass right after
  /// `first-solve`, so it shows what a laid-out scene holds and which code allocated it. `nil` in
  /// every timed run.
  public var heapSnapshotDirectory: String? = nil
  /// A slowdown injected to test the time gate: every cell whose key contains `cells` has each
  /// measured repetition stretched to `factor` times its time (by spinning). `nil` in every real
  /// run.
  public var slowdown: (cells: String, factor: Double)? = nil
  /// The groups this run measures, when it is one shard of the matrix (`--shard K/N`); `nil`
  /// for every group. The rows of a group this leaves out are another shard's.
  public var onlyGroups: Set<ShardGroup>? = nil

  /// Whether the run measures `group` (every group unless ``onlyGroups`` says otherwise).
  public func includes(_ group: ShardGroup) -> Bool { onlyGroups?.contains(group) ?? true }

  /// The default matrix: the main scene kinds at 100, 1,000 and 10,000 views, both solvers,
  /// both modes, every phase that applies.
  public static var standard: BenchmarkConfiguration {
    BenchmarkConfiguration(
      scenes: [
        (.form, "standard"), (.dynamicForm, "standard"), (.equalSpacing, "spacer-views"),
        (.equalSpacing, "layout-guides"), (.sizeClassButtons, "standard"),
        (.nestedGrid, "standard"), (.stackGrid, "standard"), (.flat, "standard"),
        (.chain, "standard"),
      ],
      sizes: [100, 1000, 10000], solvers: SolverStrategy.exact, modes: Mode.allCases,
      phases: Phase.allCases)
  }

  /// The CI-sized matrix: every kind and variant at 50 and 100 views, six measured
  /// repetitions after one warm-up, three rounds.
  public static var quick: BenchmarkConfiguration {
    var configuration = standard
    configuration.scenes = SceneKind.allCases.flatMap { kind in kind.variants.map { (kind, $0) } }
    configuration.sizes = [50, 100]
    // Six repetitions a cell, three rounds: a steady phase's three pair means a round pool to
    // nine samples a side, and a one-shot phase's six to eighteen, past the 5 a side the time
    // gate's U test needs to reach p < 0.01 at all.
    configuration.repetitions = 6
    configuration.rounds = 3
    configuration.warmup = 1
    configuration.minimumTime = 0
    return configuration
  }

  public init(
    scenes: [(kind: SceneKind, variant: String)], sizes: [Int], solvers: [SolverStrategy],
    modes: [Mode], phases: [Phase]
  ) {
    self.scenes = scenes
    self.sizes = sizes
    self.solvers = solvers
    self.modes = modes
    self.phases = phases
  }

  /// How many (scene, size, solver, mode) groups the run measures.
  public var groupCount: Int {
    guard onlyGroups != nil else { return scenes.count * sizes.count * solvers.count * modes.count }
    return shardGroups.filter(includes).count * sizes.count
  }
}

/// Facts every row of a run shares.
public struct RunContext: Sendable {

  public var runID: String
  public var timestamp: String
  public var commit: String
  public var machine: String
  /// The compiler that built the harness (``ResultsDocument/toolchain``).
  public var toolchain: String
  /// The processor's model name, empty where it is not known.
  public var cpuModel: String
  /// The jemalloc version, empty when the allocator is not jemalloc.
  public var jemalloc: String
  /// The whole matrix the run is part of (``BenchmarkConfiguration/matrixDescription``).
  public var matrix: String
  /// `K/N` for one shard of the matrix, empty for the whole of it.
  public var shard: String

  public init(
    runID: String, timestamp: String, commit: String, machine: String,
    toolchain: String = ResultsDocument.toolchain, cpuModel: String = "",
    jemalloc: String = "", matrix: String = "", shard: String = ""
  ) {
    self.runID = runID
    self.timestamp = timestamp
    self.commit = commit
    self.machine = machine
    self.toolchain = toolchain
    self.cpuModel = cpuModel
    self.jemalloc = jemalloc
    self.matrix = matrix
    self.shard = shard
  }
}

extension ResultRow {
  /// Sets the fields every row of a run shares from `context`.
  ///
  /// - Complexity: O(1).
  public mutating func setContext(_ context: RunContext) {
    runID = context.runID
    timestamp = context.timestamp
    commit = context.commit
    machine = context.machine
    toolchain = context.toolchain
    cpuModel = context.cpuModel
    jemalloc = context.jemalloc
    matrix = context.matrix
    shard = context.shard
  }
}
