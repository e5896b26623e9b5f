import Foundation

/// Log-log charts of a results file as hand-written SVG: one panel per scene, one line per
/// solver and mode, every size a point. Measured zeros, which a log axis cannot show, are drawn
/// in a band of their own under it, and cells skipped at a size are marked with their reason in
/// a strip above the data, so that every series in the legend is seen.
public struct Chart: Sendable {
  /// What a chart plots.
  public enum Metric: String, CaseIterable, Sendable {
    /// The median time of one repetition.
    case time
    /// Bytes allocated in one repetition.
    case allocated
    /// The peak net allocation in one repetition.
    case peak

    /// The axis's figure for a value of this metric: `1 ms`, `10 KiB`. Bytes are in binary
    /// units (KiB, MiB, GiB), as the tables give them; times in ns, µs, ms and s.
    public func label(_ value: Double) -> String {
      let units: [(Double, String)] =
        self == .time
        ? [(1e9, "s"), (1e6, "ms"), (1e3, "µs"), (1, "ns")]
        : [
          (0x1p60, "EiB"), (0x1p50, "PiB"), (0x1p40, "TiB"), (0x1p30, "GiB"), (0x1p20, "MiB"),
          (0x1p10, "KiB"), (1, "B"),
        ]
      for (scale, unit) in units where value >= scale || scale == 1 {
        let figure = value / scale
        let text =
          figure == figure.rounded() ? String(Int(figure)) : String(format: "%.3g", figure)
        return "\(text) \(unit)"
      }
      return Chart.number(value)
    }

    /// The values an axis of this metric marks to span `low...high` (both above zero), at least
    /// two: from the largest mark at or below `low` to the smallest at or above `high`. Times
    /// are marked at decades of nanoseconds; bytes at 1, 10 and 100 of each binary unit
    /// (1024^k × {1, 10, 100}), so that every mark reads as a whole number of its unit.
    ///
    /// - Complexity: O(marks).
    func ticks(_ low: Double, _ high: Double) -> [Double] {
      if self == .time {
        let (from, to) = Chart.decades([low, high])
        return stride(from: from, through: to, by: 1).map { pow(10, $0) }
      }
      let marks = (0...6).flatMap { power in [1.0, 10, 100].map { $0 * pow(1024, Double(power)) } }
      let from = marks.lastIndex { $0 <= low } ?? 0
      let to = max(marks.firstIndex { $0 >= high } ?? marks.count - 1, from + 1)
      return Array(marks[from...to])
    }

    var title: String {
      switch self {
      case .time: "median time"
      case .allocated: "bytes allocated"
      case .peak: "peak bytes"
      }
    }
  }

  /// One solver and mode's line in a panel.
  public struct Series: Sendable {
    public var name: String
    /// Measured sizes and values; a value of 0 is drawn in the band of zeros.
    public var points: [(x: Double, y: Double)]
    /// Sizes at which the cell was skipped or failed, with why.
    public var skipped: [(x: Double, reason: String)]
  }

  /// One scene's panel.
  public struct Panel: Sendable {
    public var title: String
    public var series: [Series]
  }

  public private(set) var panels: [Panel] = []
  public let phase: Phase
  public let metric: Metric

  /// The chart of `phase`'s `metric` in `rows`: a panel for every scene with a measured row.
  ///
  /// - Complexity: O(rows).
  public init(rows: [ResultRow], phase: Phase, metric: Metric) {
    self.phase = phase
    self.metric = metric
    var order: [String] = []
    var series: [String: [String: Series]] = [:]
    var seriesOrder: [String: [String]] = [:]
    var measured = Set<String>()
    for row in rows where row.phase == phase {
      let title =
        row.variant == "standard" ? row.scene.rawValue : "\(row.scene.rawValue)/\(row.variant)"
      let name = "\(row.solver) \(row.mode)"
      if series[title] == nil {
        order.append(title)
        series[title] = [:]
      }
      if series[title]![name] == nil {
        seriesOrder[title, default: []].append(name)
        series[title]![name] = Series(name: name, points: [], skipped: [])
      }
      let value: Double? =
        switch metric {
        // Closures, not `Double.init`: on a UInt64 that resolves to `init(bitPattern:)`, and
        // the axis read "1e-316 B".
        case .allocated: row.allocatedBytes.map { Double($0) }
        case .peak: row.peakBytes.map { Double($0) }
        case .time: row.medianNanoseconds.flatMap { $0 > 0 ? Double($0) : nil }
        }
      if row.status == .ok, let value, value >= 0 {
        series[title]![name]!.points.append((Double(row.views), value))
        measured.insert(title)
      } else if row.status != .ok {
        let reason = row.note.isEmpty ? row.status.rawValue : "\(row.status): \(row.note)"
        series[title]![name]!.skipped.append((Double(row.views), reason))
      }
    }
    // A scene that only ever skipped (the dense solver at sizes it never reaches) has nothing
    // to scale a panel by: it is left out rather than drawn empty. A series with neither a
    // value nor a skip (a figure the run did not record) is left out too, so that the legend
    // lists only what is drawn.
    panels = order.filter(measured.contains).map { title in
      Panel(
        title: title,
        series: seriesOrder[title]!.compactMap { name in
          var line = series[title]![name]!
          guard !line.points.isEmpty || !line.skipped.isEmpty else { return nil }
          line.points.sort { $0.x < $1.x }
          return line
        })
    }
  }

