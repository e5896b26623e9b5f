import Cassowary

/// A relation between two layout attributes, as Auto Layout writes it:
/// `firstItem.firstAttribute relation multiplier × secondItem.secondAttribute + constant`,
/// held at `priority`.
///
/// Only ``constant``, ``priority``, ``identifier`` and ``isActive`` change after creation. Changing
/// the constant of an active constraint updates the solver in place (no removal and re-adding);
/// changing its priority re-weights it (between required and optional the solver rebuilds the one
/// row and rolls back on a conflict).
public final class LayoutConstraint {
  /// Constraints the model makes for itself, which print under their own class names.
  ///
  /// The two system kinds carry no data of their own: their first item is the view that made
  /// them, and they read its autoresizing mask or content priorities from it (see
  /// ``systemView``), which keeps the constraint in jemalloc's 112-byte class. A content-size
  /// constraint is never installed: the engine holds the view's content-size rows itself
  /// (``ContentSizeRows``), and one of these is made only to describe them when asked.
  enum Kind: UInt8 {
    /// Made by a client, or by the model with an identifier (margins, stack views).
    case standard
    /// From `translatesAutoresizingMaskIntoConstraints`, described with the view's mask (in
    /// UIKit's `h=… v=…` spelling).
    case autoresizingMask
    /// Stands for a view's content-size rows on one axis: growth is penalized at the view's
    /// hugging priority and shrinkage at its compression resistance priority. Its constant and
    /// whether it is active are read from the view as they are now; it cannot be changed,
    /// activated or deactivated (the view's intrinsic size and priorities decide).
    case contentSize
    /// Stands for one of the rows that pin a view's margins or safe-area guide inside its
    /// bounds (``GuidePinRows``), as UIKit's `UIView-leftMargin-guide-constraint`. Its constant
    /// and whether it is active are read from the view as they are now; it cannot be changed,
    /// activated or deactivated (the view's insets decide, and the guide's life).
    case guidePin
    /// Stands for one of a stack view's arrangement rows (``ArrangementRow``: `UISV-spacing`,
    /// …). Its constant and whether it is active are read from the stack as it is now; it
    /// cannot be changed, activated or deactivated (the stack's arrangement decides).
    case arrangement
  }

  /// Whether the constraint only describes rows the engine owns (``Kind/contentSize``,
  /// ``Kind/guidePin``, ``Kind/arrangement``: the kinds from the first on), made for the asking.
  var describesEngineRows: Bool { kind.rawValue >= Kind.contentSize.rawValue }

  /// The item on the left side; `nil` once the item is gone.
  ///
  /// A constraint does not keep its items alive (UIKit's are `unowned(unsafe)`). The references
  /// are neither weak nor checked unowned ones: a weak reference gives its object a side table
  /// that makes every retain and release of it take the slow path (7 to 14 % of a scene's
  /// build, a third of a layout pass), and a checked unowned read costs an atomic retain. An
  /// item instead keeps a list of the constraints that refer to it (see
  /// ``LayoutItem/firstConstraint``) and, as it goes, marks itself gone in each of them, so
  /// they read it as `nil`, as weak ones would.
  public var firstItem: LayoutItem? { isFirstItemGone ? nil : storedFirstItem }
  /// The item on the right side, if any; `nil` once the item is gone.
  public var secondItem: LayoutItem? { isSecondItemGone ? nil : storedSecondItem }
  var unretainedFirstItem: Unmanaged<LayoutItem>? {
    isFirstItemGone ? nil : firstItemReference
  }
  var unretainedSecondItem: Unmanaged<LayoutItem>? {
    isSecondItemGone ? nil : secondItemReference
  }
  /// The items as stored: read only while they are there (debug builds, which the tests run,
  /// check it).
  private var storedFirstItem: LayoutItem {
    assert(!isFirstItemGone, "read of a constraint's first item after it went")
    return firstItemReference.takeUnretainedValue()
  }
  private var storedSecondItem: LayoutItem? {
    assert(!isSecondItemGone, "read of a constraint's second item after it went")
    return secondItemReference?.takeUnretainedValue()
  }
  /// What is added to the right side. Changing it on an active constraint updates the solver in
  /// place.
  public var constant: Double {
    get { describesEngineRows ? describedConstant : storedConstant }
    set {
      precondition(!describesEngineRows, engineRowsMisuse)
      guard newValue != storedConstant else { return }
      precondition(newValue.isFinite, LayoutError.notFinite(self, "constant", newValue).message)
      storedConstant = newValue
      engine?.constantDidChange(self)
    }
  }
  /// How strongly the constraint should hold, in (0, 1000].
  public var priority: LayoutPriority {
    get { storedPriority }
    set {
      precondition(!describesEngineRows, engineRowsMisuse)
      precondition(newValue.isValid, LayoutError.invalidPriority(newValue).message)
      guard newValue != storedPriority else { return }
      storedPriority = newValue
      engine?.priorityDidChange(self)
    }
  }
  /// A name for the constraint in descriptions and logs.
  public var identifier: String? {
    get { storedIdentifier?.name }
    set { storedIdentifier = newValue.map(ConstraintIdentifier.init) }
  }
  /// Whether the engine broke this required constraint to recover from a conflict: it is held
  /// as the strongest optional constraint instead. Asking gives the engine the constraints it
  /// holds back for a first layout, to know.
  public var isBroken: Bool {
    engine?.flushPendingAdds()
    return isHeldBroken
  }

