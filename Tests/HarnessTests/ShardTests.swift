import Cassowary
import Foundation
import Harness
import Scenes
import Testing

/// The committed results file `name` (results/NAME), read from the repository these tests
/// were built from.
func committedResults(_ name: String) throws -> [ResultRow] {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  return try ResultsFile.load(root.appending(path: "results/\(name)").path)
}

/// `bench run --shard K/N`: which shard runs each group.
@Suite struct ShardAssignmentTests {
  static let matrices: [(String, BenchmarkConfiguration, String)] = [
    ("default", .standard, "baseline.csv"), ("quick", .quick, "baseline-quick.csv"),
  ]

  @Test(arguments: [1, 2, 3, 4, 7])
  func everyGroupRunsInExactlyOneShard(count: Int) throws {
    for (_, configuration, file) in Self.matrices {
      let estimates = configuration.groupEstimates(from: try committedResults(file))
      let assignment = configuration.shardAssignment(count: count, estimates: estimates)
      #expect(Set(assignment.keys) == Set(configuration.shardGroups))
      #expect(assignment.values.allSatisfy { (1...count).contains($0) })
      // The runner, narrowed to each shard in turn, covers every group once.
      var seen: [ShardGroup] = []
      for index in 1...count {
        var shard = configuration
        shard.onlyGroups = Set(assignment.filter { $0.value == index }.keys)
        seen += configuration.shardGroups.filter(shard.includes)
      }
      #expect(seen.count == configuration.shardGroups.count)
      #expect(Set(seen) == Set(configuration.shardGroups))
    }
  }

  @Test func theAssignmentIsStableAndIndependentOfTheEstimatesOrder() throws {
    let configuration = BenchmarkConfiguration.standard
    let estimates = configuration.groupEstimates(from: try committedResults("baseline.csv"))
    let first = configuration.shardAssignment(count: 3, estimates: estimates)
    // The same estimates built in another order (a dictionary's order follows its history).
    var shuffled: [ShardGroup: Double] = [:]
    for (group, seconds) in estimates.sorted(by: { $0.key > $1.key }) { shuffled[group] = seconds }
    #expect(configuration.shardAssignment(count: 3, estimates: shuffled) == first)
    // Equal weights (no baseline): still every group, deterministically.
    let equal = Dictionary(uniqueKeysWithValues: configuration.shardGroups.map { ($0, 1.0) })
    let a = configuration.shardAssignment(count: 3, estimates: equal)
    #expect(a == configuration.shardAssignment(count: 3, estimates: equal))
    #expect(Set(a.values) == [1, 2, 3])
  }

  @Test(arguments: [2, 3, 4])
  func shardsOfTheDefaultMatrixAreBalancedWithinAQuarter(count: Int) throws {
    let configuration = BenchmarkConfiguration.standard
    let estimates = configuration.groupEstimates(from: try committedResults("baseline.csv"))
    let assignment = configuration.shardAssignment(count: count, estimates: estimates)
    var shards = Array(repeating: (total: 0.0, groups: 0), count: count)
    for (group, shard) in assignment {
      shards[shard - 1].total += estimates[group]!
      shards[shard - 1].groups += 1
    }
    // A group is not split (its sizes run in order, the larger ones estimated from the
    // smaller): a shard holding one group longer than an even share cannot be lighter, so it
    // is set aside and the other shards share the rest.
    shards.sort { $0.total > $1.total }
    var share = shards.map(\.total).reduce(0, +) / Double(shards.count)
    while shards.count > 1, shards[0].groups == 1, shards[0].total > share {
      shards.removeFirst()
      share = shards.map(\.total).reduce(0, +) / Double(shards.count)
    }
    for shard in shards {
      #expect(
        abs(shard.total - share) <= 0.25 * share,
        "\(shards.map(\.total)) against \(share) each")
    }
  }

  @Test func aGroupTheBaselineLacksWeighsAsItsSolverAndModeDo() {
    let configuration = BenchmarkConfiguration(
      scenes: [(.form, "standard"), (.flat, "standard")], sizes: [100], solvers: [.sparse],
      modes: [.incremental], phases: [.build])
    var row = ResultRow()
    row.scene = .form
    row.views = 100
    row.phase = .build
    row.medianNanoseconds = 2_000_000_000
    row.repetitions = 1
    var configuration0 = configuration
    configuration0.warmup = 0
    let estimates = configuration0.groupEstimates(from: [row])
    let form = ShardGroup(scene: .form, variant: "standard", solver: "sparse", mode: .incremental)
    let flat = ShardGroup(scene: .flat, variant: "standard", solver: "sparse", mode: .incremental)
    #expect(estimates[form] == 2)
    #expect(estimates[flat] == 2)
  }

  @Test func theMatrixDescriptionNamesItsGroupsAndSizes() throws {
    let configuration = BenchmarkConfiguration.quick
    let description = configuration.matrixDescription
    #expect(!description.contains(","))
    let parsed = try #require(BenchmarkConfiguration.groupsAndSizes(ofMatrix: description))
    #expect(parsed.groups == configuration.shardGroups)
    #expect(parsed.sizes == configuration.sizes)
    #expect(BenchmarkConfiguration.groupsAndSizes(ofMatrix: "scenes=nosuch/x;sizes=1") == nil)
  }
}

