/// The distance the system puts between two sibling items when asked for standard spacing.
public let standardSpacing = 8.0

/// A horizontal location of a view or layout guide (leading, trailing, left, right, centerX).
///
/// Anchors make invalid pairs fail to compile: an x-axis anchor only pairs with another x-axis
/// anchor, never with a y-axis or a size. Mixing leading/trailing with left/right compiles, as in
/// UIKit, and stops the program with UIKit's message.
public struct XAxisAnchor: CustomStringConvertible {
  /// The item the anchor belongs to, or nil once it is gone: the anchor does not keep it
  /// alive, as UIKit's holds its item weakly.
  ///
  /// - Complexity: O(1).
  public var item: LayoutItem? { itemID.item?.takeUnretainedValue() }
  /// The item's id: making or copying an anchor retains nothing.
  let itemID: ItemID
  /// Which horizontal location.
  public let attribute: LayoutAttribute

  init(_ itemID: ItemID, _ attribute: LayoutAttribute) {
    self.itemID = itemID
    self.attribute = attribute
  }

  /// `self == anchor + constant`.
  public func constraint(equalTo anchor: XAxisAnchor, constant: Double = 0) -> LayoutConstraint {
    paired(anchor, .equal, constant)
  }
  /// `self >= anchor + constant`.
  public func constraint(greaterThanOrEqualTo anchor: XAxisAnchor, constant: Double = 0)
    -> LayoutConstraint
  { paired(anchor, .greaterThanOrEqual, constant) }
  /// `self <= anchor + constant`.
  public func constraint(lessThanOrEqualTo anchor: XAxisAnchor, constant: Double = 0)
    -> LayoutConstraint
  { paired(anchor, .lessThanOrEqual, constant) }

  /// `self == anchor + multiplier × standard spacing`: this item follows `anchor`'s item.
  public func constraint(equalToSystemSpacingAfter anchor: XAxisAnchor, multiplier: Double = 1)
    -> LayoutConstraint
  { paired(anchor, .equal, multiplier * standardSpacing) }
  /// `self >= anchor + multiplier × standard spacing`.
  public func constraint(
    greaterThanOrEqualToSystemSpacingAfter anchor: XAxisAnchor, multiplier: Double = 1
  ) -> LayoutConstraint { paired(anchor, .greaterThanOrEqual, multiplier * standardSpacing) }
  /// `self <= anchor + multiplier × standard spacing`.
  public func constraint(
    lessThanOrEqualToSystemSpacingAfter anchor: XAxisAnchor, multiplier: Double = 1
  ) -> LayoutConstraint { paired(anchor, .lessThanOrEqual, multiplier * standardSpacing) }

  private func paired(_ anchor: XAxisAnchor, _ relation: LayoutRelation, _ constant: Double)
    -> LayoutConstraint
  {
    LayoutConstraint.fromAnchors(
      itemID, attribute, relation, anchor.itemID, anchor.attribute, 1, constant)
  }

  public var description: String {
    anchorDescription("XAxisAnchor", itemID, attribute)
  }
}

/// A vertical location of a view or layout guide (top, bottom, centerY, baselines).
public struct YAxisAnchor: CustomStringConvertible {
  /// The item the anchor belongs to, or nil once it is gone: the anchor does not keep it
  /// alive, as UIKit's holds its item weakly.
  ///
  /// - Complexity: O(1).
  public var item: LayoutItem? { itemID.item?.takeUnretainedValue() }
  /// The item's id: making or copying an anchor retains nothing.
  let itemID: ItemID
  /// Which vertical location.
  public let attribute: LayoutAttribute

  init(_ itemID: ItemID, _ attribute: LayoutAttribute) {
    self.itemID = itemID
    self.attribute = attribute
  }

  /// `self == anchor + constant`.
  public func constraint(equalTo anchor: YAxisAnchor, constant: Double = 0) -> LayoutConstraint {
    paired(anchor, .equal, constant)
  }
  /// `self >= anchor + constant`.
  public func constraint(greaterThanOrEqualTo anchor: YAxisAnchor, constant: Double = 0)
    -> LayoutConstraint
  { paired(anchor, .greaterThanOrEqual, constant) }
  /// `self <= anchor + constant`.
  public func constraint(lessThanOrEqualTo anchor: YAxisAnchor, constant: Double = 0)
    -> LayoutConstraint
  { paired(anchor, .lessThanOrEqual, constant) }