  // The stored properties, widest first: a class's fields are laid out in the order they are
  // declared, and padding between narrow and wide ones would push a constraint out of
  // jemalloc's 112-byte class (FootprintTests checks it).

  /// The items, fixed for the constraint's life; a gone item is never read through them
  /// (``isFirstItemGone``). Constants rather than references set to nil: a stored `var`
  /// reference is checked for exclusive access at run time on every read (some 80
  /// instructions; a constraint's items are read a dozen times on its way into the solver).
  /// `Unmanaged`, not `unowned(unsafe)`: an optional one is retained and released around every
  /// read that unwraps it, and an item's `deinit` compares them with itself, which a checked
  /// unowned reference cannot do once the item has begun to go.
  let firstItemReference: Unmanaged<LayoutItem>
  let secondItemReference: Unmanaged<LayoutItem>?
  /// The engine the constraint is installed in, and its solver id. The engine is unowned, not
  /// weak (see ``firstItem``): an engine that goes sets it to `nil`. Unchecked in release
  /// builds, as the items are: setting a checked unowned reference releases the old one inside
  /// the access, so every access to it would be checked for exclusivity at run time (some 80
  /// instructions, twice per constraint installed).
  #if DEBUG
    unowned(safe) var engine: LayoutEngine?
  #else
    unowned(unsafe) var engine: LayoutEngine?
  #endif
  /// The constraint's places in its items' lists of constraints (``LayoutItem/firstConstraint``):
  /// in the first item's, and in the second item's when that is another item.
  var firstItemLinks = ConstraintListLinks()
  var secondItemLinks = ConstraintListLinks()
  /// What the second attribute is multiplied by.
  public let multiplier: Double
  /// The value behind ``constant``. Not public, so that the compiler sees every access and
  /// checks them statically: a public stored property of a class is checked for exclusive access
  /// at run time on every read (some 80 instructions), and lowering reads the constant per
  /// constraint.
  var storedConstant: Double
  /// Behind ``identifier``, in a box of its own: few constraints have one, and a string in
  /// place would take 16 bytes of each.
  var storedIdentifier: ConstraintIdentifier?
  var solverID: Int32 = -1
  var storedPriority: LayoutPriority
  let kind: Kind
  /// The attribute of the first item.
  public let firstAttribute: LayoutAttribute
  /// How the two sides compare.
  public let relation: LayoutRelation
  /// The attribute of the second item (`notAnAttribute` when there is none).
  public let secondAttribute: LayoutAttribute
  var active = false
  /// The flag behind ``isBroken``, as the engine last set it.
  var isHeldBroken = false
  /// Whether the first item has gone (``firstItem`` reads nil): set by the item as it goes.
  private(set) var isFirstItemGone = false
  /// Whether the second item has gone; false when there is none (``secondItem`` reads nil
  /// then too).
  private(set) var isSecondItemGone = false