  /// The line colour and marker of a series, fixed by its solver and mode, so that a series
  /// looks the same in every chart.
  public static func style(of name: String) -> (color: String, marker: String) {
    switch name {
    case "sparse incremental": ("#1f77b4", "circle")
    case "sparse full": ("#6baed6", "square")
    case "plan incremental": ("#9467bd", "circle")
    case "plan full": ("#c5b0d5", "square")
    case "dense incremental": ("#d62728", "triangle")
    case "dense full": ("#ff9896", "diamond")
    case "kiwi full": ("#98df8a", "cross")
    case let other where other.hasPrefix("kiwi"): ("#2ca02c", "cross")
    default: ("#7f7f7f", "circle")
    }
  }

  /// The series every chart's legend lists first, in this order; others follow by name.
  static let knownSeries = [
    "sparse incremental", "sparse full", "plan incremental", "plan full", "dense incremental",
    "dense full",
  ]

  /// The chart as an SVG document. The picture is as wide as its title and its widest legend
  /// entry need, and each panel as wide as its own title, by ``textWidth(_:size:)``; labels are
  /// placed so that no two of them meet.
  ///
  /// - Complexity: O(points + skipped cells + panels × axis marks).
  public var svg: String {
    let columns = min(3, max(1, panels.count))
    let rowsCount = (panels.count + columns - 1) / columns
    let present = Set(panels.flatMap { $0.series.map(\.name) })
    let names =
      Self.knownSeries.filter(present.contains)
      + present.subtracting(Self.knownSeries).sorted()
    let hasSkips = panels.contains { $0.series.contains { !$0.skipped.isEmpty } }
    var entries = names.map { ($0, true) }
    if hasSkips { entries.append(("skipped (hover for why)", false)) }
    let entryWidths = entries.map { 25 + Self.textWidth($0.0, size: 11) + 16 }
    let scales = panels.map(scale)
    let grid = Grid(
      panels: panels, scales: scales, metric: metric, columns: columns,
      least: max(
        Self.textWidth(title, size: 14) + 20, (entryWidths.max() ?? 0) + 20))
    let totalWidth = Double(columns) * grid.width
    // Legend entries laid out by the width of their text, wrapping to a new line rather than
    // running into each other.
    var legend = ""
    var cursor = (x: 10.0, y: 36.0)
    for ((name, isSeries), entryWidth) in zip(entries, entryWidths) {
      if cursor.x + entryWidth > totalWidth - 10 && cursor.x > 10 {
        cursor = (10, cursor.y + 18)
      }
      if isSeries {
        let style = Self.style(of: name)
        legend +=
          "<line x1=\"\(cursor.x)\" y1=\"\(cursor.y)\" x2=\"\(cursor.x + 20)\" y2=\"\(cursor.y)\" "
          + "stroke=\"\(style.color)\" stroke-width=\"2\"/>"
          + marker(style.marker, x: cursor.x + 10, y: cursor.y, color: style.color)
      } else {
        legend += skipMark(x: cursor.x + 10, y: cursor.y, reason: nil)
      }
      legend += "<text x=\"\(cursor.x + 25)\" y=\"\(cursor.y + 4)\">\(escape(name))</text>\n"
      cursor.x += entryWidth
    }
    let top = cursor.y + 16
    var out = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(totalWidth))" \
      height="\(Int((Double(rowsCount) * grid.height + top).rounded(.up)))" \
      font-family="sans-serif" font-size="11">
      <rect width="100%" height="100%" fill="white"/>
      <text x="10" y="20" font-size="14">\(escape(title))</text>

