import CCallgrind

/// Instruction counts from valgrind's callgrind: the figure that repeats on a noisy machine.
///
/// `bench run --callgrind` runs the matrix under
/// `valgrind --tool=callgrind --instr-atstart=no`, so nothing is instrumented until the runner
/// switches instrumentation on around the body of a phase (``measure(_:_:)``). Each measured
/// phase ends with a dump file whose trigger names the cell (``label(forCell:)``); the parent
/// process reads the files back (``CallgrindDump``) and puts the counts into the `instructions`
/// column.
public enum Callgrind {
  /// Whether this build has callgrind's client requests: valgrind's headers were installed when
  /// it was compiled. Without them ``measure(_:_:)`` only runs its body.
  public static var isSupported: Bool { lb_callgrind_is_supported() != 0 }

  /// Whether the process runs under valgrind.
  public static var isRunning: Bool { lb_running_on_valgrind() > 0 }

  /// The prefix of every label the harness gives a dump.
  static let labelPrefix = "layoutbench cell "

  /// The dump label of a cell, from its key (``ResultRow/key``).
  public static func label(forCell key: CellKey) -> String { labelPrefix + key.description }

  /// The cell key a dump label names, or nil when the dump is not one of a cell (the final dump
  /// at exit, or one made by other code).
  public static func cell(fromLabel label: String) -> CellKey? {
    label.hasPrefix(labelPrefix) ? CellKey(String(label.dropFirst(labelPrefix.count))) : nil
  }

  /// Runs `body` with callgrind's counters zeroed and instrumentation on around it, then switches
  /// instrumentation off and dumps the counters under `label`. Natively, or in a build without
  /// valgrind's headers, only runs `body`.
  ///
  /// The label's C string is made before the counters start, so it costs no instructions.
  @inline(__always)
  public static func measure<Result>(
    _ label: String, _ body: () throws -> Result
  ) rethrows -> Result {
    try label.withCString { cLabel in
      lb_callgrind_zero_stats()
      lb_callgrind_start_instrumentation()
      let result: Result
      do {
        result = try body()
      } catch {
        lb_callgrind_stop_instrumentation()
        lb_callgrind_dump_stats(cLabel)
        throw error
      }
      lb_callgrind_stop_instrumentation()
      lb_callgrind_dump_stats(cLabel)
      return result
    }
  }
}

/// The header and totals of one callgrind output file (format version 1): what was counted and
/// how much, and the trigger that wrote it.
public struct CallgrindDump: Equatable, Sendable {
  /// The `desc: Trigger:` text, e.g. `Client Request: layoutbench cell …` or `Program
  /// termination`.
  public var trigger = ""
  /// The event names of the `events:` line, e.g. `["Ir"]`.
  public var events: [String] = []
  /// The count of each event over the whole dump, in ``events`` order (`totals:`, or `summary:`
  /// when the file has no `totals:` line).
  public var totals: [UInt64] = []

  /// The label given to `CALLGRIND_DUMP_STATS_AT`, or nil for another trigger.
  public var label: String? {
    let prefix = "Client Request: "
    return trigger.hasPrefix(prefix) ? String(trigger.dropFirst(prefix.count)) : nil
  }

  /// Instructions executed (the `Ir` event).
  public var instructions: UInt64? {
    events.firstIndex(of: "Ir").flatMap { $0 < totals.count ? totals[$0] : nil }
  }

  /// Reads a dump file's text; throws when it has no `events:` line or no totals.
  public init(text: String) throws(CallgrindDumpError) {
    var summary: [UInt64]?
    var totals: [UInt64]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      // Header and totals lines are `name: value`; cost lines start with a digit, `+`, `-` or
      // `*`, and position lines with `fl=`, `fn=`, …, so a colon test skips them cheaply.
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon]
      let value = line[line.index(after: colon)...].drop { $0 == " " }
      switch name {
      case "desc":
        let prefix = "Trigger: "
        if value.hasPrefix(prefix) { trigger = String(value.dropFirst(prefix.count)) }
      case "events":
        events = value.split(separator: " ").map(String.init)
      case "summary", "totals":
        let numbers = value.split(separator: " ").compactMap { UInt64($0) }
        guard numbers.count == value.split(separator: " ").count else {
          throw CallgrindDumpError("malformed \(name) line: \(line)")
        }
        if name == "summary" { summary = numbers } else { totals = numbers }
      default:
        continue
      }
    }
    guard !events.isEmpty else { throw CallgrindDumpError("no events: line") }
    guard let counts = totals ?? summary else {
      throw CallgrindDumpError("no totals: or summary: line")
    }
    self.totals = counts
  }

  /// The instruction count of each cell in `dumps` (file texts), by cell key: the first dump of
  /// each cell counts, dumps of other triggers are ignored.
  public static func instructionsByCell(
    _ dumps: [String]
  ) throws(CallgrindDumpError) -> [CellKey: UInt64] {
    var counts: [CellKey: UInt64] = [:]
    for text in dumps {
      let dump = try CallgrindDump(text: text)
      guard let label = dump.label, let cell = Callgrind.cell(fromLabel: label),
        let instructions = dump.instructions, counts[cell] == nil
      else { continue }
      counts[cell] = instructions
    }
    return counts
  }
}

/// A callgrind output file that cannot be read.
public struct CallgrindDumpError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