  /// Whether the constraint is installed in an engine: it has a solver id exactly while
  /// ``engine`` is set (an engine that goes clears both). Reading the id rather than the engine
  /// retains nothing: an optional unowned reference is retained around every read.
  ///
  /// - Complexity: O(1).
  var isInstalled: Bool { solverID >= 0 }

  init(
    kind: Kind, _ firstItem: LayoutItem, _ firstAttribute: LayoutAttribute,
    _ relation: LayoutRelation, _ secondItem: LayoutItem?, _ secondAttribute: LayoutAttribute,
    multiplier: Double, constant: Double, priority: LayoutPriority = .required,
    identifier: String? = nil
  ) {
    self.kind = kind
    self.firstItemReference = .passUnretained(firstItem)
    self.firstAttribute = firstAttribute
    self.relation = relation
    self.secondItemReference = secondItem.map { .passUnretained($0) }
    self.secondAttribute = secondAttribute
    self.multiplier = multiplier
    self.storedConstant = constant
    self.storedPriority = priority
    self.storedIdentifier = identifier.map(ConstraintIdentifier.init)
    let me = Unmanaged.passUnretained(self)
    firstItem.appendToConstraintList(me)
    // Through the unretained reference: unwrapping the optional item retains and releases it.
    if let second = secondItemReference, second.toOpaque() != firstItemReference.toOpaque() {
      second._withUnsafeGuaranteedRef { $0.appendToConstraintList(me) }
    }
  }

  deinit {
    let me = Unmanaged.passUnretained(self)
    if !isFirstItemGone {
      firstItemReference._withUnsafeGuaranteedRef { $0.removeFromConstraintList(me) }
    }
    if let second = secondItemReference, !isSecondItemGone,
      second.toOpaque() != firstItemReference.toOpaque()
    {
      second._withUnsafeGuaranteedRef { $0.removeFromConstraintList(me) }
    }
  }

  /// The view that made a system constraint (``Kind/autoresizingMask`` or
  /// ``Kind/contentSize``): its first item. Read only while that item is there (an installed
  /// constraint's items are, since the engine keeps them).
  var systemView: View {
    assert(kind == .autoresizingMask || kind == .contentSize, "not a system constraint")
    return unsafeDowncast(storedFirstItem, to: View.self)
  }

  /// A content-size constraint's priorities: `view`'s (its ``systemView``) hugging and
  /// compression resistance on the constraint's axis.
  func contentPriorities(of view: View) -> (
    hugging: LayoutPriority, compressionResistance: LayoutPriority
  ) {
    let axis: LayoutAttribute.Axis = firstAttribute == .width ? .horizontal : .vertical
    return (
      view.contentHuggingPriority(for: axis), view.contentCompressionResistancePriority(for: axis)
    )
  }

  /// The constraint `item1.attr1 relation multiplier × item2.attr2 + constant` at priority 1000,
  /// checked with UIKit's rules: a size never pairs with a location, a horizontal location never
  /// with a vertical one, leading/trailing never with left/right, and a location never equals a
  /// constant.
  public convenience init(
    item view1: LayoutItem, attribute attr1: LayoutAttribute, relatedBy relation: LayoutRelation,
    toItem view2: LayoutItem?, attribute attr2: LayoutAttribute, multiplier: Double = 1,
    constant: Double = 0
  ) throws(LayoutError) {
    try Self.validate(view1, attr1, view2, attr2, multiplier, constant)
    self.init(
      kind: .standard, view1, attr1, relation, view2, attr2, multiplier: multiplier,
      constant: constant)
  }

