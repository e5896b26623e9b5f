/// Text for SVG and HTML, which the charts and the dashboard write by hand.
public enum Markup {
  /// `text` with `&`, `<`, `>` and `"` escaped: safe as element content and in a
  /// double-quoted attribute, the only kind the project writes.
  ///
  /// - Complexity: O(characters).
  public static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
