/// A figure a result row carries, with what a reader needs to judge it: its unit, which way is
/// better, whether it repeats exactly from run to run, and whether a gate judges it.
public enum Metric: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
  /// The median time of one repetition.
  case medianTime = "median_ns"
  /// Bytes this thread allocated during one repetition.
  case allocatedBytes = "allocated_bytes"
  /// Bytes allocated process-wide after the phase.
  case retainedBytes = "retained_bytes"
  /// The thread's peak net allocation during one repetition.
  case peakBytes = "peak_bytes"
  /// Instructions in one repetition, under callgrind.
  case instructions
  /// Allocation requests during one repetition (batched by jemalloc's thread caches).
  case allocations
  /// The hash of every frame after the phase.
  case checksum

  /// What a figure of a metric counts.
  public enum Unit: String, Sendable {
    case nanoseconds = "ns"
    case bytes = "B"
    case instructions
    case requests
    /// A hash: equal or not, never larger or smaller.
    case hash
  }

  /// The CSV column (and database column) that holds the figure.
  public var column: String { rawValue }

  public var description: String { rawValue }

  /// What the figure counts.
  public var unit: Unit {
    switch self {
    case .medianTime: .nanoseconds
    case .allocatedBytes, .retainedBytes, .peakBytes: .bytes
    case .instructions: .instructions
    case .allocations: .requests
    case .checksum: .hash
    }
  }

  /// Whether a smaller figure is better (every metric but the checksum, which is only equal
  /// or not).
  public var lowerIsBetter: Bool { self != .checksum }

  /// Whether the same build on the same inputs gives the same figure: checksums, bytes and
  /// instructions. Times are noisy, and so are allocation request counts (jemalloc's thread
  /// caches batch them) and the process-wide retained bytes.
  public var isDeterministic: Bool {
    switch self {
    case .checksum, .allocatedBytes, .instructions: true
    case .medianTime, .allocations, .retainedBytes, .peakBytes: false
    }
  }

  /// Whether `bench compare`'s gate judges the figure: the deterministic ones against a
  /// tolerance, and the median time by the U test on the samples (`bench history regressions`
  /// judges times only as ratios inside one run). Allocation requests, retained and peak bytes
  /// are reported, never gated.
  public var isGated: Bool { isDeterministic || self == .medianTime }

  /// The metric's figure in `row`, or nil where the row has none (the checksum has no number).
  ///
  /// - Complexity: O(1).
  public func value(in row: ResultRow) -> UInt64? {
    switch self {
    case .medianTime: row.status == .ok ? row.medianNanoseconds.flatMap { $0 > 0 ? $0 : nil } : nil
    case .allocatedBytes: row.allocatedBytes
    case .retainedBytes: row.retainedBytes
    case .peakBytes: row.peakBytes
    case .instructions: row.instructions
    case .allocations: row.allocations
    case .checksum: nil
    }
  }
}