  static func validate(
    _ view1: LayoutItem, _ attr1: LayoutAttribute, _ view2: LayoutItem?,
    _ attr2: LayoutAttribute, _ multiplier: Double, _ constant: Double
  ) throws(LayoutError) {
    guard attr1 != .notAnAttribute else {
      throw .missingAttribute("The first attribute cannot be notAnAttribute")
    }
    guard multiplier.isFinite, constant.isFinite else {
      throw LayoutError(
        kind: .notFinite,
        message: "\(view1.layoutDescription).\(attr1): constant \(constant) or multiplier "
          + "\(multiplier) is not finite! That's illegal.")
    }
    // Compared with nil rather than unwrapped, which retains and releases the item.
    guard view2 != nil else {
      guard attr2 == .notAnAttribute else {
        throw .missingAttribute("A second attribute (\(attr2)) needs a second item")
      }
      if !attr1.isDimension { throw .locationEqualToConstant(view1) }
      return
    }
    guard attr2 != .notAnAttribute else {
      throw .missingAttribute("A second item (\(view2!)) needs a second attribute")
    }
    if attr1.isDimension != attr2.isDimension { throw .invalidPairing(attr1, attr2) }
    if attr1.isDimension { return }
    if attr1.axis != attr2.axis { throw .invalidPairing(attr1, attr2) }
    if (attr1.isDirectional && attr2.isAbsoluteHorizontal)
      || (attr1.isAbsoluteHorizontal && attr2.isDirectional)
    {
      throw .directionalMismatch
    }
    if multiplier == 0 { throw .locationEqualToConstant(view1) }
  }

  /// ``fromAnchors(_:_:_:_:_:_:_:)`` for anchors' item ids; stops the program when either item
  /// is gone (an anchor does not keep its item alive).
  static func fromAnchors(
    _ id1: ItemID, _ attr1: LayoutAttribute, _ relation: LayoutRelation, _ id2: ItemID?,
    _ attr2: LayoutAttribute, _ multiplier: Double, _ constant: Double
  ) -> LayoutConstraint {
    guard let first = id1.item else { anchorItemGone(attr1) }
    guard let id2 else {
      return first._withUnsafeGuaranteedRef {
        fromAnchors($0, attr1, relation, nil, attr2, multiplier, constant)
      }
    }
    guard let second = id2.item else { anchorItemGone(attr2) }
    return first._withUnsafeGuaranteedRef { view1 in
      second._withUnsafeGuaranteedRef { view2 in
        fromAnchors(view1, attr1, relation, view2, attr2, multiplier, constant)
      }
    }
  }

  private static func anchorItemGone(_ attribute: LayoutAttribute) -> Never {
    preconditionFailure(
      "A constraint was made from a \(attribute) anchor whose item is gone: an anchor does not "
        + "keep its view or guide alive")
  }

  static func fromAnchors(
    _ view1: LayoutItem, _ attr1: LayoutAttribute, _ relation: LayoutRelation,
    _ view2: LayoutItem?, _ attr2: LayoutAttribute, _ multiplier: Double, _ constant: Double
  ) -> LayoutConstraint {
    do {
      try validate(view1, attr1, view2, attr2, multiplier, constant)
    } catch {
      preconditionFailure(error.message)
    }
    return LayoutConstraint(
      kind: .standard, view1, attr1, relation, view2, attr2, multiplier: multiplier,
      constant: constant)
  }

  /// Whether the constraint takes part in layout. Activating adds it to the engine of its items'
  /// common hierarchy (UIKit raises when there is none; so does this setter, with UIKit's
  /// message: use ``activateChecked(_:)`` to get the error instead).
  public var isActive: Bool {
    get { describesEngineRows ? hasDescribedRows : active }
    set { newValue ? Self.activate([self]) : Self.deactivate([self]) }
  }

  /// What the rows a described constraint stands for hold now: a content-size constraint's
  /// length, a pin's constant or a stack row's; once its view, guide or row is gone, the
  /// constant it was made with. Out of line, as ``hasDescribedRows``.
  @inline(never)
  private var describedConstant: Double {
    guard !isFirstItemGone, !isSecondItemGone else { return storedConstant }
    if kind == .contentSize {
      return systemView.contentSizeRows.length(
        firstAttribute == .width ? .horizontal : .vertical)
    }
    if kind == .arrangement { return describedArrangementRow?.constant ?? storedConstant }
    guard let (view, which, edge) = pinnedEdge else { return storedConstant }
    return view.guidePinConstant(which, edge)
  }