/// `bench merge`: shards joined into one run, or refused with the reason.
@Suite struct ShardMergeTests {
  /// Rows of `configuration`'s groups at every size (one phase), as shard `shard` writes them.
  static func rows(
    _ configuration: BenchmarkConfiguration, groups: [ShardGroup], shard: String,
    commit: String = "abc1234"
  ) -> [ResultRow] {
    groups.flatMap { group in
      configuration.sizes.map { size in
        var row = ResultRow()
        row.runID = "run-\(shard)"
        row.commit = commit
        row.machine = "x86_64 2 cores 23 GiB"
        row.toolchain = "Swift 6.3"
        row.matrix = configuration.matrixDescription
        row.shard = shard
        row.scene = group.scene
        row.variant = group.variant
        row.views = size
        row.solver = ResultRow.Solver(rawValue: group.solver)!
        row.mode = group.mode
        row.phase = .build
        row.checksum = "c\(size)"
        row.allocatedBytes = 100
        return row
      }
    }
  }

  static let configuration = BenchmarkConfiguration(
    scenes: [(.form, "standard"), (.flat, "standard"), (.chain, "standard")], sizes: [50, 100],
    solvers: [.sparse, .dense], modes: [.incremental], phases: [.build])

  static func shards(_ count: Int) -> [(name: String, rows: [ResultRow])] {
    let groups = configuration.shardGroups
    let assignment = configuration.shardAssignment(
      count: count, estimates: Dictionary(uniqueKeysWithValues: groups.map { ($0, 1.0) }))
    return (1...count).map { index in
      (
        "s\(index).csv",
        rows(
          configuration, groups: groups.filter { assignment[$0] == index },
          shard: "\(index)/\(count)")
      )
    }
  }

  @Test func threeShardsMergeIntoTheUnshardedRunsOrder() {
    let merge = ShardMerge(files: Self.shards(3))
    #expect(merge.problems.isEmpty, "\(merge.problems)")
    let whole = Self.rows(Self.configuration, groups: Self.configuration.shardGroups, shard: "")
    // The order an unsharded run writes: scene by scene, size by size, solver and mode.
    var expected: [String] = []
    for (kind, variant) in Self.configuration.scenes {
      for size in Self.configuration.sizes {
        for solver in Self.configuration.solvers {
          expected.append("\(kind.rawValue)/\(variant)/\(size)/\(solver.name)/incremental/build")
        }
      }
    }
    #expect(merge.rows.map(\.key.description) == expected)
    #expect(Set(merge.rows.map(\.key)) == Set(whole.map(\.key)))
    #expect(merge.rows.allSatisfy { $0.shard == "" && $0.runID == "run-1/3" })
  }

