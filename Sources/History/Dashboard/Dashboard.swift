import Foundation
import Harness
import Scenes

/// The static site `bench publish` writes from a history store: an overview of the latest run
/// (its environment, and every scene and phase by solver with the strategies' ratios), a page of
/// trend charts for each scene variant and size (one chart a phase, one series a solver and
/// mode, one point a commit), and the regressions page. Self-contained: inline SVG and CSS, no
/// script, no network, links between its own pages only.
public struct Dashboard {
  /// One page of the site: its file name and its HTML.
  public struct Page: Sendable {
    public var fileName: String
    public var html: String
  }

  public private(set) var pages: [Page] = []

  /// The site of `store`. Trends are drawn from the runs of the latest run's machine class;
  /// the regressions page lists every machine's, as `bench history regressions` with `criteria`
  /// prints them.
  ///
  /// - Throws: ``HistoryError`` from the store, or `badInput` for a store with no run.
  /// - Complexity: O(cells in the store).
  public init(
    store: HistoryStore, criteria: HistoryStore.RegressionCriteria = .init()
  ) throws(HistoryError) {
    let runs = try store.runs()
    guard let latest = runs.last, let machine = try store.latestMachine() else {
      throw HistoryError(.badInput, "\(store.path) has no runs to publish")
    }
    let regressions = try store.regressions(criteria)
    let latestCells = try store.cells(ofRun: latest.id)
    let commitOrder = try store.commits(on: machine)
    // Every scene variant and size the machine's history has, for the trend pages.
    var sceneSizes: [SceneKind: [String: Set<Int>]] = [:]
    var trendsByPage: [String: [(phase: Phase, trends: [HistoryStore.Trend])]] = [:]
    for scene in SceneKind.allCases {
      for phase in Phase.allCases {
        let trends = try store.trends(
          HistoryStore.TrendQuery(scene: scene, phase: phase), on: machine)
        for trend in trends {
          sceneSizes[scene, default: [:]][trend.variant, default: []].insert(trend.views)
        }
        for (page, group) in Dictionary(
          grouping: trends, by: { Self.scenePage(scene, $0.variant, $0.views) })
        {
          trendsByPage[page, default: []].append((phase, group))
        }
      }
    }
    var scenePages: [(fileName: String, label: String, attributes: String)] = []
    for scene in SceneKind.allCases {
      for variant in scene.variants {
        for views in (sceneSizes[scene]?[variant] ?? []).sorted() {
          scenePages.append(
            (
              Self.scenePage(scene, variant, views), "\(scene)/\(variant) at \(views) views",
              "data-scene=\"\(scene)\" data-variant=\"\(variant)\" data-views=\"\(views)\""
            ))
        }
      }
    }
    let navigation = Self.navigation(scenePages.map { ($0.fileName, $0.label) })
    pages.append(
      Page(
        fileName: "index.html",
        html: Self.overview(
          latest: latest, machine: machine, cells: latestCells, runs: runs,
          regressions: regressions, navigation: navigation)))
    pages.append(
      Page(
        fileName: "regressions.html",
        html: Self.regressionsPage(regressions, criteria: criteria, navigation: navigation)))
    for (fileName, label, attributes) in scenePages {
      let charts = (trendsByPage[fileName] ?? []).sorted {
        Phase.allCases.firstIndex(of: $0.phase)! < Phase.allCases.firstIndex(of: $1.phase)!
      }
      pages.append(
        Page(
          fileName: fileName,
          html: Self.scenePage(
            label: label, attributes: attributes, charts: charts, commitOrder: commitOrder,
            machine: machine, navigation: navigation)))
    }
  }