  /// Whether the rows a described constraint stands for are there: a content-size
  /// constraint's view has rows on its axis, or a pin's view still has its guide. Out of line,
  /// so that ``isActive`` stays a load and a compare where it is inlined.
  @inline(never)
  private var hasDescribedRows: Bool {
    guard !isFirstItemGone, !isSecondItemGone else { return false }
    if kind == .contentSize {
      return systemView.contentSizeRows[firstAttribute == .width ? .horizontal : .vertical] != nil
    }
    if kind == .arrangement { return describedArrangementRow != nil }
    return pinnedEdge != nil
  }

  /// The stack row an ``Kind/arrangement`` constraint stands for, if its stack still has it:
  /// looked up in the stacks its items can belong to (a stack is its own canvas, owns its
  /// guides and arranges its views).
  ///
  /// - Complexity: O(rows of those stacks).
  private var describedArrangementRow: ArrangementRow? {
    func stacks(of item: LayoutItem?) -> [StackView] {
      if let guide = item as? LayoutGuide { return (guide.owner as? StackView).map { [$0] } ?? [] }
      guard let view = item as? View else { return [] }
      return [view as? StackView, view.arrangingStackView].compactMap { $0 }
    }
    for stack in stacks(of: storedFirstItem) + stacks(of: storedSecondItem) {
      for row in stack.arrangementRows {
        if row.firstItem === storedFirstItem, row.secondItem === storedSecondItem,
          row.firstAttribute == firstAttribute, row.secondAttribute == secondAttribute,
          row.relation == relation, row.multiplier == multiplier,
          row.identifier.name == storedIdentifier?.name
        {
          return row
        }
      }
    }
    return nil
  }

  /// A pin's view, which of its guides it pins and on which edge; nil once the view no longer
  /// has the guide. Only for a ``Kind/guidePin`` constraint whose items are there.
  private var pinnedEdge: (View, PinnedGuide, Int)? {
    // The guide is the first item on the left and top edges, the view on the others.
    let edge = GuidePinRows.edges.firstIndex(of: firstAttribute)!
    let (viewItem, guide) =
      edge < 2 ? (storedSecondItem!, storedFirstItem) : (storedFirstItem, storedSecondItem!)
    let view = unsafeDowncast(viewItem, to: View.self)
    for which in PinnedGuide.allCases where view.pinnedGuide(which) === guide {
      return (view, which, edge)
    }
    return nil
  }

  /// Why a described constraint cannot be changed.
  var engineRowsMisuse: String {
    switch kind {
    case .guidePin:
      "\(self) pins its view's margins or safe-area guide, which the view keeps up to date: "
        + "change the view's layoutMargins or safeAreaInsets instead"
    case .arrangement:
      "\(self) is one of a stack view's constraints, which the stack keeps up to date: change "
        + "the stack's arranged views, axis, distribution, alignment or spacing instead"
    default:
      "\(self) stands for its view's intrinsic content size, which the view keeps up to date: "
        + "change the view's content (and call invalidateIntrinsicContentSize()) or its content "
        + "hugging and compression resistance priorities instead"
    }
  }

  /// The same constraint at another priority, for chaining: `a.constraint(…).withPriority(250)`.
  public func withPriority(_ priority: LayoutPriority) -> LayoutConstraint {
    self.priority = priority
    return self
  }

  /// The same constraint with an identifier, for chaining.
  public func withIdentifier(_ identifier: String) -> LayoutConstraint {
    self.storedIdentifier = ConstraintIdentifier(identifier)
    return self
  }
}

// MARK: - Activation

extension LayoutConstraint {
  /// Activates every constraint in one solver batch, as UIKit's `activate(_:)`; stops the
  /// program with UIKit's message when one cannot be activated.
  public static func activate(_ constraints: [LayoutConstraint]) {
    do {
      try activateChecked(constraints)
    } catch {
      preconditionFailure(error.message)
    }
  }

