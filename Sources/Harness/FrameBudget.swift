import Foundation

/// How many views fit in a frame: the largest view count whose time for one phase stays
/// within a frame's budget, read off the measured sizes along their log-log slope.
public struct FrameBudget: Sendable, Equatable {
  /// The largest view count that fits, or nil when the time does not grow with the views past
  /// the largest size measured (no limit in sight); 0 when even the smallest size is over the
  /// budget and the time does not fall towards smaller ones (none fit).
  public var views: Double?
  /// Whether ``views`` lies outside the measured sizes (beyond the largest, or below the
  /// smallest), read off a slope rather than between two measurements.
  public var isExtrapolated: Bool

  /// 60 frames a second.
  public static let sixtyHertz = 1e9 / 60
  /// 120 frames a second.
  public static let oneTwentyHertz = 1e9 / 120

  /// The largest view count whose time fits `budget` nanoseconds, from `points` (views, time
  /// in nanoseconds; any order): between two measured sizes, along the segment that crosses
  /// the budget; past the largest size, along the last segment's slope (a single point: slope
  /// 1); below the smallest, along the first segment's. Nil without a positive point.
  ///
  /// - Complexity: O(points log points).
  public static func largestViews(
    fitting budget: Double, points: [(views: Int, nanoseconds: Double)]
  ) -> FrameBudget? {
    let points = points.filter { $0.views > 0 && $0.nanoseconds > 0 }.sorted { $0.views < $1.views }
    guard let first = points.first, let last = points.last else { return nil }
    func slope(_ a: (views: Int, nanoseconds: Double), _ b: (views: Int, nanoseconds: Double))
      -> Double
    {
      log(b.nanoseconds / a.nanoseconds) / log(Double(b.views) / Double(a.views))
    }
    /// Views at `budget` along `slope` through `point`.
    func along(_ point: (views: Int, nanoseconds: Double), _ slope: Double) -> Double {
      Double(point.views) * pow(budget / point.nanoseconds, 1 / slope)
    }
    if first.nanoseconds > budget {
      let rising = points.count >= 2 ? slope(points[0], points[1]) : 1
      return FrameBudget(views: rising > 0 ? along(first, rising) : 0, isExtrapolated: true)
    }
    if let crossing = points.indices.dropLast().first(where: {
      points[$0].nanoseconds <= budget && points[$0 + 1].nanoseconds > budget
    }) {
      let rising = slope(points[crossing], points[crossing + 1])
      return FrameBudget(views: along(points[crossing], rising), isExtrapolated: false)
    }
    // Every measured size fits (or the time dips back under the budget): past the largest.
    let rising = points.count >= 2 ? slope(points[points.count - 2], last) : 1
    guard rising > 0 else { return FrameBudget(views: nil, isExtrapolated: true) }
    return FrameBudget(views: along(last, rising), isExtrapolated: true)
  }
}
