import Scenes

/// One group as shards divide a matrix: a scene variant measured by one solver in one mode, at
/// every size. A shard holds whole groups, because a group's budgets extrapolate from its
/// smaller sizes and a callgrind count depends on what ran before it in the process.
public struct ShardGroup: Hashable, Comparable, Sendable, CustomStringConvertible {
  public var scene: SceneKind
  public var variant: String
  /// The solver strategy's name.
  public var solver: String
  public var mode: Mode

  /// - Complexity: O(1).
  public init(scene: SceneKind, variant: String, solver: String, mode: Mode) {
    self.scene = scene
    self.variant = variant
    self.solver = solver
    self.mode = mode
  }

  /// The group a row belongs to.
  ///
  /// - Complexity: O(1).
  public init(_ row: ResultRow) {
    self.init(scene: row.scene, variant: row.variant, solver: row.solver.rawValue, mode: row.mode)
  }

  /// `scene/variant/solver/mode`.
  public var description: String { "\(scene.rawValue)/\(variant)/\(solver)/\(mode.rawValue)" }

  /// By the description, so that an order does not depend on a hash seed.
  public static func < (lhs: ShardGroup, rhs: ShardGroup) -> Bool {
    lhs.description < rhs.description
  }
}

/// The K-th of N shards of a matrix (`bench run --shard K/N`), K from 1.
public struct Shard: Hashable, Sendable, CustomStringConvertible {
  /// Which shard, from 1.
  public var index: Int
  /// How many shards.
  public var count: Int

  /// `K/N` with 1 ≤ K ≤ N, or nil.
  ///
  /// - Complexity: O(text length).
  public init?(_ text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
      count >= 1, index >= 1, index <= count
    else { return nil }
    self.index = index
    self.count = count
  }

  /// - Precondition: 1 ≤ `index` ≤ `count`.
  public init(index: Int, count: Int) {
    precondition(count >= 1 && index >= 1 && index <= count, "shard \(index)/\(count)")
    self.index = index
    self.count = count
  }

  /// `K/N`.
  public var description: String { "\(index)/\(count)" }
}

extension BenchmarkConfiguration {
  /// The matrix's groups in the order a run takes them (the first size's groups first).
  ///
  /// - Complexity: O(scenes × solvers × modes).
  public var shardGroups: [ShardGroup] {
    var groups: [ShardGroup] = []
    for (kind, variant) in scenes {
      for solver in solvers {
        for mode in modes {
          groups.append(ShardGroup(scene: kind, variant: variant, solver: solver.name, mode: mode))
        }
      }
    }
    return groups
  }

  /// The seconds each group of this matrix should take, from `rows` measured earlier (a
  /// committed baseline), as ``estimatedDuration(from:)`` counts them; a group the rows lack is
  /// given the mean of the known groups of its solver and mode (or of all known groups, or 1 s
  /// when none is known), so that every group has a weight.
  ///
  /// - Complexity: O(rows + groups).
  public func groupEstimates(from rows: [ResultRow]) -> [ShardGroup: Double] {
    let wanted = Set(shardGroups)
    let sizes = Set(self.sizes)
    let phases = Set(self.phases)
    var seconds: [ShardGroup: Double] = [:]
    for row in rows
    where row.status == .ok && phases.contains(row.phase) && sizes.contains(row.views) {
      let group = ShardGroup(row)
      guard wanted.contains(group) else { continue }
      let warmups =
        !row.phase.isOneShot
        ? warmup + warmup % 2 : row.note.contains("no warm-up") ? 0 : warmup
      seconds[group, default: 0] +=
        Double(row.medianNanoseconds ?? 0) * Double(row.repetitions + warmups) / 1e9
    }
    func mean(_ values: [Double]) -> Double? {
      values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }
    let overall = mean(Array(seconds.values)) ?? 1
    var estimates = seconds
    for group in shardGroups where seconds[group] == nil {
      let alike = seconds.filter { $0.key.solver == group.solver && $0.key.mode == group.mode }
      estimates[group] = mean(Array(alike.values)) ?? overall
    }
    return estimates
  }