  /// Activates every constraint in one solver batch, or throws and activates none when one of
  /// them cannot be (its items have no common ancestor).
  public static func activateChecked(_ constraints: [LayoutConstraint]) throws(LayoutError) {
    // Nothing is retained: for the whole call the constraints are held by the array, the views
    // by their trees and each engine by its root, and retaining them cost some sixteen
    // reference-count operations a constraint.
    try constraints.withUnsafeBufferPointer { buffer throws(LayoutError) in
      try buffer.withMemoryRebound(to: Unmanaged<LayoutConstraint>.self) {
        references throws(LayoutError) in
        try activateChecked(references)
      }
    }
  }

  private static func activateChecked(
    _ constraints: UnsafeBufferPointer<Unmanaged<LayoutConstraint>>
  ) throws(LayoutError) {
    var hosts: [Unmanaged<View>] = []
    hosts.reserveCapacity(constraints.count)
    for reference in constraints {
      guard let host = reference._withUnsafeGuaranteedRef({ $0.unretainedCommonAncestor() })
      else { throw reference._withUnsafeGuaranteedRef { $0.noCommonAncestor() } }
      hosts.append(host)
    }
    var engine: Unmanaged<LayoutEngine>?
    // Constraints of a batch mostly share their host: its root is looked up once for a run.
    var lastHost: UnsafeMutableRawPointer?
    var lastHostEngine: Unmanaged<LayoutEngine>?
    for (index, reference) in constraints.enumerated() {
      reference._withUnsafeGuaranteedRef { constraint in
        guard !constraint.active else { return }
        precondition(!constraint.describesEngineRows, constraint.engineRowsMisuse)
        let host = hosts[index]
        let hostEngine: Unmanaged<LayoutEngine>
        if host.toOpaque() == lastHost, let lastHostEngine {
          hostEngine = lastHostEngine
        } else {
          hostEngine = host._withUnsafeGuaranteedRef { .passUnretained($0.rootView.ensureEngine()) }
          lastHost = host.toOpaque()
          lastHostEngine = hostEngine
        }
        if hostEngine.toOpaque() != engine?.toOpaque() {
          engine?._withUnsafeGuaranteedRef { $0.endBatch() }
          engine = hostEngine
          hostEngine._withUnsafeGuaranteedRef { $0.beginBatch() }
        }
        constraint.attach()
        hostEngine._withUnsafeGuaranteedRef { $0.install(constraint) }
      }
    }
    engine?._withUnsafeGuaranteedRef { $0.endBatch() }
  }

  /// Deactivates every constraint in one solver batch.
  public static func deactivate(_ constraints: [LayoutConstraint]) {
    var engine: LayoutEngine?
    for constraint in constraints where constraint.active || constraint.describesEngineRows {
      precondition(!constraint.describesEngineRows, constraint.engineRowsMisuse)
      // Read once: each read of the optional unowned reference retains and releases it.
      let installed = constraint.engine
      if let installed, installed !== engine {
        engine?.endBatch()
        engine = installed
        installed.beginBatch()
      }
      constraint.detach()
      installed?.uninstall(constraint)
    }
    engine?.endBatch()
  }

  /// Deactivates each constraint still active as its tree goes (see `View.deinit`), without
  /// taking it out of its engine: that engine goes with the tree, and lets go of the
  /// constraints it lists then.
  ///
  /// - Complexity: O(`constraints`).
  static func detachAsTheirEngineGoes(_ constraints: [LayoutConstraint]) {
    for constraint in constraints where constraint.active { constraint.detach() }
  }

  /// The closest view that contains both items (a layout guide counts as its owning view).
  func commonAncestor() throws(LayoutError) -> View {
    guard let ancestor = unretainedCommonAncestor() else { throw noCommonAncestor() }
    return ancestor.takeUnretainedValue()
  }

  func noCommonAncestor() -> LayoutError {
    .noCommonAncestor(
      firstItem.map { "\"\($0.layoutDescription).\(firstAttribute)\"" } ?? "nil",
      secondItem.map { "\"\($0.layoutDescription).\(secondAttribute)\"" } ?? "nil")
  }

  /// Marks the constraint active. An active constraint keeps itself alive (UIKit's engine
  /// retains its constraints) until it is deactivated or its items go.
  func attach() {
    active = true
    _ = Unmanaged.passUnretained(self).retain()
  }