  @Test func aMissingShardIsRefusedByItsGroups() {
    let merge = ShardMerge(files: Array(Self.shards(3).prefix(2)))
    #expect(merge.problems.count == 1)
    #expect(
      merge.problems[0].hasPrefix("no shard ran 2 group(s) of the matrix: "), "\(merge.problems)")
  }

  @Test func theSameCellTwiceIsRefused() {
    var files = Self.shards(2)
    files.append(("again.csv", files[0].rows))
    let merge = ShardMerge(files: files)
    #expect(
      merge.problems.contains { $0.contains("shard 1/2 is given twice: s1.csv and again.csv") })
    #expect(merge.problems.contains { $0.contains("cell(s) are in both s1.csv and again.csv") })
  }

  @Test(
    "Shards of different commits, machines, toolchains, matrices or counts are refused",
    arguments: ["commit", "machine", "toolchain", "matrix", "count"])
  func differentRunsAreRefused(field: String) {
    var files = Self.shards(2)
    for index in files[1].rows.indices {
      switch field {
      case "commit": files[1].rows[index].commit = "def5678"
      case "machine": files[1].rows[index].machine = "arm64 8 cores 16 GiB"
      case "toolchain": files[1].rows[index].toolchain = "Swift 6.2"
      case "matrix": files[1].rows[index].matrix += ";seed=2"
      default: files[1].rows[index].shard = "2/3"
      }
    }
    let merge = ShardMerge(files: files)
    let expected = field == "count" ? "different counts" : "the shards differ in \(field)"
    #expect(merge.problems.contains { $0.contains(expected) }, "\(merge.problems)")
    #expect(merge.rows.isEmpty)
  }

  @Test func aFileThatIsNotOneShardIsRefused() {
    var files = Self.shards(2)
    files[0].rows[0].commit = "other"
    #expect(ShardMerge(files: files).problems.contains { $0.contains("s1.csv is not one shard") })
    #expect(
      ShardMerge(files: [("empty.csv", [])]).problems == ["no file has a row: nothing to merge"])
  }
}

/// `bench compare --slope-tolerance`: the complexity gate.
@Suite struct ComplexityGateTests {
  /// One series measured at `sizes`, costing `cost(views)` instructions.
  static func series(_ sizes: [Int], _ cost: (Double) -> Double) -> [ResultRow] {
    sizes.map { size in
      var row = ResultRow()
      row.scene = .form
      row.views = size
      row.phase = .resize
      row.checksum = "c\(size)"
      row.allocatedBytes = 1000
      row.instructions = UInt64(cost(Double(size)).rounded())
      row.medianNanoseconds = 1000
      return row
    }
  }

  @Test func aCostThatTurnsQuadraticAtTheLargestSizeIsCaught() {
    // Both files measure 100 and 1,000 views, identically; the run also measured 10,000,
    // where its cost grew as n² from 1,000 (a cell the baseline lacks, so no percentage
    // judges it).
    let baseline = Self.series([100, 1000], { 5000 * $0 })
    let current = Self.series(
      [100, 1000, 10000], { $0 <= 1000 ? 5000 * $0 : 5000 * 1000 * pow($0 / 1000, 2) })
    var comparison = Comparison(baseline: baseline, current: current, timeThreshold: .infinity)
    // Every cell in both files is within the 1 % count tolerance.
    #expect(comparison.outcome(allowingSubset: true) == .unchanged)
    comparison.judgeSlopes(
      baseline: baseline, current: current, figure: .instructions, tolerance: 0.1)
    #expect(comparison.outcome(allowingSubset: true) == .regression)
    let finding = comparison.findings.first { $0.metric == .slope(.instructions) }
    #expect(finding?.key.description == "form/standard/sparse/incremental/resize")
    #expect(finding?.baseline == "1.00 (100 1000)")
    #expect(finding?.current == "2.00 (1000 10000)")
    #expect(comparison.markdown(allowingSubset: true).contains("slopes judged in 1 series"))
  }

