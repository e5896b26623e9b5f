import Foundation
import Harness

/// A figure over commits as an SVG picture: one line per series (a solver and mode), one point
/// per commit that measured it, commits in order along the x axis, the figure on a log axis when
/// it spans more than a decade. Cells that were skipped or failed are marked with a cross in a
/// strip above the data, so that a series that stopped being measured is seen.
///
/// The picture carries what a test needs to read it back: each series is a `g.series` with
/// `data-series` (its name), each point a `circle.point` with `data-commit`, each skipped cell a
/// `g.skipped` with `data-commit`.
struct TrendChart {
  struct Series {
    var name: String
    var points: [HistoryStore.TrendPoint]
  }

  var title: String
  /// Every commit the chart's axis shows, in order.
  var commits: [String]
  var series: [Series]
  var metric: Metric

  static let width = 760.0
  static let plotHeight = 166.0
  static let left = 78.0
  static let right = 16.0
  static let bottom = 92.0
  /// The height of one row of the strip of skipped cells: a row for each series with a skip.
  static let stripRow = 10.0

  /// The series with a skipped or failed cell, each with its row in the strip.
  var skippingSeries: [String] {
    series.filter { $0.points.contains { $0.value == nil } }.map(\.name)
  }

  /// Rows the legend takes under the title, at the width its entries need.
  var legendRows: Int {
    var rows = 1
    var x = Self.left
    for entry in series {
      let width = Self.legendWidth(entry.name)
      if x + width > Self.width - Self.right, x > Self.left {
        rows += 1
        x = Self.left
      }
      x += width + 12
    }
    return rows
  }

  static func legendWidth(_ name: String) -> Double { 26 + Double(name.count) * 7.2 }

  /// From the top of the picture to the strip: the title and the legend.
  var top: Double { 30 + Double(legendRows) * 14 + 6 }
  var strip: Double { max(1, Double(skippingSeries.count)) * Self.stripRow + 4 }
  var height: Double { top + strip + Self.plotHeight + Self.bottom }

