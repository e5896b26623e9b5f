/// A baseline and a current run joined cell by cell: what regressed, what improved, and whether
/// the two files can be compared at all.
public struct Comparison {
  /// How a figure moved.
  public enum Verdict: String, Sendable {
    /// Worse beyond the tolerance: the gate fails.
    case regression = "REGRESSION"
    /// Better beyond the tolerance: the baseline may be updated.
    case improvement
    /// Different within the tolerance, or a figure that is not gated.
    case changed
  }

  /// What a finding is about: one cell, or a series (a cell at every size) for a slope.
  public enum Subject: Hashable, Sendable, CustomStringConvertible {
    case cell(CellKey)
    case series(SeriesKey)

    public var description: String {
      switch self {
      case .cell(let key): key.description
      case .series(let key): key.description
      }
    }

    /// The group that measures the subject.
    public var group: ShardGroup {
      switch self {
      case .cell(let key): key.group
      case .series(let key): key.group
      }
    }
  }

  /// What a finding judged.
  public enum Figure: Hashable, Sendable, CustomStringConvertible {
    /// Whether the cell was measured, skipped or failed.
    case status
    /// One of the cell's figures.
    case metric(Metric)
    /// A series' log-log slope of a figure over the sizes (the complexity gate).
    case slope(ScalingSlope.Figure)

    /// `status`, the metric's column (`allocated_bytes`), or `slope of instructions`.
    public var description: String {
      switch self {
      case .status: "status"
      case .metric(let metric): metric.column
      case .slope(let figure): "slope of \(figure.rawValue)"
      }
    }
  }

  /// One finding.
  public struct Finding: Sendable {
    public var key: Subject
    public var metric: Figure
    public var baseline: String
    public var current: String
    public var verdict: Verdict
    /// Whether the figure regressed.
    public var regression: Bool { verdict == .regression }
    /// Whether the figure is one the gate judges (allocation request counts are not).
    public var isGated: Bool {
      if case .metric(let metric) = metric { metric.isGated } else { true }
    }
  }

  /// What the comparison says, as `bench compare` exits with it.
  public enum Outcome: Sendable, Equatable {
    /// Nothing regressed or improved beyond the tolerances (exit 0).
    case unchanged
    /// Something regressed (exit 1).
    case regression
    /// Only improvements (exit 4): the gate passes, and the baseline may be updated.
    case improvementsOnly
    /// The files cannot be compared as given (exit 2): the reasons.
    case unusable([String])
  }

  public var findings: [Finding] = []
  /// Cells in both files.
  public var matched = 0
  /// Cells measured (status `ok`) in both files.
  public var measuredInBoth = 0
  /// Cells only in the baseline (not measured now) and only in the current run.
  public var onlyInBaseline: [CellKey] = []
  public var onlyInCurrent: [CellKey] = []
  /// The cells the baseline measured (status `ok`) that the current run lacks.
  public var missingMeasured: [CellKey] = []
  /// Measured cells in both files whose times were not judged: too few repetitions in one of
  /// them for the U test to reach the significance level.
  public var untimed: [CellKey] = []
  /// Measured cells in both files whose times were judged.
  public var timed = 0
  /// Judged cells whose rounds disagree so much (``TimeTest/smallestCallableSlowdown`` of 0.5
  /// or more) that a change of 1.5 times would not be a verdict.
  public var noisy: [CellKey] = []
  /// Whether times were judged at all (a finite time threshold).
  public var timeGated = true
  /// Series whose slopes were compared (``judgeSlopes(baseline:current:figure:tolerance:)``);
  /// nil when the complexity gate did not run.
  public var slopesJudged: Int? = nil
  /// The series whose slopes were compared.
  public var judgedSeries: [SeriesKey] = []
  /// Time verdicts set aside because the cell's instruction count did not move the same way
  /// (``requireInstructionEvidence(counted:)``), as they were judged.
  public var timeWithoutInstructions: [Finding] = []
  /// Slope-of-time verdicts set aside because the series' slope of instructions did not move
  /// the same way (``requireSlopeInstructionEvidence(baseline:current:tolerance:)``).
  public var slopesWithoutInstructions: [Finding] = []

  /// What makes the files unfit to compare: a cell listed twice, a measured row without a
  /// figure the gate judges.
  public var inputProblems: [String] = []

  /// Whether anything regressed.
  public var hasRegression: Bool { findings.contains { $0.regression } }
  /// Whether anything improved.
  public var hasImprovement: Bool { findings.contains { $0.verdict == .improvement } }

