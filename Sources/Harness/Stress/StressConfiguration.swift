import AutoLayout
import Cassowary
import Scenes

/// What one stress run (`bench stress`) does: which scene it soaks, with which solver, for how
/// long, and how often it runs the expensive checks.
///
/// A run is a deterministic function of its configuration (except for `seconds`, which only
/// decides where it stops), so a failure is reproduced by the command line ``commandLine(operations:)``
/// gives.
public struct StressConfiguration {
  /// The scene kind soaked.
  public var kind: SceneKind
  /// The scene variant (`nil`: the kind's default).
  public var variant: String?
  /// The view count asked for.
  public var views: Int
  /// The solver under test.
  public var solver: SolverStrategy
  /// The seed of the scene and of the operation sequence.
  public var seed: UInt64
  /// Stop after this many operations (`nil`: only `seconds` stops the run).
  public var operations: Int?
  /// Stop after this many seconds (`nil`: only `operations` stops the run).
  public var seconds: Double?
  /// Every this many operations (and after the last), compare with a full re-solve and the
  /// reference solver, and sample memory.
  public var checkEvery: Int
  /// The largest scene (in views) that also gets a reference scene on the other solver.
  public var referenceLimit: Int
  /// The largest scaled residual of a required row, and relative difference between two
  /// solutions, that still counts as equal.
  public var tolerance: Double
  /// Makes the solver of the scene under test instead of `solver` (which still names the
  /// reference's counterpart): the injection point for tests with a corrupted solver double.
  public var makeSolver: (() -> any LayoutSolver)?
  /// Check the tableau's equations after every solver operation of the scene under test (and of
  /// the reference), stopping at the first that breaks them: slow, for small scenes.
  public var verifiesTableau = false
  /// Fail the run when memory does not come back after the run is undone (see
  /// ``MemoryDrift``). The figure is process-wide, so a caller that runs other work in the
  /// same process at the same time (tests in parallel) turns the verdict off; the figures are
  /// still reported.
  public var judgesMemory = true
  /// Under `valgrind --tool=massif` or jemalloc profiling, the directory that gets two heap
  /// snapshots, taken where the memory verdict samples: `first-layout` and `after-undo` (see
  /// ``HeapSnapshot/writeSoakSnapshot(_:in:)``). Comparing them names the code that holds what
  /// did not come back.
  public var heapSnapshotDirectory: String? = nil

  /// A configuration with the command line's defaults: 1,000 operations, checks every 100.
  public init(
    kind: SceneKind, variant: String? = nil, views: Int = 100, solver: SolverStrategy = .default,
    seed: UInt64 = 1, operations: Int? = 1000, seconds: Double? = nil, checkEvery: Int = 100
  ) {
    self.kind = kind
    self.variant = variant
    self.views = views
    self.solver = solver
    self.seed = seed
    self.operations = operations
    self.seconds = seconds
    self.checkEvery = checkEvery
    self.referenceLimit = 300
    self.tolerance = 1e-6
  }

  /// `KIND` or `KIND/VARIANT`, as `--scene` takes it.
  public var sceneName: String {
    guard let variant, variant != kind.variants[0] else { return kind.rawValue }
    return "\(kind.rawValue)/\(variant)"
  }

  /// The command that replays this run's first `operations` operations: with the same checks
  /// schedule, so a failure at step `operations` happens again at its end.
  public func commandLine(operations: Int) -> String {
    "bench stress --scene \(sceneName) --views \(views) --solver \(solver) --seed \(seed) "
      + "--operations \(max(operations, 1)) --check-every \(checkEvery)"
  }
}
