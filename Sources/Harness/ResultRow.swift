import AutoLayout
import Cassowary
import Foundation
import Scenes

/// One cell of a benchmark run: a scene at a size, a solver, a mode and a phase, with its
/// timings, allocator figures and solution checksum. One CSV row, typed until it is written.
public struct ResultRow: Equatable, Sendable {
  /// The solver a row measured: a ``SolverStrategy``'s name (any strategy, a plug-in's too), or
  /// `kiwisolver` in files from before kiwi ran in process (timed through Python).
  public struct Solver: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// The solver named `rawValue`: a name of letters, digits, `-` and `_`.
    public init?(rawValue: String) {
      guard !rawValue.isEmpty,
        rawValue.unicodeScalars.allSatisfy({
          ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
            || $0 == "-" || $0 == "_"
        })
      else { return nil }
      self.rawValue = rawValue
    }

    /// The solver `strategy` names.
    public init(_ strategy: SolverStrategy) { rawValue = strategy.name }

    /// ``SolverStrategy/sparse``.
    public static let sparse = Solver(.sparse)
    /// ``SolverStrategy/dense``.
    public static let dense = Solver(.dense)
    /// ``SolverStrategy/kiwi``: kiwi in process.
    public static let kiwi = Solver(.kiwi)
    /// kiwisolver timed through Python, in result files made before kiwi ran in process.
    public static let kiwisolver = Solver(rawValue: "kiwisolver")!

