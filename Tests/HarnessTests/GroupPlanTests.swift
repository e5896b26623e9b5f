import Harness
import Testing

/// How the runner decides, from a group's estimated pass, whether it runs with its warm-up
/// passes, without them, or not at all, and when it measures a probe pass to estimate from.
@Suite struct GroupPlanTests {
  @Test func aSizeFarPastTheMachineIsRefusedBeforeAnythingIsMeasured() throws {
    let reason = try #require(
      BenchmarkRunner.memoryRefusal(views: 10_000_000, measured: nil, budget: 8 << 30))
    #expect(
      reason
        == "estimated 156250 MiB (16384 bytes a view, assumed before any size was measured), "
        + "over the memory budget of 8192 MiB (--memory-budget)")
  }

  @Test func theEstimateFollowsTheBytesAViewMeasuredAtASmallerSize() throws {
    // 5 KB a view at 10,000 views: 100,000 views fit in 1 GiB, 1,000,000 do not.
    let measured = (views: 10_000, bytes: 5_000.0)
    #expect(
      BenchmarkRunner.memoryRefusal(views: 100_000, measured: measured, budget: 1 << 30) == nil)
    let reason = try #require(
      BenchmarkRunner.memoryRefusal(views: 1_000_000, measured: measured, budget: 1 << 30))
    #expect(reason.hasPrefix("estimated 4768 MiB (5000 bytes a view, measured at 10000 views)"))
  }

  @Test func aGroupWhosePassesFitRunsWithItsWarmUp() {
    let plan = BenchmarkRunner.plan(
      estimate: 6, slope: 2.5, warmup: 2, fullPasses: 1, budget: 20)
    #expect(plan == .run(warmup: 2, note: nil))
  }

  @Test func aGroupWhoseWarmUpWouldPassTheBudgetRunsWithoutIt() {
    let plan = BenchmarkRunner.plan(
      estimate: 14, slope: 2.77, warmup: 2, fullPasses: 1, budget: 20)
    guard case .run(let warmup, let note?) = plan else {
      Issue.record("expected a run with a note, got \(plan)")
      return
    }
    #expect(warmup == 0)
    #expect(note.contains("no warm-up: one pass estimated at 14 s (slope 2.77"))
  }

  @Test func aGroupWhosePassAlonePassesTheBudgetIsSkipped() {
    let plan = BenchmarkRunner.plan(
      estimate: 88, slope: 3.12, warmup: 2, fullPasses: 1, budget: 20)
    guard case .skip(let reason) = plan else {
      Issue.record("expected a skip, got \(plan)")
      return
    }
    #expect(reason.contains("estimated 88 s"))
    #expect(reason.contains("over the 20 s cell budget"))
  }

  /// A full group has no warm-up; its re-solves count as passes.
  @Test func aFullGroupCountsItsReSolves() {
    #expect(
      BenchmarkRunner.plan(estimate: 3, slope: 2, warmup: 0, fullPasses: 6, budget: 20)
        == .run(warmup: 0, note: nil))
    guard
      case .skip(let reason) = BenchmarkRunner.plan(
        estimate: 4, slope: 2, warmup: 0, fullPasses: 6, budget: 20)
    else {
      Issue.record("6 passes of 4 s should pass a 20 s budget")
      return
    }
    #expect(reason.contains("x 6 passes (full re-solves included)"))
  }

  /// From one size, a probe at the geometric mean is measured only when an assumed slope of 3
  /// would pass the budget and the probe itself is cheap.
  @Test func aProbeIsMeasuredOnlyWhenTheSlopeMattersAndItIsCheap() {
    // 0.067 s at 100 views: at slope 3, 67 s at 1,000 (over 20 s); 2.1 s at 316.
    #expect(
      BenchmarkRunner.probeSize(between: (100, 0.067), and: 1000, passes: 3, budget: 20) == 316)
    // 2 ms at 100 views: even at slope 3, 2 s x 3 passes fit; no probe needed.
    #expect(
      BenchmarkRunner.probeSize(between: (100, 0.002), and: 1000, passes: 3, budget: 20) == nil)
    // 0.5 s at 100 views: the probe at 316 alone would take about 16 s at slope 3.
    #expect(
      BenchmarkRunner.probeSize(between: (100, 0.5), and: 1000, passes: 3, budget: 20) == nil)
  }
}
