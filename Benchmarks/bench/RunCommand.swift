import ArgumentParser
import AutoLayout
import Foundation
import Harness
import Scenes

extension Phase: ExpressibleByArgument {}
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

      --callgrind runs the matrix again under valgrind's callgrind, with instrumentation on only \
      inside each phase, and fills the instructions column: the instructions of one measured \
      repetition per cell, a figure that repeats exactly where times are noisy. Its rows have \
      no times (valgrind's are not comparable) and one repetition; --cell-budget is multiplied by \
      50 (valgrind's slowdown); the dump files stay in .build/callgrind/RUN-ID/ for \
      callgrind_annotate. Needs valgrind (apt-get install -y \
      valgrind) installed when bench is built and run.
      """)

  @Option(help: "Scene kinds, comma-separated; KIND or KIND/VARIANT (see `bench scenes`).")
  var scenes: String?
  @Option(help: "View counts, comma-separated.")
  var sizes: String?
  @Option(help: "sparse, dense (comma-separated).")
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
  @Flag(help: "The CI-sized matrix (about a minute).")
  var quick = false
  @Option(help: "Where to write the CSV.")
  var output = "results/latest.csv"
  @Option(help: "What to print on standard output: markdown, csv or json.")
  var format = "markdown"
  @Flag(help: "No progress lines.")
  var quiet = false
  @Flag(help: "Count each phase's instructions under valgrind's callgrind (no times).")
  var callgrind = false
  /// Set by a `--callgrind` run on the process it starts under valgrind: where that process
  /// writes its rows, whose instructions the parent then fills in from the dump files.
  @Option(name: .customLong("callgrind-rows"), help: .hidden)
  var callgrindRows: String?

  mutating func run() throws {
    ensureDeterministicHashing()
    var configuration = quick ? BenchmarkConfiguration.quick : BenchmarkConfiguration.standard
    do {
      try apply(to: &configuration)
    } catch let error as UsageError {
      printError("bench run: \(error.message)")
      throw ExitCode(64)
    }
    guard ["markdown", "csv", "json"].contains(format) else {
      printError("bench run: unknown format '\(format)'; valid: markdown, csv, json")
      throw ExitCode(64)
    }
    if callgrindRows == nil, let problem = outputPathProblem(output) {
      printError("bench run: --output \(output): \(problem)")
      throw ExitCode(64)
    }
    let context = RunContext.current()
    let rows: [ResultRow]
    switch (callgrind, callgrindRows) {
    case (false, nil):
      rows = try measure(configuration, context, output: output)
    case (true, nil):
      rows = try CallgrindRun(context: context, output: output).run()
    case (true, let path?):
      // The process a --callgrind run starts under valgrind.
      guard Callgrind.isRunning else {
        printError("bench run: --callgrind-rows is for the process bench starts under valgrind")
        throw ExitCode(64)
      }
      configuration.countsInstructions = true
      configuration.repetitions = 1
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
    let slopes = ScalingTable(rows)
    try writeAtomically(slopes.csv, to: ScalingTable.path(forResults: output))
    let plots = try writePlots(rows)
    switch format {
    case "csv": print(ResultsFile.text(rows), terminator: "")
    case "json": print(jsonText(rows))
    default:
      print(markdownTable(rows))
      print(slopes.markdown)
    }
    printError(
      "wrote \(output) (\(rows.count) rows), \(ScalingTable.path(forResults: output)) and "
        + "\(plots.count) plots in \(Self.plotsDirectory(forResults: output))/")
  }

  /// The folder beside a results file that holds its plots: `results/latest-plots`.
  static func plotsDirectory(forResults path: String) -> String {
    (path.hasSuffix(".csv") ? String(path.dropLast(4)) : path) + "-plots"
  }

  /// One log-log chart of median time per phase with measured rows (as `bench plot` draws
  /// them), in ``plotsDirectory(forResults:)``; returns the files written.
  private func writePlots(_ rows: [ResultRow]) throws -> [String] {
    let directory = Self.plotsDirectory(forResults: output)
    var written: [String] = []
    for phase in Phase.allCases {
      let chart = Chart(rows: rows, phase: phase.rawValue, metric: "time")
      guard !chart.panels.isEmpty else { continue }
      if written.isEmpty {
        try FileManager.default.createDirectory(
          atPath: directory, withIntermediateDirectories: true)
      }
      let path = "\(directory)/\(phase.rawValue).svg"
      try writeAtomically(chart.svg, to: path)
      written.append(path)
    }
    return written
  }

  /// Runs the matrix in this process, writing rows to `output` as they come.
  private func measure(
    _ configuration: BenchmarkConfiguration, _ context: RunContext, output: String
  ) throws -> [ResultRow] {
    let writer = try ResultsWriter(path: output)
    ResultsWriter.installInterruptHandler(writer)
    let progress = ProgressReporter(quiet: quiet)
    var rows: [ResultRow] = []
    BenchmarkRunner(configuration: configuration, context: context).run(
      emit: { row in
        rows.append(row)
        writer.append(row)
      },
      progress: { progress.report($0, $1, $2) })
    progress.finish()
    try writer.commit()
    return rows
  }

  struct UsageError: Error { var message: String }

  private func list<Value>(
    _ text: String?, _ what: String, valid: [String], parse: (String) -> Value?
  ) throws -> [Value]? {
    guard let text else { return nil }
    var values: [Value] = []
    for item in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
      guard let value = parse(item) else {
        throw UsageError(
          message: "unknown \(what) '\(item)'; valid: \(valid.joined(separator: ", "))")
      }
      values.append(value)
    }
    guard !values.isEmpty else { throw UsageError(message: "no \(what) given") }
    return values
  }

  private func apply(to configuration: inout BenchmarkConfiguration) throws {
    let sceneNames = SceneKind.allCases.flatMap { kind in
      [kind.rawValue] + kind.variants.dropFirst().map { "\(kind.rawValue)/\($0)" }
    }
    if let scenes = try list(
      scenes, "scene", valid: sceneNames,
      parse: { item -> (kind: SceneKind, variant: String)? in
        let parts = item.split(separator: "/", maxSplits: 1).map(String.init)
        guard let kind = SceneKind(rawValue: parts[0]) else { return nil }
        let variant = parts.count > 1 ? parts[1] : kind.variants[0]
        return kind.variants.contains(variant) ? (kind, variant) : nil
      })
    {
      configuration.scenes = scenes
    }
    if let sizes = try list(
      sizes, "size", valid: ["positive whole numbers"],
      parse: { Int($0).flatMap { $0 > 0 ? $0 : nil } })
    {
      configuration.sizes = sizes
    }
    if let solvers = try list(
      solvers, "solver", valid: SolverKind.allCases.map(\.rawValue),
      parse: SolverKind.init(rawValue:))
    {
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
    if let memoryBudget {
      guard memoryBudget > 0 else { throw UsageError(message: "--memory-budget must be positive") }
      configuration.memoryBudget = memoryBudget << 20
    }
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
  static func current() -> RunContext {
    let now = Date()
    let formatter = ISO8601DateFormatter()
    let timestamp = formatter.string(from: now)
    let commit = shell("git", "rev-parse", "--short", "HEAD") ?? "unknown"
    let dirty =
      (shell("git", "status", "--porcelain", "--untracked-files=no") ?? "").isEmpty ? "" : "-dirty"
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
      commit: commit + dirty, machine: machine)
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
