import Foundation

/// The log-log slope of median time against views for each (scene, variant, solver, mode,
/// phase) measured at two sizes or more; of instructions instead in a `--callgrind` run, whose
/// rows have no times.
public struct ScalingTable: Sendable {
  /// Every series measured at two sizes or more, with its slope.
  public var entries: [ScalingSlope] = []
  /// What the slopes are of: `median time` or `instructions`.
  public var metric = "median time"

  /// The table of `rows`.
  ///
  /// - Complexity: O(rows).
  public init(_ rows: [ResultRow]) {
    let figure: ScalingSlope.Figure =
      rows.contains { $0.instructions != nil } ? .instructions : .medianTime
    metric = figure.rawValue
    entries = ScalingSlope.slopes(of: rows, figure: figure)
  }

  /// Where the table of the results file at `path` goes: `FILE-slopes.csv` beside it.
  public static func path(forResults path: String) -> String {
    let stem =
      path.hasSuffix(".csv")
      ? String(path.dropLast(4)) : path.hasSuffix(".jsonl") ? String(path.dropLast(6)) : path
    return stem + "-slopes.csv"
  }

  /// The slopes as the JSON document has them.
  public var documentSlopes: [ResultsDocument.Slope] {
    entries.map {
      ResultsDocument.Slope(
        scene: $0.scene.rawValue, variant: $0.variant, solver: $0.solver.rawValue,
        mode: $0.mode.rawValue, phase: $0.phase.rawValue,
        metric: metric == "instructions" ? "instructions" : "median_ns", sizes: $0.sizes,
        slope: $0.slope)
    }
  }

  /// The table as CSV: `scene, variant, solver, mode, phase, sizes, slope`.
  public var csv: String {
    CSV.line(["scene", "variant", "solver", "mode", "phase", "sizes", "slope"])
      + entries.map { entry in
        CSV.line([
          entry.scene.rawValue, entry.variant, entry.solver.rawValue, entry.mode.rawValue,
          entry.phase.rawValue,
          entry.sizes.map(String.init).joined(separator: " "), String(format: "%.3f", entry.slope),
        ])
      }.joined()
  }

  /// The table as Markdown.
  public var markdown: String {
    guard !entries.isEmpty else { return "" }
    var lines = [
      "", "Scaling (log-log slope of \(metric) against views; 1.0 is linear):", "",
      "| scene | solver | mode | phase | sizes | slope |", "| --- | --- | --- | --- | --- | ---: |",
    ]
    for entry in entries {
      let scene =
        entry.variant == "standard" ? entry.scene.rawValue : "\(entry.scene)/\(entry.variant)"
      lines.append(
        "| \(scene) | \(entry.solver) | \(entry.mode) | \(entry.phase) | "
          + "\(entry.sizes.map(String.init).joined(separator: ", ")) | "
          + String(format: "%.2f", entry.slope) + " |")
    }
    return lines.joined(separator: "\n")
  }
}