    public var description: String { rawValue }
  }

  /// Whether a cell was measured.
  public enum Status: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Measured.
    case ok
    /// Not measured: the note says why (a phase that does not apply, a budget).
    case skipped
    /// The phase failed: the note holds the error.
    case error

    public var description: String { rawValue }
  }

  public var runID = ""
  public var timestamp = ""
  public var commit = ""
  public var machine = ""
  /// The compiler that built the harness; empty in files from before the column.
  public var toolchain = ""
  /// The processor's model name (`/proc/cpuinfo`); empty in files from before the column.
  public var cpuModel = ""
  /// The jemalloc version the harness ran on; empty when the allocator was not jemalloc, and in
  /// files from before the column.
  public var jemalloc = ""
  /// The whole matrix the run was part of (``BenchmarkConfiguration/matrixDescription``);
  /// empty in files from before the column.
  public var matrix = ""
  /// `K/N` when the run was one shard of the matrix, else empty.
  public var shard = ""
  public var scene = SceneKind.form
  /// The scene's variant (`standard` for kinds without variants).
  public var variant = "standard"
  public var views = 0
  public var variables = 0
  public var constraints = 0
  public var solver = Solver.sparse
  public var mode = Mode.incremental
  public var phase = Phase.build
  public var repetitions = 0
  /// The median, fastest, 90th-percentile and slowest repetition (nanoseconds); nil where the
  /// cell was not timed (skipped, failed, or counted under callgrind).
  public var medianNanoseconds: UInt64?
  public var minimumNanoseconds: UInt64?
  public var p90Nanoseconds: UInt64?
  public var maximumNanoseconds: UInt64?
  /// The measured repetitions' times (nanoseconds), in the order measured, one array for each
  /// round that measured the cell (a run of several rounds, or `bench ab`, pools its rounds):
  /// what the time gate tests (``TimeTest``). Empty in rows without times and in files written
  /// before the column. In the CSV, times are separated by spaces and rounds by `|`.
  public var samples: [[UInt64]] = []

  /// Every round's samples in one array.
  public var pooledSamples: [UInt64] { samples.flatMap { $0 } }
  /// Allocation requests during one repetition (jemalloc's arena-wide request count, batched by
  /// its thread caches, so approximate).
  public var allocations: UInt64?
  /// Bytes this thread allocated during one repetition (exact).
  public var allocatedBytes: UInt64?
  /// Bytes allocated process-wide after the phase (`stats.allocated`).
  public var retainedBytes: UInt64?
  /// The thread's peak net allocation during one repetition.
  public var peakBytes: UInt64?
  /// Instructions in one repetition, under callgrind.
  public var instructions: UInt64?
  /// The hash of every frame, rounded to 1e-6, after the phase.
  public var checksum: String?
  public var status = Status.ok
  public var note = ""

  public init() {}

  /// The CSV header: the schema every results file starts with, and the JSON's field names
  /// (``CodingKeys``). The free-text `note` is last but one and the samples last, so a reader that splits on commas without quoting still finds
  /// the figures before them; readers should go by name all the same.
  public static let columns = CodingKeys.allCases.map(\.stringValue)

  /// Columns a file may lack: files written before the column existed read with it empty.
  public static let optionalColumns: Set<String> = [
    "samples_ns", "toolchain", "cpu_model", "jemalloc", "matrix", "shard",
  ]

  /// The row's fields, in ``columns`` order.
  public var fields: [String] { CodingKeys.allCases.map(field) }

  /// The CSV text of one field: figures not measured are empty, times `0` (as every file has
  /// written them).
  public func field(_ key: CodingKeys) -> String {
    func optional(_ value: UInt64?) -> String { value.map(String.init) ?? "" }
    switch key {
    case .runID: return runID
    case .timestamp: return timestamp
    case .commit: return commit
    case .machine: return machine
    case .toolchain: return toolchain
    case .cpuModel: return cpuModel
    case .jemalloc: return jemalloc
    case .matrix: return matrix
    case .shard: return shard
    case .scene: return scene.rawValue
    case .variant: return variant
    case .views: return String(views)
    case .variables: return String(variables)
    case .constraints: return String(constraints)
    case .solver: return solver.rawValue
    case .mode: return mode.rawValue
    case .phase: return phase.rawValue
    case .repetitions: return String(repetitions)
    case .medianNanoseconds: return String(medianNanoseconds ?? 0)
    case .minimumNanoseconds: return String(minimumNanoseconds ?? 0)
    case .p90Nanoseconds: return String(p90Nanoseconds ?? 0)
    case .maximumNanoseconds: return String(maximumNanoseconds ?? 0)
    case .allocations: return optional(allocations)
    case .allocatedBytes: return optional(allocatedBytes)
    case .retainedBytes: return optional(retainedBytes)
    case .peakBytes: return optional(peakBytes)
    case .instructions: return optional(instructions)
    case .checksum: return checksum ?? ""
    case .status: return status.rawValue
    case .note: return note
    case .samples:
      return samples.map { $0.map(String.init).joined(separator: " ") }.joined(separator: "|")
    }
  }

  /// The row read back from `fields` (in ``columns`` order).
  public init(fields: [String], line: Int) throws(ResultsFileError) {
    try self.init(fields: fields, header: Self.columns, line: line)
  }

  /// The row read back from `fields`, whose columns `header` names (every column of
  /// ``columns`` but the ``optionalColumns``, in any order).
  public init(fields: [String], header: [String], line: Int) throws(ResultsFileError) {
    guard fields.count == header.count else {
      throw ResultsFileError(
        "line \(line): \(fields.count) fields, the header has \(header.count)")
    }
    var byName: [String: String] = [:]
    for (name, field) in zip(header, fields) { byName[name] = field }
    func text(_ name: String) -> String { byName[name] ?? "" }
    func unsigned(_ name: String) throws(ResultsFileError) -> UInt64 {
      guard let value = UInt64(text(name)) else {
        throw ResultsFileError("line \(line): \(name) '\(text(name))' is not a number")
      }
      return value
    }
    func integer(_ name: String) throws(ResultsFileError) -> Int {
      guard let value = Int(text(name)) else {
        throw ResultsFileError("line \(line): \(name) '\(text(name))' is not a number")
      }
      return value
    }
    func optional(_ name: String) throws(ResultsFileError) -> UInt64? {
      text(name).isEmpty ? nil : try unsigned(name)
    }
    func typed<Value: RawRepresentable & CaseIterable>(
      _ name: String, as type: Value.Type
    ) throws(ResultsFileError) -> Value where Value.RawValue == String {
      guard let value = Value(rawValue: text(name)) else {
        throw ResultsFileError(
          "line \(line): \(name) '\(text(name))' is not one of "
            + Value.allCases.map(\.rawValue).joined(separator: ", "))
      }
      return value
    }
    runID = text("run_id")
    timestamp = text("timestamp")
    commit = text("commit")
    machine = text("machine")
    toolchain = text("toolchain")
    cpuModel = text("cpu_model")
    jemalloc = text("jemalloc")
    matrix = text("matrix")
    shard = text("shard")
    scene = try typed("scene", as: SceneKind.self)
    variant = text("variant")
    views = try integer("views")
    variables = try integer("variables")
    constraints = try integer("constraints")
    guard let solver = Solver(rawValue: text("solver")) else {
      throw ResultsFileError(
        "line \(line): solver '\(text("solver"))' is not a solver's name (letters, digits, - and _)"
      )
    }
    self.solver = solver
    mode = try typed("mode", as: Mode.self)
    phase = try typed("phase", as: Phase.self)
    repetitions = try integer("repetitions")
    // Files write an untimed cell's times as 0 (an empty field reads the same).
    func time(_ name: String) throws(ResultsFileError) -> UInt64? {
      let value = text(name).isEmpty ? 0 : try unsigned(name)
      return value == 0 ? nil : value
    }
    medianNanoseconds = try time("median_ns")
    minimumNanoseconds = try time("min_ns")
    p90Nanoseconds = try time("p90_ns")
    maximumNanoseconds = try time("max_ns")
    allocations = try optional("allocations")
    allocatedBytes = try optional("allocated_bytes")
    retainedBytes = try optional("retained_bytes")
    peakBytes = try optional("peak_bytes")
    instructions = try optional("instructions")
    checksum = text("checksum").isEmpty ? nil : text("checksum")
    status = try typed("status", as: Status.self)
    note = text("note")
    for round in text("samples_ns").split(separator: "|", omittingEmptySubsequences: false)
    where !text("samples_ns").isEmpty {
      var times: [UInt64] = []
      for item in round.split(separator: " ") {
        guard let sample = UInt64(item) else {
          throw ResultsFileError("line \(line): samples_ns '\(item)' is not a number")
        }
        times.append(sample)
      }
      guard !times.isEmpty else {
        throw ResultsFileError("line \(line): samples_ns has a round without samples")
      }
      samples.append(times)
    }
  }

  /// The most samples a row keeps of one round: enough for the time gate's test, few enough
  /// that a cell repeated ten thousand times does not swell the file.
  public static let sampleLimit = 64

  /// The samples a row keeps of `times` (in the order measured): all of them up to
  /// ``sampleLimit``, else that many evenly spaced, so that drift during the cell shows.
  ///
  /// - Complexity: O(``sampleLimit``).
  public static func keptSamples(_ times: [UInt64]) -> [UInt64] {
    guard times.count > sampleLimit else { return times }
    return (0..<sampleLimit).map { times[$0 * times.count / sampleLimit] }
  }
}

