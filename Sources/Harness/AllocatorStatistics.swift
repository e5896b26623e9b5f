import CJemalloc

/// The process allocator's own statistics, read from jemalloc through `mallctl`.
///
/// The harness links jemalloc as the process allocator (see the `CJemalloc` target), so these
/// figures count every allocation Swift makes: array buffers, class instances, strings. Per-thread
/// counters are exact and cheap; process-wide figures are snapshots that jemalloc refreshes only
/// when ``refresh()`` advances its statistics epoch.
public enum AllocatorStatistics {
  /// The jemalloc version string, or `nil` when the process allocator is not jemalloc.
  public static var version: String? {
    var pointer: UnsafePointer<CChar>? = nil
    var length = MemoryLayout<UnsafePointer<CChar>?>.size
    guard ctl("version", &pointer, &length, nil, 0) == 0, let pointer else { return nil }
    return String(cString: pointer)
  }

  /// Whether the process allocator is jemalloc and answers statistics queries.
  public static var isAvailable: Bool { version != nil }

  /// Advances jemalloc's statistics epoch so that the process-wide figures are current.
  public static func refresh() {
    var newEpoch: UInt64 = 1
    var oldEpoch: UInt64 = 0
    var length = MemoryLayout<UInt64>.size
    _ = ctl("epoch", &oldEpoch, &length, &newEpoch, length)
  }

  /// Returns this thread's cached free blocks to their arenas (`thread.tcache.flush`). A block
  /// freed into the thread cache still counts in the arenas' `stats.allocated` until then, so
  /// a sample taken without a flush counts what recent work freed (tens of kilobytes, varying
  /// with the last operations) as live.
  public static func flushThreadCache() {
    _ = ctl("thread.tcache.flush", nil, nil, nil, 0)
  }

  /// Bytes in live allocations, process-wide (`stats.allocated`), as of the last ``refresh()``.
  public static var allocatedBytes: Int { (try? read("stats.allocated", as: Int.self)) ?? 0 }

  /// Bytes in active pages, process-wide (`stats.active`), as of the last ``refresh()``.
  public static var activeBytes: Int { (try? read("stats.active", as: Int.self)) ?? 0 }

  /// Bytes of physically resident allocator memory (`stats.resident`), as of the last ``refresh()``.
  public static var residentBytes: Int { (try? read("stats.resident", as: Int.self)) ?? 0 }

  /// The bytes jemalloc gave `object`'s allocation: its size class (`malloc_usable_size`), which
  /// a class instance's stored properties decide.
  ///
  /// - Complexity: O(1).
  public static func allocatedSize(of object: AnyObject) -> Int {
    malloc_usable_size(Unmanaged.passUnretained(object).toOpaque())
  }

  /// Bytes this thread has ever allocated (`thread.allocatedp`); exact and current.
  public static var threadAllocatedBytes: UInt64 { threadCounter("thread.allocatedp") }

  /// Bytes this thread has ever freed (`thread.deallocatedp`); exact and current.
  public static var threadDeallocatedBytes: UInt64 { threadCounter("thread.deallocatedp") }

  /// Allocation requests served by all arenas, small and large, since the process started
  /// (`stats.arenas.4096.{small,large}.nrequests`), as of the last ``refresh()``.
  ///
  /// Requests served from a thread cache are counted too (`nmalloc` counts only cache refills),
  /// but only once the cache flushes them into the arena's statistics (when a bin is flushed or
  /// the cache is destroyed), so a reading lags by what the cache has served since. Two quick
  /// runs of the same build differed in 255 of 624 cells' counts (form's first solve at 50 views
  /// on the dense solver: 519 and 1,158); their bytes were equal in every cell.
  public static var allocationCount: UInt64 {
    let small = (try? read("stats.arenas.4096.small.nrequests", as: UInt64.self)) ?? 0
    let large = (try? read("stats.arenas.4096.large.nrequests", as: UInt64.self)) ?? 0
    return small + large
  }

  /// Resets this thread's peak-usage tracker (`thread.peak.reset`, jemalloc 5.3).
  public static func resetThreadPeak() {
    _ = ctl("thread.peak.reset", nil, nil, nil, 0)
  }

  /// The highest net bytes this thread had allocated since ``resetThreadPeak()``
  /// (`thread.peak.read`, jemalloc 5.3).
  public static var threadPeakBytes: UInt64 {
    (try? read("thread.peak.read", as: UInt64.self)) ?? 0
  }

  /// Whether jemalloc records where allocations were made: the process was started with
  /// `MALLOC_CONF=prof:true` and jemalloc was built with profiling (`opt.prof`).
  public static var isProfiling: Bool { (try? read("opt.prof", as: Bool.self)) ?? false }

  /// Writes jemalloc's heap profile of the allocations live now to `path` (`prof.dump`), which
  /// `jeprof` reads; true when it was written. Needs ``isProfiling``; set
  /// `lg_prof_sample:0` in `MALLOC_CONF` for every allocation rather than a sample.
  ///
  /// - Complexity: O(allocation sites recorded).
  @discardableResult
  public static func writeHeapProfile(to path: String) -> Bool {
    guard isProfiling else { return false }
    return path.withCString { name in
      var pointer: UnsafePointer<CChar>? = name
      return ctl("prof.dump", nil, nil, &pointer, MemoryLayout<UnsafePointer<CChar>?>.size) == 0
    }
  }

  /// Reads one `mallctl` value of a trivial type.
  public static func read<Value: BitwiseCopyable>(
    _ name: StaticString, as type: Value.Type
  ) throws(AllocatorStatisticsError) -> Value {
    // A stack value rather than a heap buffer: reading a statistic must not itself allocate.
    var value: Value? = nil
    var length = MemoryLayout<Value>.size
    let status = withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { buffer in
      let status = ctl(name, buffer.baseAddress, &length, nil, 0)
      if status == 0 && length == MemoryLayout<Value>.size { value = buffer[0] }
      return status
    }
    guard let value else {
      throw AllocatorStatisticsError(name: name.description, status: status)
    }
    return value
  }

  private static func threadCounter(_ name: StaticString) -> UInt64 {
    guard let pointer = try? read(name, as: UnsafeMutablePointer<UInt64>.self) else { return 0 }
    return pointer.pointee
  }
}

extension AllocatorStatistics {
  /// `mallctl` with a name that needs no conversion: a `String` passed as a C string is copied
  /// into a temporary allocation (64 bytes), which the statistics read around a measured
  /// repetition would then count as the repetition's own.
  @inline(__always)
  fileprivate static func ctl(
    _ name: StaticString, _ old: UnsafeMutableRawPointer?, _ oldLength: UnsafeMutablePointer<Int>?,
    _ new: UnsafeMutableRawPointer?, _ newLength: Int
  ) -> Int32 {
    name.utf8Start.withMemoryRebound(to: CChar.self, capacity: name.utf8CodeUnitCount + 1) {
      mallctl($0, old, oldLength, new, newLength)
    }
  }
}

/// A statistic jemalloc would not report.
public struct AllocatorStatisticsError: Error, CustomStringConvertible {
  /// The `mallctl` name that was asked for.
  public var name: String
  /// The status `mallctl` returned (an `errno` value).
  public var status: Int32

  public var description: String {
    "jemalloc statistic '\(name)' is unavailable (mallctl returned \(status)); "
      + "is the process allocator jemalloc (libjemalloc-dev)?"
  }
}
