/// One cell of a benchmark run: a scene at a size, a solver, a mode and a phase, with its
/// timings, allocator figures and solution checksum. One CSV row.
public struct ResultRow: Equatable, Sendable {
  public var runID = ""
  public var timestamp = ""
  public var commit = ""
  public var machine = ""
  public var scene = ""
  public var variant = ""
  public var views = 0
  public var variables = 0
  public var constraints = 0
  public var solver = ""
  public var mode = ""
  public var phase = ""
  public var repetitions = 0
  public var medianNanoseconds: UInt64 = 0
  public var minimumNanoseconds: UInt64 = 0
  public var p90Nanoseconds: UInt64 = 0
  public var maximumNanoseconds: UInt64 = 0
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
  public var checksum = ""
  /// `ok`, `skipped` (the note says why) or `error` (the note has the error).
  public var status = "ok"
  public var note = ""

  public init() {}

  /// The CSV header: the schema every results file starts with.
  public static let columns = [
    "run_id", "timestamp", "commit", "machine", "scene", "variant", "views", "variables",
    "constraints", "solver", "mode", "phase", "repetitions", "median_ns", "min_ns", "p90_ns",
    "max_ns", "allocations", "allocated_bytes", "retained_bytes", "peak_bytes", "instructions",
    "checksum", "status", "note",
  ]

  /// The row's fields, in ``columns`` order.
  public var fields: [String] {
    func optional(_ value: UInt64?) -> String { value.map(String.init) ?? "" }
    return [
      runID, timestamp, commit, machine, scene, variant, String(views), String(variables),
      String(constraints), solver, mode, phase, String(repetitions), String(medianNanoseconds),
      String(minimumNanoseconds), String(p90Nanoseconds), String(maximumNanoseconds),
      optional(allocations), optional(allocatedBytes), optional(retainedBytes),
      optional(peakBytes), optional(instructions), checksum, status, note,
    ]
  }

  /// The row read back from `fields` (in ``columns`` order).
  public init(fields: [String], line: Int) throws(ResultsFileError) {
    guard fields.count == Self.columns.count else {
      throw ResultsFileError(
        "line \(line): \(fields.count) fields, the schema has \(Self.columns.count)")
    }
    func integer(_ index: Int) throws(ResultsFileError) -> Int {
      guard let value = Int(fields[index]) else {
        throw ResultsFileError(
          "line \(line): \(Self.columns[index]) '\(fields[index])' is not a number")
      }
      return value
    }
    func unsigned(_ index: Int) throws(ResultsFileError) -> UInt64 {
      guard let value = UInt64(fields[index]) else {
        throw ResultsFileError(
          "line \(line): \(Self.columns[index]) '\(fields[index])' is not a number")
      }
      return value
    }
    func optional(_ index: Int) throws(ResultsFileError) -> UInt64? {
      fields[index].isEmpty ? nil : try unsigned(index)
    }
    runID = fields[0]
    timestamp = fields[1]
    commit = fields[2]
    machine = fields[3]
    scene = fields[4]
    variant = fields[5]
    views = try integer(6)
    variables = try integer(7)
    constraints = try integer(8)
    solver = fields[9]
    mode = fields[10]
    phase = fields[11]
    repetitions = try integer(12)
    medianNanoseconds = try unsigned(13)
    minimumNanoseconds = try unsigned(14)
    p90Nanoseconds = try unsigned(15)
    maximumNanoseconds = try unsigned(16)
    allocations = try optional(17)
    allocatedBytes = try optional(18)
    retainedBytes = try optional(19)
    peakBytes = try optional(20)
    instructions = try optional(21)
    checksum = fields[22]
    status = fields[23]
    note = fields[24]
  }

  /// What identifies the cell across runs.
  public var key: String { "\(scene)/\(variant)/\(views)/\(solver)/\(mode)/\(phase)" }
}

/// A results file that cannot be read: missing, malformed, or of another schema.
public struct ResultsFileError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// A CSV results file: the header, then one row per cell.
public enum ResultsFile {
  /// The whole file's text.
  public static func text(_ rows: [ResultRow]) -> String {
    CSV.line(ResultRow.columns) + rows.map { CSV.line($0.fields) }.joined()
  }

  /// The rows of a results file's text; throws on another schema or a malformed row.
  public static func rows(_ text: String) throws(ResultsFileError) -> [ResultRow] {
    let records: [[String]]
    do throws(CSVError) {
      records = try CSV.records(text)
    } catch {
      throw ResultsFileError("not CSV: \(error)")
    }
    guard let header = records.first else { throw ResultsFileError("the file is empty") }
    guard header == ResultRow.columns else {
      // Name the columns that differ, not the header's first few (two headers of different
      // schemas often share them).
      let missing = ResultRow.columns.filter { !header.contains($0) }
      let unknown = header.filter { !ResultRow.columns.contains($0) }
      var problems: [String] = []
      if !missing.isEmpty { problems.append("lacks " + missing.joined(separator: ", ")) }
      if !unknown.isEmpty { problems.append("has unknown " + unknown.joined(separator: ", ")) }
      if problems.isEmpty { problems.append("has its columns in another order") }
      throw ResultsFileError(
        "not a LayoutBench results file of this schema: the header "
          + problems.joined(separator: " and "))
    }
    var rows: [ResultRow] = []
    for (index, record) in records.dropFirst().enumerated() where record != [""] {
      rows.append(try ResultRow(fields: record, line: index + 2))
    }
    return rows
  }
}
