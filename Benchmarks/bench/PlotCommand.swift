import ArgumentParser
import Foundation
import Harness

/// `bench plot CSV --output FILE.svg`: log-log charts of a results file.
struct Plot: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Draw log-log charts of a results CSV as SVG: one panel per scene, one line per "
      + "solver and mode.")

  @Argument(help: "A results CSV (from bench run, or kiwi-peer time rows).")
  var results: String
  @Option(help: "The SVG file to write.")
  var output: String
  @Option(help: "The phase to draw.")
  var phase = "first-solve"
  @Option(help: "What to draw: time (median), allocated (bytes) or peak (bytes).")
  var metric = "time"

  func run() throws {
    guard ["time", "allocated", "peak"].contains(metric) else {
      printError("bench plot: unknown metric '\(metric)'; valid: time, allocated, peak")
      throw ExitCode(64)
    }
    guard let data = FileManager.default.contents(atPath: results) else {
      printError("bench plot: cannot read \(results)")
      throw ExitCode(2)
    }
    let rows: [ResultRow]
    do {
      rows = try ResultsFile.rows(String(decoding: data, as: UTF8.self))
    } catch {
      printError("bench plot: \(results): \(error)")
      throw ExitCode(2)
    }
    let chart = Chart(rows: rows, phase: phase, metric: metric)
    guard !chart.panels.isEmpty else {
      printError("bench plot: no measured rows for phase '\(phase)' in \(results)")
      throw ExitCode(2)
    }
    try writeAtomically(chart.svg, to: output)
    printError("wrote \(output) (\(chart.panels.count) panels)")
  }
}

/// Log-log panels drawn as hand-written SVG.
struct Chart {
  struct Series {
    var name: String
    var points: [(x: Double, y: Double)]
  }

  struct Panel {
    var title: String
    var series: [Series]
  }

  var panels: [Panel] = []
  let phase: String
  let metric: String

  init(rows: [ResultRow], phase: String, metric: String) {
    self.phase = phase
    self.metric = metric
    var order: [String] = []
    var grouped: [String: [String: [(x: Double, y: Double)]]] = [:]
    var seriesOrder: [String: [String]] = [:]
    for row in rows where row.phase == phase && row.status == "ok" {
      let value: Double? =
        switch metric {
        // A closure, not `Double.init`: on a UInt64 that resolves to `init(bitPattern:)`, and
        // the axis read "1e-316 B".
        case "allocated": row.allocatedBytes.map { Double($0) }
        case "peak": row.peakBytes.map { Double($0) }
        default: Double(row.medianNanoseconds)
        }
      guard let value, value > 0 else { continue }
      let title = sceneLabel(row.scene, row.variant)
      if grouped[title] == nil {
        order.append(title)
        grouped[title] = [:]
      }
      let name = "\(row.solver) \(row.mode)"
      if grouped[title]![name] == nil { seriesOrder[title, default: []].append(name) }
      grouped[title]![name, default: []].append((Double(row.views), value))
    }
    panels = order.map { title in
      Panel(
        title: title,
        series: seriesOrder[title]!.map { name in
          Series(name: name, points: grouped[title]![name]!.sorted { $0.x < $1.x })
        })
    }
  }

  static let colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"]

  var svg: String {
    let columns = 3, width = 340.0, height = 260.0
    let rowsCount = (panels.count + columns - 1) / columns
    let names = Array(Set(panels.flatMap { $0.series.map(\.name) })).sorted()
    let legendHeight = 24.0
    var out = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(Double(columns) * width))" \
      height="\(Int(Double(rowsCount) * height + legendHeight + 30))" font-family="sans-serif" \
      font-size="11">
      <rect width="100%" height="100%" fill="white"/>
      <text x="10" y="18" font-size="14">\(escape(title))</text>

