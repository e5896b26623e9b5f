/// Text made safe for HTML and SVG: element content and attribute values alike.
enum HTML {
  /// `text` with `&`, `<`, `>`, `"` and `'` escaped.
  ///
  /// - Complexity: O(characters).
  static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.append(character)
      }
    }
    return result
  }

  /// A number to a tenth, for coordinates (a tenth of a pixel) and round axis marks.
  static func number(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }
}