      """
    out += legend
    for (index, panel) in panels.enumerated() {
      let originX = Double(index % columns) * grid.width
      let originY = Double(index / columns) * grid.height + top
      out += panelSVG(panel, scale: scales[index], x: originX, y: originY, grid: grid)
    }
    return out + "</svg>\n"
  }

  private var title: String { "\(metric.title) of \(phase) against views (log-log)" }

  /// A width `text` does not exceed at `size` px in a common sans-serif face: measured against
  /// DejaVu Sans, one of the widest, an em for m, w, M, W and %, 0.8 em for other capitals,
  /// 0.4 em for narrow letters and marks, 0.64 em for the rest, rounded up to a pixel.
  /// Overestimating costs blank space; underestimating cuts text off or runs it into its
  /// neighbour.
  ///
  /// - Complexity: O(characters).
  static func textWidth(_ text: String, size: Double) -> Double {
    let ems = text.reduce(0.0) { sum, character in
      switch character {
      case "m", "w", "M", "W", "%", "@": sum + 1
      case "i", "j", "l", "r", "t", "f", "I", " ", ".", ",", ":", ";", "'", "|", "!", "(", ")",
        "[", "]", "/", "-":
        sum + 0.4
      case let capital where capital.isUppercase: sum + 0.8
      default: sum + 0.64
      }
    }
    return (ems * size).rounded(.up)
  }

  /// The decades an axis spans to show `values` (log10, whole numbers, at least one apart).
  static func decades(_ values: [Double]) -> (low: Double, high: Double) {
    let low = floor(log10(values.min()!))
    return (low, max(ceil(log10(values.max()!)), low + 1))
  }

  /// A panel's axis marks: decades of views, and the metric's marks over its values above
  /// zero (1 to 10 of the unit when it has none).
  private struct Scale {
    var views: [Double]
    var values: [Double]
  }

  private func scale(_ panel: Panel) -> Scale {
    let sizes = panel.series.flatMap { $0.points.map(\.x) + $0.skipped.map(\.x) }
    let (low, high) = Self.decades(sizes)
    let values = panel.series.flatMap { $0.points.map(\.y) }.filter { $0 > 0 }
    return Scale(
      views: stride(from: low, through: high, by: 1).map { pow(10, $0) },
      values: metric.ticks(values.min() ?? 1, values.max() ?? 1))
  }

  /// Sizes every panel of a chart shares, so that panels line up and each fits its text.
  private struct Grid {
    /// A panel's size.
    var width: Double, height: Double
    /// From a panel's left edge to its data area, and from the data area to its right edge:
    /// room for the widest value label, and for half the widest views label.
    var left: Double, right: Double
    /// Rows of the strip of skipped cells above the data areas, and of the band of zeros
    /// under the log axes: the most series a panel has with skips, or with zeros.
    var skipRows: Int, zeroRows: Int

    /// The grid of `panels` in `columns`, the picture at least `least` wide.
    init(
      panels: [Panel], scales: [Scale], metric: Metric, columns: Int, least: Double
    ) {
      let valueLabels = scales.flatMap { $0.values.map(metric.label) } + [metric.label(0)]
      let viewsLabels = scales.flatMap { $0.views.map(Chart.number) }
      skipRows = panels.map { $0.series.count { !$0.skipped.isEmpty } }.max() ?? 0
      zeroRows = panels.map { $0.series.count { $0.points.contains { $0.y == 0 } } }.max() ?? 0
      left =
        10
        + max(
          (valueLabels.map { Chart.textWidth($0, size: 11) }.max() ?? 0) + 6,
          skipRows > 0 ? Chart.textWidth("skipped", size: 11) + 8 : 0)
      right = max(24, (viewsLabels.map { Chart.textWidth($0, size: 11) }.max() ?? 0) / 2 + 10)
      let titles = panels.map { Chart.textWidth($0.title, size: 12) + 16 }.max() ?? 0
      width = max(340, titles, least / Double(columns), left + right + 160).rounded(.up)
      height = 28 + Self.strip(skipRows) + 200 + 44
    }

    /// The height of a strip of skipped cells `rows` high, with its gap to the data area.
    static func strip(_ rows: Int) -> Double { rows > 0 ? Double(rows - 1) * 10 + 16 : 0 }
  }

  /// One panel: its title; the strip of skipped cells; the data area, a log frame and under it
  /// (when the panel has zeros) the band of zeros; the views labels and axis title. Its text
  /// is stacked top to bottom with a few pixels between any two labels (at 11 px, ink runs
  /// about 8.5 px above the baseline and 2.6 px below).
  private func panelSVG(
    _ panel: Panel, scale: Scale, x: Double, y: Double, grid: Grid
  ) -> String {
    let left = x + grid.left, right = x + grid.width - grid.right
    let stripTop = y + 28
    let top = stripTop + Grid.strip(grid.skipRows), bottom = top + 200
    // The series with zeros, one row of the band each, so that zeros do not hide each other.
    let zeroSeries = panel.series.filter { $0.points.contains { $0.y == 0 } }.map(\.name)
    let bandHeight = zeroSeries.isEmpty ? 0 : 16 + Double(grid.zeroRows - 1) * 9
    let bandTop = bottom - bandHeight
    let logBottom = zeroSeries.isEmpty ? bottom : bandTop - 12
    let (minX, maxX) = (log10(scale.views.first!), log10(scale.views.last!))
    let (minY, maxY) = (log10(scale.values.first!), log10(scale.values.last!))
    func px(_ value: Double) -> Double {
      left + (log10(value) - minX) / (maxX - minX) * (right - left)
    }
    func py(_ value: Double, _ series: String) -> Double {
      guard value > 0 else { return bandTop + 8 + Double(zeroSeries.firstIndex(of: series)!) * 9 }
      return logBottom - (log10(value) - minY) / (maxY - minY) * (logBottom - top)
    }
    var out =
      "<g>\n<text x=\"\(x + grid.width / 2)\" y=\"\(y + 16)\" text-anchor=\"middle\" "
      + "font-size=\"12\">\(escape(panel.title))</text>\n"
    // Labels no closer than 15 px down or their width plus 6 px across: every nth mark.
    let viewsSpacing = (right - left) / (maxX - minX)
    let widestViews = scale.views.map { Self.textWidth(Self.number($0), size: 11) }.max()!
    let viewsEvery = max(1, Int(((widestViews + 6) / viewsSpacing).rounded(.up)))
    for (index, value) in scale.views.enumerated() {
      let position = px(value)
      out +=
        "<line x1=\"\(position)\" y1=\"\(top)\" x2=\"\(position)\" y2=\"\(logBottom)\" "
        + "stroke=\"#eee\"/>"
      if bandHeight > 0 {
        out +=
          "<line x1=\"\(position)\" y1=\"\(bandTop)\" x2=\"\(position)\" y2=\"\(bottom)\" "
          + "stroke=\"#eee\"/>"
      }
      if index % viewsEvery == 0 {
        out +=
          "<text x=\"\(position)\" y=\"\(bottom + 19)\" text-anchor=\"middle\">"
          + "\(Self.number(value))</text>"
      }
      out += "\n"
    }
    let valuesSpacing = (logBottom - top) / Double(scale.values.count - 1)
    let valuesEvery = max(1, Int((15 / valuesSpacing).rounded(.up)))
    for (index, value) in scale.values.enumerated() {
      let position = py(value, "")
      out +=
        "<line x1=\"\(left)\" y1=\"\(position)\" x2=\"\(right)\" y2=\"\(position)\" "
        + "stroke=\"#eee\"/>"
      if index % valuesEvery == 0 {
        out +=
          "<text x=\"\(left - 6)\" y=\"\(position + 4)\" text-anchor=\"end\">"
          + "\(metric.label(value))</text>"
      }
      out += "\n"
    }
    // The frames over their grid lines.
    out += frame(left: left, top: top, right: right, bottom: logBottom)
    if bandHeight > 0 {
      // A band of its own, apart from the log frame, with the axis broken between them.
      out += frame(left: left, top: bandTop, right: right, bottom: bottom)
      let middle = (logBottom + bandTop) / 2
      for edge in [left, right] {
        out +=
          "<path d=\"M\(edge - 4),\(middle - 1)L\(edge + 4),\(middle - 5)"
          + "M\(edge - 4),\(middle + 5)L\(edge + 4),\(middle + 1)\" stroke=\"#999\"/>"
      }
      out +=
        "<text x=\"\(left - 6)\" y=\"\(bandTop + bandHeight / 2 + 4)\" text-anchor=\"end\">"
        + "\(metric.label(0))</text>\n"
    }
    out +=
      "<text x=\"\((left + right) / 2)\" y=\"\(bottom + 34)\" text-anchor=\"middle\">views</text>\n"
    // Skipped sizes: a strip above the data area, one row a series, each mark in the series'
    // colour with the reason as its tooltip.
    let skipping = panel.series.filter { !$0.skipped.isEmpty }
    if !skipping.isEmpty {
      out +=
        "<text x=\"\(left - 8)\" y=\"\(stripTop + Double(skipping.count - 1) * 5 + 4)\" "
        + "text-anchor=\"end\" fill=\"#555\">skipped</text>\n"
    }
    for (row, series) in skipping.enumerated() {
      let color = Self.style(of: series.name).color
      for skip in series.skipped {
        out += skipMark(
          x: px(skip.x), y: stripTop + Double(row) * 10,
          reason: "\(series.name) at \(Int(skip.x)) views: \(skip.reason)", color: color)
      }
      out += "\n"
    }
    for series in panel.series where !series.points.isEmpty {
      let style = Self.style(of: series.name)
      // A line through each run of points on one side of the break (the log frame or the
      // band), and a dashed one across it.
      var runs: [[String]] = []
      var previous: (x: Double, y: Double)?
      for point in series.points {
        let position = (x: px(point.x), y: py(point.y, series.name))
        if let previous, (previous.y == 0) == (point.y == 0) {
          runs[runs.count - 1].append("\(position.x),\(position.y)")
        } else {
          if let previous {
            out +=
              "<line x1=\"\(px(previous.x))\" y1=\"\(py(previous.y, series.name))\" "
              + "x2=\"\(position.x)\" y2=\"\(position.y)\" stroke=\"\(style.color)\" "
              + "stroke-dasharray=\"3,3\"/>"
          }
          runs.append(["\(position.x),\(position.y)"])
        }
        previous = point
      }
      for run in runs where run.count > 1 {
        out +=
          "<polyline points=\"\(run.joined(separator: " "))\" fill=\"none\" "
          + "stroke=\"\(style.color)\" stroke-width=\"2\"/>"
      }
      for point in series.points {
        out += marker(
          style.marker, x: px(point.x), y: py(point.y, series.name), color: style.color)
      }
      out += "\n"
    }
    return out + "</g>\n"
  }

  /// A data area's outline: an unfilled, stroked rectangle.
  private func frame(left: Double, top: Double, right: Double, bottom: Double) -> String {
    "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(right - left)\" height=\"\(bottom - top)\" "
      + "fill=\"none\" stroke=\"#999\"/>\n"
  }

  private func marker(_ shape: String, x: Double, y: Double, color: String) -> String {
    switch shape {
    case "square":
      return
        "<rect x=\"\(x - 3)\" y=\"\(y - 3)\" width=\"6\" height=\"6\" fill=\"\(color)\"/>"
    case "triangle":
      return
        "<polygon points=\"\(x),\(y - 4) \(x - 4),\(y + 3) \(x + 4),\(y + 3)\" fill=\"\(color)\"/>"
    case "diamond":
      return
        "<polygon points=\"\(x),\(y - 4) \(x - 4),\(y) \(x),\(y + 4) \(x + 4),\(y)\" "
        + "fill=\"\(color)\"/>"
    case "cross":
      return
        "<path d=\"M\(x - 3),\(y - 3)L\(x + 3),\(y + 3)M\(x - 3),\(y + 3)L\(x + 3),\(y - 3)\" "
        + "stroke=\"\(color)\" stroke-width=\"2\"/>"
    default:
      return "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"3\" fill=\"\(color)\"/>"
    }
  }

  private func skipMark(x: Double, y: Double, reason: String?, color: String = "#555") -> String {
    let tooltip = reason.map { "<title>\(escape($0))</title>" } ?? ""
    return
      "<g><circle cx=\"\(x)\" cy=\"\(y)\" r=\"3.5\" fill=\"white\" stroke=\"\(color)\"/>"
      + "<path d=\"M\(x - 2),\(y - 2)L\(x + 2),\(y + 2)M\(x - 2),\(y + 2)L\(x + 2),\(y - 2)\" "
      + "stroke=\"\(color)\"/>\(tooltip)</g>"
  }

  /// A decade's figure: `1`, `10`, `100`, `1k`, `10k`, `1M`; `0.1` below one.
  static func number(_ value: Double) -> String {
    if value >= 1e6 && value.truncatingRemainder(dividingBy: 1e6) == 0 {
      return "\(Int(value / 1e6))M"
    }
    if value >= 1e3 && value.truncatingRemainder(dividingBy: 1e3) == 0 {
      return "\(Int(value / 1e3))k"
    }
    return value >= 1 ? String(Int(value.rounded())) : String(format: "%g", value)
  }

  private func escape(_ text: String) -> String { Markup.escaped(text) }
}
