/// jemalloc's `stats.allocated` sampled during a soak, and what the samples say about drift:
/// a leak grows with the operations run; a working set that settles returns toward its start.
///
/// The figure is process-wide: it includes the reference scene and the checks' solver copies
/// (freed before each sample is taken).
public struct MemoryDrift: Equatable, Sendable {
  /// (operations run, bytes allocated) at each sample, the first after the first layout.
  public private(set) var samples: [(operations: Int, bytes: Int)] = []

  /// No samples yet.
  public init() {}

  /// Reads `stats.allocated` now (after advancing jemalloc's statistics epoch) and records it.
  public mutating func sample(after operations: Int) {
    AllocatorStatistics.refresh()
    record(after: operations, bytes: AllocatorStatistics.allocatedBytes)
  }

  /// Records one sample: for tests, and for callers that read the allocator themselves.
  public mutating func record(after operations: Int, bytes: Int) {
    samples.append((operations, bytes))
  }

  /// Bytes at the first sample.
  public var start: Int { samples.first?.bytes ?? 0 }
  /// Bytes at the last sample.
  public var end: Int { samples.last?.bytes ?? 0 }
  /// The most bytes sampled.
  public var maximum: Int { samples.map(\.bytes).max() ?? 0 }

  /// (end − start) per 1,000 operations: the net growth rate over the whole run.
  public var bytesPerThousandOperations: Double {
    guard let first = samples.first, let last = samples.last, last.operations > first.operations
    else { return 0 }
    return Double(last.bytes - first.bytes) / Double(last.operations - first.operations) * 1000
  }

  /// The least-squares slope of the second half of the samples, per 1,000 operations: the
  /// growth rate once warm-up (pools and caches reaching their working sizes) is over. A leak
  /// keeps it positive.
  public var lateBytesPerThousandOperations: Double {
    let late = samples.suffix(max(2, samples.count / 2))
    guard late.count >= 2 else { return 0 }
    let n = Double(late.count)
    let meanX = late.map { Double($0.operations) }.reduce(0, +) / n
    let meanY = late.map { Double($0.bytes) }.reduce(0, +) / n
    var covariance = 0.0, variance = 0.0
    for sample in late {
      let dx = Double(sample.operations) - meanX
      covariance += dx * (Double(sample.bytes) - meanY)
      variance += dx * dx
    }
    return variance == 0 ? 0 : covariance / variance * 1000
  }

  /// Whether the end is nearer the start than the peak (or no growth at all): memory that
  /// the operations took was given back.
  public var returnsTowardStart: Bool {
    end - start <= max(0, maximum - start) / 2
  }

  public static func == (lhs: MemoryDrift, rhs: MemoryDrift) -> Bool {
    lhs.samples.elementsEqual(rhs.samples) { $0 == $1 }
  }
}