  /// Compares `current` with `baseline`. Deterministic figures must match: the checksum
  /// exactly, allocated bytes and instructions within `countTolerance` (relative, and 64
  /// bytes). Allocation request counts are reported but not gated (jemalloc's thread caches
  /// batch them). A timing regresses (or improves) when the two cells' repetition times differ
  /// by the U test at `significance` and their medians by more than `timeThreshold`
  /// (``TimeTest``); a cell with too few repetitions for the test is listed in
  /// ``untimed``, not judged. Rows without samples (files written before the `samples_ns`
  /// column) fall back to the medians and min–max ranges: a regression when the median moved by
  /// more than the threshold and the ranges do not overlap. An infinite `timeThreshold` leaves
  /// time out.
  ///
  /// - Complexity: O(rows of both files), plus ``TimeTest``'s cost a cell.
  public init(
    baseline: [ResultRow], current: [ResultRow], timeThreshold: Double = 0.10,
    significance: Double = 0.01, strictness: TimeTest.Strictness = .everyRound,
    countTolerance: Double = 0.01
  ) {
    timeGated = timeThreshold.isFinite
    var base: [CellKey: ResultRow] = [:]
    for row in baseline {
      if base.updateValue(row, forKey: row.key) != nil {
        inputProblems.append("\(row.key) appears more than once in the baseline")
      }
    }
    var seen = Set<CellKey>()
    for row in current {
      guard seen.insert(row.key).inserted else {
        inputProblems.append("\(row.key) appears more than once in the current run")
        continue
      }
      guard let old = base[row.key] else {
        onlyInCurrent.append(row.key)
        continue
      }
      matched += 1
      guard row.status == .ok, old.status == .ok else {
        if row.status != old.status {
          findings.append(
            Finding(
              key: .cell(row.key), metric: .status, baseline: old.status.rawValue,
              current: row.status.rawValue,
              verdict: old.status == .ok ? .regression : .changed))
        }
        continue
      }
      measuredInBoth += 1
      for (name, measured) in [("the baseline", old), ("the current run", row)] {
        if measured.checksum == nil {
          inputProblems.append("\(row.key) is measured in \(name) but has no checksum")
        }
        if measured.allocatedBytes == nil {
          inputProblems.append("\(row.key) is measured in \(name) but has no allocated_bytes")
        }
      }
      if let was = old.checksum, let now = row.checksum, was != now {
        findings.append(
          Finding(
            key: .cell(row.key), metric: .metric(.checksum), baseline: was, current: now,
            verdict: .regression))
      }
      // jemalloc's request counts are batched by its thread caches, so they move by a few
      // percent from run to run: reported, never gated.
      for metric in [Metric.allocatedBytes, .instructions, .allocations] {
        let gated = metric.isGated
        guard let was = metric.value(in: old), let now = metric.value(in: row), was != now else {
          continue
        }
        let verdict: Verdict
        if gated && Double(now) > Double(was) * (1 + countTolerance) + 64 {
          verdict = .regression
        } else if gated && Double(now) * (1 + countTolerance) + 64 < Double(was) {
          verdict = .improvement
        } else {
          verdict = .changed
        }
        findings.append(
          Finding(
            key: .cell(row.key), metric: .metric(metric), baseline: String(was),
            current: String(now),
            verdict: verdict))
      }
      if timeThreshold.isFinite, old.medianNanoseconds != nil, row.medianNanoseconds != nil {
        judgeTime(
          old, row, threshold: timeThreshold, significance: significance, strictness: strictness)
      }
    }
    onlyInBaseline = baseline.map(\.key).filter { !seen.contains($0) }
    // Cells the baseline measured and this run lacks (a truncated run) make the comparison
    // unusable unless a subset is allowed; cells the baseline skipped are no loss.
    missingMeasured = baseline.filter { $0.status == .ok && !seen.contains($0.key) }.map(\.key)
  }

  private mutating func judgeTime(
    _ old: ResultRow, _ row: ResultRow, threshold: Double, significance: Double,
    strictness: TimeTest.Strictness
  ) {
    // Both rows are timed: the caller checked their medians.
    let oldMedian = old.medianNanoseconds ?? 0
    let newMedian = row.medianNanoseconds ?? 0
    let verdict: Verdict
    let detail: String
    if old.samples.isEmpty || row.samples.isEmpty {
      // A file without samples: the medians, and ranges that do not overlap.
      let ratio = Double(newMedian) / Double(oldMedian)
      timed += 1
      if ratio > 1 + threshold
        && row.minimumNanoseconds ?? newMedian > old.maximumNanoseconds ?? oldMedian
      {
        verdict = .regression
      } else if 1 / ratio > 1 + threshold
        && row.maximumNanoseconds ?? newMedian < old.minimumNanoseconds ?? oldMedian
      {
        verdict = .improvement
      } else {
        return
      }
      detail = "x\(Self.rounded(ratio)), min-max ranges apart"
    } else {
      let test = TimeTest(
        baseline: old.samples, current: row.samples, threshold: threshold,
        significance: significance, strictness: strictness)
      if test.verdict != .tooFewSamples && test.smallestCallableSlowdown >= 0.5 {
        noisy.append(row.key)
      }
      switch test.verdict {
      case .tooFewSamples:
        untimed.append(row.key)
        return
      case .same:
        timed += 1
        return
      case .slower: verdict = .regression
      case .faster: verdict = .improvement
      }
      timed += 1
      detail =
        "x\(Self.rounded(test.ratio)), p = \(Self.significant(test.pValue ?? 1)), "
        + "\(old.samples.count)+\(row.samples.count) rounds"
    }
    findings.append(
      Finding(
        key: .cell(row.key), metric: .metric(.medianTime),
        baseline: String(oldMedian), current: "\(newMedian) (\(detail))", verdict: verdict))
  }

