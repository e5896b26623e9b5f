/// jemalloc's `stats.allocated` sampled during a soak, and what the samples say: how memory
/// drifted while the operations ran, and whether it came back once the run was undone.
///
/// The verdict compares two states of the same scene: after its first layout, and after the
/// run's changes were undone (extras removed, every value put back). A solver or model that
/// keeps what the run made it grow (ids never reused, tables that never shrink, caches) holds
/// more in the second state; one that gives memory back holds what it held in the first,
/// within ``returnTolerance``.
///
/// The figure is process-wide: it includes the reference scene and the checks' solver copies
/// (freed before each sample is taken).
public struct MemoryDrift: Equatable, Sendable {
  /// (operations run, bytes allocated) at each sample, the first after the first layout.
  public private(set) var samples: [(operations: Int, bytes: Int)] = []
  /// Bytes allocated after the run was undone and the scene laid out again, if it was.
  public private(set) var afterUndo: Int?

  /// How far above the start memory may be after the run is undone and still count as
  /// returned: 1 %.
  public static let returnTolerance = 0.01

  /// No samples yet; room for `expectedSamples` of them, so that recording them allocates
  /// nothing the comparison of the first and last would count.
  public init(expectedSamples: Int = 0) {
    samples.reserveCapacity(expectedSamples)
  }

  /// Reads `stats.allocated` now (after flushing this thread's cache and advancing jemalloc's
  /// statistics epoch) and records it.
  public mutating func sample(after operations: Int) {
    AllocatorStatistics.flushThreadCache()
    AllocatorStatistics.refresh()
    record(after: operations, bytes: AllocatorStatistics.allocatedBytes)
  }

  /// Records one sample: for tests, and for callers that read the allocator themselves.
  public mutating func record(after operations: Int, bytes: Int) {
    samples.append((operations, bytes))
  }

  /// Reads `stats.allocated` now as the figure after the run was undone.
  public mutating func sampleAfterUndo() {
    AllocatorStatistics.flushThreadCache()
    AllocatorStatistics.refresh()
    recordAfterUndo(bytes: AllocatorStatistics.allocatedBytes)
  }

  /// Records the figure after the run was undone: for tests.
  public mutating func recordAfterUndo(bytes: Int) {
    afterUndo = bytes
  }

  /// Whether memory came back: the figure after the undo is at most ``returnTolerance`` above
  /// the start; `nil` before the undo.
  public var returns: Bool? {
    afterUndo.map { Double($0 - start) <= Self.returnTolerance * Double(start) }
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

  public static func == (lhs: MemoryDrift, rhs: MemoryDrift) -> Bool {
    lhs.samples.elementsEqual(rhs.samples) { $0 == $1 } && lhs.afterUndo == rhs.afterUndo
  }
}
