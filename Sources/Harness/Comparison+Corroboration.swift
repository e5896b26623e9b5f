/// What a time verdict of `bench ab` must be backed by before it stands.
public enum TimeCorroboration: String, CaseIterable, Sendable {
  /// Time alone: the verdicts of ``TimeTest`` stand as they are. For a quiet machine.
  case none
  /// The cell's instruction count under callgrind must have moved the same way, beyond the
  /// count tolerance. On a shared machine a whole process, or every process of one build over
  /// minutes, can run 1.3 to 1.7 times slower than the other build's beside it, which no number
  /// of rounds told apart from a change; the work a cell does is not moved by that.
  case instructions
}

extension Comparison {
  /// Keeps each time verdict (a `median_ns` regression or improvement) only where the same cell
  /// has an `instructions` verdict the same way (grown or shrunk beyond the count tolerance);
  /// the others become `changed` and are listed in ``timeWithoutInstructions``. A time verdict
  /// whose cell has no instruction count in one of the runs cannot be backed, and makes the
  /// comparison unusable (``inputProblems``).
  ///
  /// - Complexity: O(findings).
  public mutating func requireInstructionEvidence(counted: Set<CellKey>) {
    var moved: [Subject: Verdict] = [:]
    for finding in findings
    where finding.metric == .metric(.instructions) && finding.verdict != .changed {
      moved[finding.key] = finding.verdict
    }
    timeWithoutInstructions += setAside(
      .metric(.medianTime), unlessMoved: moved, counted: Set(counted.map(Subject.cell)),
      missing: {
        "its time was judged \($0) but it has no instruction count in both runs to back it"
      })
  }

  /// Sets aside the verdicts on `metric` whose key did not move the same way in `moved`
  /// (their verdict becomes `changed`) and returns them; a verdict whose key was not `counted`
  /// is an input problem, said by `missing` (given the verdict).
  mutating func setAside(
    _ metric: Figure, unlessMoved moved: [Subject: Verdict], counted: Set<Subject>,
    missing: (String) -> String
  ) -> [Finding] {
    var setAside: [Finding] = []
    for index in findings.indices
    where findings[index].metric == metric && findings[index].verdict != .changed {
      let finding = findings[index]
      guard counted.contains(finding.key) else {
        inputProblems.append("\(finding.key): " + missing(finding.verdict.rawValue))
        continue
      }
      if moved[finding.key] != finding.verdict {
        setAside.append(finding)
        findings[index].verdict = .changed
      }
    }
    return setAside
  }
}

extension Comparison {
  /// Keeps a slope-of-time finding (``judgeSlopes(baseline:current:figure:tolerance:)`` with
  /// ``ScalingSlope/Figure/medianTime``) only where the series' slope of instructions, from
  /// `baseline` and `current` rows with their counts, moved the same way by more than
  /// `tolerance`; the others go to ``slopesWithoutInstructions``. A series without counts at
  /// two sizes in both is an input problem: nothing backs its verdict.
  ///
  /// - Complexity: O(rows of both).
  public mutating func requireSlopeInstructionEvidence(
    baseline: [ResultRow], current: [ResultRow], tolerance: Double
  ) {
    // The slopes of instructions, judged as the gate judges any slope.
    var evidence = Comparison(baseline: [], current: [], timeThreshold: .infinity)
    evidence.judgeSlopes(
      baseline: baseline, current: current, figure: .instructions, tolerance: tolerance)
    let counted = Set(evidence.judgedSeries.map(Subject.series))
    var movedBySeries: [Subject: Verdict] = [:]
    for finding in evidence.findings { movedBySeries[finding.key] = finding.verdict }
    slopesWithoutInstructions += setAside(
      .slope(.medianTime), unlessMoved: movedBySeries, counted: counted,
      missing: {
        "its slope of time was judged \($0) but it has no instruction counts at two sizes in "
          + "both runs to back it"
      })
  }
}
