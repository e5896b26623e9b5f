import ArgumentParser
import AutoLayout
import Foundation
import Harness
import Scenes

extension Phase: ExpressibleByArgument {}

/// What `bench run` prints on standard output.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
  /// A table of the rows and the slopes.
  case markdown
  /// The CSV, as written to the file.
  case csv
  /// The run as one JSON document (``ResultsDocument``).
  case json
}
extension Mode: ExpressibleByArgument {}

/// `bench run` (the default): the benchmark matrix, as CSV, a table and scaling slopes.
struct Run: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run the benchmark matrix (the default subcommand).",
    discussion: """
      Scenes x sizes x solvers x modes x phases. Each cell: warm-up, then repetitions until both \
      --repetitions and --min-time are reached; median, min, p90 and max on the monotonic clock; \
      allocations, bytes allocated, bytes retained and the peak from jemalloc; a checksum of \
      every frame. Rows go to --output through a .partial file renamed when the run completes \
      (Ctrl-C keeps the rows measured so far in the .partial file).

      --callgrind runs the matrix again under valgrind's callgrind, each group (a scene or \
      variant, a solver and a mode, at every size) in a process of its own, with \
      instrumentation on only inside each phase, and fills the instructions column: the instructions of one measured \
      repetition per cell, a figure that repeats exactly where times are noisy. Its rows have \
      no times (valgrind's are not comparable) and one repetition; --cell-budget is multiplied by \
      50 (valgrind's slowdown); the dump files stay in .build/callgrind/RUN-ID/ for \
      callgrind_annotate. Needs valgrind (apt-get install -y \
      valgrind) installed when bench is built and run.
      """ + "\n\n" + ExitStatus.table)

  @OptionGroup var matrix: MatrixOptions
  @Option(
    help: """
      Where to write the CSV (default: results/latest.csv for the default matrix, \
      results/latest-quick.csv with --quick alone, else results/run-TIME.csv, so that an ad-hoc \
      run does not overwrite the latest full one). A path ending in .jsonl gets JSON Lines, one \
      row a line with the CSV's field names, as a run's rounds and callgrind's process hand \
      their rows back.
      """)
  var output: String?
  @Option(help: "What to print on standard output.")
  var format = OutputFormat.markdown
  @Flag(help: "No progress lines.")
  var quiet = false
  @Flag(help: "Count each phase's instructions under valgrind's callgrind (no times).")
  var callgrind = false
  @Option(
    name: .customLong("heap-snapshots"),
    help: ArgumentHelp(
      "Under valgrind --tool=massif, write a heap snapshot after each cell's first layout to DIR "
        + "(scripts/module-costs reads them).", valueName: "DIR"))
  var heapSnapshots: String?
  /// Set by a `--callgrind` run on the process it starts under valgrind: where that process
  /// writes its rows, whose instructions the parent then fills in from the dump files.
  @Option(name: .customLong("callgrind-rows"), help: .hidden)
  var callgrindRows: String?
  /// Set by a run of several rounds on the process it starts for each: `ROUND/ROUNDS`, for its
  /// progress lines. Such a process writes only its CSV.
  @Option(name: .customLong("round-of"), help: .hidden)
  var roundOf: String?

  mutating func run() throws {
    ensureDeterministicHashing()
    var configuration: BenchmarkConfiguration
    do {
      configuration = try matrix.configuration()
    } catch let error as UsageError {
      printError("bench run: \(error.message)")
      throw ExitCode(64)
    }
    if let heapSnapshots {
      // Rounds run in processes of their own, which valgrind would not follow.
      guard Callgrind.isRunning, !callgrind else {
        printError(
          "bench run: --heap-snapshots needs the run to be under valgrind --tool=massif, "
            + "without --callgrind")
        throw ExitCode(64)
      }
      // Made now: massif writes the snapshots where nothing reports a failure.
      do {
        try OutputFile.prepare(heapSnapshots + "/" + "snapshot.massif")
      } catch {
        throw BenchFailure("bench run: --heap-snapshots", error)
      }
      configuration.heapSnapshotDirectory = heapSnapshots
      configuration.rounds = 1
    }
    let output = output ?? defaultOutput()
    if callgrindRows == nil && roundOf == nil {
      // Every file the run will write is checked before anything is measured.
      do {
        try OutputFile.prepare(output)
        try OutputFile.prepare(ScalingTable.path(forResults: output))
        try OutputFile.checkFolder(Self.plotsDirectory(forResults: output))
      } catch {
        throw BenchFailure("bench run: --output", error)
      }
    }
    // The process under valgrind gets no context of its own: reading the commit starts `git` in
    // child processes, and the threads that watch them allocate while the main thread does, in
    // an order that changes from run to run, so the heap and then the instruction counts of the
    // runtime's pointer-keyed caches did too (by 1 % in a debug build). Its parent sets the rows'.
    var context =
      callgrindRows == nil
      ? RunContext.current()
      : RunContext(runID: "", timestamp: "", commit: "unknown", machine: "")
    // Every shard, and every round's process, names the matrix as the whole run has it.
    var described = configuration
    if let total = roundOf?.split(separator: "/").last.flatMap({ Int($0) }) {
      described.rounds = total
    }
    context.matrix = described.matrixDescription
    context.shard = matrix.shard?.description ?? ""
    let rows: [ResultRow]
    switch (callgrind, callgrindRows) {
    case (false, nil):
      rows = try measure(configuration, context, output: output)
    case (true, nil):
      let (scenes, solvers, modes) = (
        configuration.scenes, configuration.solvers.map(\.name), configuration.modes
      )
      let sizes = configuration.sizes
      rows = try CallgrindRun(
        context: context, output: output,
        groups: configuration.shardGroups.filter(configuration.includes),
        order: { row in
          [
            scenes.firstIndex { $0.0 == row.scene && $0.1 == row.variant } ?? 0,
            sizes.firstIndex(of: row.views) ?? 0,
            solvers.firstIndex(of: row.solver.rawValue) ?? 0,
            modes.firstIndex(of: row.mode) ?? 0,
          ]
        }
      ).run()
    case (true, let path?):
      // The process a --callgrind run starts under valgrind.
      guard Callgrind.isRunning else {
        printError("bench run: --callgrind-rows is for the process bench starts under valgrind")
        throw ExitCode(64)
      }
      configuration.countsInstructions = true
      configuration.repetitions = 1
      configuration.rounds = 1
      configuration.minimumTime = 0
      // Everything runs several times slower under valgrind (even uninstrumented): the budget
      // that skips a slow group grows to match, so the same groups run as natively.
      configuration.cellBudget *= CallgrindRun.slowdown
      _ = try measure(configuration, context, output: path)
      return
    case (false, _?):
      printError("bench run: --callgrind-rows needs --callgrind")
      throw ExitCode(64)
    }
    if roundOf != nil { return }
    let slopes = ScalingTable(rows)
    let plots: [String]
    do {
      try OutputFile.write(slopes.csv, to: ScalingTable.path(forResults: output))
      plots = try writePlots(rows, output: output)
    } catch {
      throw BenchFailure("bench run", error)
    }
    switch format {
    case .csv: printOutput(ResultsFile.text(rows), terminator: "")
    case .json:
      let document = ResultsDocument(
        context: ResultsDocument.Context(
          runID: context.runID, timestamp: context.timestamp, commit: context.commit,
          machine: context.machine, toolchain: ResultsDocument.toolchain,
          jemalloc: AllocatorStatistics.version, options: ResultsDocument.Options(configuration)),
        rows: rows, slopes: slopes.documentSlopes)
      printOutput(try document.jsonText())
    case .markdown:
      printOutput(markdownTable(rows))
      printOutput(slopes.markdown)
    }
    printError(
      "wrote \(output) (\(rows.count) rows), \(ScalingTable.path(forResults: output)) and "
        + "\(plots.count) plots in \(Self.plotsDirectory(forResults: output))/")
  }

  /// The plan's estimated duration, from the committed baseline of the matrix (the quick one's
  /// for `--quick`): "; about 9 min by the medians of results/baseline.csv", with the groups it
  /// does not know; "" without the file.
  private func estimate(_ configuration: BenchmarkConfiguration) -> String {
    let path = matrix.baselinePath
    guard let rows = try? ResultsFile.load(path) else { return "" }
    let (seconds, missing) = configuration.estimatedDuration(from: rows)
    guard missing < configuration.groupCount else { return "" }
    let minutes = Int((seconds / 60).rounded())
    let time = minutes >= 1 ? "about \(minutes) min" : "about \(Int(seconds.rounded())) s"
    return "; \(time) by the medians of \(path) (measured on its machine)"
      + (missing > 0 ? ", not counting \(missing) groups it lacks" : "")
  }

  /// Where a run writes its CSV without `--output`: results/latest.csv for the default
  /// matrix, results/latest-quick.csv for `--quick`, a file named by the time otherwise; in
  /// the package bench was built in (``packagePath(_:)``).
  private func defaultOutput() -> String {
    if matrix.isAdHoc {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "UTC")
      formatter.dateFormat = "yyyyMMdd-HHmmss"
      return packagePath("results/run-\(formatter.string(from: Date())).csv")
    }
    return packagePath(matrix.quick ? "results/latest-quick.csv" : "results/latest.csv")
  }

  /// The folder beside a results file that holds its plots: `results/latest-plots`.
  static func plotsDirectory(forResults path: String) -> String {
    (path.hasSuffix(".csv") ? String(path.dropLast(4)) : path) + "-plots"
  }

  /// One log-log chart of median time per phase with measured rows (as `bench plot` draws
  /// them), in ``plotsDirectory(forResults:)``; returns the files written.
  private func writePlots(
    _ rows: [ResultRow], output: String
  ) throws(OutputFileError) -> [String] {
    let directory = Self.plotsDirectory(forResults: output)
    var written: [String] = []
    for phase in Phase.allCases {
      let chart = Chart(rows: rows, phase: phase, metric: .time)
      guard !chart.panels.isEmpty else { continue }
      let path = "\(directory)/\(phase.rawValue).svg"
      try OutputFile.write(chart.svg, to: path)
      written.append(path)
    }
    return written
  }

  /// Runs the matrix, writing rows to `output` as they come: in this process, or one process
  /// a round. On an interrupt, the rows measured so far (a round's too) stay in
  /// `output.partial`, and nothing else is left.
  private func measure(
    _ configuration: BenchmarkConfiguration, _ context: RunContext, output: String
  ) throws -> [ResultRow] {
    let writer: ResultsWriter
    do {
      // A round's process leaves saying where the rows are to the run that started it.
      writer = try ResultsWriter(
        path: output, saysWhereOnInterrupt: roundOf == nil && callgrindRows == nil)
    } catch {
      throw BenchFailure("bench run: --output", error)
    }
    // The groups in the order the runner takes them, every round.
    var groupSizes: [Int] = []
    for (kind, variant) in configuration.scenes {
      for size in configuration.sizes {
        for solver in configuration.solvers {
          for mode in configuration.modes
          where configuration.includes(
            ShardGroup(scene: kind, variant: variant, solver: solver.name, mode: mode))
          {
            groupSizes.append(size)
          }
        }
      }
    }
    let groups = groupSizes.count
    if !quiet && roundOf == nil {
      printError(
        "bench run: \(groups) groups ("
          + (matrix.shard.map { "shard \($0) of " } ?? "")
          + "\(configuration.scenes.count) scenes or variants x "
          + "\(configuration.sizes.count) sizes x \(configuration.solvers.count) solvers x "
          + "\(configuration.modes.count) modes)"
          + (configuration.rounds > 1
            ? " x \(configuration.rounds) rounds, each in its own process" : "")
          + ", writing \(output)" + estimate(configuration))
    }
    var rounds: [[ResultRow]] = []
    // Between rounds this process reads and writes files of its own: a signal is checked for.
    if configuration.rounds > 1 { Interrupts.deferExit() }
    do {
      if configuration.rounds > 1 {
        // Each round in a process of its own: a process's memory layout moves a small cell's
        // time by several percent for the whole process, so rounds in one process agree more
        // than two runs do, and the time gate's test of the rounds' disagreement would miss it.
        for round in 1...configuration.rounds {
          let rows = try runRound(
            output + ".round\(round).jsonl", "\(round)/\(configuration.rounds)", into: writer)
          rounds.append(rows)
        }
      } else {
        let progress = ProgressReporter(quiet: quiet, groupSizes: groupSizes)
        let prefix = roundOf.map { "round \($0): " } ?? ""
        var rows: [ResultRow] = []
        try BenchmarkRunner(configuration: configuration, context: context).run(
          emit: { (row: ResultRow) throws(OutputFileError) in
            rows.append(row)
            try writer.append(row)
          },
          progress: { index, total, what in progress.report(index, total, prefix + what) })
        progress.finish()
        rounds.append(rows)
      }
      let rows = rounds.count == 1 ? rounds[0] : ResultRow.pooling(rounds: rounds)
      try Interrupts.check()
      if rounds.count > 1 { try writer.rewrite(rows) }
      try writer.commit()
      return rows
    } catch let error as OutputFileError {
      throw writer.failure(error)
    } catch let interruption as Interruption {
      throw interruption.failure(
        "the \(writer.count) rows measured so far are in \(writer.partialPath)")
    }
  }

  /// Runs one round of this run's matrix in a new process of this executable, its rows to
  /// `path` and then to `writer`; progress goes to this process's standard error, labelled
  /// with `label`. The round's file is removed, also when the round is interrupted, whose rows
  /// measured so far go to `writer` too.
  private func runRound(
    _ path: String, _ label: String, into writer: ResultsWriter
  ) throws -> [ResultRow] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
    process.arguments =
      Array(CommandLine.arguments.dropFirst()) + [
        "--rounds", "1", "--output", path, "--format", "markdown", "--round-of", label,
      ]
    process.standardOutput = FileHandle.nullDevice
    defer {
      unlink(path)
      unlink(path + ".partial")
    }
    do {
      try Interrupts.run(process)
    } catch let interruption as Interruption {
      // The round keeps what it measured in its .partial file, whole rows only.
      if let rows = try? ResultsFile.load(path + ".partial") { try writer.append(rows) }
      throw interruption
    }
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      // The round said why on standard error; an I/O failure there is one here.
      let exited = process.terminationReason == .exit
      throw BenchFailure(
        exited
          ? ExitStatus(rawValue: process.terminationStatus) ?? .internalFailure
          : .internalFailure,
        "bench run: round \(label) "
          + (exited
            ? "exited \(process.terminationStatus)"
            : "was ended by signal \(process.terminationStatus)")
          + "; the \(writer.count) rows of the rounds before it are in \(writer.partialPath)")
    }
    let rows: [ResultRow]
    do {
      rows = try ResultsFile.load(path)
    } catch {
      throw BenchFailure(.internalFailure, "bench run: round \(label): \(error)")
    }
    try writer.append(rows)
    return rows
  }
}