  /// Writes the site into `folder`, replacing what a previous publish left there: the pages
  /// are written into a new folder beside it first and swapped in by renames, so that a failure
  /// leaves the old site whole.
  ///
  /// - Throws: ``PublishError`` naming the path that could not be written.
  /// - Complexity: O(total page size).
  public func write(to folder: String) throws(PublishError) {
    let manager = FileManager.default
    let target = URL(fileURLWithPath: folder).standardizedFileURL
    let parent = target.deletingLastPathComponent()
    let staging = parent.appending(path: ".\(target.lastPathComponent).partial-\(getpid())")
    let retired = parent.appending(path: ".\(target.lastPathComponent).old-\(getpid())")
    func attempt(_ what: String, _ path: URL, _ body: () throws -> Void) throws(PublishError) {
      do {
        try body()
      } catch {
        try? manager.removeItem(at: staging)
        let reason = (error as NSError).userInfo[NSUnderlyingErrorKey].map { "\($0)" }
        throw PublishError(
          path: path.path,
          reason: "cannot \(what)"
            + (reason.flatMap { Self.posixReason($0) }.map { ": \($0)" } ?? ""))
      }
    }
    // A folder that is not a site of ours is never replaced: `--output .` must not wipe a
    // working directory.
    var isFolder: ObjCBool = false
    if manager.fileExists(atPath: target.path, isDirectory: &isFolder) {
      let contents = (try? manager.contentsOfDirectory(atPath: target.path)) ?? []
      guard isFolder.boolValue,
        contents.isEmpty || contents.contains(Self.markerName)
      else {
        throw PublishError(
          path: target.path,
          reason: isFolder.boolValue
            ? "a folder that an earlier publish did not write (no \(Self.markerName)); name a "
              + "new or empty folder"
            : "a file, not a folder",
          isRefusal: true)
      }
    }
    try? manager.removeItem(at: staging)
    try attempt("create the folder", staging) {
      try manager.createDirectory(at: staging, withIntermediateDirectories: true)
    }
    try attempt("write the marker", staging.appending(path: Self.markerName)) {
      try Data("A site bench publish wrote; the next publish replaces this folder.\n".utf8)
        .write(to: staging.appending(path: Self.markerName))
    }
    for page in pages {
      try attempt("write a page", staging.appending(path: page.fileName)) {
        try Data(page.html.utf8).write(to: staging.appending(path: page.fileName))
      }
    }
    if manager.fileExists(atPath: target.path) {
      try? manager.removeItem(at: retired)
      try attempt("move the old site aside", target) {
        try manager.moveItem(at: target, to: retired)
      }
      do {
        try manager.moveItem(at: staging, to: target)
      } catch {
        try? manager.moveItem(at: retired, to: target)
        try? manager.removeItem(at: staging)
        throw PublishError(path: target.path, reason: "cannot move the new site in")
      }
      try? manager.removeItem(at: retired)
    } else {
      try attempt("move the new site in", target) {
        try manager.moveItem(at: staging, to: target)
      }
    }
  }

  /// The file that marks a folder as a site `bench publish` wrote, which it may replace.
  public static let markerName = ".bench-site"

  /// `Error Domain=NSPOSIXErrorDomain Code=30 ...` as `Read-only file system`.
  static func posixReason(_ text: String) -> String? {
    guard let range = text.range(of: "Code="),
      let code = Int32(text[range.upperBound...].prefix { $0.isNumber })
    else { return nil }
    return String(cString: strerror(code))
  }

  static func scenePage(_ scene: SceneKind, _ variant: String, _ views: Int) -> String {
    "scene-\(scene.rawValue)-\(variant)-\(views).html"
  }

  static let style = """
    body { font-family: sans-serif; margin: 1.5em; color: #222; max-width: 1200px; }
    h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
    table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
    th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
    th:first-child, td.label { text-align: left; }
    nav { font-size: 0.85em; line-height: 1.6; }
    nav a { margin-right: 0.8em; }
    .regression { color: #b00; }
    figure { margin: 1em 0; }
    """

  static func document(
    title: String, navigation: String, body: String, attributes: String = ""
  ) -> String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <title>\(Markup.escaped(title))</title>
    <style>\(style)</style>
    </head>
    <body\(attributes.isEmpty ? "" : " " + attributes)>
    <h1>\(Markup.escaped(title))</h1>
    \(navigation)
    \(body)
    </body>
    </html>

