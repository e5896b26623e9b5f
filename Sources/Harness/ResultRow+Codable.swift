import Foundation
import Scenes

/// The row as JSON, with the CSV's field names (``ResultRow/columns``): the two are encoders of
/// the same row. Figures are numbers; what was not measured is `null`, never `0` or `""` (a
/// skipped row's times, checksum and bytes, instructions outside callgrind, an empty note or an
/// empty context field); `samples_ns` is an array of rounds of numbers.
extension ResultRow: Codable {
  /// The fields, by the CSV's column names.
  public enum CodingKeys: String, CodingKey, CaseIterable {
    case runID = "run_id"
    case timestamp, commit, machine, toolchain
    case cpuModel = "cpu_model"
    case jemalloc, matrix, shard, scene, variant, views, variables, constraints, solver, mode
    case phase, repetitions
    case medianNanoseconds = "median_ns"
    case minimumNanoseconds = "min_ns"
    case p90Nanoseconds = "p90_ns"
    case maximumNanoseconds = "max_ns"
    case allocations
    case allocatedBytes = "allocated_bytes"
    case retainedBytes = "retained_bytes"
    case peakBytes = "peak_bytes"
    case instructions, checksum, status, note
    case samples = "samples_ns"
  }

  /// Whether the row has times: measured, with repetitions and a median.
  var isTimed: Bool { status == .ok && repetitions > 0 && medianNanoseconds != nil }

  /// Whether the row has the solver's counts: measured, or a skipped row that still built.
  var isCounted: Bool { status == .ok || variables > 0 }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    func text(_ value: String, _ key: CodingKeys) throws {
      try container.encode(value.isEmpty ? nil : value, forKey: key)
    }
    try text(runID, .runID)
    try text(timestamp, .timestamp)
    try text(commit, .commit)
    try text(machine, .machine)
    try text(toolchain, .toolchain)
    try text(cpuModel, .cpuModel)
    try text(jemalloc, .jemalloc)
    try text(matrix, .matrix)
    try text(shard, .shard)
    try container.encode(scene.rawValue, forKey: .scene)
    try container.encode(variant, forKey: .variant)
    try container.encode(views, forKey: .views)
    try container.encode(isCounted ? variables : nil, forKey: .variables)
    try container.encode(isCounted ? constraints : nil, forKey: .constraints)
    try container.encode(solver.rawValue, forKey: .solver)
    try container.encode(mode.rawValue, forKey: .mode)
    try container.encode(phase.rawValue, forKey: .phase)
    try container.encode(repetitions, forKey: .repetitions)
    let timed = isTimed
    try container.encode(timed ? medianNanoseconds : nil, forKey: .medianNanoseconds)
    try container.encode(timed ? minimumNanoseconds : nil, forKey: .minimumNanoseconds)
    try container.encode(timed ? p90Nanoseconds : nil, forKey: .p90Nanoseconds)
    try container.encode(timed ? maximumNanoseconds : nil, forKey: .maximumNanoseconds)
    try container.encode(allocations, forKey: .allocations)
    try container.encode(allocatedBytes, forKey: .allocatedBytes)
    try container.encode(retainedBytes, forKey: .retainedBytes)
    try container.encode(peakBytes, forKey: .peakBytes)
    try container.encode(instructions, forKey: .instructions)
    try container.encode(checksum, forKey: .checksum)
    try container.encode(status.rawValue, forKey: .status)
    try text(note, .note)
    try container.encode(samples, forKey: .samples)
  }

  public init(from decoder: any Decoder) throws {
    self.init()
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func text(_ key: CodingKeys) throws -> String {
      try container.decodeIfPresent(String.self, forKey: key) ?? ""
    }
    func typed<Value: RawRepresentable>(_ key: CodingKeys, _ type: Value.Type) throws -> Value
    where Value.RawValue == String {
      let raw = try container.decode(String.self, forKey: key)
      guard let value = Value(rawValue: raw) else {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: container, debugDescription: "'\(raw)' is not a \(key.stringValue)")
      }
      return value
    }
    runID = try text(.runID)
    timestamp = try text(.timestamp)
    commit = try text(.commit)
    machine = try text(.machine)
    toolchain = try text(.toolchain)
    cpuModel = try text(.cpuModel)
    jemalloc = try text(.jemalloc)
    matrix = try text(.matrix)
    shard = try text(.shard)
    scene = try typed(.scene, SceneKind.self)
    variant = try container.decode(String.self, forKey: .variant)
    views = try container.decode(Int.self, forKey: .views)
    variables = try container.decodeIfPresent(Int.self, forKey: .variables) ?? 0
    constraints = try container.decodeIfPresent(Int.self, forKey: .constraints) ?? 0
    solver = try typed(.solver, Solver.self)
    mode = try typed(.mode, Mode.self)
    phase = try typed(.phase, Phase.self)
    repetitions = try container.decode(Int.self, forKey: .repetitions)
    medianNanoseconds = try container.decodeIfPresent(UInt64.self, forKey: .medianNanoseconds)
    minimumNanoseconds = try container.decodeIfPresent(UInt64.self, forKey: .minimumNanoseconds)
    p90Nanoseconds = try container.decodeIfPresent(UInt64.self, forKey: .p90Nanoseconds)
    maximumNanoseconds = try container.decodeIfPresent(UInt64.self, forKey: .maximumNanoseconds)
    allocations = try container.decodeIfPresent(UInt64.self, forKey: .allocations)
    allocatedBytes = try container.decodeIfPresent(UInt64.self, forKey: .allocatedBytes)
    retainedBytes = try container.decodeIfPresent(UInt64.self, forKey: .retainedBytes)
    peakBytes = try container.decodeIfPresent(UInt64.self, forKey: .peakBytes)
    instructions = try container.decodeIfPresent(UInt64.self, forKey: .instructions)
    checksum = try container.decodeIfPresent(String.self, forKey: .checksum)
    status = try typed(.status, Status.self)
    note = try text(.note)
    samples = try container.decodeIfPresent([[UInt64]].self, forKey: .samples) ?? []
  }
}
