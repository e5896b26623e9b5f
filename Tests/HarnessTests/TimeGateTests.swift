import Harness
import Testing

@Suite("The time gate")
struct TimeGateTests {
  /// p-values from SciPy 1.17's `mannwhitneyu(a, b, alternative="two-sided")`, exact for the
  /// tie-free cases and asymptotic (tie and continuity corrections) for the one with ties.
  @Test(
    arguments: [
      ([1, 2, 3, 4, 5], [6, 7, 8, 9, 10], 0.007936507936507936),
      ([1, 3, 5, 7, 9], [2, 4, 6, 8, 10], 0.6904761904761905),
      ([10, 12, 11, 15, 14, 13], [16, 18, 17, 20, 19, 21], 0.0021645021645021645),
      ([1, 2, 2, 3, 4, 5, 5, 6], [3, 4, 5, 7, 8, 8, 9, 10], 0.02312567407668022),
    ] as [([UInt64], [UInt64], Double)])
  func uTestMatchesSciPy(a: [UInt64], b: [UInt64], expected: Double) {
    #expect(abs(TimeTest.pValue(a, b) - expected) < 1e-9)
    #expect(abs(TimeTest.pValue(b, a) - expected) < 1e-9)
  }

  @Test func theSmallestPValueSaysHowManyRepetitionsAreNeeded() {
    #expect(abs(TimeTest.smallestPValue(5, 5) - 2.0 / 252) < 1e-12)
    #expect(TimeTest.smallestPValue(4, 4) > 0.01)  // 2 / 70
    #expect(TimeTest.smallestPValue(0, 5) == 1)
  }

  /// Six repetitions around `median` (±2 %), in one round.
  func round(_ median: UInt64) -> [UInt64] {
    [98, 99, 100, 100, 101, 102].map { median * $0 / 100 }
  }

  @Test func aSlowdownEveryRoundShowsIsCaught() {
    let before = [round(1000), round(1010), round(990)]
    let after = [round(1500), round(1480), round(1520)]
    #expect(TimeTest(baseline: before, current: after).verdict == .slower)
    #expect(TimeTest(baseline: after, current: before).verdict == .faster)
    // 5 % is below the 10 % threshold, however significant.
    let slightly = [round(1050), round(1060), round(1040)]
    let test = TimeTest(baseline: before, current: slightly)
    #expect(test.verdict == .same && test.pValue! < 0.01)
  }

  @Test func aBurstOfLoadInOneRoundIsNotAVerdict() {
    // One round of the current run met a busy machine: its six repetitions are all slow, which
    // the U test on the pooled times alone would call a regression.
    let before = [round(1000), round(1000), round(1000)]
    let burst = [round(2000), round(2000), round(1000)]
    let test = TimeTest(baseline: before, current: burst)
    #expect(test.pValue! < 0.01 && test.ratio > 1.1)
    #expect(test.verdict == .same)
  }

  @Test func aChangeMustOutgrowTheRoundsDisagreement() {
    // The baseline's rounds differ by 30 %: a run 1.5 times slower is within twice that.
    let noisy = [round(1000), round(1300), round(1000)]
    let slower = [round(1500), round(1500), round(1500)]
    let test = TimeTest(baseline: noisy, current: slower)
    #expect(abs(test.roundSpread - 0.3) < 0.01)
    #expect(test.verdict == .same)
    // Twice as slow is beyond it.
    let twice = [round(2700), round(2700), round(2700)]
    #expect(TimeTest(baseline: noisy, current: twice).verdict == .slower)
  }

