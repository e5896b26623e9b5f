import Harness
import Testing

@Suite struct AllocatorStatisticsTests {
  /// If the link ever falls back to glibc malloc, `version` is nil and the counters stand still.
  @Test func processAllocatorIsJemalloc() throws {
    let version = try #require(AllocatorStatistics.version)
    #expect(version.hasPrefix("5."))
  }

  /// The meter's own reads allocate nothing, so a phase that allocates nothing reports 0 bytes
  /// (a `String` name passed to `mallctl` used to cost 64 bytes a read).
  @Test func aMeterAroundNothingCountsNothing() {
    for _ in 0..<3 {
      let delta = AllocationMeter().stop()
      #expect(delta.allocatedBytes == 0 && delta.peakBytes == 0)
    }
    let meter = AllocationMeter()
    let array = [Int64](repeating: 1, count: 1000)
    let delta = meter.stop()
    #expect(delta.allocatedBytes >= 8000 && array.count == 1000)
  }

  @Test func countersSeeHundredMegabytesOfSwiftArrays() {
    let count = 100
    let elementsPerArray = 1 << 17  // 1 MiB of Int64 each
    AllocatorStatistics.refresh()
    let liveBefore = AllocatorStatistics.allocatedBytes
    let threadBefore = AllocatorStatistics.threadAllocatedBytes
    let meter = AllocationMeter()

    var arrays: [[Int64]] = []
    arrays.reserveCapacity(count)
    for index in 0..<count {
      arrays.append([Int64](repeating: Int64(index), count: elementsPerArray))
    }

    let delta = meter.stop()
    let liveAfter = AllocatorStatistics.allocatedBytes
    let threadAfter = AllocatorStatistics.threadAllocatedBytes
    let expected = count * elementsPerArray * MemoryLayout<Int64>.stride

    #expect(liveAfter - liveBefore >= expected)
    #expect(threadAfter - threadBefore >= UInt64(expected))
    #expect(delta.allocatedBytes >= UInt64(expected))
    #expect(delta.allocations >= UInt64(count))
    #expect(delta.peakBytes >= UInt64(expected))
    #expect(arrays.reduce(0) { $0 + $1.count } == count * elementsPerArray)

    arrays.removeAll()
    #expect(AllocatorStatistics.threadDeallocatedBytes >= UInt64(expected))
  }

  /// Freed small blocks stay in jemalloc's thread cache, which `stats.allocated` still counts;
  /// the meter's net figure comes from the thread's exact counters, so it returns to zero, and
  /// counts a block that stays live.
  @Test func netBytesAreExactAcrossTheThreadCache() {
    func fill(_ arrays: inout [[Int64]]) {
      for index in 0..<1_000 { arrays.append([Int64](repeating: Int64(index), count: 8)) }
    }
    // Anything the meter, or the runtime for these array types, sets up once on first use
    // (type metadata the test would otherwise be first to need) happens before the meter runs.
    var warmUp: [[Int64]] = []
    fill(&warmUp)
    warmUp = []
    _ = AllocationMeter().stop()
    let meter = AllocationMeter()
    var arrays: [[Int64]] = []
    fill(&arrays)
    let kept = [Int64](repeating: 7, count: 1_000)
    let whileLive = meter.stop().netBytes
    arrays = []
    let afterFree = meter.stop().netBytes
    let keptBytes = kept.capacity * MemoryLayout<Int64>.stride

    #expect(whileLive >= 1_000 * 8 * MemoryLayout<Int64>.stride + keptBytes)
    #expect(afterFree >= keptBytes && afterFree < keptBytes + 64)  // its header and size class
    #expect(arrays.isEmpty && kept.count == 1_000)
  }

  @Test func unknownStatisticThrowsANamedError() {
    #expect(throws: AllocatorStatisticsError.self) {
      try AllocatorStatistics.read("stats.no.such.thing", as: UInt64.self)
    }
  }
}