  @Test func sizesOnlyTheBaselineMeasuredAreNoVerdict() {
    // A run of a subset of the baseline's sizes, with the same counts: nothing moved.
    let baseline = Self.series([100, 1000, 10000], { 5000 * $0 + 0.01 * $0 * $0 })
    let current = Array(baseline.prefix(2))
    var comparison = Comparison(baseline: baseline, current: current, timeThreshold: .infinity)
    comparison.judgeSlopes(
      baseline: baseline, current: current, figure: .instructions, tolerance: 0.1)
    #expect(comparison.outcome(allowingSubset: true) == .unchanged)
    #expect(comparison.slopesJudged == 1)
  }

  @Test func anUnchangedBuildPasses() {
    let rows = Self.series([100, 1000, 10000], { 5000 * $0 + 3 * $0 * log($0) })
    var comparison = Comparison(baseline: rows, current: rows, timeThreshold: .infinity)
    comparison.judgeSlopes(baseline: rows, current: rows, figure: .instructions, tolerance: 0.1)
    #expect(comparison.outcome() == .unchanged)
    #expect(comparison.slopesJudged == 1)
  }

  @Test func aSlopeOfTimeStandsOnlyWhereInstructionsBackIt() {
    let baseline = Self.series([100, 1000], { 1000 * $0 })
    var slower = baseline
    for index in slower.indices {
      slower[index].medianNanoseconds = UInt64(
        Double(slower[index].views) * 3 * (slower[index].views == 1000 ? 2 : 1))
    }
    var base = baseline
    for index in base.indices { base[index].medianNanoseconds = UInt64(base[index].views * 3) }
    var comparison = Comparison(baseline: base, current: slower, timeThreshold: .infinity)
    comparison.judgeSlopes(baseline: base, current: slower, figure: .medianTime, tolerance: 0.1)
    #expect(comparison.outcome() == .regression)
    // Same instructions on both builds: the slope of time is not a verdict.
    comparison.requireSlopeInstructionEvidence(baseline: base, current: base, tolerance: 0.1)
    #expect(comparison.outcome() == .unchanged)
    #expect(comparison.slopesWithoutInstructions.count == 1)
  }
}

/// `bench report`'s views a frame holds.
@Suite struct FrameBudgetTests {
  @Test func betweenTwoSizesAlongTheirSlope() throws {
    // 1 ms at 100 views, 100 ms at 1,000: slope 2, so 16.7 ms at 100 × √16.7 ≈ 408.
    let budget = try #require(
      FrameBudget.largestViews(
        fitting: FrameBudget.sixtyHertz, points: [(1000, 100e6), (100, 1e6)]))
    #expect(!budget.isExtrapolated)
    let views = try #require(budget.views)
    let expected: Double = 100 * (1e9 / 60 / 1e6).squareRoot()
    #expect(abs(views - expected) < 1e-6)
  }

  @Test func beyondTheLargestSizeItIsMarkedAsExtrapolated() throws {
    let linear = try #require(
      FrameBudget.largestViews(fitting: 10e6, points: [(100, 1e6), (1000, 2e6)]))
    #expect(linear.isExtrapolated)
    // Slope log(2)/log(10): 2 ms at 1,000 views reaches 10 ms at 1,000 × 5^(1/0.301).
    let views = try #require(linear.views)
    let expected: Double = 1000 * pow(5, 1 / log10(2))
    #expect(abs(views - expected) < 1e-3)
    let flat = try #require(
      FrameBudget.largestViews(fitting: 10e6, points: [(100, 1e6), (1000, 1e6)]))
    #expect(flat.views == nil)
    let below = try #require(
      FrameBudget.largestViews(fitting: 1e6, points: [(100, 10e6), (1000, 100e6)]))
    #expect(below.isExtrapolated)
    let belowViews = try #require(below.views)
    #expect(abs(belowViews - 10) < 1e-9)
    // Over the budget at every size, and not falling towards smaller ones: none fit.
    let none = try #require(
      FrameBudget.largestViews(fitting: 1e6, points: [(10, 20e6), (20, 18e6)]))
    #expect(none.views == 0)
  }
}
