import Cassowary

/// Anything a layout constraint can refer to: a ``View`` or a ``LayoutGuide``.
///
/// An item has an alignment rectangle that the solver positions. Its four variables (minimum x,
/// minimum y, width, height, in the coordinate space of the root view's superview) exist only
/// while some installed constraint refers to the item, so items that take no part in layout cost
/// the solver nothing.
open class LayoutItem {
  /// The item's first variable in its engine (minX; then minY, width, height), or -1.
  var engineBlock: Int32 = -1
  /// How many installed solver constraints refer to the item (the block is freed at 0).
  var engineReferences: Int32 = 0
  /// The first of the constraints that refer to this item, active or not, in the order they
  /// were made: a list threaded through the constraints themselves
  /// (``LayoutConstraint/firstItemLinks``), so that making, activating or dropping a
  /// constraint allocates nothing and copies no list. The item marks itself gone in each of
  /// them as it goes (see ``LayoutConstraint/firstItem``).
  var firstConstraint: Unmanaged<LayoutConstraint>?
  /// The item's row in the item table of the thread that made it, which it gives back as it
  /// goes (see ``ItemTable``).
  let row: UnsafeMutablePointer<ItemRow>

  init() {
    row = ItemTable.makeRowOnThisThread()
    row.pointee.item = .passUnretained(self)
  }

  /// The item's id: it reads as gone once the item is, and retains nothing.
  ///
  /// - Complexity: O(1).
  var itemID: ItemID { ItemID(row: row, generation: row.pointee.generation) }

  /// Drops the variables an engine that went had given the item.
  func forgetEngineVariables() {
    engineBlock = -1
    engineReferences = 0
  }

  /// Gives back the room the item's lists grew beyond their contents, as a solve from scratch
  /// does for the solver (see ``LayoutEngine/solveFromScratch()``). Overrides add their lists;
  /// the list of constraints is threaded through them and has no room to give back.
  func compactLists() {}

  deinit {
    ItemTable.freeRow(row)
    let me = Unmanaged.passUnretained(self).toOpaque()
    var next = firstConstraint
    firstConstraint = nil
    while let constraint = next {
      let releases = constraint._withUnsafeGuaranteedRef { constraint in
        next = constraint.listLinks(in: me).next
        return constraint.itemWillGo(me)
      }
      // The constraint was active, and this was its last item: nothing refers to it now.
      if releases { constraint.release() }
    }
  }

  /// The view whose tree holds this item: the view itself, or the guide's owning view.
  var hostView: View? { fatalError("LayoutItem is abstract") }

  /// ``hostView``, not retained: for activation and lowering, which hold the tree while they
  /// read it. A retained one cost a retain and a release on every read, twice per constraint.
  ///
  /// - Complexity: O(1).
  func unretainedHostView() -> Unmanaged<View>? { fatalError("LayoutItem is abstract") }

  /// The direction in which leading and trailing run for this item.
  public var effectiveLayoutDirection: LayoutDirection {
    guard let host = unretainedHostView() else { return .leftToRight }
    return host._withUnsafeGuaranteedRef { $0.effectiveUserInterfaceLayoutDirection }
  }

  /// The name UIKit would print for the item in a constraint's description, e.g. `View:0x…`.
  public var layoutDescription: String {
    "\(String(describing: type(of: self))):\(address(of: self))"
  }

  /// The constant offset of `attribute` from the alignment rect it is expressed in (baselines).
  func offset(of attribute: LayoutAttribute) -> Double { 0 }

  /// The item that stands for `attribute` (a view's margins guide for margin attributes) and the
  /// plain attribute to use on it.
  func resolve(_ attribute: LayoutAttribute) -> (LayoutItem, LayoutAttribute) {
    let (item, plain) = unretainedResolve(attribute)
    return (item.takeUnretainedValue(), plain)
  }

  /// ``resolve(_:)``, the item not retained (this item keeps it: itself, or its margins guide).
  ///
  /// - Complexity: O(1).
  func unretainedResolve(
    _ attribute: LayoutAttribute
  ) -> (Unmanaged<LayoutItem>, LayoutAttribute) {
    (.passUnretained(self), attribute)
  }

  /// Called when the item first gets variables in an engine.
  func didEnterEngine() {}

  /// Called by the layout pass when some of the item's solver values changed (a view then asks
  /// its superview to copy them into its frame; a guide has no frame).
  func solverValuesDidChange() {}

  // MARK: Anchors

  /// The leading edge: left in left-to-right layouts, right in right-to-left ones.
  public var leadingAnchor: XAxisAnchor { XAxisAnchor(itemID, .leading) }
  /// The trailing edge: right in left-to-right layouts, left in right-to-left ones.
  public var trailingAnchor: XAxisAnchor { XAxisAnchor(itemID, .trailing) }
  /// The left edge; never flips.
  public var leftAnchor: XAxisAnchor { XAxisAnchor(itemID, .left) }
  /// The right edge; never flips.
  public var rightAnchor: XAxisAnchor { XAxisAnchor(itemID, .right) }
  /// The horizontal center.
  public var centerXAnchor: XAxisAnchor { XAxisAnchor(itemID, .centerX) }
  /// The top edge.
  public var topAnchor: YAxisAnchor { YAxisAnchor(itemID, .top) }
  /// The bottom edge.
  public var bottomAnchor: YAxisAnchor { YAxisAnchor(itemID, .bottom) }
  /// The vertical center.
  public var centerYAnchor: YAxisAnchor { YAxisAnchor(itemID, .centerY) }
  /// The width.
  public var widthAnchor: DimensionAnchor { DimensionAnchor(itemID, .width) }
  /// The height.
  public var heightAnchor: DimensionAnchor { DimensionAnchor(itemID, .height) }
}

extension LayoutItem: CustomStringConvertible {
  public var description: String { "<\(layoutDescription)>" }
}

/// An object's address in UIKit's `0x…` form, for descriptions.
func address(of object: AnyObject) -> String {
  "0x" + String(UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()), radix: 16)
}

extension Array {
  /// Moves the elements into storage for `room` elements (at least their count) when the
  /// storage holds more than a quarter over that: what a table grew to while ids came and went
  /// goes, and storage already sized exactly, which the allocator rounds up to its size class by
  /// up to a quarter (jemalloc), is not copied again.
  ///
  /// - Complexity: O(count) when it shrinks, O(1) otherwise.
  mutating func shrinkCapacity(toAbout room: Int) {
    let room = Swift.max(room, count)
    guard capacity > room + room / 4 + 16 else { return }
    var exact: [Element] = []
    exact.reserveCapacity(room)
    exact.append(contentsOf: self)
    self = exact
  }
}
