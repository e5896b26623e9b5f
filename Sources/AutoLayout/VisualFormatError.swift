/// Why ``LayoutConstraint/constraints(withVisualFormat:options:metrics:views:)`` rejected a
/// visual format string: UIKit raises an exception with this text, the model throws it (and
/// makes no constraints).
///
/// The description is UIKit's, byte for byte: `"Unable to parse constraint format: \n" +
/// message + " \n" + format + " \n" + caret`, where the caret line is ``offset`` spaces then
/// `^`. The caret sits under the character the parser stopped at; past the last character when
/// it ran out of input or checked the format as a whole (the options).
public struct VisualFormatError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong, in UIKit's words where UIKit's are known.
  public var message: String
  /// The format string that was being parsed.
  public var format: String
  /// The 0-based position (in characters) of the caret: the character the parser stopped at.
  public var offset: Int

  /// An error with `message` at `offset` in `format`.
  public init(message: String, format: String, offset: Int) {
    self.message = message
    self.format = format
    self.offset = offset
  }

  /// UIKit's exception reason: the message, the format and a caret under ``offset``.
  public var description: String {
    "Unable to parse constraint format: \n\(message) \n\(format) \n"
      + String(repeating: " ", count: offset) + "^"
  }
}

extension VisualFormatError {
  /// The messages the parser uses, kept together so that tests and callers can match them.
  enum Message {
    static func notAView(_ name: String) -> String {
      "\(name) is not a key in the views dictionary."
    }

    static func unknownMetric(_ name: String) -> String {
      "Encountered metric with name \"\(name)\", but value was not specified in metrics or views "
        + "dictionaries"
    }

    static func expectedColon(after orientation: Character) -> String {
      "Expected ':' after '\(orientation)' to specify "
        + (orientation == "V" ? "vertical" : "horizontal") + " arrangement"
    }

    static let alignedHorizontally =
      "Options mask required views to be aligned on a horizontal edge, which is not allowed for "
      + "layout that is also horizontal."
    static let alignedVertically =
      "Options mask required views to be aligned on a vertical edge, which is not allowed for "
      + "layout that is also vertical."
    static let unknownAlignment =
      "Options mask contains an alignment bit that names no alignable attribute."
    static let bothDirections =
      "Options mask asks for both directionLeftToRight and directionRightToLeft."
    static let baselineInHorizontal =
      "BaselineToBaseline format option not valid for horizontal layout"
    static let invalidPriority =
      "Invalid priority specified. Priorities must be greater than 0 and less than or equal to "
      + "1000."
    static let notFinite = "Numbers and metrics must be finite."
    static let minusSign =
      "Cannot tell if this - is a minus sign or an accidental extra bar in the connection. Use "
      + "parentheses around negative numbers."
    static let viewAsSpace =
      "It's not possible to set a space equal to the width or height of a view. Perhaps you want "
      + "to use a view as a spacer?"
    static let noSuperview =
      "Unable to interpret '|' character, because the related view doesn't have a superview"
    static let nonASCII = "Visual format strings may contain ASCII characters only."
    static let expectedDash = "Expected a '-' here"
    static let expectedBracket = "Expected a ']' here"
    static let expectedView = "Expected a view"
    static let expectedViewName =
      "Expected a view name: a letter or an underscore, then letters, digits and underscores"
    static let expectedViewOrBar = "Expected a view or '|' here"
    static let expectedConnection = "Expected a connection, a view or '|' here"
    static let expectedEnd = "Expected the end of the format after the final '|'"
    static let unknownRelation = "Unknown relation. Must be ==, >=, or <="
    static let expectedConstant =
      "Expected a number or key from the metrics dictionary, but encountered something else"
    static let unclosedViewPredicates =
      "A predicate on a view's thickness must end with ')' and the view must end with ']'"
    static let unclosedConnectionPredicates = "Expected ',' or ')' here"
  }
}