      """
    for (index, name) in names.enumerated() {
      let x = 10 + Double(index) * 150
      out +=
        "<line x1=\"\(x)\" y1=\"34\" x2=\"\(x + 20)\" y2=\"34\" stroke=\"\(color(name, names))\" stroke-width=\"2\"/>"
      out += "<text x=\"\(x + 25)\" y=\"38\">\(escape(name))</text>\n"
    }
    for (index, panel) in panels.enumerated() {
      let originX = Double(index % columns) * width
      let originY = Double(index / columns) * height + legendHeight + 30
      out += panelSVG(panel, x: originX, y: originY, width: width, height: height, names: names)
    }
    return out + "</svg>\n"
  }

  private var title: String {
    let what =
      metric == "time" ? "median time" : metric == "allocated" ? "bytes allocated" : "peak bytes"
    return "\(what) of \(phase) against views (log-log)"
  }

  private func color(_ name: String, _ names: [String]) -> String {
    Self.colors[(names.firstIndex(of: name) ?? 0) % Self.colors.count]
  }

  private func panelSVG(
    _ panel: Panel, x: Double, y: Double, width: Double, height: Double, names: [String]
  ) -> String {
    let left = x + 56, right = x + width - 12, top = y + 22, bottom = y + height - 34
    let all = panel.series.flatMap(\.points)
    let minX = floor(log10(all.map(\.x).min()!)),
      maxX = max(ceil(log10(all.map(\.x).max()!)), minX + 1)
    let minY = floor(log10(all.map(\.y).min()!)),
      maxY = max(ceil(log10(all.map(\.y).max()!)), minY + 1)
    func px(_ value: Double) -> Double {
      left + (log10(value) - minX) / (maxX - minX) * (right - left)
    }
    func py(_ value: Double) -> Double {
      bottom - (log10(value) - minY) / (maxY - minY) * (bottom - top)
    }
    var out =
      "<g>\n<text x=\"\(x + width / 2)\" y=\"\(y + 14)\" text-anchor=\"middle\" font-size=\"12\">\(escape(panel.title))</text>\n"
    out +=
      "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(right - left)\" height=\"\(bottom - top)\" fill=\"none\" stroke=\"#999\"/>\n"
    for decade in stride(from: minX, through: maxX, by: 1) {
      let position = left + (decade - minX) / (maxX - minX) * (right - left)
      out +=
        "<line x1=\"\(position)\" y1=\"\(top)\" x2=\"\(position)\" y2=\"\(bottom)\" stroke=\"#eee\"/>"
      out +=
        "<text x=\"\(position)\" y=\"\(bottom + 14)\" text-anchor=\"middle\">\(label(pow(10, decade), unit: "views"))</text>\n"
    }
    for decade in stride(from: minY, through: maxY, by: 1) {
      let position = bottom - (decade - minY) / (maxY - minY) * (bottom - top)
      out +=
        "<line x1=\"\(left)\" y1=\"\(position)\" x2=\"\(right)\" y2=\"\(position)\" stroke=\"#eee\"/>"
      out +=
        "<text x=\"\(left - 4)\" y=\"\(position + 4)\" text-anchor=\"end\">\(label(pow(10, decade), unit: metric))</text>\n"
    }
    out +=
      "<text x=\"\((left + right) / 2)\" y=\"\(bottom + 28)\" text-anchor=\"middle\">views</text>\n"
    for series in panel.series {
      let points = series.points.map { "\(px($0.x)),\(py($0.y))" }.joined(separator: " ")
      let stroke = color(series.name, names)
      out +=
        "<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"2\"/>"
      for point in series.points {
        out += "<circle cx=\"\(px(point.x))\" cy=\"\(py(point.y))\" r=\"3\" fill=\"\(stroke)\"/>"
      }
      out += "\n"
    }
    return out + "</g>\n"
  }

  private func label(_ value: Double, unit: String) -> String {
    switch unit {
    case "time":
      if value >= 1e9 { return "\(formatDecade(value / 1e9)) s" }
      if value >= 1e6 { return "\(formatDecade(value / 1e6)) ms" }
      if value >= 1e3 { return "\(formatDecade(value / 1e3)) µs" }
      return "\(formatDecade(value)) ns"
    case "allocated", "peak":
      if value >= 1e9 { return "\(formatDecade(value / 1e9)) GB" }
      if value >= 1e6 { return "\(formatDecade(value / 1e6)) MB" }
      if value >= 1e3 { return "\(formatDecade(value / 1e3)) kB" }
      return "\(formatDecade(value)) B"
    default:
      return formatDecade(value)
    }
  }

  private func formatDecade(_ value: Double) -> String {
    value >= 1 ? String(Int(value.rounded())) : String(format: "%g", value)
  }

  private func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
  }
}
