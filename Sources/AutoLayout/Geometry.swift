import Cassowary

/// A point in a view's coordinate space, in points.
public struct Point: Hashable, Sendable, CustomStringConvertible {
  public var x: Double
  public var y: Double

  /// The point (`x`, `y`).
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// (0, 0).
  public static let zero = Point(x: 0, y: 0)

  public var description: String { "(\(formatNumber(x)), \(formatNumber(y)))" }
}

/// A width and a height, in points.
public struct Size: Hashable, Sendable, CustomStringConvertible {
  public var width: Double
  public var height: Double

  /// The size `width` × `height`.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// 0 × 0.
  public static let zero = Size(width: 0, height: 0)

  public var description: String { "(\(formatNumber(width)), \(formatNumber(height)))" }
}

/// A rectangle: an origin and a size, in points.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  public var origin: Point
  public var size: Size

  /// The rectangle at `origin` of `size`.
  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  /// The rectangle at (`x`, `y`) of `width` × `height`.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  /// The empty rectangle at the origin.
  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

  public var minX: Double { origin.x }
  public var minY: Double { origin.y }
  public var maxX: Double { origin.x + size.width }
  public var maxY: Double { origin.y + size.height }
  public var midX: Double { origin.x + size.width / 2 }
  public var midY: Double { origin.y + size.height / 2 }
  public var width: Double { size.width }
  public var height: Double { size.height }

  /// The rectangle with each edge moved inwards by `insets`.
  public func inset(by insets: EdgeInsets) -> Rect {
    Rect(
      x: minX + insets.left, y: minY + insets.top,
      width: width - insets.left - insets.right, height: height - insets.top - insets.bottom)
  }

  public var description: String {
    "(\(formatNumber(minX)), \(formatNumber(minY)), \(formatNumber(width)), \(formatNumber(height)))"
  }
}

/// Distances inwards from each edge of a rectangle: margins, alignment-rect insets, safe areas.
public struct EdgeInsets: Hashable, Sendable, CustomStringConvertible {
  public var top: Double
  public var left: Double
  public var bottom: Double
  public var right: Double

  /// Insets of the given sizes, in UIKit's order.
  public init(top: Double, left: Double, bottom: Double, right: Double) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }

  /// The same inset on every edge.
  public init(all inset: Double) { self.init(top: inset, left: inset, bottom: inset, right: inset) }

  /// No insets.
  public static let zero = EdgeInsets(all: 0)

  public var description: String {
    "{\(formatNumber(top)), \(formatNumber(left)), \(formatNumber(bottom)), \(formatNumber(right))}"
  }
}
