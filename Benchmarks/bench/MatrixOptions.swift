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
  var scenes: String?
  @Option(help: "View counts, comma-separated.")
  var sizes: String?
  @Option(
    help:
      "Solver strategies, comma-separated (see `bench solvers`; default: \(SolverStrategy.exact.map(\.name).joined(separator: ",")))."
  )
  var solvers: String?
  @Option(help: "incremental, full (comma-separated).")
  var modes: String?
  @Option(
    help: "Phases, comma-separated: \(Phase.allCases.map(\.rawValue).joined(separator: ", ")).")
  var phases: String?
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

  private func list<Value>(
    _ text: String?, _ what: String, valid: [String], parse: (String) -> Value?
  ) throws -> [Value]? {
    guard let text else { return nil }
    var values: [Value] = []
    for item in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
      guard let value = parse(item) else {
        let suggestion = closestMatch(to: item, in: valid).map { " (did you mean '\($0)'?)" }
        throw UsageError(
          message: "unknown \(what) '\(item)'\(suggestion ?? ""); valid: "
            + valid.joined(separator: ", "))
      }
      values.append(value)
    }
    guard !values.isEmpty else { throw UsageError(message: "no \(what) given") }
    return values
  }

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
    let sceneNames = SceneKind.allCases.flatMap { kind in
      [kind.rawValue]
        + (kind.variants.count > 1 ? kind.variants.map { "\(kind.rawValue)/\($0)" } : [])
    }
    if let scenes = try list(
      scenes, "scene", valid: sceneNames,
      parse: { item -> [(kind: SceneKind, variant: String)]? in
        let parts = item.split(separator: "/", maxSplits: 1).map(String.init)
        guard let kind = SceneKind(rawValue: parts[0]) else { return nil }
        // A kind alone means every variant of it, as `bench scenes` lists them.
        guard parts.count > 1 else { return kind.variants.map { (kind, $0) } }
        return kind.variants.contains(parts[1]) ? [(kind, parts[1])] : nil
      })
    {
      var chosen: [(kind: SceneKind, variant: String)] = []
      for scene in scenes.joined()
      where !chosen.contains(where: { $0.kind == scene.kind && $0.variant == scene.variant }) {
        chosen.append(scene)
      }
      configuration.scenes = chosen
    }
    if let sizes = try list(
      sizes, "size", valid: ["positive whole numbers"],
      parse: { Int($0).flatMap { $0 > 0 ? $0 : nil } })
    {
      configuration.sizes = sizes
    }
    if let solvers = try list(
      solvers, "solver", valid: SolverStrategy.all.map(\.name),
      parse: SolverStrategy.named)
    {
      if let missing = solvers.first(where: { !$0.isAvailable }) {
        throw UsageError(
          message: "solver \(missing.name) is unavailable: \(missing.unavailableReason ?? "")")
      }
      configuration.solvers = solvers
    }
    if let modes = try list(
      modes, "mode", valid: Mode.allCases.map(\.rawValue), parse: Mode.init(rawValue:))
    {
      configuration.modes = modes
    }
    if let phases = try list(
      phases, "phase", valid: Phase.allCases.map(\.rawValue), parse: Phase.init(rawValue:))
    {
      configuration.phases = phases
    }
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

/// The entry of `candidates` nearest `text` by edit distance, if it is near enough to be what
/// was meant (at most a third of its length, and 3, away).
func closestMatch(to text: String, in candidates: [String]) -> String? {
  func distance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1] + Array(repeating: 0, count: b.count)
      for (j, y) in b.enumerated() {
        current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
  let scored = candidates.map { ($0, distance(Array(text.lowercased()), Array($0))) }
  guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
  return best.1 <= min(3, max(1, text.count / 3)) ? best.0 : nil
}
