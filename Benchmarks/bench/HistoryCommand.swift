import ArgumentParser
import Foundation
import Harness
import History
import Scenes

/// `bench history`: the store of every run recorded, their trends and regressions.
struct HistoryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history",
    abstract: "Keep a history of runs in SQLite: record, list, show trends, find regressions.",
    discussion: """
      The store (results/history.sqlite unless --store says otherwise) keeps every run \
      recorded, keyed by its run id, start time and commit, with its machine, toolchain and \
      jemalloc version, and every cell it measured. Recording a run twice keeps it once. A \
      store that is locked past --wait, read-only, damaged or of a newer schema is refused with \
      exit 2, and left as it was.
      """,
    subcommands: [
      HistoryAdd.self, HistoryImport.self, HistoryList.self, HistoryShow.self,
      HistoryRegressions.self,
    ])
}

/// Where the store is and how long to wait for it.
struct StoreOptions: ParsableArguments {
  @Option(
    name: .customLong("store"),
    help: ArgumentHelp(
      "The history store (default: results/history.sqlite in the package).", valueName: "path"))
  var path: String?
  @Option(help: "Seconds to wait for another process that holds the store.")
  var wait: Double = 10

  func validate() throws {
    guard wait >= 0 else { throw ValidationError("--wait cannot be negative") }
  }

  /// The store, opened for `access`; a failure (exit 2) that says why it cannot be.
  func open(_ access: HistoryStore.Access, command: String) throws -> HistoryStore {
    do {
      return try HistoryStore(
        path: path ?? packagePath(HistoryStore.defaultPath), access: access, wait: wait)
    } catch {
      throw BenchFailure(.badInput, "bench history \(command): \(error)")
    }
  }
}

/// How regressions are judged: `bench history regressions` and `bench publish` share these.
struct RegressionOptions: ParsableArguments {
  @Option(help: "Allowed growth of allocated bytes and instructions (a fraction).")
  var tolerance = 0.01
  @Option(
    name: .customLong("ratio-threshold"), help: "Allowed growth of a time ratio (a fraction).")
  var ratioThreshold = 0.5
  @Option(
    name: .customLong("minimum-time"),
    help: "Microseconds both medians of a ratio must reach for it to be judged.")
  var minimumMicroseconds = 100.0

  func validate() throws {
    guard tolerance.isFinite, tolerance >= 0 else {
      throw ValidationError("--tolerance must be a finite number at least 0")
    }
    guard ratioThreshold.isFinite, ratioThreshold >= 0 else {
      throw ValidationError("--ratio-threshold must be a finite number at least 0")
    }
    // Up to an hour: a larger floor judges no ratio at all, and overflows nanoseconds sooner.
    guard minimumMicroseconds.isFinite, minimumMicroseconds >= 0, minimumMicroseconds <= 3.6e9
    else {
      throw ValidationError("--minimum-time must be a number of microseconds from 0 to 3.6e9")
    }
  }

  var criteria: HistoryStore.RegressionCriteria {
    HistoryStore.RegressionCriteria(
      countTolerance: tolerance, ratioThreshold: ratioThreshold,
      minimumNanoseconds: UInt64(minimumMicroseconds * 1000))
  }
}

/// How a history command prints a table.
enum TableFormat: String, ExpressibleByArgument, CaseIterable {
  /// Aligned columns, for a terminal.
  case table
  /// RFC 4180 CSV with a header, for other tools.
  case csv
}

extension Metric: ExpressibleByArgument {}
extension ResultRow.Solver: ExpressibleByArgument {
  public init?(argument: String) { self.init(rawValue: argument) }
}

/// Runs `body`, turning a ``HistoryError`` into a failure of `command` (exit 2).
func historyFailure<T>(_ command: String, _ body: () throws(HistoryError) -> T) throws -> T {
  do {
    return try body()
  } catch {
    throw BenchFailure(.badInput, "bench history \(command): \(error)")
  }
}