  /// Marks the constraint inactive, and lets go of the reference ``attach()`` took unless its
  /// items went first (the last of them let go of it then). The caller holds the constraint.
  func detach() {
    active = false
    if hasItemLeft { Unmanaged.passUnretained(self).release() }
  }

  /// Whether an item of the constraint went: such a constraint takes no part in layout, as
  /// its expression has nothing to read for that item.
  var hasGoneItem: Bool { isFirstItemGone || isSecondItemGone }

  /// Whether some item of the constraint is still there.
  var hasItemLeft: Bool { !isFirstItemGone || (secondItemReference != nil && !isSecondItemGone) }

  /// Marks `item`'s ends of the constraint gone and out of its list, as `item` goes; returns
  /// whether the constraint is active and had no other item left, so that the item lets go of
  /// the reference ``attach()`` took.
  func itemWillGo(_ item: UnsafeMutableRawPointer) -> Bool {
    if firstItemReference.toOpaque() == item {
      isFirstItemGone = true
      firstItemLinks = ConstraintListLinks()
    }
    if secondItemReference?.toOpaque() == item {
      isSecondItemGone = true
      secondItemLinks = ConstraintListLinks()
    }
    return active && !hasItemLeft
  }
}

/// A constraint's identifier, boxed (see ``LayoutConstraint/storedIdentifier``).
final class ConstraintIdentifier {
  let name: String
  init(_ name: String) { self.name = name }
}

// MARK: - Description

extension LayoutConstraint: CustomStringConvertible {
  /// UIKit's form: `<LayoutConstraint:0x… 'id' Label:0x….leading == View:0x….leadingMargin + 8
  /// priority:750   (active)>`.
  public var description: String {
    var parts = ["<\(className):\(address(of: self))"]
    if let identifier { parts.append("'\(identifier)'") }
    // A system constraint whose view is gone prints without the view's data.
    let view =
      kind == .autoresizingMask || kind == .contentSize ? (isFirstItemGone ? nil : systemView) : nil
    if kind == .autoresizingMask, let view { parts.append(view.autoresizingMask.layoutDescription) }
    parts.append(body)
    if kind == .contentSize {
      if let view {
        let (hugging, resistance) = contentPriorities(of: view)
        parts.append("Hug:\(hugging) CompressionResistance:\(resistance)")
      }
    } else if !storedPriority.isRequired {
      parts.append("priority:\(formatG(Double(storedPriority.rawValue)))")
    }
    parts.append("  (\(isActive ? "active" : "inactive"))>")
    return parts.joined(separator: " ")
  }

  private var className: String {
    switch kind {
    case .standard, .guidePin, .arrangement: "LayoutConstraint"
    case .autoresizingMask: "AutoresizingMaskLayoutConstraint"
    case .contentSize: "ContentSizeLayoutConstraint"
    }
  }

  private func name(_ attribute: LayoutAttribute) -> String {
    guard kind == .autoresizingMask else { return attribute.description }
    switch attribute {
    case .left: return "minX"
    case .right: return "maxX"
    case .top: return "minY"
    case .bottom: return "maxY"
    default: return attribute.description
    }
  }

  /// `a.width == 0.5*b.width + 10`: a multiplier of 1 and a constant of 0 are left out.
  var body: String {
    var text = "\(firstItem?.layoutDescription ?? "nil").\(name(firstAttribute)) \(relation)"
    if let secondItem {
      text += " "
      if multiplier != 1 { text += "\(formatG(multiplier))*" }
      text += "\(secondItem.layoutDescription).\(name(secondAttribute))"
      if constant != 0 { text += (constant < 0 ? " - " : " + ") + formatG(abs(constant)) }
    } else {
      text += " " + formatG(constant)
    }
    return text
  }
}

extension LayoutConstraint {
  /// A new, inactive constraint with the same items, attributes, relation, multiplier, constant,
  /// priority and identifier (to re-create constraints that a removal deactivated).
  public func copy() -> LayoutConstraint {
    LayoutConstraint(
      kind: kind, firstItem!, firstAttribute, relation, secondItem, secondAttribute,
      multiplier: multiplier, constant: constant, priority: storedPriority, identifier: identifier)
  }
}