/// Re-runs the process with `SWIFT_DETERMINISTIC_HASHING=1` when it is not set, so hashed
/// containers allocate the same way in every run (the setting is read at start-up).
func ensureDeterministicHashing() {
  guard ProcessInfo.processInfo.environment["SWIFT_DETERMINISTIC_HASHING"] == nil else { return }
  setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
  let arguments = CommandLine.arguments
  var cArguments = arguments.map { strdup($0) }
  cArguments.append(nil)
  execv("/proc/self/exe", &cArguments)
  // execv returns only on failure: go on without it.
}

extension RunContext {
  /// The run's id and time, the commit and a description of the machine.
  ///
  /// The commit is the one of the tree this executable was built in (it lives in that tree's
  /// `.build`), whatever the working directory; for an executable outside any repository, the
  /// working directory's; "unknown" when neither is in one. `-dirty` marks uncommitted changes
  /// to tracked files.
  static func current() -> RunContext {
    let now = Date()
    let formatter = ISO8601DateFormatter()
    let timestamp = formatter.string(from: now)
    let executableDirectory = URL(fileURLWithPath: CallgrindRun.currentExecutable())
      .deletingLastPathComponent().path
    let tree =
      [executableDirectory, FileManager.default.currentDirectoryPath].first {
        shell("git", "-C", $0, "rev-parse", "--short", "HEAD") != nil
      }
    let commit =
      tree.flatMap { shell("git", "-C", $0, "rev-parse", "--short", "HEAD") } ?? "unknown"
    let dirty =
      tree.map {
        (shell("git", "-C", $0, "status", "--porcelain", "--untracked-files=no") ?? "").isEmpty
      }
        == false ? "-dirty" : ""
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let memory = ProcessInfo.processInfo.physicalMemory / (1 << 30)
    var machine = "\(cores) cores \(memory) GiB"
    #if arch(x86_64)
      machine = "x86_64 " + machine
    #elseif arch(arm64)
      machine = "arm64 " + machine
    #endif
    return RunContext(
      runID: String(UInt64(now.timeIntervalSince1970 * 1000), radix: 36), timestamp: timestamp,
      commit: commit + dirty, machine: machine, cpuModel: currentCPUModel ?? "",
      jemalloc: AllocatorStatistics.version ?? "")
  }

  /// The processor's model name, as Linux's `/proc/cpuinfo` gives it (`model name`, or on
  /// arm64 machines that lack it, nil).
  static var currentCPUModel: String? {
    guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else {
      return nil
    }
    for line in text.split(separator: "\n") where line.hasPrefix("model name") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      if !name.isEmpty { return name }
    }
    return nil
  }
}

/// The standard output of a short command, trimmed, or nil if it failed.
func shell(_ arguments: String...) -> String? {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = FileHandle.nullDevice
  do { try process.run() } catch { return nil }
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else { return nil }
  return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