  private static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

  private static func significant(_ value: Double) -> String {
    value >= 0.001 ? String((value * 1000).rounded() / 1000) : "< 0.001"
  }

  /// What the comparison says. Unusable when a cell is listed twice or a measured row lacks a
  /// gated figure, when no cell was measured in both files, or (unless `allowingSubset`) when
  /// the current run lacks cells the baseline measured.
  public func outcome(allowingSubset: Bool = false) -> Outcome {
    var problems = inputProblems
    if matched == 0 {
      problems.append("no cell is in both files: nothing was compared")
    } else if measuredInBoth == 0 {
      problems.append("no cell is measured in both files: nothing was compared")
    }
    if !allowingSubset, let first = missingMeasured.first {
      problems.append(
        "the current run lacks \(missingMeasured.count) cell(s) the baseline measured (first: "
          + "\(first)); pass --allow-subset to compare a deliberate subset")
    }
    if !problems.isEmpty { return .unusable(problems) }
    if hasRegression { return .regression }
    if hasImprovement { return .improvementsOnly }
    return .unchanged
  }

  /// The comparison as Markdown, for CI logs: a one-line verdict first, then the gated
  /// findings (and, with `verbose`, the figures that changed without being judged), then the
  /// cells too noisy to judge a 1.5x change (the first 20; all with `verbose`).
  public func markdown(allowingSubset: Bool = false, verbose: Bool = false) -> String {
    let regressions = findings.filter(\.regression).count
    let improvements = findings.filter { $0.verdict == .improvement }.count
    let verdict: String
    switch outcome(allowingSubset: allowingSubset) {
    case .unchanged: verdict = "**unchanged**"
    case .regression: verdict = "**\(regressions) regression(s)**"
    case .improvementsOnly: verdict = "**\(improvements) improvement(s), no regression**"
    case .unusable(let problems):
      verdict = "**not comparable**: " + problems.joined(separator: "; ")
    }
    var lines = [
      "## Benchmark comparison", "",
      "\(verdict): \(matched) cells compared; \(regressions) regressions, \(improvements) "
        + "improvements; \(onlyInBaseline.count) only in the baseline, \(onlyInCurrent.count) "
        + "only in this run; "
        + (timeGated
          ? "times judged in \(timed) cells"
            + (noisy.isEmpty
              ? "" : " (\(noisy.count) too noisy across rounds to catch a 1.5x change)")
            + (untimed.isEmpty ? "" : ", not in \(untimed.count) (too few repetitions)")
          : "times not judged")
        + (slopesJudged.map { "; slopes judged in \($0) series" } ?? "") + ".",
      "",
    ]
    let shown = findings.filter { verbose || ($0.isGated && $0.verdict != .changed) }
    if !shown.isEmpty {
      lines += [
        "| cell | metric | baseline | current | verdict |", "| --- | --- | --- | --- | --- |",
      ]
      for finding in shown {
        lines.append(
          "| \(finding.key) | \(finding.metric) | \(finding.baseline) | \(finding.current) | "
            + "\(finding.verdict.rawValue) |")
      }
    }
    if !timeWithoutInstructions.isEmpty {
      lines += [
        "",
        "Time moved but the instructions did not (callgrind, within the count tolerance), "
          + "so these are not verdicts: "
          + timeWithoutInstructions.map {
            "\($0.key) (\($0.verdict == .regression ? "slower" : "faster"), \($0.baseline) ns → "
              + "\($0.current))"
          }
          .joined(separator: ", "),
      ]
    }
    if !slopesWithoutInstructions.isEmpty {
      lines += [
        "",
        "A slope of time moved but the slope of instructions did not, so these are not "
          + "verdicts: "
          + slopesWithoutInstructions.map { "\($0.key) (\($0.baseline) → \($0.current))" }
          .joined(separator: ", "),
      ]
    }
    // The cells the gate could not hold to a 1.5x change are named, so that a reader knows
    // which times went unguarded in this run.
    if !noisy.isEmpty {
      let listed = (verbose ? noisy[...] : noisy.prefix(20)).map(\.description)
        .joined(separator: ", ")
      lines += [
        "",
        "Too noisy across rounds to catch a 1.5x change: " + listed
          + (!verbose && noisy.count > 20 ? ", … (all with --verbose)" : ""),
      ]
    }
    if !onlyInBaseline.isEmpty && (verbose || !allowingSubset) {
      let listed = onlyInBaseline.prefix(20).map(\.description).joined(separator: ", ")
      lines += [
        "", "Only in the baseline: " + listed + (onlyInBaseline.count > 20 ? ", …" : ""),
      ]
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// ``markdown(allowingSubset:verbose:)`` with the defaults.
  public var markdown: String { markdown() }
}