  /// `self == anchor + multiplier × standard spacing`: this item sits below `anchor`'s item.
  public func constraint(equalToSystemSpacingBelow anchor: YAxisAnchor, multiplier: Double = 1)
    -> LayoutConstraint
  { paired(anchor, .equal, multiplier * standardSpacing) }
  /// `self >= anchor + multiplier × standard spacing`.
  public func constraint(
    greaterThanOrEqualToSystemSpacingBelow anchor: YAxisAnchor, multiplier: Double = 1
  ) -> LayoutConstraint { paired(anchor, .greaterThanOrEqual, multiplier * standardSpacing) }
  /// `self <= anchor + multiplier × standard spacing`.
  public func constraint(
    lessThanOrEqualToSystemSpacingBelow anchor: YAxisAnchor, multiplier: Double = 1
  ) -> LayoutConstraint { paired(anchor, .lessThanOrEqual, multiplier * standardSpacing) }

  private func paired(_ anchor: YAxisAnchor, _ relation: LayoutRelation, _ constant: Double)
    -> LayoutConstraint
  {
    LayoutConstraint.fromAnchors(
      itemID, attribute, relation, anchor.itemID, anchor.attribute, 1, constant)
  }

  public var description: String {
    anchorDescription("YAxisAnchor", itemID, attribute)
  }
}

/// A size of a view or layout guide (width, height): it may equal a constant or another size.
public struct DimensionAnchor: CustomStringConvertible {
  /// The item the anchor belongs to, or nil once it is gone: the anchor does not keep it
  /// alive, as UIKit's holds its item weakly.
  ///
  /// - Complexity: O(1).
  public var item: LayoutItem? { itemID.item?.takeUnretainedValue() }
  /// The item's id: making or copying an anchor retains nothing.
  let itemID: ItemID
  /// Which size.
  public let attribute: LayoutAttribute

  init(_ itemID: ItemID, _ attribute: LayoutAttribute) {
    self.itemID = itemID
    self.attribute = attribute
  }

  /// `self == constant`.
  public func constraint(equalToConstant constant: Double) -> LayoutConstraint {
    alone(.equal, constant)
  }
  /// `self >= constant`.
  public func constraint(greaterThanOrEqualToConstant constant: Double) -> LayoutConstraint {
    alone(.greaterThanOrEqual, constant)
  }
  /// `self <= constant`.
  public func constraint(lessThanOrEqualToConstant constant: Double) -> LayoutConstraint {
    alone(.lessThanOrEqual, constant)
  }

  /// `self == multiplier × anchor + constant`.
  public func constraint(
    equalTo anchor: DimensionAnchor, multiplier: Double = 1, constant: Double = 0
  ) -> LayoutConstraint { paired(anchor, .equal, multiplier, constant) }
  /// `self >= multiplier × anchor + constant`.
  public func constraint(
    greaterThanOrEqualTo anchor: DimensionAnchor, multiplier: Double = 1, constant: Double = 0
  ) -> LayoutConstraint { paired(anchor, .greaterThanOrEqual, multiplier, constant) }
  /// `self <= multiplier × anchor + constant`.
  public func constraint(
    lessThanOrEqualTo anchor: DimensionAnchor, multiplier: Double = 1, constant: Double = 0
  ) -> LayoutConstraint { paired(anchor, .lessThanOrEqual, multiplier, constant) }

  private func alone(_ relation: LayoutRelation, _ constant: Double) -> LayoutConstraint {
    LayoutConstraint.fromAnchors(itemID, attribute, relation, nil, .notAnAttribute, 0, constant)
  }

  private func paired(
    _ anchor: DimensionAnchor, _ relation: LayoutRelation, _ multiplier: Double,
    _ constant: Double
  ) -> LayoutConstraint {
    LayoutConstraint.fromAnchors(
      itemID, attribute, relation, anchor.itemID, anchor.attribute, multiplier, constant)
  }

  public var description: String {
    anchorDescription("DimensionAnchor", itemID, attribute)
  }
}

/// An anchor's description in UIKit's form, `<XAxisAnchor:0x… "View:0x….leading">`, with
/// `(gone)` for an item that went.
func anchorDescription(_ kind: String, _ itemID: ItemID, _ attribute: LayoutAttribute) -> String {
  guard let item = itemID.item?.takeUnretainedValue() else {
    return "<\(kind):(gone) \"(gone).\(attribute)\">"
  }
  return "<\(kind):\(address(of: item)) \"\(item.layoutDescription).\(attribute)\">"
}