  /// The SVG element, sized to be placed in a page.
  ///
  /// - Complexity: O(points + commits).
  var svg: String {
    let plotWidth = Self.width - Self.left - Self.right
    let plotTop = top + strip
    let plotHeight = Self.plotHeight
    let height = self.height
    let values = series.flatMap { $0.points.compactMap(\.value) }.filter { $0 > 0 }.map {
      Double($0)
    }
    let low = values.min() ?? 1
    let high = values.max() ?? 10
    let logarithmic = high / low > 10
    let (axisLow, axisHigh, ticks) = Self.axis(low, high, logarithmic: logarithmic)
    func y(_ value: Double) -> Double {
      let fraction =
        logarithmic
        ? (log10(value) - log10(axisLow)) / (log10(axisHigh) - log10(axisLow))
        : (value - axisLow) / (axisHigh - axisLow)
      return plotTop + plotHeight * (1 - fraction)
    }
    let step = commits.count > 1 ? plotWidth / Double(commits.count - 1) : 0
    let position = Dictionary(
      commits.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    func x(_ commit: String) -> Double {
      Self.left + (commits.count > 1 ? Double(position[commit]!) * step : plotWidth / 2)
    }
    var svg = """
      <svg xmlns="http://www.w3.org/2000/svg" class="trend" role="img" \
      width="\(Int(Self.width))" height="\(Int(height))" \
      viewBox="0 0 \(Int(Self.width)) \(Int(height))" \
      data-metric="\(metric.column)" data-scale="\(logarithmic ? "log" : "linear")">
      <title>\(Markup.escaped(title))</title>
      <text class="chart-title" x="\(Int(Self.width / 2))" y="18" text-anchor="middle" \
      font-size="14" font-weight="bold">\(Markup.escaped(title))</text>

      """
    // The legend, one entry a series, in rows under the title.
    var legendX = Self.left
    var legendY = 38.0
    for entry in series {
      let style = Chart.style(of: entry.name)
      let width = Self.legendWidth(entry.name)
      if legendX + width > Self.width - Self.right, legendX > Self.left {
        legendX = Self.left
        legendY += 14
      }
      svg += """
        <g class="legend-entry" data-series="\(Markup.escaped(entry.name))">\
        <line x1="\(HTML.number(legendX))" y1="\(HTML.number(legendY - 4))" \
        x2="\(HTML.number(legendX + 16))" y2="\(HTML.number(legendY - 4))" \
        stroke="\(style.color)" stroke-width="2"/>\
        <text x="\(HTML.number(legendX + 20))" y="\(HTML.number(legendY))" font-size="11">\
        \(Markup.escaped(entry.name))</text></g>

        """
      legendX += width + 12
    }
    // The frame, the value axis and its marks.
    svg += """
      <rect class="plot-area" x="\(HTML.number(Self.left))" y="\(HTML.number(plotTop))" \
      width="\(HTML.number(plotWidth))" height="\(HTML.number(plotHeight))" fill="none" \
      stroke="#888"/>

      """
    for tick in ticks {
      let at = y(tick)
      svg += """
        <line x1="\(HTML.number(Self.left - 4))" y1="\(HTML.number(at))" \
        x2="\(HTML.number(Self.left + plotWidth))" y2="\(HTML.number(at))" stroke="#ddd"/>\
        <text class="tick" x="\(HTML.number(Self.left - 6))" y="\(HTML.number(at + 4))" \
        font-size="10" text-anchor="end">\(Markup.escaped(Self.label(tick, metric)))</text>

        """
    }
    svg += """
      <text class="axis-title" transform="translate(14 \(HTML.number(plotTop + plotHeight / 2))) \
      rotate(-90)" font-size="11" text-anchor="middle">\
      \(Markup.escaped(Self.axisTitle(metric, logarithmic: logarithmic)))</text>
      <text class="axis-title" x="\(HTML.number(Self.left + plotWidth / 2))" \
      y="\(HTML.number(height - 6))" font-size="11" text-anchor="middle">\
      commit (oldest to newest)</text>

      """
    // Commit labels: as many as fit, always the first and the last.
    let every = max(1, Int((Double(commits.count) * 14 / plotWidth).rounded(.up)))
    for (index, commit) in commits.enumerated()
    where index % every == 0 || index == commits.count - 1 {
      let at = x(commit)
      svg += """
        <text class="commit-label" font-size="9" text-anchor="end" \
        transform="translate(\(HTML.number(at + 3)) \(HTML.number(plotTop + plotHeight + 8))) \
        rotate(-50)">\(Markup.escaped(String(commit.prefix(13))))</text>

        """
    }
    // The series: a line through the measured points, a point each, crosses for skips.
    let stripRows = Dictionary(
      skippingSeries.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    for entry in series {
      let style = Chart.style(of: entry.name)
      svg += "<g class=\"series\" data-series=\"\(Markup.escaped(entry.name))\">"
      let measured = entry.points.filter { $0.value.map { $0 > 0 } ?? false }
      if measured.count > 1 {
        let path = measured.map {
          "\(HTML.number(x($0.commit))),\(HTML.number(y(Double($0.value!))))"
        }
        svg += """
          <polyline fill="none" stroke="\(style.color)" stroke-width="1.5" \
          points="\(path.joined(separator: " "))"/>
          """
      }
      for point in measured {
        svg += """
          <circle class="point" data-commit="\(Markup.escaped(point.commit))" \
          data-value="\(point.value!)" cx="\(HTML.number(x(point.commit)))" \
          cy="\(HTML.number(y(Double(point.value!))))" r="2.5" fill="\(style.color)">\
          <title>\(Markup.escaped("\(entry.name) at \(point.commit): \(Self.label(Double(point.value!), metric))"))</title></circle>
          """
      }
      for point in entry.points where point.value == nil {
        let at = x(point.commit)
        let mid = top + 2 + (Double(stripRows[entry.name] ?? 0) + 0.5) * Self.stripRow
        svg += """
          <g class="skipped" data-commit="\(Markup.escaped(point.commit))">\
          <title>\(Markup.escaped("\(entry.name) at \(point.commit): \(point.status)\(point.note.map { " (\($0))" } ?? "")"))</title>\
          <path d="M\(HTML.number(at - 3)),\(HTML.number(mid - 3)) l6,6 m0,-6 l-6,6" \
          stroke="\(style.color)" stroke-width="1.5"/></g>
          """
      }
      svg += "</g>\n"
    }
    return svg + "</svg>"
  }

  /// The axis's range and marks: decades on a log axis, a few round steps on a linear one
  /// (from zero, so that a flat line is not magnified).
  static func axis(_ low: Double, _ high: Double, logarithmic: Bool) -> (Double, Double, [Double]) {
    if logarithmic {
      let from = floor(log10(low))
      let to = max(ceil(log10(high)), from + 1)
      return (
        pow(10, from), pow(10, to), stride(from: from, through: to, by: 1).map { pow(10, $0) }
      )
    }
    let top = high * 1.1
    let magnitude = pow(10, floor(log10(top / 4)))
    let step =
      [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { top / $0 <= 5 } ?? magnitude * 10
    let count = Int((top / step).rounded(.up))
    return (0, step * Double(count), (0...count).map { Double($0) * step })
  }

  /// A value as the axis and the tooltips give it: times in ns, µs, ms or s; bytes in binary
  /// units; counts with k, M or G.
  static func label(_ value: Double, _ metric: Metric) -> String {
    switch metric.unit {
    case .nanoseconds: return Chart.Metric.time.label(value)
    case .bytes: return Chart.Metric.allocated.label(value)
    default:
      for (scale, suffix) in [(1e9, "G"), (1e6, "M"), (1e3, "k")] where value >= scale {
        return HTML.number(value / scale) + suffix
      }
      return HTML.number(value)
    }
  }

  static func axisTitle(_ metric: Metric, logarithmic: Bool) -> String {
    let name =
      switch metric {
      case .medianTime: "median time of a repetition"
      case .allocatedBytes: "bytes allocated"
      case .retainedBytes: "bytes retained"
      case .peakBytes: "peak bytes"
      case .instructions: "instructions"
      case .allocations: "allocation requests"
      case .checksum: "checksum"
      }
    return name + (logarithmic ? " (log scale)" : "")
  }
}
