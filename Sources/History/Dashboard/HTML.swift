/// Numbers as the dashboard's markup writes them.
enum HTML {
  /// A number to a tenth, for coordinates (a tenth of a pixel) and round axis marks.
  static func number(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }
}