/// A results file that cannot be read: missing, malformed, or of another schema.
public struct ResultsFileError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// A results file: CSV (the header, then one row per cell), or JSON Lines (one row per line,
/// as ``ResultRow`` encodes itself) for a path ending in `.jsonl`, as the processes of one run
/// hand their rows to each other.
public enum ResultsFile {
  /// The two encodings of a results file.
  public enum Format: Sendable {
    case csv
    case jsonLines

    /// JSON Lines for a path ending in `.jsonl` (or `.jsonl.partial`), else CSV.
    public init(path: String) {
      self = path.hasSuffix(".jsonl") || path.hasSuffix(".jsonl.partial") ? .jsonLines : .csv
    }

    /// What the file starts with: the CSV's header line; nothing for JSON Lines.
    public var header: String {
      switch self {
      case .csv: CSV.line(ResultRow.columns)
      case .jsonLines: ""
      }
    }

    /// One row as a line of the file, with its line end.
    public func line(_ row: ResultRow) -> String {
      switch self {
      case .csv: return CSV.line(row.fields)
      case .jsonLines:
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A row of strings, whole numbers and arrays of them always encodes.
        // swift-format-ignore: NeverUseForceTry
        return String(decoding: try! encoder.encode(row), as: UTF8.self) + "\n"
      }
    }
  }