  @Test func abSetsAsideOneOutlyingRoundASide() {
    // One baseline round ran in a process that shared its core for its whole life: every round
    // of the current run is 1.5 times the other two, not beyond that one.
    let before = [round(1000), round(1000), round(1500)]
    let after = [round(1500), round(1480), round(1520)]
    #expect(TimeTest(baseline: before, current: after).verdict == .same)
    let lenient = TimeTest(baseline: before, current: after, strictness: .allButOneRound)
    #expect(lenient.verdict == .slower)
    // Two rounds out of three out of line are not set aside.
    let twice = [round(1000), round(1500), round(1500)]
    #expect(
      TimeTest(baseline: twice, current: after, strictness: .allButOneRound).verdict == .same)
  }

  @Test func tooFewRepetitionsAreNotJudged() {
    let test = TimeTest(baseline: [[1000, 1001]], current: [[9000, 9001]])
    #expect(test.verdict == .tooFewSamples && test.pValue == nil)
  }

  @Test func samplesRoundTripThroughTheCSVByRound() throws {
    var row = ResultsFileTests().sample()
    row.samples = [[900, 1000, 1100], [950, 1050]]
    let text = ResultsFile.text([row])
    #expect(text.contains(",900 1000 1100|950 1050\r\n"))
    #expect(try ResultsFile.rows(text) == [row])
  }

  @Test func columnsAreReadByNameAndTheSamplesMayBeMissing() throws {
    let row = ResultsFileTests().sample()
    // A file written before the samples column, with its columns in another order.
    var columns = ResultRow.columns.filter { $0 != "samples_ns" }
    let fields = Dictionary(uniqueKeysWithValues: zip(ResultRow.columns, row.fields))
    columns.swapAt(0, 5)
    let text = CSV.line(columns) + CSV.line(columns.map { fields[$0]! })
    #expect(try ResultsFile.rows(text) == [row])
    // A header that names a column twice is refused.
    #expect {
      try ResultsFile.rows(CSV.line(ResultRow.columns + ["note"]))
    } throws: { error in
      "\(error)".contains("repeats note")
    }
  }

  @Test func poolingKeepsEachRoundAndRefusesADifferentChecksum() {
    var first = ResultsFileTests().sample()
    first.samples = [[1000, 1100, 1200]]
    first.repetitions = 3
    var second = first
    second.samples = [[3000, 3100, 3200]]
    let pooled = ResultRow.pooling(rounds: [[first], [second]])
    #expect(pooled.count == 1)
    #expect(pooled[0].samples == [[1000, 1100, 1200], [3000, 3100, 3200]])
    #expect(pooled[0].repetitions == 6)
    #expect(pooled[0].medianNanoseconds == 2100 && pooled[0].maximumNanoseconds == 3200)
    var other = second
    other.checksum = "0123"
    #expect(ResultRow.pooling(rounds: [[first], [other]])[0].status == .error)
    var skipped = second
    skipped.status = .skipped
    skipped.note = "over the budget"
    let partly = ResultRow.pooling(rounds: [[first], [skipped]])[0]
    #expect(partly.status == .skipped && partly.note == "over the budget")
  }

  @Test func theGateJudgesTimesFromTheirSamples() {
    var before = ResultsFileTests().sample()
    before.samples = [round(1000), round(1000), round(1000)]
    var after = before
    after.samples = [round(1500), round(1500), round(1500)]
    let slower = Comparison(baseline: [before], current: [after])
    #expect(slower.outcome() == .regression)
    #expect(slower.findings.contains { $0.metric == .metric(.medianTime) && $0.regression })
    #expect(slower.timed == 1 && slower.untimed.isEmpty)
    #expect(Comparison(baseline: [before], current: [before]).outcome() == .unchanged)
    var few = before
    few.samples = [[1000, 1000]]
    let untimed = Comparison(baseline: [few], current: [after])
    #expect(untimed.outcome() == .unchanged && untimed.untimed == [before.key])
    #expect(untimed.markdown.contains("not in 1 (too few repetitions)"))
  }

  @Test func theCellsTooNoisyToJudgeAreNamed() {
    var before = ResultsFileTests().sample()
    // Rounds 60 % apart: a change of 1.5 times would be within their disagreement.
    before.samples = [round(1000), round(1600), round(1000)]
    let comparison = Comparison(baseline: [before], current: [before])
    #expect(comparison.noisy == [before.key])
    #expect(comparison.outcome() == .unchanged)
    #expect(comparison.markdown.contains("(1 too noisy across rounds to catch a 1.5x change)"))
    #expect(
      comparison.markdown.contains(
        "Too noisy across rounds to catch a 1.5x change: \(before.key)"))
    var quiet = before
    quiet.samples = [round(1000), round(1010), round(990)]
    #expect(Comparison(baseline: [quiet], current: [quiet]).noisy.isEmpty)
    #expect(!Comparison(baseline: [quiet], current: [quiet]).markdown.contains("Too noisy"))
  }

  @Test func aTimeVerdictStandsOnlyWhereTheInstructionsMovedTheSameWay() {
    var before = ResultsFileTests().sample()
    before.samples = [round(1000), round(1000), round(1000)]
    before.instructions = 1_000_000
    var after = before
    after.samples = [round(1500), round(1500), round(1500)]
    // The same work, slower: time alone, not a verdict.
    var sameWork = Comparison(baseline: [before], current: [after])
    #expect(sameWork.outcome() == .regression)
    sameWork.requireInstructionEvidence(counted: [before.key])
    #expect(sameWork.outcome() == .unchanged)
    #expect(sameWork.timeWithoutInstructions.map(\.key) == [.cell(before.key)])
    #expect(sameWork.markdown.contains("Time moved but the instructions did not"))
    // 5 % more instructions: the time verdict stands, beside the instructions'.
    var moreWork = after
    moreWork.instructions = 1_050_000
    var backed = Comparison(baseline: [before], current: [moreWork])
    backed.requireInstructionEvidence(counted: [before.key])
    #expect(backed.outcome() == .regression && backed.timeWithoutInstructions.isEmpty)
    #expect(backed.findings.contains { $0.metric == .metric(.medianTime) && $0.regression })
    // Fewer instructions do not back a slower time.
    var lessWork = after
    lessWork.instructions = 900_000
    var against = Comparison(baseline: [before], current: [lessWork])
    against.requireInstructionEvidence(counted: [before.key])
    #expect(
      !against.findings.contains { $0.metric == .metric(.medianTime) && $0.verdict != .changed })
    #expect(against.timeWithoutInstructions.count == 1)
    // A time verdict with no count to back it cannot be judged either way.
    var uncounted = Comparison(baseline: [before], current: [after])
    uncounted.requireInstructionEvidence(counted: [])
    guard case .unusable(let problems) = uncounted.outcome() else {
      Issue.record("expected an unusable comparison")
      return
    }
    #expect(problems.contains { $0.contains("no instruction count") })
  }
}
