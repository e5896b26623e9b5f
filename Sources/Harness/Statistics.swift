/// The summary of a cell's timings: what the CSV reports.
public struct TimingSummary: Equatable, Sendable {
  /// How many measured repetitions.
  public var count: Int
  public var median: UInt64
  public var minimum: UInt64
  /// The 90th percentile (nearest rank).
  public var p90: UInt64
  public var maximum: UInt64

  /// The summary of `samples` (nanoseconds); all zero for none.
  public init(_ samples: [UInt64]) {
    let sorted = samples.sorted()
    count = sorted.count
    guard !sorted.isEmpty else {
      median = 0
      minimum = 0
      p90 = 0
      maximum = 0
      return
    }
    let middle = sorted.count / 2
    median =
      sorted.count % 2 == 1
      ? sorted[middle]
      : sorted[middle - 1] / 2 + sorted[middle] / 2
        + (sorted[middle - 1] % 2 + sorted[middle] % 2) / 2
    minimum = sorted[0]
    maximum = sorted[sorted.count - 1]
    let rank = Int((0.9 * Double(sorted.count)).rounded(.up))
    p90 = sorted[max(0, rank - 1)]
  }
}

/// The slope of the least-squares line through (log x, log y): how cost grows with size
/// (1.0 is linear, 2.0 quadratic). `nil` with fewer than two points or any non-positive value.
public func logLogSlope(_ points: [(x: Double, y: Double)]) -> Double? {
  guard points.count >= 2, points.allSatisfy({ $0.x > 0 && $0.y > 0 }) else { return nil }
  let xs = points.map { log($0.x) }, ys = points.map { log($0.y) }
  let meanX = xs.reduce(0, +) / Double(xs.count), meanY = ys.reduce(0, +) / Double(ys.count)
  var numerator = 0.0, denominator = 0.0
  for (x, y) in zip(xs, ys) {
    numerator += (x - meanX) * (y - meanY)
    denominator += (x - meanX) * (x - meanX)
  }
  return denominator == 0 ? nil : numerator / denominator
}

/// What a cost measured at smaller sizes (`points`, size ascending) comes to at `size`: the last
/// point carried along the log-log slope of them all, never below 1, or along a slope of 2 from
/// a single point; `nil` without points. The harness and the solver probe skip a size whose
/// estimate passes their budget rather than run it (and exhaust the time or the memory).
public func extrapolate(_ points: [(x: Double, y: Double)], to size: Double)
  -> (value: Double, slope: Double)?
{
  guard let last = points.last else { return nil }
  let slope = points.count >= 2 ? max(1, logLogSlope(points) ?? 2) : 2
  return (last.y * pow(size / last.x, slope), slope)
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The monotonic clock, in nanoseconds.
public func monotonicNanoseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Page faults this process has taken that the kernel served without I/O (first touches of new
/// memory, mostly), from `getrusage`. The difference across a phase counts the new pages it
/// touched: at over a microsecond each, a build that grows its tables by copying them into new
/// memory pays for them in time as well as in instructions.
public func minorPageFaults() -> Int {
  var usage = rusage()
  #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
  #else
    getrusage(RUSAGE_SELF, &usage)
  #endif
  return Int(usage.ru_minflt)
}