/// Prints `rows` under `header`, as aligned columns or CSV.
func printTable(_ header: [String], _ rows: [[String]], format: TableFormat) {
  switch format {
  case .csv:
    printOutput(CSV.line(header) + rows.map(CSV.line).joined(), terminator: "")
  case .table:
    var widths = header.map(\.count)
    for row in rows {
      for (index, field) in row.enumerated() { widths[index] = max(widths[index], field.count) }
    }
    func line(_ fields: [String]) -> String {
      zip(fields, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
        .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
    }
    printOutput(([line(header)] + rows.map(line)).joined(separator: "\n"))
  }
}

struct HistoryAdd: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "add", abstract: "Record the runs of results files in the store.",
    discussion: """
      Every file is read before anything is written, and all of them are recorded in one \
      transaction: a file that cannot be read or recorded leaves the store as it was (exit 2).
      """)

  @OptionGroup var store: StoreOptions
  @Argument(help: "Results CSV files (bench run --output).")
  var files: [String]

  func validate() throws {
    guard !files.isEmpty else { throw ValidationError("name at least one results file") }
  }

  func run() throws {
    let read = try files.map { ($0, try loadResults($0, command: "history add")) }
    let history = try store.open(.write, command: "add")
    let recording = try historyFailure("add") { () throws(HistoryError) in
      try history.record(read.map { (source: $0.0, rows: $0.1) })
    }
    for run in recording.added {
      printOutput("added run \(run.runID) of \(run.commit) (\(run.cells) cells) from \(run.source)")
    }
    for run in recording.completed {
      printOutput(
        "completed run \(run.runID) of \(run.commit): it now has \(run.cells) cells (first "
          + "recorded from \(run.source))")
    }
    for run in recording.alreadyPresent {
      printOutput("already recorded: run \(run.runID) of \(run.commit) (from \(run.source))")
    }
    printOutput(
      "\(history.path): \(recording.added.count) run(s) added, "
        + (recording.completed.isEmpty ? "" : "\(recording.completed.count) completed, ")
        + "\(recording.alreadyPresent.count) already there")
  }
}

struct HistoryImport: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Seed the store from every committed version of results/baseline*.csv.",
    discussion: """
      Walks the repository's history (git) oldest first and records each version of each \
      results/baseline*.csv, at the commit its rows name. Versions that are not results files \
      of this schema (slope tables, files from before a column existed) are skipped and \
      counted. Importing again adds nothing new.
      """)

  @OptionGroup var store: StoreOptions
  @Option(help: "The git repository to read (default: the package's).")
  var repository: String?

  func run() throws {
    let repository = repository ?? benchPackage?.path ?? "."
    guard
      let log = shell(
        "git", "-C", repository, "log", "--reverse", "--format=%H", "--", "results/")
    else {
      throw BenchFailure(
        .badInput,
        "bench history import: \(repository) is not a git repository, or one without commits")
    }
    var seenBlobs = Set<String>()
    var files: [(source: String, rows: [ResultRow])] = []
    var skipped: [String] = []
    for commit in log.split(separator: "\n").map(String.init) {
      let tree = shell("git", "-C", repository, "ls-tree", commit, "results/") ?? ""
      for entry in tree.split(separator: "\n") {
        // `MODE TYPE BLOB<TAB>PATH`
        let parts = entry.split(separator: "\t", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { continue }
        let path = parts[1]
        let name = URL(fileURLWithPath: path).lastPathComponent
        guard name.hasPrefix("baseline"), name.hasSuffix(".csv"),
          let blob = parts[0].split(separator: " ").last.map(String.init),
          seenBlobs.insert(blob).inserted
        else { continue }
        let source = "git:\(commit.prefix(7)):\(path)"
        guard let text = shell("git", "-C", repository, "cat-file", "blob", blob) else {
          skipped.append("\(source) (unreadable)")
          continue
        }
        do throws(ResultsFileError) {
          let rows = try ResultsFile.rows(text)
          do throws(HistoryError) {
            try HistoryStore.check(rows, source: source)
            if !rows.isEmpty { files.append((source, rows)) }
          } catch {
            skipped.append("\(source) (\(error))")
          }
        } catch {
          skipped.append("\(source) (\(error))")
        }
      }
    }
    let history = try store.open(.write, command: "import")
    let recording = try historyFailure("import") { () throws(HistoryError) in
      try history.record(files)
    }
    printOutput(
      "\(history.path): \(files.count) file version(s) read, \(recording.added.count) run(s) "
        + "added, \(recording.alreadyPresent.count) already there, \(skipped.count) version(s) "
        + "skipped as not results files of this schema")
  }
}

struct HistoryList: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List the recorded runs, oldest first.")

  @OptionGroup var store: StoreOptions
  @Option(help: "table or csv.")
  var format = TableFormat.table

  func run() throws {
    let history = try store.open(.read, command: "list")
    let runs = try historyFailure("list") { () throws(HistoryError) in try history.runs() }
    printTable(
      ["started_at", "commit", "run_id", "machine", "cpu_model", "toolchain", "cells", "source"],
      runs.map {
        [
          $0.startedAt, $0.commit, $0.runID, $0.machine, $0.cpuModel, $0.toolchain,
          String($0.cells), $0.source,
        ]
      }, format: format)
  }
}

