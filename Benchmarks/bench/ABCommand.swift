import ArgumentParser
import Foundation
import Harness

extension TimeCorroboration: ExpressibleByArgument {}

/// `bench ab BASELINE CURRENT`: two builds of `bench` measured in the same window, group by
/// group in alternating order, then compared as `bench compare` does.
struct AB: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ab",
    abstract: "Measure two builds interleaved and compare them; exit as `bench compare`.",
    discussion: """
      For each round and each group of the matrix (a scene or variant, a solver and a mode, at \
      every size), runs `BASELINE run` and `CURRENT run` on that group one after the other, \
      alternating which goes first from round to round. Load on a shared machine changes over \
      minutes; two builds measured seconds apart see the same load, so the drift cancels where \
      a comparison of files measured at different times would take it for a change.

      Each round's samples are pooled per cell (ResultRow pooling: deterministic figures from \
      the first round, and a cell whose checksum differs between rounds is an error). The \
      pooled runs are written to --output-directory as baseline.csv and current.csv, and \
      compared: exit 0 unchanged, 1 a regression, 4 improvements only, 2 when they cannot be \
      compared (see `bench compare --help`).

      A cell judged slower or faster is measured again before the verdict stands: its group \
      runs --confirm-rounds more rounds on both builds, and the cells are judged on all their \
      rounds. A burst of load that lined up with one build's rounds does not line up again; a \
      real change shows in every round.

      A time verdict that held must then be backed by the work (--corroborate instructions, \
      the default): the groups of those cells run once more on both builds under valgrind's \
      callgrind (`run --callgrind`), and a time verdict stands only where the cell's \
      instruction count moved the same way by more than 1 %. On a shared machine one build's \
      processes can run a group 1.3 to 1.7 times slower than the other's, in rounds seconds \
      apart, often enough that more rounds did not tell it from a change; the instructions a \
      cell executes do not move with it. Time changes the instructions do not back are listed \
      in the report, not judged. --corroborate none judges time alone, for a quiet machine.

      Each binary runs in the package that holds it (found by walking up from its path to a \
      Package.swift), so that its rows name its own commit.
      """ + "\n\n" + ExitStatus.table)

  @Argument(help: "The baseline build of bench.")
  var baseline: String
  @Argument(help: "The build of bench to check.")
  var current: String
  @OptionGroup var matrix: MatrixOptions
  @Option(
    name: .customLong("output-directory"),
    help: """
      Where to write baseline.csv, current.csv and comparison.md (default: results/ab in \
      bench's package).
      """)
  var outputDirectory: String?
  @Option(name: .customLong("time-threshold"), help: "Allowed growth of a median time.")
  var timeThreshold = 0.10
  @Option(help: "The U test's significance level for a time verdict.")
  var significance = 0.01
  @Option(
    name: .customLong("confirm-rounds"),
    help: """
      Rounds to measure again the groups of any cell whose time was judged slower or faster, \
      judging them on all their rounds (0: judge once).
      """)
  var confirmRounds = 3
  @Option(
    help: """
      What a time verdict must be backed by: instructions (the cell's instruction count under \
      callgrind moved the same way; needs valgrind) or none (time alone).
      """)
  var corroborate = TimeCorroboration.instructions
  @Option(
    name: .customLong("slope-tolerance"),
    help: ArgumentHelp(
      "The complexity gate: a series' log-log slope of median time (both builds measured in "
        + "this run) may exceed the baseline build's by this much; backed by the slope of "
        + "instructions under --corroborate instructions; `off` to leave it out.",
      valueName: "T"))
  var slopeTolerance = SlopeTolerance.value(0.1)
  @Flag(help: "Also list the figures that changed without being judged.")
  var verbose = false
  @Flag(help: "No progress lines.")
  var quiet = false

  func validate() throws {
    guard confirmRounds >= 0 else { throw ValidationError("--confirm-rounds cannot be negative") }
    if case .value(let tolerance) = slopeTolerance, !(tolerance >= 0) {
      throw ValidationError("--slope-tolerance must be a number at least 0, or off")
    }
    guard timeThreshold >= 0 else { throw ValidationError("--time-threshold cannot be negative") }
    guard significance > 0 && significance < 1 else {
      throw ValidationError("--significance must lie between 0 and 1")
    }
    for binary in [baseline, current] where !FileManager.default.isExecutableFile(atPath: binary) {
      throw ValidationError("\(binary) is not an executable file")
    }
    if corroborate == .instructions && CallgrindRun.executable(named: "valgrind") == nil {
      throw ValidationError(
        "--corroborate instructions needs valgrind, which is not on the PATH: apt-get install "
          + "-y valgrind, or pass --corroborate none to judge time alone")
    }
  }

  func run() throws {
    let configuration: BenchmarkConfiguration
    do {
      configuration = try matrix.configuration()
    } catch let error as UsageError {
      printError("bench ab: \(error.message)")
      throw ExitCode(64)
    }
    // Each child runs one round; the rounds alternate here. Three at least: the time gate asks
    // a change to show in every round.
    let rounds = matrix.rounds ?? max(3, configuration.rounds)
    let directory = URL(fileURLWithPath: outputDirectory ?? packagePath("results/ab"))
      .standardizedFileURL.path
    let scratch = directory + "/rounds"
    do {
      for name in ["baseline.csv", "current.csv", "comparison.md", "rounds/child.csv"] {
        try OutputFile.prepare(directory + "/" + name)
      }
    } catch {
      throw BenchFailure("bench ab: --output-directory", error)
    }
    // The rounds' files are scratch, whichever way the command ends; between children this
    // process reads and writes files of its own, so a signal is checked for.
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    Interrupts.deferExit()
    var groups: [[String]] = []
    var groupIndex: [String: Int] = [:]
    for (kind, variant) in configuration.scenes {
      for solver in configuration.solvers {
        for mode in configuration.modes {
          let group = ShardGroup(scene: kind, variant: variant, solver: solver.name, mode: mode)
          guard configuration.includes(group) else { continue }
          groupIndex[group.description] = groups.count
          groups.append([
            "--scenes", "\(kind.rawValue)/\(variant)", "--solvers", solver.name, "--modes",
            mode.rawValue,
          ])
        }
      }
    }
    let sides = [("baseline", baseline), ("current", current)]
    // Each side's rounds of each group, in the order measured.
    var measured: [[[[ResultRow]]]] = Array(
      repeating: Array(repeating: [], count: groups.count), count: 2)
    let start = Date()
    func measure(_ chosen: [Int], rounds: Int, label: String) throws {
      for round in 0..<rounds {
        for (position, index) in chosen.enumerated() {
          let group = groups[index]
          if !quiet {
            let elapsed = Int(Date().timeIntervalSince(start))
            printError(
              "ab: \(label)round \(round + 1)/\(rounds), group \(position + 1)/\(chosen.count) "
                + "(\(group[1]) \(group[3]) \(group[5])), \(elapsed) s")
          }
          // Alternate which build goes first, so that neither always runs on a machine the
          // other has just warmed (or heated).
          let done = measured[0][index].count
          let order = (done + position) % 2 == 0 ? [0, 1] : [1, 0]
          for side in order {
            let path = "\(scratch)/\(sides[side].0)-\(done)-\(index).csv"
            var arguments = ["run"] + group + Self.cellArguments(configuration)
            if side == 1, let slowDown = matrix.slowDown { arguments += ["--slow-down", slowDown] }
            arguments += ["--output", path, "--quiet"]
            try runChild(sides[side].1, arguments, log: path + ".log")
            measured[side][index].append(try load(path))
          }
        }
      }
    }
    func compare() -> (Comparison, [[ResultRow]]) {
      let pooled = measured.map { side in
        let most = side.map(\.count).max() ?? 0
        return ResultRow.pooling(
          rounds: (0..<most).map { round in
            side.flatMap { rounds in round < rounds.count ? rounds[round] : [] }
          })
      }
      return (comparing(pooled), pooled)
    }
    /// The two sides' pooled rows compared: times cell by cell, and slopes of time.
    func comparing(_ pooled: [[ResultRow]]) -> Comparison {
      var comparison = Comparison(
        baseline: pooled[0], current: pooled[1], timeThreshold: timeThreshold,
        significance: significance, strictness: .allButOneRound)
      // Both builds were measured in the same window, so their slopes of time compare.
      if case .value(let tolerance) = slopeTolerance {
        comparison.judgeSlopes(
          baseline: pooled[0], current: pooled[1], figure: .medianTime, tolerance: tolerance,
          minimumSpan: Self.minimumTimeSlopeSpan)
      }
      return comparison
    }
    /// The slope-of-time findings that are verdicts.
    func slopeVerdicts(_ comparison: Comparison) -> [Comparison.Finding] {
      comparison.findings.filter { $0.metric == .slope(.medianTime) && $0.verdict != .changed }
    }
    /// The index of the group that measures a cell or a series.
    func group(of subject: Comparison.Subject) -> Int? {
      groupIndex[subject.group.description]
    }
    var comparison: Comparison
    do {
      try measure(Array(groups.indices), rounds: rounds, label: "")
      var pooled: [[ResultRow]]
      (comparison, pooled) = compare()
      // A time verdict is measured again: its groups run for as many more rounds, and every
      // cell of them is judged on all the rounds. A burst of load that happened to line up with
      // one build's rounds does not line up again; a real change shows in every round.
      let judged = Set(
        comparison.findings.filter { $0.metric == .metric(.medianTime) && $0.verdict != .changed }
          .compactMap { group(of: $0.key) }
      ).union(slopeVerdicts(comparison).compactMap { group(of: $0.key) })
      var confirmation = ""
      if confirmRounds > 0 && !judged.isEmpty {
        try measure(judged.sorted(), rounds: confirmRounds, label: "confirming: ")
        let first = comparison.findings.filter {
          $0.metric == .metric(.medianTime) && $0.verdict != .changed
        }
        (comparison, pooled) = compare()
        let kept = comparison.findings.filter {
          $0.metric == .metric(.medianTime) && $0.verdict != .changed
        }
        confirmation =
          "\nTime verdicts measured again: \(first.count) cell(s) in \(judged.count) group(s) ran "
          + "\(confirmRounds) more round(s); \(kept.count) verdict(s) held on all the rounds.\n"
      }
      let timeVerdicts = comparison.findings.filter {
        $0.metric == .metric(.medianTime) && $0.verdict != .changed
      }
      let slopes = slopeVerdicts(comparison)
      if corroborate == .instructions && !(timeVerdicts.isEmpty && slopes.isEmpty) {
        // The cells' groups once more on both builds, under callgrind; only the judged cells'
        // counts are kept, so that the instructions back time verdicts and are not judged on
        // their own (the quick matrix's instructions are not a baseline anyone measured). A
        // slope's series is counted at every size, in copies of the rows used for it alone.
        let cells = Set(
          timeVerdicts.compactMap { finding -> CellKey? in
            if case .cell(let key) = finding.key { key } else { nil }
          })
        let slopeSeries = Set(slopes.map(\.key))
        let slopeCells = Set(
          pooled[1].filter { slopeSeries.contains(.series($0.seriesKey)) }.map(\.key))
        let counted = Set(
          timeVerdicts.compactMap { group(of: $0.key) } + slopes.compactMap { group(of: $0.key) }
        ).sorted()
        var counts: [[CellKey: UInt64]] = [[:], [:]]
        for (position, index) in counted.enumerated() {
          for side in [0, 1] {
            if !quiet {
              printError(
                "ab: counting instructions, group \(position + 1)/\(counted.count) "
                  + "(\(groups[index][1]) \(groups[index][3]) \(groups[index][5])), "
                  + "\(sides[side].0), \(Int(Date().timeIntervalSince(start))) s")
            }
            let path = "\(scratch)/\(sides[side].0)-instructions-\(index).csv"
            let arguments =
              ["run"] + groups[index] + Self.cellArguments(configuration)
              + ["--callgrind", "--output", path, "--quiet"]
            try runChild(sides[side].1, arguments, log: path + ".log")
            for row in try load(path)
            where cells.contains(row.key) || slopeCells.contains(row.key) {
              counts[side][row.key] = row.instructions
            }
          }
        }
        var slopeRows = pooled
        for side in [0, 1] {
          for index in pooled[side].indices {
            let key = pooled[side][index].key
            guard let count = counts[side][key] else { continue }
            if cells.contains(key) { pooled[side][index].instructions = count }
            if slopeCells.contains(key) { slopeRows[side][index].instructions = count }
          }
        }
        comparison = comparing(pooled)
        if case .value(let tolerance) = slopeTolerance {
          comparison.requireSlopeInstructionEvidence(
            baseline: slopeRows[0], current: slopeRows[1], tolerance: tolerance)
        }
        comparison.requireInstructionEvidence(
          counted: Set(counts[0].keys).intersection(counts[1].keys))
        let backed = timeVerdicts.count - comparison.timeWithoutInstructions.count
        let backedSlopes = slopes.count - comparison.slopesWithoutInstructions.count
        let slopeNote = slopes.isEmpty ? "" : "; slope verdicts: \(backedSlopes) of \(slopes.count)"
        confirmation +=
          "\nTime verdicts backed by instruction counts (callgrind, \(counted.count) group(s) on "
          + "both builds): \(backed) of \(timeVerdicts.count)\(slopeNote).\n"
      }
      try Interrupts.check()
      try OutputFile.write(ResultsFile.text(pooled[0]), to: directory + "/baseline.csv")
      try OutputFile.write(ResultsFile.text(pooled[1]), to: directory + "/current.csv")
      let report = comparison.markdown(verbose: verbose) + confirmation
      printOutput(report, terminator: "")
      try OutputFile.write(report, to: directory + "/comparison.md")
    } catch let interruption as Interruption {
      // Every round finished so far, pooled, in .partial files.
      let (_, pooled) = compare()
      try? OutputFile.write(ResultsFile.text(pooled[0]), to: directory + "/baseline.csv.partial")
      try? OutputFile.write(ResultsFile.text(pooled[1]), to: directory + "/current.csv.partial")
      throw interruption.failure(
        "the rounds measured so far are in \(directory)/baseline.csv.partial and "
          + "\(directory)/current.csv.partial")
    } catch let error as OutputFileError {
      throw BenchFailure("bench ab", error)
    }
    switch comparison.outcome() {
    case .unchanged: return
    case .regression: throw ExitCode(ExitStatus.failed.rawValue)
    case .improvementsOnly: throw ExitCode(ExitStatus.improvementsOnly.rawValue)
    case .unusable(let problems):
      for problem in problems.prefix(10) { printError("bench ab: \(problem)") }
      throw ExitCode(ExitStatus.badInput.rawValue)
    }
  }

  /// The least span of sizes (largest over smallest) over which a slope of time is judged:
  /// a decade. Over the quick matrix's 50 and 100 views, the noise of two medians alone moves
  /// a slope past the tolerance.
  static let minimumTimeSlopeSpan = 10.0

  /// How `configuration` measures each cell, spelled out as `bench run` options that builds
  /// before `--rounds` and `--quick`'s present meaning understand, for one round.
  static func cellArguments(_ configuration: BenchmarkConfiguration) -> [String] {
    [
      "--sizes", configuration.sizes.map(String.init).joined(separator: ","),
      "--phases", configuration.phases.map(\.rawValue).joined(separator: ","),
      "--seed", String(configuration.seed),
      "--repetitions", String(configuration.repetitions),
      "--warmup", String(configuration.warmup),
      "--min-time", String(configuration.minimumTime),
      "--cell-budget", String(configuration.cellBudget),
      "--memory-budget", String(configuration.memoryBudget >> 20),
    ]
  }

  /// Runs `binary` with `arguments` in its package's directory; its output is kept only to
  /// show when it fails, which ends the run with exit status 2.
  private func runChild(_ binary: String, _ arguments: [String], log: String) throws {
    let process = Process()
    let url = URL(fileURLWithPath: binary).standardizedFileURL
    process.executableURL = url
    process.arguments = arguments
    process.currentDirectoryURL = packageDirectory(of: url)
    process.standardOutput = FileHandle.nullDevice
    try OutputFile.write("", to: log)
    let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    defer { try? errors.close() }
    process.standardError = errors
    do {
      try Interrupts.run(process)
    } catch let failure as ChildStartFailure {
      throw BenchFailure(.badInput, "bench ab: \(failure)")
    }
    guard process.terminationStatus == 0 else {
      printError(
        "bench ab: \(binary) \(arguments.joined(separator: " ")) exited "
          + "\(process.terminationStatus):")
      if let data = FileManager.default.contents(atPath: log) {
        printError(String(decoding: data.suffix(4000), as: UTF8.self))
      }
      // A child that could not write its files is an I/O failure here too.
      throw ExitCode(
        process.terminationStatus == ExitStatus.ioFailure.rawValue
          ? ExitStatus.ioFailure.rawValue : ExitStatus.badInput.rawValue)
    }
  }

  private func load(_ path: String) throws -> [ResultRow] {
    do {
      return try ResultsFile.load(path)
    } catch {
      throw BenchFailure(.badInput, "bench ab: a child's rows: \(error)")
    }
  }
}
