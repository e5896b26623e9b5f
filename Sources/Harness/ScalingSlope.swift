import Scenes

/// How one series' figure grows with the view count: a scene variant, solver, mode and phase
/// measured at two sizes or more, and the least-squares slope of log figure against log views
/// (1.0 linear, 2.0 quadratic).
public struct ScalingSlope: Sendable, Equatable {
  /// What a slope is of.
  public enum Figure: String, Sendable {
    /// The median time of one repetition: comparable only within one run (or `bench ab`).
    case medianTime = "median time"
    /// Instructions under callgrind: comparable across runs.
    case instructions

    /// The figure of `row`, or nil where it has none.
    func value(of row: ResultRow) -> Double? {
      switch self {
      case .medianTime: row.medianNanoseconds.flatMap { $0 > 0 ? Double($0) : nil }
      case .instructions: row.instructions.flatMap { $0 > 0 ? Double($0) : nil }
      }
    }
  }

  /// The series: `scene/variant/solver/mode/phase`.
  public var series: SeriesKey
  public var scene: SceneKind
  public var variant: String
  public var solver: ResultRow.Solver
  public var mode: Mode
  public var phase: Phase
  /// The sizes measured, ascending.
  public var sizes: [Int]
  public var slope: Double

  /// Every series of `rows` measured (status `ok`, with the figure) at two sizes or more, in
  /// the order the rows first name them.
  ///
  /// - Complexity: O(rows).
  public static func slopes(of rows: [ResultRow], figure: Figure) -> [ScalingSlope] {
    var groups: [SeriesKey: [(views: Int, value: Double, row: ResultRow)]] = [:]
    var order: [SeriesKey] = []
    for row in rows where row.status == .ok {
      guard let value = figure.value(of: row) else { continue }
      let key = row.seriesKey
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append((row.views, value, row))
    }
    return order.compactMap { key in
      let points = groups[key]!.sorted { $0.views < $1.views }
      guard points.count >= 2,
        let slope = logLogSlope(points.map { (x: Double($0.views), y: $0.value) })
      else { return nil }
      let first = points[0].row
      return ScalingSlope(
        series: key, scene: first.scene, variant: first.variant, solver: first.solver,
        mode: first.mode, phase: first.phase, sizes: points.map(\.views), slope: slope)
    }
  }
}

extension Comparison {
  /// Adds the complexity gate's findings, for every series measured (status `ok`, with the
  /// figure) at two sizes or more in both runs:
  /// - over the sizes both runs measured, a regression when the current slope exceeds the
  ///   baseline's by more than `tolerance`, an improvement when it is lower by more;
  /// - past the largest size both measured, where only the current run went on, the slope of
  ///   that last stretch is judged the same way against the baseline's slope over the sizes
  ///   both measured. A cost that turns quadratic at the largest size moves a slope by far more
  ///   than it moves the small cells a per-cell percentage judges, even the cells both have.
  /// Sizes only the baseline measured are left out, so a subset of sizes is not a verdict.
  /// A series whose sizes span less than `minimumSpan` (largest over smallest) is left out:
  /// over a factor of 2, 5 % of noise in each of two times moves a slope by 0.14.
  ///
  /// - Complexity: O(rows of both files).
  public mutating func judgeSlopes(
    baseline: [ResultRow], current: [ResultRow], figure: ScalingSlope.Figure, tolerance: Double,
    minimumSpan: Double = 1
  ) {
    slopesJudged = slopesJudged ?? 0
    func points(_ rows: [ResultRow]) -> [SeriesKey: [Int: Double]] {
      var points: [SeriesKey: [Int: Double]] = [:]
      for row in rows where row.status == .ok {
        guard let value = figure.value(of: row) else { continue }
        points[row.seriesKey, default: [:]][row.views] = value
      }
      return points
    }
    func slope(_ points: [Int: Double], _ sizes: [Int]) -> Double? {
      logLogSlope(sizes.map { (x: Double($0), y: points[$0]!) })
    }
    func text(_ slope: Double, _ sizes: [Int]) -> String {
      String(format: "%.2f", slope) + " (" + sizes.map(String.init).joined(separator: " ") + ")"
    }
    let before = points(baseline)
    var order: [SeriesKey] = []
    var listed = Set<SeriesKey>()
    for row in current where listed.insert(row.seriesKey).inserted {
      order.append(row.seriesKey)
    }
    let after = points(current)
    for series in order {
      guard let was = before[series], let now = after[series] else { continue }
      let shared = Set(was.keys).intersection(now.keys).sorted()
      guard shared.count >= 2, Double(shared.last!) / Double(shared.first!) >= minimumSpan,
        let baselineSlope = slope(was, shared), let currentSlope = slope(now, shared)
      else { continue }
      slopesJudged! += 1
      judgedSeries.append(series)
      var judged = (current: currentSlope, sizes: shared)
      // The stretch only the current run measured, from the largest shared size on.
      let beyond = now.keys.filter { $0 > shared.last! }.sorted()
      if !beyond.isEmpty, let stretch = slope(now, [shared.last!] + beyond),
        abs(stretch - baselineSlope) > abs(currentSlope - baselineSlope)
      {
        judged = (stretch, [shared.last!] + beyond)
      }
      let verdict: Verdict
      if judged.current > baselineSlope + tolerance {
        verdict = .regression
      } else if judged.current < baselineSlope - tolerance {
        verdict = .improvement
      } else {
        continue
      }
      findings.append(
        Finding(
          key: .series(series), metric: .slope(figure),
          baseline: text(baselineSlope, shared), current: text(judged.current, judged.sizes),
          verdict: verdict))
    }
  }
}
