#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether one cell's time moved between two runs: the Mann–Whitney U test on the two sets of
/// repetition times, together with a minimum effect on the ratio of their medians that grows
/// with how much the runs' rounds disagree among themselves.
///
/// A shared machine's timings are not normal (a few repetitions land on a busy core and take
/// several times longer), so the test compares ranks, not means: it asks whether a repetition of
/// one run tends to take longer than one of the other. A significant shift too small to matter
/// (a few percent, which a change of machine load alone causes) is not a verdict either: the
/// medians must also differ by more than the threshold.
public struct TimeTest: Sendable, Equatable {
  /// What the test says about the current run against the baseline.
  public enum Verdict: Sendable, Equatable {
    /// Slower beyond the threshold, and significantly.
    case slower
    /// Faster beyond the threshold, and significantly.
    case faster
    /// Neither: within the threshold, or not significant.
    case same
    /// Not judged: too few repetitions in one of the runs for the test to reach the
    /// significance level at all.
    case tooFewSamples
  }

  /// The current run's median over the baseline's.
  public var ratio: Double
  /// The two-sided p-value of the U test; `nil` when not judged.
  public var pValue: Double?
  public var verdict: Verdict

  /// How much the medians of one run's rounds differ: the largest round median over the
  /// smallest, less one, in whichever run differs more. 0 with one round a run.
  public var roundSpread: Double
  /// The smallest slowdown (relative) the rounds let the test call: the threshold, or more
  /// where the rounds disagree. A cell whose figure is 0.5 or more cannot show a change of 1.5
  /// times. `nan` when not judged.
  public var smallestCallableSlowdown = Double.nan

  /// How many of a run's rounds a verdict must carry.
  public enum Strictness: Sendable, Equatable {
    /// Every round: every round of one run beyond every round of the other, and a change of
    /// more than twice the rounds' disagreement. For a verdict on two files, which cannot be
    /// measured again.
    case everyRound
    /// All but one round a side: with three rounds or more, each run's round most in favour of
    /// a change is set aside, and the change must pass the others' disagreement once. For
    /// `bench ab`, which measures any verdict again before it stands: a round of a process
    /// that landed beside a busy neighbour for its whole life no longer hides a change.
    case allButOneRound
  }

  /// Tests `current` against `baseline`, each given as the repetition times of each round that
  /// measured the cell: `slower` (or `faster`) when
  ///
  /// 1. the U test on the pooled times gives a two-sided p-value below `significance`;
  /// 2. the pooled medians differ by more than `threshold` (relative);
  /// 3. every round of the current run has its median above (below) every round of the
  ///    baseline's (with ``Strictness/allButOneRound``, once each run's round most in favour
  ///    of the change is set aside);
  /// 4. the medians differ by more than twice ``roundSpread`` (once, with
  ///    ``Strictness/allButOneRound``).
  ///
  /// Repetitions within a round run back to back, so a burst of load on the machine slows them
  /// together and the U test, which takes them for independent draws, finds a difference that
  /// is not there; rounds run minutes apart, each in a process of its own, see different load
  /// and memory layouts, so a change the rounds show, larger than their own disagreement, is
  /// the build's. With one round a side the last two conditions are implied by the first two.
  ///
  /// - Complexity: O((m + n) log(m + n)) for m and n repetitions, plus O(m · n · min(m, n)) for
  ///   the exact distribution when both runs have at most ``exactLimit`` and no time repeats.
  public init(
    baseline: [[UInt64]], current: [[UInt64]], threshold: Double = 0.10,
    significance: Double = 0.01, strictness: Strictness = .everyRound
  ) {
    let before = baseline.flatMap { $0 }, after = current.flatMap { $0 }
    let old = TimingSummary(before).median, new = TimingSummary(after).median
    ratio = old > 0 ? Double(new) / Double(old) : .nan
    let oldRounds = baseline.filter { !$0.isEmpty }.map { Double(TimingSummary($0).median) }
      .sorted()
    let newRounds = current.filter { !$0.isEmpty }.map { Double(TimingSummary($0).median) }
      .sorted()
    func spread(_ rounds: ArraySlice<Double>) -> Double {
      guard let low = rounds.first, let high = rounds.last, low > 0 else { return 0 }
      return high / low - 1
    }
    let lenient = strictness == .allButOneRound
    // The rounds a verdict rests on, for a slower or a faster current run: each run's round
    // most in favour of that change set aside when allowed and there are three or more.
    func kept(_ rounds: [Double], droppingHighest: Bool) -> ArraySlice<Double> {
      guard lenient && rounds.count >= 3 else { return rounds[...] }
      return droppingHighest ? rounds.dropLast() : rounds.dropFirst()
    }
    let slowerRounds = (
      kept(oldRounds, droppingHighest: true), kept(newRounds, droppingHighest: false)
    )
    let fasterRounds = (
      kept(oldRounds, droppingHighest: false), kept(newRounds, droppingHighest: true)
    )
    let factor = lenient ? 1.0 : 2.0
    roundSpread = max(spread(oldRounds[...]), spread(newRounds[...]))
    guard old > 0, new > 0,
      Self.smallestPValue(before.count, after.count) < significance
    else {
      pValue = nil
      verdict = .tooFewSamples
      return
    }
    let p = Self.pValue(before, after)
    pValue = p
    let slowerMargin = max(
      threshold, factor * max(spread(slowerRounds.0), spread(slowerRounds.1)))
    smallestCallableSlowdown = slowerMargin
    let fasterMargin = max(
      threshold, factor * max(spread(fasterRounds.0), spread(fasterRounds.1)))
    if p < significance && ratio > 1 + slowerMargin
      && slowerRounds.1.first! > slowerRounds.0.last!
    {
      verdict = .slower
    } else if p < significance && 1 / ratio > 1 + fasterMargin
      && fasterRounds.1.last! < fasterRounds.0.first!
    {
      verdict = .faster
    } else {
      verdict = .same
    }
  }