  /// The whole file's text, as CSV.
  public static func text(_ rows: [ResultRow]) -> String { text(rows, as: .csv) }

  /// The whole file's text in `format`.
  public static func text(_ rows: [ResultRow], as format: Format) -> String {
    format.header + rows.map(format.line).joined()
  }

  /// The rows of a JSON Lines text: every non-empty line one row.
  ///
  /// - Complexity: O(text size).
  public static func rows(jsonLines text: String) throws(ResultsFileError) -> [ResultRow] {
    var rows: [ResultRow] = []
    let decoder = JSONDecoder()
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    where !line.isEmpty {
      do {
        rows.append(try decoder.decode(ResultRow.self, from: Data(line.utf8)))
      } catch {
        throw ResultsFileError("line \(index + 1): not a results row: \(error)")
      }
    }
    return rows
  }

  /// The rows of the results file at `path`; the error names the path and says in words why
  /// the file cannot be read or is not a results file.
  ///
  /// - Complexity: O(file size).
  public static func load(_ path: String) throws(ResultsFileError) -> [ResultRow] {
    let text: String
    do throws(InputFileError) {
      text = try InputFile.read(path)
    } catch {
      throw ResultsFileError("\(path): \(error)")
    }
    do throws(ResultsFileError) {
      switch Format(path: path) {
      case .csv: return try rows(text)
      case .jsonLines: return try rows(jsonLines: text)
      }
    } catch {
      throw ResultsFileError("\(path): \(error)")
    }
  }

  /// The rows of a results file's text; throws on another schema or a malformed row. A byte
  /// order mark at the start (as spreadsheet programs write) is skipped.
  public static func rows(_ text: String) throws(ResultsFileError) -> [ResultRow] {
    let text =
      text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
    let records: [[String]]
    do throws(CSVError) {
      records = try CSV.records(text)
    } catch {
      throw ResultsFileError("not CSV: \(error)")
    }
    guard let header = records.first else { throw ResultsFileError("the file is empty") }
    // Columns are read by name: name the ones that differ, not the header's first few (two
    // headers of different schemas often share them).
    let missing = ResultRow.columns.filter {
      !header.contains($0) && !ResultRow.optionalColumns.contains($0)
    }
    let unknown = header.filter { !ResultRow.columns.contains($0) }
    let repeated = Set(header.filter { name in header.filter { $0 == name }.count > 1 })
    var problems: [String] = []
    if !missing.isEmpty { problems.append("lacks " + missing.joined(separator: ", ")) }
    if !unknown.isEmpty { problems.append("has unknown " + unknown.joined(separator: ", ")) }
    if !repeated.isEmpty { problems.append("repeats " + repeated.sorted().joined(separator: ", ")) }
    guard problems.isEmpty else {
      throw ResultsFileError(
        "not a LayoutBench results file of this schema: the header "
          + problems.joined(separator: " and "))
    }
    var rows: [ResultRow] = []
    for (index, record) in records.dropFirst().enumerated() where record != [""] {
      rows.append(try ResultRow(fields: record, header: header, line: index + 2))
    }
    return rows
  }
}