struct HistoryShow: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "A figure over commits: one series per solver and mode, one point per commit.",
    discussion: """
      Among the runs of one machine class (the latest run's, unless --machine names another \
      from `bench history list`), each commit's point is the latest run of it that has the cell. \
      Times from different runs are not comparable beyond a machine's noise: read a trend of \
      times as a trend, and gate on the deterministic figures.
      """)

  @OptionGroup var store: StoreOptions
  @Option(help: "The scene kind.")
  var scene: SceneKind
  @Option(help: "The variant (default: every variant of the scene).")
  var variant: String?
  @Option(help: "The phase.")
  var phase: Phase
  @Option(name: .customLong("solver"), help: "A solver to show; repeat for more (default: all).")
  var solvers: [ResultRow.Solver] = []
  @Option(help: "The view count (default: every size).")
  var views: Int?
  @Option(
    help:
      "The figure: \(Metric.allCases.filter { $0 != .checksum }.map(\.rawValue).joined(separator: ", "))."
  )
  var metric = Metric.medianTime
  @Option(help: "The machine class: its description as `bench history list` prints it.")
  var machine: String?
  @Option(help: "table (a column per series) or csv (a row per point).")
  var format = TableFormat.table

  func validate() throws {
    if let variant, !scene.variants.contains(variant) {
      throw ValidationError(
        "unknown variant '\(variant)' for \(scene); valid: "
          + scene.variants.joined(separator: ", "))
    }
    guard metric != .checksum else { throw ValidationError("a checksum has no trend to show") }
  }

  func run() throws {
    let history = try store.open(.read, command: "show")
    let machines = try historyFailure("show") { () throws(HistoryError) in try history.machines() }
    let chosen: HistoryStore.Machine
    if let machine {
      guard
        let found = machines.first(where: { $0.description == machine || $0.summary == machine })
      else {
        throw BenchFailure(
          .badInput,
          "bench history show: no runs on machine '\(machine)'; the store has: "
            + machines.map { "'\($0)'" }.joined(separator: ", "))
      }
      chosen = found
    } else {
      guard
        let latest = try historyFailure(
          "show",
          { () throws(HistoryError) in
            try history.latestMachine()
          })
      else {
        throw BenchFailure(.badInput, "bench history show: the store has no runs")
      }
      chosen = latest
    }
    let query = HistoryStore.TrendQuery(
      scene: scene, variant: variant, phase: phase,
      solvers: solvers.isEmpty ? nil : Set(solvers), views: views, metric: metric)
    let trends = try historyFailure("show") { () throws(HistoryError) in
      try history.trends(query, on: chosen)
    }
    guard !trends.isEmpty else {
      throw BenchFailure(
        .badInput,
        "bench history show: no cell of \(scene)\(variant.map { "/\($0)" } ?? "") in phase "
          + "\(phase) on \(chosen)")
    }
    let commits = try historyFailure("show") { () throws(HistoryError) in
      try history.commits(on: chosen)
    }
    func figure(_ point: HistoryStore.TrendPoint) -> String {
      point.value.map(String.init) ?? point.status.rawValue
    }
    switch format {
    case .csv:
      printTable(
        [
          "commit", "started_at", "run_id", "scene", "variant", "views", "solver", "mode", "phase",
          "metric", "value", "status",
        ],
        trends.flatMap { trend in
          trend.points.map {
            [
              $0.commit, $0.startedAt, $0.runID, scene.rawValue, trend.variant,
              String(trend.views), trend.solver.rawValue, trend.mode.rawValue, phase.rawValue,
              metric.column, $0.value.map(String.init) ?? "", $0.status.rawValue,
            ]
          }
        }, format: .csv)
    case .table:
      let names = trends.map { "\($0.variant)/\($0.views) \($0.name)" }
      var rows: [[String]] = []
      for commit in commits {
        let fields = trends.map { trend in
          trend.points.first { $0.commit == commit }.map(figure) ?? ""
        }
        if fields.contains(where: { !$0.isEmpty }) { rows.append([commit] + fields) }
      }
      printOutput("\(scene) \(phase), \(metric.column) (\(metric.unit.rawValue)), on \(chosen):")
      printTable(["commit"] + names, rows, format: .table)
    }
  }
}

struct HistoryRegressions: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "regressions",
    abstract: "The figures that got worse between consecutive commits on one machine class.",
    discussion: """
      Deterministic figures are judged as bench compare judges them: the checksum exactly, \
      allocated bytes and instructions beyond --tolerance (and 64), and a measured cell that \
      is skipped or failed at the next commit. Times are never compared across runs: only \
      ratios inside one run, a solver's median over the dense baseline's and incremental's over full's, \
      where both medians are at least --minimum-time; a ratio regresses when it grows by more \
      than --ratio-threshold.
      """)

  @OptionGroup var store: StoreOptions
  @OptionGroup var criteria: RegressionOptions
  @Option(help: "table or csv.")
  var format = TableFormat.table

  func run() throws {
    let history = try store.open(.read, command: "regressions")
    let regressions = try historyFailure("regressions") { () throws(HistoryError) in
      try history.regressions(criteria.criteria)
    }
    printTable(
      ["commit", "previous", "cell", "figure", "before", "after", "machine"],
      regressions.map {
        [
          $0.commit, $0.previousCommit, $0.cell.description, $0.figure.description, $0.before,
          $0.after, $0.machine,
        ]
      }, format: format)
    if format == .table {
      printOutput("\(regressions.count) regression(s)")
    }
  }
}