    """
  }

  static func navigation(_ scenePages: [(fileName: String, label: String)]) -> String {
    var html =
      "<nav><a href=\"index.html\">Overview</a><a href=\"regressions.html\">Regressions</a>"
    html += "<br>Trends: "
    html += scenePages.map { "<a href=\"\($0.fileName)\">\(Markup.escaped($0.label))</a>" }
      .joined()
    return html + "</nav>"
  }

  static func overview(
    latest: HistoryStore.RunSummary, machine: HistoryStore.Machine,
    cells: [ResultRow], runs: [HistoryStore.RunSummary],
    regressions: [HistoryStore.Regression], navigation: String
  ) -> String {
    var body = "<h2>The latest run</h2>\n<table id=\"environment\">\n"
    for (name, value) in [
      ("run", latest.runID), ("started", latest.startedAt), ("commit", latest.commit),
      ("machine", latest.machine),
      ("CPU", latest.cpuModel.isEmpty ? "not recorded" : latest.cpuModel),
      ("toolchain", latest.toolchain.isEmpty ? "not recorded" : latest.toolchain),
      ("jemalloc", latest.jemalloc.isEmpty ? "not recorded" : latest.jemalloc),
      ("recorded from", latest.source), ("runs in the store", String(runs.count)),
    ] {
      body += "<tr><th>\(name)</th><td class=\"label\">\(Markup.escaped(value))</td></tr>\n"
    }
    body += "</table>\n"
    body += latestTable(cells)
    body += "<h2>Regressions</h2>\n"
    let byCommit = Dictionary(grouping: regressions, by: \.commit)
    let order = regressions.map(\.commit).reduce(into: [String]()) {
      if $0.last != $1 { $0.append($1) }
    }
    body +=
      "<p>\(regressions.count) regression(s) in \(byCommit.count) commit(s) of the history "
      + "(<a href=\"regressions.html\">all of them</a>). The latest commits:</p>\n"
    body += "<table id=\"regressions-by-commit\"><tr><th>commit</th><th>regressions</th></tr>\n"
    for commit in order.reversed().prefix(10) {
      body +=
        "<tr><td class=\"label\">\(Markup.escaped(commit))</td><td>\(byCommit[commit]!.count)</td></tr>\n"
    }
    body += "</table>\n"
    return document(
      title: "LayoutBench: benchmark history", navigation: navigation, body: body)
  }

  /// Each scene variant and phase of the latest run at its largest size: a column a solver and
  /// mode, and each solver's time over sparse's in the same mode.
  static func latestTable(_ cells: [ResultRow]) -> String {
    let solvers = cells.map(\.solver).reduce(into: [ResultRow.Solver]()) {
      if !$0.contains($1) { $0.append($1) }
    }.sorted { HistoryStore.solverRank($0) < HistoryStore.solverRank($1) }
    let modes = Mode.allCases.filter { mode in cells.contains { $0.mode == mode } }
    var html = """
      <h2>The latest run by scene, phase and solver</h2>
      <p>Median time of one repetition at each scene's largest size in the run; × sparse is the \
      solver's time over the sparse solver's in the same mode and run.</p>
      <table id="latest-run"><tr><th>scene</th><th>views</th><th>phase</th>
      """
    for mode in modes {
      for solver in solvers {
        html += "<th>\(solver) \(mode)</th>"
        if solver != .sparse { html += "<th>× sparse</th>" }
      }
    }
    html += "</tr>\n"
    var byKey: [CellKey: ResultRow] = [:]
    for cell in cells { byKey[cell.key] = cell }
    for scene in SceneKind.allCases {
      for variant in scene.variants {
        let sized = cells.filter { $0.scene == scene && $0.variant == variant }
        guard let views = sized.map(\.views).max() else { continue }
        for phase in Phase.allCases
        where sized.contains(where: { $0.phase == phase && $0.views == views }) {
          html +=
            "<tr><td class=\"label\">\(scene)/\(variant)</td><td>\(views)</td><td class=\"label\">\(phase)</td>"
          for mode in modes {
            let reference = byKey[
              CellKey(
                scene: scene, variant: variant, views: views, solver: .sparse, mode: mode,
                phase: phase)
            ].flatMap { Metric.medianTime.value(in: $0) }
            for solver in solvers {
              let cell = byKey[
                CellKey(
                  scene: scene, variant: variant, views: views, solver: solver, mode: mode,
                  phase: phase)]
              let time = cell.flatMap { Metric.medianTime.value(in: $0) }
              html +=
                "<td>\(time.map { TrendChart.label(Double($0), .medianTime) } ?? (cell.map { $0.status == .ok ? "–" : $0.status.rawValue } ?? "–"))</td>"
              if solver != .sparse {
                let ratio = time.flatMap { time in reference.map { Double(time) / Double($0) } }
                html +=
                  "<td>\(ratio.map { "×" + String(format: "%.3g", $0) } ?? "–")</td>"
              }
            }
          }
          html += "</tr>\n"
        }
      }
    }
    return html + "</table>\n"
  }

  static func regressionsPage(
    _ regressions: [HistoryStore.Regression], criteria: HistoryStore.RegressionCriteria,
    navigation: String
  ) -> String {
    var body = """
      <p>\(regressions.count) regression(s): between consecutive commits that measured a cell on \
      one machine class, a checksum that changed, allocated bytes or instructions that grew by \
      more than \(HTML.number(criteria.countTolerance * 100)) % (and 64), a measured cell no \
      longer measured, or a time ratio inside one run (a solver's over dense's, incremental \
      over full) that grew by more than \(HTML.number(criteria.ratioThreshold * 100)) %. The \
      same list as <code>bench history regressions</code>.</p>
      <table id="regressions"><tr><th>commit</th><th>previous</th><th>cell</th><th>figure</th>\
      <th>before</th><th>after</th><th>machine</th></tr>