  /// Which shard (from 1) runs each group, out of `count`: longest estimated group first, each
  /// to the shard with the least estimated time so far (the lowest index on a tie), so every
  /// group lands in exactly one shard, the same one in every run given the same estimates, and
  /// the shards' totals come out close.
  ///
  /// - Complexity: O(groups × (log groups + count)).
  public func shardAssignment(
    count: Int, estimates: [ShardGroup: Double]
  ) -> [ShardGroup: Int] {
    precondition(count >= 1, "at least one shard")
    let order = shardGroups.sorted {
      let (a, b) = (estimates[$0] ?? 0, estimates[$1] ?? 0)
      return a != b ? a > b : $0 < $1
    }
    var totals = Array(repeating: 0.0, count: count)
    var assignment: [ShardGroup: Int] = [:]
    for group in order {
      let lightest = totals.indices.min { totals[$0] < totals[$1] }!
      totals[lightest] += estimates[group] ?? 0
      assignment[group] = lightest + 1
    }
    return assignment
  }

  /// The matrix as one line without commas, the same for every shard of it: the scenes, sizes,
  /// solvers, modes, phases and how cells are measured. Written in every row (`matrix`), so
  /// that `bench merge` can tell shards of one matrix from those of another, and which groups
  /// the matrix has.
  ///
  /// - Complexity: O(matrix size).
  public var matrixDescription: String {
    [
      "scenes=" + scenes.map { "\($0.kind.rawValue)/\($0.variant)" }.joined(separator: " "),
      "sizes=" + sizes.map(String.init).joined(separator: " "),
      "solvers=" + solvers.map(\.name).joined(separator: " "),
      "modes=" + modes.map(\.rawValue).joined(separator: " "),
      "phases=" + phases.map(\.rawValue).joined(separator: " "),
      "seed=\(seed)", "repetitions=\(repetitions)", "warmup=\(warmup)",
      // Not the memory budget: by default half the machine's memory, which two machines of
      // one kind can report a few MiB apart (the machine column tells machines apart).
      "min-time=\(minimumTime)", "cell-budget=\(cellBudget)", "rounds=\(rounds)",
    ].joined(separator: ";")
  }

  /// The groups, sizes and phases a ``matrixDescription`` names, or nil when it is not one.
  ///
  /// - Complexity: O(description length).
  public static func groupsAndSizes(
    ofMatrix description: String
  ) -> (groups: [ShardGroup], sizes: [Int], phases: [Phase])? {
    var fields: [String: [String]] = [:]
    for part in description.split(separator: ";") {
      let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
      guard pair.count == 2 else { return nil }
      fields[pair[0]] = pair[1].split(separator: " ").map(String.init)
    }
    guard let scenes = fields["scenes"], let sizes = fields["sizes"],
      let solvers = fields["solvers"], let modes = fields["modes"]
    else { return nil }
    var groups: [ShardGroup] = []
    for scene in scenes {
      let parts = scene.split(separator: "/", maxSplits: 1).map(String.init)
      guard parts.count == 2, let kind = SceneKind(rawValue: parts[0]) else { return nil }
      for solver in solvers {
        for mode in modes {
          guard let mode = Mode(rawValue: mode) else { return nil }
          groups.append(ShardGroup(scene: kind, variant: parts[1], solver: solver, mode: mode))
        }
      }
    }
    let sizeValues = sizes.compactMap { Int($0) }
    let phases = (fields["phases"] ?? []).compactMap(Phase.init(rawValue:))
    guard sizeValues.count == sizes.count, phases.count == fields["phases"]?.count ?? 0 else {
      return nil
    }
    return (groups, sizeValues, phases)
  }
}
