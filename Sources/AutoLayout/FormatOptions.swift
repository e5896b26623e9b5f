extension LayoutConstraint {
  /// How ``constraints(withVisualFormat:options:metrics:views:)`` aligns the views of a format,
  /// which direction its horizontal layouts run in, and how it spaces vertical ones: UIKit's
  /// `NSLayoutConstraint.FormatOptions`, with UIKit's raw values so that code and dumps carry
  /// over unchanged.
  ///
  /// The raw value has three fields: alignment (bits 0–15, one bit per attribute, `1 << raw value
  /// of the attribute`), direction (bits 16–17) and spacing (bit 19). An alignment option asks
  /// for one extra constraint per adjacent pair of views, `previous.attribute == next.attribute`;
  /// it must lie across the layout (a horizontal format aligns vertical edges and vice versa).
  public struct FormatOptions: OptionSet, Hashable, Sendable {
    /// The options as UIKit's bit mask.
    public var rawValue: UInt

    /// Options from UIKit's bit mask.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Aligns the left edges of the views (vertical layouts only).
    public static let alignAllLeft = FormatOptions(attribute: .left)
    /// Aligns the right edges of the views (vertical layouts only).
    public static let alignAllRight = FormatOptions(attribute: .right)
    /// Aligns the top edges of the views (horizontal layouts only).
    public static let alignAllTop = FormatOptions(attribute: .top)
    /// Aligns the bottom edges of the views (horizontal layouts only).
    public static let alignAllBottom = FormatOptions(attribute: .bottom)
    /// Aligns the leading edges of the views (vertical layouts only).
    public static let alignAllLeading = FormatOptions(attribute: .leading)
    /// Aligns the trailing edges of the views (vertical layouts only).
    public static let alignAllTrailing = FormatOptions(attribute: .trailing)
    /// Aligns the horizontal centers of the views (vertical layouts only).
    public static let alignAllCenterX = FormatOptions(attribute: .centerX)
    /// Aligns the vertical centers of the views (horizontal layouts only).
    public static let alignAllCenterY = FormatOptions(attribute: .centerY)
    /// Aligns the last baselines of the views (horizontal layouts only).
    public static let alignAllLastBaseline = FormatOptions(attribute: .lastBaseline)
    /// Aligns the first baselines of the views (horizontal layouts only).
    public static let alignAllFirstBaseline = FormatOptions(attribute: .firstBaseline)
    /// The bits that hold alignment options.
    public static let alignmentMask = FormatOptions(rawValue: 0xFFFF)

    /// Horizontal layouts run from leading to trailing and use the leading and trailing
    /// attributes, which follow the views' layout direction (the default, 0).
    public static let directionLeadingToTrailing = FormatOptions([])
    /// Horizontal layouts run from left to right, whatever the layout direction.
    public static let directionLeftToRight = FormatOptions(rawValue: 1 << 16)
    /// Horizontal layouts run from right to left, whatever the layout direction: the first view
    /// in the format is the rightmost.
    public static let directionRightToLeft = FormatOptions(rawValue: 2 << 16)
    /// The bits that hold the direction.
    public static let directionMask = FormatOptions(rawValue: 3 << 16)

    /// Spaces between views measure from edge to edge (the default, 0).
    public static let spacingEdgeToEdge = FormatOptions([])
    /// Spaces between views in a vertical layout measure from the upper view's last baseline to
    /// the lower view's first baseline.
    public static let spacingBaselineToBaseline = FormatOptions(rawValue: 1 << 19)
    /// The bits that hold the spacing.
    public static let spacingMask = FormatOptions(rawValue: 1 << 19)

    /// The option that aligns `attribute`: UIKit's `1 << attribute`.
    init(attribute: LayoutAttribute) { self.init(rawValue: 1 << UInt(attribute.rawValue)) }

    /// The attributes the alignment options ask to align, in increasing raw value (the order in
    /// which their constraints come out), or `nil` if a bit names no alignable attribute.
    var alignmentAttributes: [LayoutAttribute]? {
      var attributes: [LayoutAttribute] = []
      for bit in 0..<16 where rawValue & (1 << UInt(bit)) != 0 {
        guard let attribute = LayoutAttribute(rawValue: bit), Self.alignable.contains(attribute)
        else { return nil }
        attributes.append(attribute)
      }
      return attributes
    }

    private static let alignable: Set<LayoutAttribute> = [
      .left, .right, .top, .bottom, .leading, .trailing, .centerX, .centerY, .lastBaseline,
      .firstBaseline,
    ]
  }
}