      """
    for regression in regressions.reversed() {
      body += "<tr class=\"regression\">"
      for field in [
        regression.commit, regression.previousCommit, regression.cell.description,
        regression.figure.description, regression.before, regression.after, regression.machine,
      ] {
        body += "<td class=\"label\">\(Markup.escaped(field))</td>"
      }
      body += "</tr>\n"
    }
    body += "</table>\n"
    return document(title: "LayoutBench: regressions", navigation: navigation, body: body)
  }

  static func scenePage(
    label: String, attributes: String, charts: [(phase: Phase, trends: [HistoryStore.Trend])],
    commitOrder: [String], machine: HistoryStore.Machine, navigation: String
  ) -> String {
    var body =
      "<p>Runs on \(Markup.escaped(machine.description)). One point a commit: the latest run of it that measured the cell; a cross above the plot marks a cell skipped or failed.</p>\n"
    // A phase none of whose series measured anything (it does not apply to the scene) has no
    // chart.
    for (phase, trends) in charts
    where trends.contains(where: { $0.points.contains { $0.value != nil } }) {
      // The commits any series of the chart has a point at, in the history's order.
      let present = Set(trends.flatMap { $0.points.map(\.commit) })
      let commits = commitOrder.filter(present.contains)
      let chart = TrendChart(
        title: "\(label): \(phase), median time over commits", commits: commits,
        series: trends.map { TrendChart.Series(name: $0.name, points: $0.points) },
        metric: .medianTime)
      body += "<figure class=\"chart\" data-phase=\"\(phase)\">\n\(chart.svg)\n</figure>\n"
    }
    return document(
      title: "LayoutBench: \(label)", navigation: navigation, body: body, attributes: attributes)
  }
}

/// A site that could not be written, and where.
public struct PublishError: Error, CustomStringConvertible {
  public var path: String
  public var reason: String
  /// Whether the site was refused for the output given (a folder not of a publish), rather
  /// than failed to be written.
  public var isRefusal = false
  public var description: String { "\(path): \(reason)" }
}
