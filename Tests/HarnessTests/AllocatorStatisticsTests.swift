import Harness
import Testing

@Suite struct AllocatorStatisticsTests {
  /// If the link ever falls back to glibc malloc, `version` is nil and the counters stand still.
  @Test func processAllocatorIsJemalloc() throws {
    let version = try #require(AllocatorStatistics.version)
    #expect(version.hasPrefix("5."))
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

  @Test func unknownStatisticThrowsANamedError() {
    #expect(throws: AllocatorStatisticsError.self) {
      try AllocatorStatistics.read("stats.no.such.thing", as: UInt64.self)
    }
  }
}