  /// Up to this many repetitions a run, without repeated times, the p-value is exact.
  public static let exactLimit = 30

  /// The smallest two-sided p-value the test can give with `m` and `n` repetitions: every
  /// repetition of one run faster than every one of the other, 2 / C(m + n, m).
  public static func smallestPValue(_ m: Int, _ n: Int) -> Double {
    guard m > 0, n > 0 else { return 1 }
    // log C(m + n, m), through lgamma: exact enough, and no overflow.
    let logCombinations = lgamma(Double(m + n + 1)) - lgamma(Double(m + 1)) - lgamma(Double(n + 1))
    return min(1, 2 * exp(-logCombinations))
  }

  /// The two-sided p-value of the Mann–Whitney U test of `a` against `b`: exact for small runs
  /// without ties, else the normal approximation with the tie and continuity corrections.
  public static func pValue(_ a: [UInt64], _ b: [UInt64]) -> Double {
    let m = a.count, n = b.count
    guard m > 0, n > 0 else { return 1 }
    // Midranks of the pooled samples; U of `a` is its rank sum less m(m + 1)/2.
    var pooled = a.map { ($0, true) } + b.map { ($0, false) }
    pooled.sort { $0.0 < $1.0 }
    var rankSumA = 0.0
    var tieTerm = 0.0
    var hasTies = false
    var start = 0
    while start < pooled.count {
      var end = start + 1
      while end < pooled.count && pooled[end].0 == pooled[start].0 { end += 1 }
      let tied = Double(end - start)
      if end - start > 1 {
        hasTies = true
        tieTerm += tied * tied * tied - tied
      }
      let midrank = Double(start + end + 1) / 2
      for index in start..<end where pooled[index].1 { rankSumA += midrank }
      start = end
    }
    let u = rankSumA - Double(m * (m + 1)) / 2
    let mean = Double(m * n) / 2
    if !hasTies && m <= exactLimit && n <= exactLimit {
      // P(U <= u) or P(U >= u), whichever tail u lies in (the distribution is symmetric).
      let lower = min(u, Double(m * n) - u)
      let distribution = exactDistribution(m, n)
      let total = distribution.reduce(0, +)
      let tail = distribution[0...Int(lower)].reduce(0, +) / total
      return min(1, 2 * tail)
    }
    let total = Double(m + n)
    let variance = Double(m * n) / 12 * ((total + 1) - tieTerm / (total * (total - 1)))
    guard variance > 0 else { return 1 }
    let z = (abs(u - mean) - 0.5) / variance.squareRoot()
    return min(1, erfc(max(0, z) / 2.0.squareRoot()))
  }

  /// How many orderings of `m` and `n` distinct values give each U from 0 to m · n (as
  /// doubles: the counts pass `Int` at about 33 + 33 values).
  static func exactDistribution(_ m: Int, _ n: Int) -> [Double] {
    // counts[j][u] for runs of i and j values, built up i by i (f(i, j, u) = f(i − 1, j, u − j)
    // + f(i, j − 1, u)).
    let small = min(m, n), large = max(m, n)
    var previous = [[Double]](repeating: [1], count: large + 1)
    for i in 1...small {
      var current = [[Double]](repeating: [], count: large + 1)
      current[0] = [1]
      for j in 1...large {
        var counts = [Double](repeating: 0, count: i * j + 1)
        for (u, count) in previous[j].enumerated() { counts[u + j] += count }
        for (u, count) in current[j - 1].enumerated() { counts[u] += count }
        current[j] = counts
      }
      previous = current
    }
    return previous[large]
  }
}
