/// Text metrics for the model's controls: a deterministic stand-in for a font, so that text
/// lengths give reproducible intrinsic sizes and baselines on every machine.
public struct FontMetrics: Hashable, Sendable {
  /// The point size.
  public var pointSize: Double

  /// A font of `pointSize` points (17, UIKit's body size, by default).
  public init(pointSize: Double = 17) { self.pointSize = pointSize }

  /// The advance of one character: half the point size.
  public var characterWidth: Double { pointSize / 2 }
  /// The height of one line, rounded up to half a point (20.5 at 17 points, as UIKit's label).
  public var lineHeight: Double { (pointSize * 1.2 * 2).rounded(.up) / 2 }
  /// The distance from the top of a line to its baseline.
  public var ascender: Double { (pointSize * 0.95 * 2).rounded() / 2 }

  /// The width of `text` on one line.
  public func width(of text: String) -> Double {
    (Double(Self.characterCount(of: text)) * characterWidth).rounded(.up)
  }

  /// The number of characters in `text`. Text of ASCII bytes but carriage returns (a CR LF is
  /// one character) has a character a byte, counted without `String.count`'s grapheme
  /// breaking, which costs some 30 instructions a character.
  ///
  /// - Complexity: O(*n*) for *n* bytes.
  static func characterCount(of text: String) -> Int {
    let bytes = text.utf8.withContiguousStorageIfAvailable { utf8 -> Int? in
      for byte in utf8 where byte >= 0x80 || byte == 0x0D { return nil }
      return utf8.count
    }
    return (bytes ?? nil) ?? text.count
  }
}

/// A one-line label: its intrinsic size is its text's, it hugs at 251 as Interface Builder's
/// labels do, and its baselines come from its font.
open class Label: View {
  /// The values behind ``text`` and ``font``. Internal, so that the compiler checks their
  /// accesses statically (see ``LayoutConstraint/storedConstant``): the update pass reads both
  /// for every control's intrinsic size.
  var storedText: String
  var storedFont: FontMetrics

  /// The text; changing it invalidates the intrinsic content size.
  public var text: String {
    get { storedText }
    set {
      guard newValue != storedText else { return }
      storedText = newValue
      invalidateIntrinsicContentSize()
    }
  }
  /// The font; changing it invalidates the intrinsic content size and moves the baselines.
  public var font: FontMetrics {
    get { storedFont }
    set {
      guard newValue != storedFont else { return }
      storedFont = newValue
      invalidateIntrinsicContentSize()
      updateBaselines()
    }
  }

  /// A label showing `text`, positioned by constraints (its autoresizing mask is not translated).
  public init(_ text: String = "", font: FontMetrics = FontMetrics()) {
    storedText = text
    storedFont = font
    super.init()
    translatesAutoresizingMaskIntoConstraints = false
    setContentHuggingPriority(251, for: .horizontal)
    setContentHuggingPriority(251, for: .vertical)
    updateBaselines()
  }

  open override var intrinsicContentSize: Size {
    Size(width: font.width(of: text), height: font.lineHeight)
  }

  func updateBaselines() {
    firstBaselineOffsetFromTop = font.ascender
    baselineOffsetFromBottom = font.lineHeight - font.ascender
  }

  public override var layoutDescription: String { "\(super.layoutDescription)'\(text)'" }
}

/// A one-line text field: a label's text inside a 7-point inset, 34 points high at 17 points.
open class TextField: Label {
  /// The horizontal padding on each side of the text.
  public static let padding = 7.0

  open override var intrinsicContentSize: Size {
    Size(width: font.width(of: text) + 2 * Self.padding, height: font.lineHeight + 13.5)
  }

  /// A text field showing `text`, positioned by constraints; it hugs at 250 like UIKit's.
  public override init(_ text: String = "", font: FontMetrics = FontMetrics()) {
    super.init(text, font: font)
    setContentHuggingPriority(250, for: .horizontal)
    setContentHuggingPriority(250, for: .vertical)
  }

  override func updateBaselines() {
    firstBaselineOffsetFromTop = font.ascender + 6.75
    baselineOffsetFromBottom = font.lineHeight - font.ascender + 6.75
  }
}

/// A button with a title: the title inside 15 points of padding, 30 points high at 15 points.
open class Button: Label {
  /// The horizontal padding on each side of the title.
  public static let padding = 15.0

  open override var intrinsicContentSize: Size {
    Size(width: font.width(of: text) + 2 * Self.padding, height: 30)
  }

  /// A button titled `title`, positioned by constraints.
  public override init(_ title: String = "", font: FontMetrics = FontMetrics(pointSize: 15)) {
    super.init(title, font: font)
    setContentHuggingPriority(250, for: .horizontal)
    setContentHuggingPriority(250, for: .vertical)
  }

  override func updateBaselines() {
    firstBaselineOffsetFromTop = (30 - font.lineHeight) / 2 + font.ascender
    baselineOffsetFromBottom = 30 - firstBaselineOffsetFromTop
  }
}
