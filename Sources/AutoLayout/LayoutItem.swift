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
  var engineReferences = 0
  /// The active constraints that refer to this item (in no particular order).
  var activeConstraints: [LayoutConstraint] = []
  /// The token the constraints that refer to this item hold, marked gone when the item goes
  /// (constraints hold their items unowned, not weak: see ``LayoutConstraint/firstItem``); nil
  /// until a constraint first refers to the item.
  private var storedLifetime: ItemLifetime?

  init() {}

  /// Drops the variables an engine that went had given the item.
  func forgetEngineVariables() {
    engineBlock = -1
    engineReferences = 0
  }

  /// Gives back the room the item's lists grew beyond their contents, as a solve from scratch
  /// does for the solver (see ``LayoutEngine/solveFromScratch()``), and its token when no
  /// constraint holds it any more (the next one to refer to the item makes a new one).
  /// Overrides add their lists.
  func compactLists() {
    changeActiveConstraints {
      $0.shrinkToAppendedCapacity(firstRoom: ListGrowth.constraintListFirstRoom)
    }
    if isKnownUniquelyReferenced(&storedLifetime) { storedLifetime = nil }
  }

  // The list is changed out of place: moved out of its property (leaving it empty, which
  // allocates nothing), changed, and moved back. A change that may release an element could,
  // for all the compiler can prove, reach back into the property, and one such access keeps
  // every access to it checked at run time (see `View.changeSubviews(_:)`). `change` must not
  // read the same list of the same item: it is empty meanwhile.

  /// Lets `change` change ``activeConstraints`` out of place.
  @inline(__always)
  func changeActiveConstraints<Result>(_ change: (inout [LayoutConstraint]) -> Result) -> Result {
    var list: [LayoutConstraint] = []
    swap(&list, &activeConstraints)
    defer { swap(&list, &activeConstraints) }
    return change(&list)
  }

  deinit {
    storedLifetime?.isGone = true
  }

  /// The token a constraint that refers to this item holds, made on first use.
  ///
  /// - Complexity: O(1).
  func lifetime() -> ItemLifetime {
    if let storedLifetime { return storedLifetime }
    let lifetime = ItemLifetime()
    storedLifetime = lifetime
    return lifetime
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
  public var leadingAnchor: XAxisAnchor { XAxisAnchor(self, .leading) }
  /// The trailing edge: right in left-to-right layouts, left in right-to-left ones.
  public var trailingAnchor: XAxisAnchor { XAxisAnchor(self, .trailing) }
  /// The left edge; never flips.
  public var leftAnchor: XAxisAnchor { XAxisAnchor(self, .left) }
  /// The right edge; never flips.
  public var rightAnchor: XAxisAnchor { XAxisAnchor(self, .right) }
  /// The horizontal center.
  public var centerXAnchor: XAxisAnchor { XAxisAnchor(self, .centerX) }
  /// The top edge.
  public var topAnchor: YAxisAnchor { YAxisAnchor(self, .top) }
  /// The bottom edge.
  public var bottomAnchor: YAxisAnchor { YAxisAnchor(self, .bottom) }
  /// The vertical center.
  public var centerYAnchor: YAxisAnchor { YAxisAnchor(self, .centerY) }
  /// The width.
  public var widthAnchor: DimensionAnchor { DimensionAnchor(self, .width) }
  /// The height.
  public var heightAnchor: DimensionAnchor { DimensionAnchor(self, .height) }
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

  /// Appends `element` and returns its index. An empty list gets room for
  /// ``ListGrowth/constraintListFirstRoom``: an item's lists hold four or more constraints as a
  /// rule (its edges and size), and growing from one element copies the list three times on
  /// the way.
  ///
  /// - Complexity: O(1), amortized.
  @inline(__always)
  mutating func appendReturningIndex(_ element: Element) -> Int {
    if capacity == 0 { reserveCapacity(ListGrowth.constraintListFirstRoom) }
    append(element)
    return count - 1
  }

  /// Removes the element at `index` by moving the last element into its place; returns the
  /// moved element, or nil when the removed one was the last.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  mutating func removeMovingLast(at index: Int) -> Element? {
    let last = removeLast()
    guard index < count else { return nil }
    self[index] = last
    return last
  }
}
