import ArgumentParser
import Foundation
import Harness
import Scenes

/// `bench report CSV…`: a run as a Markdown report read at a glance, with its plots.
struct Report: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write a Markdown report of results CSVs, with its plots.",
    discussion: """
      The report starts with its verdict against --baseline (the deterministic figures, as \
      `bench compare --ignore-time` judges them: times measured at different times on a shared \
      machine are compared with `bench ab`), then the headline figures of each scene at the \
      largest size sparse measured, the plots, the slopes, the median of every cell measured by \
      at least one solver, and the skipped cells with why. Further CSVs are merged in, beside \
      the first.
      """ + "\n\n" + ExitStatus.table)

  @Argument(help: "Results CSVs: a run, then any other runs' rows to show beside it.")
  var results: [String]
  @Option(help: "The previous baseline, to start the report with the comparison.")
  var baseline: String?
  @Option(help: "The Markdown file to write (default: results/report.md in bench's package).")
  var output: String?
  @Option(
    help: """
      The folder for the plots, linked from the report by a relative path (default: \
      results/plots in bench's package).
      """)
  var plots: String?

  func validate() throws {
    guard !results.isEmpty else { throw ValidationError("give at least one results CSV") }
  }

  func run() throws {
    let output = output ?? packagePath("results/report.md")
    let plots = plots ?? packagePath("results/plots")
    // Every file is checked before any is written: a report that cannot be written leaves no
    // plots behind.
    do {
      try OutputFile.prepare(output)
      try OutputFile.checkFolder(plots)
    } catch {
      throw BenchFailure("bench report", error)
    }
    let runs = try results.map { try loadResults($0, command: "report") }
    let rows = runs.flatMap { $0 }
    let main = runs[0]
    var lines: [String] = ["# LayoutBench report", ""]
    if let first = main.first {
      lines.append(
        "Run `\(first.runID)` at \(first.timestamp), commit `\(first.commit)`, on \(first.machine). "
          + "Made by `bench report \(results.joined(separator: " "))"
          + (baseline.map { " --baseline \($0)" } ?? "") + "`.")
      lines.append("")
    }
    lines += try verdict(main)
    lines += headline(rows)
    do {
      let (section, charts) = plotSection(rows, output: output, plots: plots)
      lines += section
      lines += slopeSection(main)
      lines += frameBudgetSection(main)
      lines += medianSection(rows)
      lines += skippedSection(rows)
      for (path, svg) in charts { try OutputFile.write(svg, to: path) }
      try OutputFile.write(lines.joined(separator: "\n") + "\n", to: output)
    } catch {
      throw BenchFailure("bench report", error)
    }
    printError("wrote \(output) and its plots in \(plots)/")
  }

  /// The comparison with the previous baseline, or a line saying there is none.
  private func verdict(_ rows: [ResultRow]) throws -> [String] {
    guard let baseline else {
      return ["**Verdict:** no previous baseline given (`--baseline`).", ""]
    }
    let previous = try loadResults(baseline, command: "report")
    let comparison = Comparison(baseline: previous, current: rows, timeThreshold: .infinity)
    let named = previous.first.map { "run `\($0.runID)` at commit `\($0.commit)`" } ?? baseline
    var lines = comparison.markdown(allowingSubset: true).split(
      separator: "\n", omittingEmptySubsequences: false
    ).map(String.init)
    // Its heading becomes the report's verdict line.
    lines.removeFirst(2)
    lines[0] =
      "**Verdict against the previous baseline** (\(named); deterministic figures): "
      + lines[0]
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines + [""]
  }

  /// Per scene, at the largest size sparse incremental measured: build plus first solve,
  /// resize and bytes held; and against each other solver, at the largest size both measured,
  /// how many times longer it took to build and solve.
  private func headline(_ rows: [ResultRow]) -> [String] {
    func cell(
      _ scene: String, _ views: Int, _ solver: ResultRow.Solver, _ phase: Phase
    ) -> ResultRow? {
      rows.first { row in
        row.views == views && row.solver == solver && row.mode == .incremental
          && row.phase == phase && row.status == .ok && sceneLabel(row.scene, row.variant) == scene
      }
    }
    /// Build plus first solve (kiwisolver's build includes its solve).
    func together(_ scene: String, _ views: Int, _ solver: ResultRow.Solver) -> UInt64? {
      guard let build = cell(scene, views, solver, .build) else { return nil }
      guard let buildTime = build.medianNanoseconds else { return nil }
      if solver == .kiwisolver { return buildTime }
      guard let solve = cell(scene, views, solver, .firstSolve)?.medianNanoseconds else {
        return nil
      }
      return buildTime + solve
    }
    var scenes: [String] = []
    for row in rows where !scenes.contains(sceneLabel(row.scene, row.variant)) {
      scenes.append(sceneLabel(row.scene, row.variant))
    }
    // Every other solver in the rows, in the order they first appear.
    var others: [ResultRow.Solver] = []
    for row in rows where row.solver != .sparse && !others.contains(row.solver) {
      others.append(row.solver)
    }
    let otherHeads: [String] = others.map { "\($0) (views, x sparse)" }
    let otherRules: [String] = others.map { _ in "---:" }
    var lines: [String] = [
      "## Headline: each scene at its largest size", "",
      "The sparse solver in incremental mode at the largest size it measured: build plus first "
        + "solve, a resize, and the bytes held after the first layout. Against each other "
        + "solver, at the largest size both measured: its build plus first solve, and how many "
        + "times the sparse solver's it is (kiwisolver's build includes its solve).", "",
      "| scene | views | build + first solve | resize | retained bytes | "
        + otherHeads.joined(separator: " | ") + " |",
      "| --- | ---: | ---: | ---: | ---: | " + otherRules.joined(separator: " | ") + " |",
    ]
    for scene in scenes {
      let sizes = Set(
        rows.filter { sceneLabel($0.scene, $0.variant) == scene && $0.status == .ok }.map(\.views)
      ).sorted()
      guard let views = sizes.last(where: { together(scene, $0, .sparse) != nil }) else {
        continue
      }
      let resize = cell(scene, views, .sparse, .resize)?.medianNanoseconds.map(humanTime)
      let retained = cell(scene, views, .sparse, .firstSolve)?.retainedBytes
      var line =
        "| \(scene) | \(groupedDigits(UInt64(views))) | "
        + "\(humanTime(together(scene, views, .sparse)!)) | \(resize ?? "–") | "
        + "\(retained.map(humanBytes) ?? "–") |"
      for other in others {
        let common = sizes.last {
          together(scene, $0, other) != nil && together(scene, $0, .sparse) != nil
        }
        if let common, let theirs = together(scene, common, other),
          let ours = together(scene, common, .sparse), ours > 0
        {
          let ratio = Double(theirs) / Double(ours)
          line +=
            " \(humanTime(theirs)) (\(groupedDigits(UInt64(common))), "
            + "x\(String(format: ratio >= 10 ? "%.0f" : "%.1f", ratio))) |"
        } else {
          line += " – |"
        }
      }
      lines.append(line)
    }
    return lines + [""]
  }

  /// The report's plot section and the charts it links to (path, SVG), to be written.
  private func plotSection(
    _ rows: [ResultRow], output: String, plots: String
  ) -> ([String], [(String, String)]) {
    var written: [(String, String)] = []
    let relative = Self.relativePath(
      from: OutputFile.folder(of: output), to: plots)
    var lines = ["## Plots", ""]
    let charts: [(String, Phase, Chart.Metric)] =
      Phase.allCases.map { ($0.rawValue, $0, .time) }
      + [("first-solve-peak", .firstSolve, .peak), ("build-allocated", .build, .allocated)]
    for (name, phase, metric) in charts {
      let chart = Chart(rows: rows, phase: phase, metric: metric)
      guard !chart.panels.isEmpty else { continue }
      written.append(("\(plots)/\(name).svg", chart.svg))
      lines += ["![\(name)](\(relative)/\(name).svg)", ""]
    }
    return (lines, written)
  }

  private func slopeSection(_ rows: [ResultRow]) -> [String] {
    let table = ScalingTable(rows)
    guard !table.entries.isEmpty else { return [] }
    return [table.markdown, ""]
  }

  /// Per scene, solver and phase (incremental mode, at two sizes or more): the largest view
  /// count whose median time fits a frame at 60 and at 120 frames a second, between measured
  /// sizes along their log-log slope, and marked where it is read beyond them.
  private func frameBudgetSection(_ rows: [ResultRow]) -> [String] {
    var series: [String: [(views: Int, nanoseconds: Double)]] = [:]
    var order: [String] = []
    for row in rows
    where row.status == .ok && row.mode == .incremental && (row.medianNanoseconds ?? 0) > 0 {
      let key = "\(sceneLabel(row.scene, row.variant)) | \(row.solver) | \(row.phase)"
      if series[key] == nil { order.append(key) }
      series[key, default: []].append((row.views, Double(row.medianNanoseconds ?? 0)))
    }
    func cell(_ budget: FrameBudget?) -> String {
      guard let budget else { return "–" }
      guard let views = budget.views else { return "no limit seen" }
      guard views > 0 else { return "none fit" }
      let shown =
        views >= 1e9 ? "> 1e9" : views < 1 ? "< 1" : groupedDigits(UInt64(views.rounded(.down)))
      return budget.isExtrapolated ? "\(shown)*" : shown
    }
    var lines = [
      "## Views a frame holds", "",
      "The largest view count whose median time fits one frame, per scene, solver and phase in "
        + "incremental mode: between two measured sizes along their log-log slope; `*` where it "
        + "is read along the slope beyond the sizes measured (an estimate, not a measurement).",
      "",
      "| scene | solver | phase | sizes | 60 fps (16.7 ms) | 120 fps (8.3 ms) |",
      "| --- | --- | --- | --- | ---: | ---: |",
    ]
    var any = false
    for key in order {
      let points = series[key]!
      guard Set(points.map(\.views)).count >= 2 else { continue }
      any = true
      let sizes = points.map(\.views).sorted().map(String.init).joined(separator: ", ")
      lines.append(
        "| \(key) | \(sizes) | "
          + cell(FrameBudget.largestViews(fitting: FrameBudget.sixtyHertz, points: points))
          + " | "
          + cell(FrameBudget.largestViews(fitting: FrameBudget.oneTwentyHertz, points: points))
          + " |")
    }
    return any ? lines + [""] : []
  }

  /// Every cell's median, one column per solver and mode; a line only where something was
  /// measured.
  private func medianSection(_ rows: [ResultRow]) -> [String] {
    var columns: [String] = []
    var order: [String] = []
    var cells: [String: [String: String]] = [:]
    var measured = Set<String>()
    for row in rows {
      let column = "\(row.solver) \(row.mode)"
      if !columns.contains(column) { columns.append(column) }
      let key = "\(sceneLabel(row.scene, row.variant))|\(row.phase)|\(row.views)"
      if cells[key] == nil { order.append(key) }
      let value =
        row.status == .ok ? humanTime(row.medianNanoseconds ?? 0) : row.status.rawValue
      cells[key, default: [:]][column] = value
      if row.status == .ok { measured.insert(key) }
    }
    var lines = [
      "## Median time per cell", "",
      "| scene | phase | views | " + columns.joined(separator: " | ") + " |",
      "| --- | --- | ---: | " + columns.map { _ in "---:" }.joined(separator: " | ") + " |",
    ]
    for key in order where measured.contains(key) {
      let parts = key.split(separator: "|").map(String.init)
      lines.append(
        "| \(parts[0]) | \(parts[1]) | \(parts[2]) | "
          + columns.map { cells[key]![$0] ?? "" }.joined(separator: " | ") + " |")
    }
    return lines + [""]
  }

  private func skippedSection(_ rows: [ResultRow]) -> [String] {
    var seen = Set<String>()
    var lines: [String] = []
    for row in rows where row.status != .ok && row.note != "not applicable" {
      let line =
        "- \(sceneLabel(row.scene, row.variant)) \(row.views) \(row.solver) \(row.mode): "
        + "\(row.status): \(row.note)"
      if seen.insert(line).inserted { lines.append(line) }
    }
    return lines.isEmpty ? [] : ["## Skipped cells and why", ""] + lines + [""]
  }

  /// `target` as a path relative to the folder `base` (both relative to the same folder).
  static func relativePath(from base: String, to target: String) -> String {
    let from = URL(fileURLWithPath: base).standardizedFileURL.pathComponents
    let to = URL(fileURLWithPath: target).standardizedFileURL.pathComponents
    var common = 0
    while common < min(from.count, to.count) && from[common] == to[common] { common += 1 }
    let parts = Array(repeating: "..", count: from.count - common) + to[common...]
    return parts.isEmpty ? "." : parts.joined(separator: "/")
  }
}
