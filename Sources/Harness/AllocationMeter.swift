/// What one stretch of code cost the allocator: the difference of two ``AllocationMeter`` readings.
public struct AllocationDelta: Equatable, Sendable {
  /// Allocation requests made (process-wide; the harness measures on one thread). Approximate:
  /// the requests a thread cache serves reach these counters only when it flushes, so the count
  /// moves between runs (see ``AllocatorStatistics/allocationCount``).
  public var allocations: UInt64
  /// Bytes this thread allocated.
  public var allocatedBytes: UInt64
  /// Bytes this thread freed.
  public var deallocatedBytes: UInt64
  /// The thread's peak net allocation above its level at the start.
  public var peakBytes: UInt64

  /// Bytes this thread allocated and did not free (allocated − freed; negative when it freed
  /// more than it allocated): what the code left live, exactly. jemalloc's process-wide
  /// `stats.allocated` also counts the blocks its thread caches hold, so it moves by hundreds of
  /// kilobytes either way when nothing leaks.
  public var netBytes: Int { Int(truncatingIfNeeded: allocatedBytes &- deallocatedBytes) }
}

/// Measures the allocations of a stretch of code on the current thread.
///
/// Start it, run the code, and read ``stop()``. The byte figures are this thread's exact counters,
/// so they repeat from run to run when the code is deterministic (set
/// `SWIFT_DETERMINISTIC_HASHING=1`); the allocation count does not (see
/// ``AllocationDelta/allocations``).
public struct AllocationMeter {
  private var startAllocations: UInt64
  private var startAllocated: UInt64
  private var startDeallocated: UInt64

  /// Starts measuring now.
  public init() {
    AllocatorStatistics.refresh()
    startAllocations = AllocatorStatistics.allocationCount
    startAllocated = AllocatorStatistics.threadAllocatedBytes
    startDeallocated = AllocatorStatistics.threadDeallocatedBytes
    AllocatorStatistics.resetThreadPeak()
  }

  /// What was allocated since the meter started.
  public func stop() -> AllocationDelta {
    let allocated = AllocatorStatistics.threadAllocatedBytes
    let deallocated = AllocatorStatistics.threadDeallocatedBytes
    let peak = AllocatorStatistics.threadPeakBytes
    AllocatorStatistics.refresh()
    return AllocationDelta(
      allocations: AllocatorStatistics.allocationCount &- startAllocations,
      allocatedBytes: allocated &- startAllocated,
      deallocatedBytes: deallocated &- startDeallocated,
      peakBytes: peak)
  }
}
