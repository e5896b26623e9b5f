import Foundation

/// Log-log charts of a results file as hand-written SVG: one panel per scene, one line per
/// solver and mode, every size a point; cells skipped at a size are marked with their reason.
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
        case .time: row.medianNanoseconds > 0 ? Double(row.medianNanoseconds) : nil
        }
      if row.status == .ok, let value, value > 0 {
        series[title]![name]!.points.append((Double(row.views), value))
        measured.insert(title)
      } else if row.status != .ok {
        let reason = row.note.isEmpty ? row.status.rawValue : "\(row.status): \(row.note)"
        series[title]![name]!.skipped.append((Double(row.views), reason))
      }
    }
    // A scene that only ever skipped (the dense solver at sizes it never reaches) has nothing
    // to scale a panel by: it is left out rather than drawn empty.
    panels = order.filter(measured.contains).map { title in
      Panel(
        title: title,
        series: seriesOrder[title]!.map { name in
          var line = series[title]![name]!
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
    case "dense incremental": ("#d62728", "triangle")
    case "dense full": ("#ff9896", "diamond")
    case "kiwi full": ("#98df8a", "cross")
    case let other where other.hasPrefix("kiwi"): ("#2ca02c", "cross")
    default: ("#7f7f7f", "circle")
    }
  }

  /// The series every chart's legend lists first, in this order; others follow by name.
  static let knownSeries = ["sparse incremental", "sparse full", "dense incremental", "dense full"]

  /// The chart as an SVG document.
  public var svg: String {
    let columns = min(3, max(1, panels.count)), width = 340.0, height = 260.0
    let rowsCount = (panels.count + columns - 1) / columns
    let present = Set(panels.flatMap { $0.series.map(\.name) })
    let names =
      Self.knownSeries.filter(present.contains)
      + present.subtracting(Self.knownSeries).sorted()
    let hasSkips = panels.contains { $0.series.contains { !$0.skipped.isEmpty } }
    let totalWidth = Double(columns) * width
    // Legend entries laid out by the width of their text (about 6.5 px a character at 11 px),
    // wrapping to a new line rather than running into each other.
    var legend = ""
    var cursor = (x: 10.0, y: 34.0)
    var entries = names.map { ($0, true) }
    if hasSkips { entries.append(("skipped (hover for why)", false)) }
    for (name, isSeries) in entries {
      let entryWidth = 30 + Double(name.count) * 6.5 + 16
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
      height="\(Int(Double(rowsCount) * height + top))" font-family="sans-serif" font-size="11">
      <rect width="100%" height="100%" fill="white"/>
      <text x="10" y="18" font-size="14">\(escape(title))</text>

      """
    out += legend
    for (index, panel) in panels.enumerated() {
      let originX = Double(index % columns) * width
      let originY = Double(index / columns) * height + top
      out += panelSVG(panel, x: originX, y: originY, width: width, height: height)
    }
    return out + "</svg>\n"
  }

  private var title: String { "\(metric.title) of \(phase) against views (log-log)" }

  /// The decades an axis spans to show `values` (log10, whole numbers, at least one apart).
  static func decades(_ values: [Double]) -> (low: Double, high: Double) {
    let low = floor(log10(values.min()!))
    return (low, max(ceil(log10(values.max()!)), low + 1))
  }

  private func panelSVG(
    _ panel: Panel, x: Double, y: Double, width: Double, height: Double
  ) -> String {
    // Room on the right for the last x tick's label, so that it is not clipped.
    let left = x + 58, right = x + width - 24, top = y + 22, bottom = y + height - 34
    let points = panel.series.flatMap(\.points)
    let sizes = points.map(\.x) + panel.series.flatMap { $0.skipped.map(\.x) }
    let (minX, maxX) = Self.decades(sizes)
    let values = points.map(\.y)
    let yTicks = metric.ticks(values.min()!, values.max()!)
    let (minY, maxY) = (log10(yTicks.first!), log10(yTicks.last!))
    func px(_ value: Double) -> Double {
      left + (log10(value) - minX) / (maxX - minX) * (right - left)
    }
    func py(_ value: Double) -> Double {
      bottom - (log10(value) - minY) / (maxY - minY) * (bottom - top)
    }
    var out =
      "<g>\n<text x=\"\(x + width / 2)\" y=\"\(y + 14)\" text-anchor=\"middle\" "
      + "font-size=\"12\">\(escape(panel.title))</text>\n"
    out +=
      "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(right - left)\" height=\"\(bottom - top)\" "
      + "fill=\"none\" stroke=\"#999\"/>\n"
    for decade in stride(from: minX, through: maxX, by: 1) {
      let position = px(pow(10, decade))
      out +=
        "<line x1=\"\(position)\" y1=\"\(top)\" x2=\"\(position)\" y2=\"\(bottom)\" "
        + "stroke=\"#eee\"/>"
      out +=
        "<text x=\"\(position)\" y=\"\(bottom + 14)\" text-anchor=\"middle\">"
        + "\(Self.number(pow(10, decade)))</text>\n"
    }
    for tick in yTicks {
      let position = py(tick)
      out +=
        "<line x1=\"\(left)\" y1=\"\(position)\" x2=\"\(right)\" y2=\"\(position)\" "
        + "stroke=\"#eee\"/>"
      out +=
        "<text x=\"\(left - 4)\" y=\"\(position + 4)\" text-anchor=\"end\">"
        + "\(metric.label(tick))</text>\n"
    }
    out +=
      "<text x=\"\((left + right) / 2)\" y=\"\(bottom + 28)\" text-anchor=\"middle\">views</text>\n"
    for (index, series) in panel.series.enumerated() {
      let style = Self.style(of: series.name)
      if !series.points.isEmpty {
        let line = series.points.map { "\(px($0.x)),\(py($0.y))" }.joined(separator: " ")
        out +=
          "<polyline points=\"\(line)\" fill=\"none\" stroke=\"\(style.color)\" "
          + "stroke-width=\"2\"/>"
        for point in series.points {
          out += marker(style.marker, x: px(point.x), y: py(point.y), color: style.color)
        }
      }
      // Skipped sizes: a mark in the series' colour along the top of the panel, one row of
      // marks a series so that they do not cover each other, with the reason as its tooltip.
      for skip in series.skipped {
        out += skipMark(
          x: px(skip.x), y: top + 8 + Double(index) * 9,
          reason: "\(series.name) at \(Int(skip.x)) views: \(skip.reason)",
          color: style.color)
      }
      out += "\n"
    }
    return out + "</g>\n"
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

  private func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
