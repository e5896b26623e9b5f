/// A baseline and a current run joined cell by cell, with what regressed.
public struct Comparison {
  /// One finding.
  public struct Finding: Sendable {
    public var key: String
    public var metric: String
    public var baseline: String
    public var current: String
    public var regression: Bool
  }

  public var findings: [Finding] = []
  /// Cells in both files.
  public var matched = 0
  /// Cells only in the baseline (not measured now) and only in the current run.
  public var onlyInBaseline: [String] = []
  public var onlyInCurrent: [String] = []

  /// Whether anything regressed.
  public var hasRegression: Bool { findings.contains { $0.regression } }

  /// Compares `current` with `baseline`. Deterministic figures must match: the checksum
  /// exactly, allocated bytes and instructions within `countTolerance` (relative). Allocation
  /// request counts are reported but not gated (jemalloc's thread caches batch them).
  /// A timing regresses only when the median grew by more than `timeThreshold` and the two
  /// min–max ranges do not overlap.
  public init(
    baseline: [ResultRow], current: [ResultRow], timeThreshold: Double = 0.10,
    countTolerance: Double = 0.01
  ) {
    var base: [String: ResultRow] = [:]
    for row in baseline { base[row.key] = row }
    var seen = Set<String>()
    for row in current {
      seen.insert(row.key)
      guard let old = base[row.key] else {
        onlyInCurrent.append(row.key)
        continue
      }
      matched += 1
      guard row.status == "ok", old.status == "ok" else {
        if row.status != old.status {
          findings.append(
            Finding(
              key: row.key, metric: "status", baseline: old.status, current: row.status,
              regression: old.status == "ok"))
        }
        continue
      }
      if !old.checksum.isEmpty, !row.checksum.isEmpty, old.checksum != row.checksum {
        findings.append(
          Finding(
            key: row.key, metric: "checksum", baseline: old.checksum, current: row.checksum,
            regression: true))
      }
      for (metric, was, now, gated) in [
        ("allocated_bytes", old.allocatedBytes, row.allocatedBytes, true),
        ("instructions", old.instructions, row.instructions, true),
        // jemalloc's request counts are batched by its thread caches, so they move by a few
        // percent from run to run: reported, never gated.
        ("allocations", old.allocations, row.allocations, false),
      ] {
        guard let was, let now, was != now else { continue }
        let grew = Double(now) > Double(was) * (1 + countTolerance) + 64
        findings.append(
          Finding(
            key: row.key, metric: metric, baseline: String(was), current: String(now),
            regression: gated && grew))
      }
      if old.medianNanoseconds > 0 {
        let ratio = Double(row.medianNanoseconds) / Double(old.medianNanoseconds)
        let separate = row.minimumNanoseconds > old.maximumNanoseconds
        if ratio > 1 + timeThreshold && separate {
          findings.append(
            Finding(
              key: row.key, metric: "median_ns",
              baseline: String(old.medianNanoseconds),
              current: "\(row.medianNanoseconds) (x\((ratio * 100).rounded() / 100))",
              regression: true))
        }
      }
    }
    onlyInBaseline = baseline.map(\.key).filter { !seen.contains($0) }
  }

  /// The comparison as Markdown, for CI logs.
  public var markdown: String {
    var lines = [
      "## Benchmark comparison", "",
      "\(matched) cells compared; \(findings.filter(\.regression).count) regressions; "
        + "\(onlyInBaseline.count) only in the baseline, \(onlyInCurrent.count) only in this run.",
      "",
    ]
    if !findings.isEmpty {
      lines += [
        "| cell | metric | baseline | current | verdict |", "| --- | --- | --- | --- | --- |",
      ]
      for finding in findings {
        lines.append(
          "| \(finding.key) | \(finding.metric) | \(finding.baseline) | \(finding.current) | "
            + (finding.regression ? "REGRESSION" : "changed") + " |")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
