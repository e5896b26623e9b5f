import AutoLayout
import Harness
import Testing

/// The frame checksum must not depend on the last bits of rounding error, which differ between
/// solvers and between incremental and full solves.
@Suite struct FrameChecksumTests {
  func checksum(x: Double, width: Double = 10) -> String {
    frameChecksum(View(frame: Rect(x: x, y: 0, width: width, height: 20)))
  }

  /// 12.7109375 (91/128 past 12) lies halfway between two millionths: rounded from zero, a
  /// 2e-15 error sent it one way or the other (the sparse solver's incremental and full solves
  /// of stack-grid at 10,000 views disagreed this way).
  @Test func aHalvedLengthChecksumsAlikeWhicheverWayItsLastBitFalls() {
    #expect(checksum(x: 12.7109375) == checksum(x: 12.710937499999998))
    #expect(checksum(x: 1.3046875) == checksum(x: 1.304687499999993))
    #expect(checksum(x: 1.3046875) == checksum(x: 1.3046875000000058))
  }

  @Test func aDifferenceOfAMillionthChangesTheChecksum() {
    #expect(checksum(x: 12.7109375) != checksum(x: 12.7109385))
    #expect(checksum(x: 0, width: 100) != checksum(x: 0, width: 100.000001))
  }
}
