import ArgumentParser
import AutoLayout
import Cassowary
import Harness
import Scenes

/// What a run measures: the matrix (`--quick` or the default, narrowed by scene, size, solver,
/// mode and phase) and how each cell repeats. Shared by `bench run` and `bench ab`.
struct MatrixOptions: ParsableArguments {
  @Option(
    help: """
      Scenes, comma-separated: KIND (every variant of it) or KIND/VARIANT (see `bench scenes`).
      """)
  var scenes: CommaSeparated<SceneChoice>?
  @Option(help: "View counts, comma-separated.")
  var sizes: CommaSeparated<ViewCount>?
  @Option(
    help:
      "Solver strategies, comma-separated (see `bench solvers`; default: \(SolverStrategy.exact.map(\.name).joined(separator: ",")))."
  )
  var solvers: CommaSeparated<SolverStrategy>?
  @Option(help: "incremental, full (comma-separated).")
  var modes: CommaSeparated<Mode>?
  @Option(
    help: "Phases, comma-separated: \(Phase.allCases.map(\.rawValue).joined(separator: ", ")).")
  var phases: CommaSeparated<Phase>?
  @Option(help: "Seed of the scenes' text lengths and positions.")
  var seed: UInt64 = 1
  @Option(help: "Minimum measured repetitions per cell.")
  var repetitions: Int?
  @Option(help: "Unmeasured repetitions before measuring.")
  var warmup: Int?
  @Option(name: .customLong("min-time"), help: "Minimum measured seconds per cell.")
  var minimumTime: Double?
  @Option(
    name: .customLong("cell-budget"),
    help: """
      Seconds a group may take, estimated from the smaller sizes: over it, the group runs \
      without its warm-up passes if one pass fits, else is skipped (default 30).
      """)
  var cellBudget: Double?
  @Option(
    name: .customLong("memory-budget"),
    help: """
      MiB a group's scene and solver may be estimated to need, from the bytes a view of the \
      largest size measured so far (16 KiB a view before any): over it, the group is skipped \
      (default: half the machine's memory).
      """)
  var memoryBudget: Int?
  @Option(
    help: """
      How many times the whole matrix runs; each cell's rounds are pooled, and the time gate \
      asks a change to show in every round (default 3 with --quick, else 1).
      """)
  var rounds: Int?
  @Flag(help: "The CI-sized matrix (about a minute).")
  var quick = false
  @Option(
    help: ArgumentHelp(
      "Run the K-th of N shards of the matrix: whole groups (a scene variant, a solver and a "
        + "mode, every size), balanced by the committed baseline's times; `bench merge` joins "
        + "the shards' files.",
      valueName: "K/N"))
  var shard: Shard?
  /// Set by a `--callgrind` run on the process it starts under valgrind: the shard's groups
  /// (`scene/variant/solver/mode`, comma-separated), so that the process under valgrind does not
  /// read the baseline to work them out (which would change its heap, and its counts).
  @Option(name: .customLong("only-groups"), help: .hidden)
  var onlyGroups: String?
  /// `CELLS=FACTOR`: stretches the times of every cell whose key (scene/variant/views/solver/
  /// mode/phase) contains CELLS by FACTOR, to check that the time gate catches a slowdown.
  @Option(name: .customLong("slow-down"), help: .hidden)
  var slowDown: String?

  /// Whether these options narrow or change the matrix (anything but `--quick` alone).
  var isAdHoc: Bool {
    scenes != nil || sizes != nil || solvers != nil || modes != nil || phases != nil
      || seed != 1 || repetitions != nil || warmup != nil || minimumTime != nil
      || cellBudget != nil || memoryBudget != nil || rounds != nil || slowDown != nil
      || shard != nil
  }

  /// The committed baseline of this matrix (the quick one's for `--quick`), whose times weigh
  /// the groups for sharding and the run's estimate.
  var baselinePath: String {
    packagePath(quick ? "results/baseline-quick.csv" : "results/baseline.csv")
  }

  /// The configuration these options describe: the quick or the default matrix, narrowed.
  func configuration() throws -> BenchmarkConfiguration {
    var configuration = quick ? BenchmarkConfiguration.quick : BenchmarkConfiguration.standard
    if let scenes {
      var chosen: [(kind: SceneKind, variant: String)] = []
      for choice in scenes.elements {
        for variant in choice.variants
        where !chosen.contains(where: { $0.kind == choice.kind && $0.variant == variant }) {
          chosen.append((choice.kind, variant))
        }
      }
      configuration.scenes = chosen
    }
    if let sizes { configuration.sizes = sizes.elements.map(\.count) }
    if let solvers {
      if let missing = solvers.elements.first(where: { !$0.isAvailable }) {
        throw UsageError(
          message: "solver \(missing.name) is unavailable: \(missing.unavailableReason ?? "")")
      }
      configuration.solvers = solvers.elements
    }
    if let modes { configuration.modes = modes.elements }
    if let phases { configuration.phases = phases.elements }
    configuration.seed = seed
    if let repetitions {
      guard repetitions >= 1 else { throw UsageError(message: "--repetitions must be at least 1") }
      configuration.repetitions = repetitions
    }
    if let warmup {
      guard warmup >= 0 else { throw UsageError(message: "--warmup cannot be negative") }
      configuration.warmup = warmup
    }
    if let minimumTime { configuration.minimumTime = max(0, minimumTime) }
    if let cellBudget { configuration.cellBudget = cellBudget }
    if let rounds {
      guard rounds >= 1 else { throw UsageError(message: "--rounds must be at least 1") }
      configuration.rounds = rounds
    }
    if let slowDown {
      let parts = slowDown.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, !parts[0].isEmpty, let factor = Double(parts[1]), factor >= 1 else {
        throw UsageError(message: "--slow-down takes CELLS=FACTOR, FACTOR at least 1")
      }
      configuration.slowdown = (parts[0], factor)
    }
    if let memoryBudget {
      guard memoryBudget > 0 else { throw UsageError(message: "--memory-budget must be positive") }
      configuration.memoryBudget = memoryBudget << 20
    }
    if let onlyGroups {
      let wanted = Set(onlyGroups.split(separator: ",").map(String.init))
      configuration.onlyGroups = Set(
        configuration.shardGroups.filter { wanted.contains($0.description) })
    } else if let shard {
      // Without the baseline every group weighs the same; either way every shard of one
      // commit computes the same assignment.
      let rows = (try? ResultsFile.load(baselinePath)) ?? []
      let assignment = configuration.shardAssignment(
        count: shard.count, estimates: configuration.groupEstimates(from: rows))
      configuration.onlyGroups = Set(assignment.filter { $0.value == shard.index }.keys)
      guard configuration.onlyGroups?.isEmpty == false else {
        throw UsageError(
          message: "shard \(shard) gets no group: the matrix has \(assignment.count) group(s); "
            + "use at most \(assignment.count) shards")
      }
    }
    return configuration
  }
}

extension Shard: ExpressibleByArgument {
  public init?(argument: String) { self.init(argument) }
}

/// A command-line value bench refuses, with the message to print (exit 64).
struct UsageError: Error { var message: String }
