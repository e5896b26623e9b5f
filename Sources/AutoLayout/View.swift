import Cassowary

/// A rectangle in a tree of views, laid out by constraints: the model of UIKit's `UIView`.
///
/// A view made in code translates its frame and autoresizing mask into constraints
/// (``translatesAutoresizingMaskIntoConstraints`` is `true`, as in UIKit); set it to `false` on
/// every view you position with your own constraints, or the two sets conflict.
open class View: LayoutItem {
  /// The value of an intrinsic size axis that has no intrinsic size.
  public static let noIntrinsicMetric = -1.0

  /// The view this view is a subview of (unowned: a superview that goes sets it to `nil`).
  public var superview: View? { storedSuperview }
  /// The subviews, back to front.
  public var subviews: [View] { storedSubviews }

  // The stored properties a layout pass reads on every view are internal, behind public
  // computed ones: the compiler can then see every access and check exclusivity statically,
  // where a public stored property of a class is checked at run time on each access (the
  // greater part of a layout pass's instructions). Each is also changed only in ways that
  // cannot reach back into it (a list is swapped out, changed and swapped back when the change
  // may release a view), since one such access anywhere keeps every access checked at run time.
  /// The link to the superview: the box the superview shares with all its subviews. Setting an
  /// unowned reference releases the old one inside the access, which keeps every access to it
  /// checked at run time; a box is swapped in and out instead, and its reference is a constant.
  var superviewLink: SuperviewLink?
  /// The box this view's subviews link to, made with the first subview.
  var subviewLink: SuperviewLink?
  /// The superview, through ``superviewLink``.
  var storedSuperview: View? { superviewLink?.view }
  var storedSubviews: [View] = []
  var storedFrame: Rect
  var engineStorage: LayoutEngine?
  /// Whether some active constraint in this tree is not installed in an engine (after the tree
  /// was detached from its superview); only meaningful on a root.
  var hasUninstalledConstraints = false

  var needsLayoutFlag = true
  var subtreeNeedsLayout = true
  var needsUpdateConstraintsFlag = true
  var subtreeNeedsUpdateConstraints = true
  var systemConstraintsDirty = true
  /// Whether the update pass has work at this view itself: its system constraints (it entered
  /// the engine, its intrinsic size or autoresizing changed), or ``updateConstraints()`` when
  /// ``needsUpdateConstraintsFlag`` says so. One flag, so that the pass reads two per subview.
  var needsOwnUpdate = true

  var autoresizingConstraints: [LayoutConstraint] = []
  /// Subviews whose solver values changed since this view last laid them out.
  var dirtySubviews: [View] = []
  var isFrameDirty = false
  /// Whether this view's frame origin in the root's superview space moved since it last laid out
  /// its subviews (then every subview's relative frame must be recomputed).
  var originMoved = false
  /// The frame origin in the root's superview space, as of the last layout pass.
  var absoluteOrigin: Point?
  // The one-byte properties follow the optional point, in the bytes its alignment would leave
  // unused.
  /// The value behind ``translatesAutoresizingMaskIntoConstraints`` (internal, so that its
  /// accesses are checked at compile time).
  var storedTranslatesAutoresizingMask = true
  /// Behind ``isHidden``: internal, so that the compiler sees every access and checks them
  /// statically (a stack's update pass reads every arranged view's; see
  /// ``LayoutConstraint/storedConstant``).
  var storedIsHidden = false
  /// The values behind ``semanticContentAttribute`` and ``userInterfaceLayoutDirection``. Not
  /// public, so that the compiler checks their accesses statically (see
  /// ``LayoutConstraint/storedConstant``): lowering a leading or trailing constraint reads them
  /// up the tree.
  var storedSemanticContentAttribute = SemanticContentAttribute.unspecified
  var storedLayoutDirection = LayoutDirection.leftToRight
  /// ``effectiveUserInterfaceLayoutDirection`` once computed: every leading or trailing
  /// constraint lowered reads it, and computing it walks up to the first view that decides
  /// (the root, usually), a superview at a time (a fifth of a 10,000-view nested grid's build).
  /// Forgotten across the subtree when what it depends on changes: a view's attribute or
  /// direction, or the superview chain (``forgetEffectiveDirections()``).
  var cachedEffectiveDirection: LayoutDirection?
  /// The engine of the layout pass that is running ``layoutSubviews()`` on this view, if one
  /// is: found without walking up to the root (the pass knows it, and keeps it alive while it
  /// is set).
  var layoutPassEngine: Unmanaged<LayoutEngine>?
  /// The content-size rows the engine holds for this view (no constraint objects: see
  /// ``ContentSizeRows``).
  var contentSizeRows = ContentSizeRows()
  var huggingPriorities = (
    horizontal: LayoutPriority.defaultLow, vertical: LayoutPriority.defaultLow
  )
  var resistancePriorities = (
    horizontal: LayoutPriority.defaultHigh, vertical: LayoutPriority.defaultHigh
  )
  /// The layout margins: kept in the view rather than with the rare properties, since many views
  /// set them and the view's allocation (jemalloc's 320-byte class) has room for them.
  var storedLayoutMargins = EdgeInsets(all: 8)
  /// What most views leave at their defaults (see ``RareProperties``); `nil` until one is set.
  var rareProperties: RareProperties?

  /// A view with the given frame.
  public init(frame: Rect = .zero) {
    storedFrame = frame
    super.init()
  }

  deinit {
    // References to this view are unowned (see ``LayoutConstraint/firstItem``): the views and
    // guides that point back to it forget it, as a weak reference would, before anything reads
    // them (a checked one would stop the program here). A subview or guide that outlives this
    // view leaves it as `removeFromSuperview()` and `removeLayoutGuide(_:)` would have it: the
    // constraints across the cut are deactivated, and a subview keeps those of its subtree
    // active, to be installed in the next tree's engine. Only a root, or a view whose
    // superview went, can go, so the tree's engine goes too: it lets go of what it lists, and
    // nothing is taken out of its solver. What only this view holds goes with it.
    //
    // The view's own further references to its subviews and guides go first (a subclass's go
    // in its `deinit`, which runs before this one), so that only others count as outliving it;
    // that is asked of the lists moved out of their properties, as `changeSubviews(_:)` does.
    if !dirtySubviews.isEmpty { changeDirtySubviews { $0.removeAll() } }
    if let rareProperties {
      rareProperties.marginsGuide = nil
      rareProperties.safeAreaGuide = nil
      do {
        var variations: [(view: View, installation: SizeClassInstallation)] = []
        swap(&variations, &rareProperties.sizeClassSubviews)
      }
      var guides: [LayoutGuide] = []
      swap(&guides, &rareProperties.layoutGuides)
      for index in guides.indices {
        guides[index].owner = nil
        if !isKnownUniquelyReferenced(&guides[index]) {
          LayoutConstraint.detachAsTheirEngineGoes(guides[index].activeConstraints)
        }
      }
      swap(&guides, &rareProperties.layoutGuides)
    }
    guard !storedSubviews.isEmpty else { return }
    // Unlinked first, so that the walks below never read this view through a subview's link.
    forEachSubviewUnretained { $0.superviewDidGo() }
    changeSubviews { subviews in
      // One list for every subview, emptied after each: a tree dropped while a client still
      // holds its views walks all of them, and allocates once.
      var crossing: [LayoutConstraint] = []
      for index in subviews.indices where !isKnownUniquelyReferenced(&subviews[index]) {
        subviews[index].appendConstraintsCrossingItsCut(to: &crossing)
        LayoutConstraint.detachAsTheirEngineGoes(crossing)
        crossing.removeAll(keepingCapacity: true)
      }
    }
  }

  override var hostView: View? { self }

  override func unretainedHostView() -> Unmanaged<View>? { .passUnretained(self) }

  /// ``superview``, not retained: for walks up the tree, which the caller holds.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  var unretainedSuperview: Unmanaged<View>? {
    guard let link = superviewLink else { return nil }
    return .passUnretained(link.view)
  }

  /// Forgets the superview that went (see `deinit`), and marks the subtree's constraints as
  /// to be installed in the next tree's engine.
  ///
  /// - Complexity: O(1).
  func superviewDidGo() {
    setSuperviewLink(nil)
    hasUninstalledConstraints = true
  }

  /// Swaps `link` in as the link to the superview; the old link is released after the access.
  func setSuperviewLink(_ link: SuperviewLink?) {
    var link = link
    swap(&link, &superviewLink)
  }

  /// The box this view's subviews link to, made on first use.
  func linkForSubviews() -> SuperviewLink {
    if let subviewLink { return subviewLink }
    var link: SuperviewLink? = SuperviewLink(self)
    swap(&link, &subviewLink)
    return subviewLink!
  }

  /// Lets the box ``linkForSubviews()`` made go (released after the access); the next subview
  /// makes a new one. Only for a view without subviews, whose box no view shares.
  func dropSubviewLink() {
    var link: SuperviewLink? = nil
    swap(&link, &subviewLink)
  }

  /// Moves the subview list out of its property (leaving it empty, which allocates nothing),
  /// lets `change` change it, and moves it back. A change that may release a view (growing or
  /// shrinking the list) could, for all the compiler can prove, reach back into the property;
  /// done in place, that one access would keep every access to it checked at run time.
  ///
  /// - Complexity: that of `change`.
  func changeSubviews(_ change: (inout [View]) -> Void) {
    var list: [View] = []
    swap(&list, &storedSubviews)
    change(&list)
    swap(&list, &storedSubviews)
  }

  /// ``changeSubviews(_:)`` for the list of subviews whose frames are to be copied.
  func changeDirtySubviews(_ change: (inout [View]) -> Void) {
    var list: [View] = []
    swap(&list, &dirtySubviews)
    change(&list)
    swap(&list, &dirtySubviews)
  }

  override func compactLists() {
    super.compactLists()
    changeSubviews { $0.shrinkToAppendedCapacity() }
    rareProperties?.layoutGuides.shrinkToAppendedCapacity()
    // A box made by an edit since undone (a list changed in place makes one) goes.
    if rareProperties?.isAtDefaults == true { rareProperties = nil }
    // The dirty list is a layout pass's scratch: it gets room for every subview, as a first
    // layout (which marks them all) leaves it, whatever the passes before marked. Freed here,
    // it would take the room of whatever the next pass marks, and so the state after a solve
    // from scratch would depend on which values it moved (equally good solutions differ).
    if dirtySubviews.isEmpty {
      let subviewCount = storedSubviews.count
      changeDirtySubviews { $0.makeEmpty(withAppendedCapacityFor: subviewCount) }
    }
  }

  override func didEnterEngine() { markSystemConstraintsDirty() }

  override func solverValuesDidChange() { markFrameDirty() }

  /// The size the content wants (text, image), or ``noIntrinsicMetric`` on an axis without one.
  /// Override it, and call ``invalidateIntrinsicContentSize()`` when it changes.
  open var intrinsicContentSize: Size {
    Size(width: View.noIntrinsicMetric, height: View.noIntrinsicMetric)
  }

  /// Positions the subviews. The default copies the solver's values into the frames of the
  /// subviews whose values changed (all of them when this view itself moved); override it to
  /// adjust frames afterwards, calling `super.layoutSubviews()` first.
  open func layoutSubviews() { applySolverFrames() }

  /// Override to change constraints in the update-constraints pass (subviews run first). The
  /// default does nothing: the view's own autoresizing and content-size constraints are brought
  /// up to date before it is called.
  open func updateConstraints() {}

  // MARK: Geometry

  /// The frame in the superview's coordinate space. Layout passes write it from the solver;
  /// setting it on a view that translates its autoresizing mask updates those constraints.
  public var frame: Rect {
    get { storedFrame }
    set {
      guard newValue != storedFrame else { return }
      storedFrame = newValue
      if translatesAutoresizingMaskIntoConstraints { markSystemConstraintsDirty() }
      setNeedsLayout()
    }
  }

  /// The view's own coordinate space: origin zero, the frame's size.
  public var bounds: Rect {
    get { Rect(origin: .zero, size: storedFrame.size) }
    set { frame.size = newValue.size }
  }

  /// The insets from the frame to the alignment rectangle that constraints act on.
  public var alignmentRectInsets: EdgeInsets {
    get { storedAlignmentRectInsets }
    set {
      guard newValue != storedAlignmentRectInsets else { return }
      let old = storedAlignmentRectInsets
      storedAlignmentRectInsets = newValue
      markSystemConstraintsDirty()
      refreshOffsetConstants()
      refreshGuideConstants(from: old)
      markFrameDirty()
      originMoved = true
      setNeedsLayout()
    }
  }

  /// Whether the frame and autoresizing mask become required constraints. `true` for views made
  /// in code, as in UIKit.
  public var translatesAutoresizingMaskIntoConstraints: Bool {
    get { storedTranslatesAutoresizingMask }
    set {
      guard newValue != storedTranslatesAutoresizingMask else { return }
      storedTranslatesAutoresizingMask = newValue
      markSystemConstraintsDirty()
    }
  }

  /// How the frame follows the superview's bounds when translated into constraints.
  public var autoresizingMask: AutoresizingMask = [] {
    didSet { if autoresizingMask != oldValue { markSystemConstraintsDirty() } }
  }

  /// Whether the view is hidden. Hidden views still take part in layout (stack views treat
  /// their hidden arranged views specially).
  public var isHidden: Bool {
    get { storedIsHidden }
    set {
      guard newValue != storedIsHidden else { return }
      storedIsHidden = newValue
      arrangingStackView?.arrangedSubviewDidChange(self, intrinsicSize: false)
    }
  }
  /// The stack view that arranges this view, if any (unowned: a stack view that goes sets it to
  /// `nil`).
  unowned(safe) var arrangingStackView: StackView?

  // MARK: Direction

  /// How the view's content follows the layout direction.
  public var semanticContentAttribute: SemanticContentAttribute {
    get { storedSemanticContentAttribute }
    set {
      guard newValue != storedSemanticContentAttribute else { return }
      storedSemanticContentAttribute = newValue
      directionDidChange()
    }
  }

  /// The layout direction of the whole tree, read on the root (the application's direction).
  public var userInterfaceLayoutDirection: LayoutDirection {
    get { storedLayoutDirection }
    set {
      guard newValue != storedLayoutDirection else { return }
      storedLayoutDirection = newValue
      directionDidChange()
    }
  }

  /// The direction leading and trailing follow for this view.
  public var effectiveUserInterfaceLayoutDirection: LayoutDirection {
    if let cachedEffectiveDirection { return cachedEffectiveDirection }
    let direction: LayoutDirection
    switch storedSemanticContentAttribute {
    case .forceLeftToRight, .playback, .spatial: direction = .leftToRight
    case .forceRightToLeft: direction = .rightToLeft
    case .unspecified:
      // Up through unretained links: this runs for every leading or trailing constraint lowered.
      direction =
        unretainedSuperview?._withUnsafeGuaranteedRef { $0.effectiveUserInterfaceLayoutDirection }
        ?? storedLayoutDirection
    }
    cachedEffectiveDirection = direction
    return direction
  }

  /// Forgets the effective direction of every view in this subtree.
  func forgetEffectiveDirections() {
    visitSubtree { $0.cachedEffectiveDirection = nil }
  }

  // MARK: Baselines

  /// The values behind ``firstBaselineOffsetFromTop`` and ``baselineOffsetFromBottom``.
  /// Internal, so that the compiler checks their accesses statically (see
  /// ``LayoutConstraint/storedConstant``): each control sets both as it is made, and lowering
  /// reads one for every baseline constraint.
  var storedFirstBaselineOffset = 0.0
  var storedLastBaselineOffset = 0.0

  /// The distance from the top of the alignment rectangle to the first baseline (0 for a view
  /// without text: its first baseline is its top).
  open var firstBaselineOffsetFromTop: Double {
    get { storedFirstBaselineOffset }
    set {
      guard newValue != storedFirstBaselineOffset else { return }
      storedFirstBaselineOffset = newValue
      refreshOffsetConstants()
    }
  }

  /// The distance from the last baseline to the bottom of the alignment rectangle (0 for a view
  /// without text: its last baseline is its bottom).
  open var baselineOffsetFromBottom: Double {
    get { storedLastBaselineOffset }
    set {
      guard newValue != storedLastBaselineOffset else { return }
      storedLastBaselineOffset = newValue
      refreshOffsetConstants()
    }
  }

  override func offset(of attribute: LayoutAttribute) -> Double {
    switch attribute {
    case .firstBaseline: firstBaselineOffsetFromTop
    case .lastBaseline: -baselineOffsetFromBottom
    default: 0
    }
  }

  override func unretainedResolve(
    _ attribute: LayoutAttribute
  ) -> (Unmanaged<LayoutItem>, LayoutAttribute) {
    guard let edge = attribute.edgeOfMargins else { return (.passUnretained(self), attribute) }
    return (.passUnretained(layoutMarginsGuide), edge)
  }

  /// Re-applies the constants of active constraints whose lowering depends on this view's
  /// offsets (baselines, alignment-rect insets): in place, no removal.
  func refreshOffsetConstants() {
    // Without variables, no installed constraint or row is on the view's edges (a label's
    // baselines are set as it is made, before it is in a tree).
    guard engineBlock >= 0 else { return }
    forEachActiveConstraint { constraint in constraint.engine?.constantDidChange(constraint) }
    arrangingStackView?.refreshRowConstants(referringTo: self)
  }

  func directionDidChange() {
    forgetEffectiveDirections()
    var affected: [LayoutConstraint] = []
    var seen = Set<ObjectIdentifier>()
    forEachActiveConstraintInSubtree { _, constraint in
      if constraint.firstAttribute.isDirectional || constraint.secondAttribute.isDirectional,
        seen.insert(ObjectIdentifier(constraint)).inserted
      {
        affected.append(constraint)
      }
    }
    visitSubtree { ($0 as? StackView)?.relowerDirectionalRows() }
    guard !affected.isEmpty else { return }
    LayoutConstraint.deactivate(affected)
    LayoutConstraint.activate(affected)
  }

  // MARK: The tree

  /// The topmost ancestor (the view itself when it has no superview).
  ///
  /// - Complexity: O(depth), retaining no view on the way up.
  public var rootView: View { unretainedRootView.takeUnretainedValue() }

  /// ``rootView``, not retained: valid while the caller keeps the tree alive, as a call on one
  /// of its views does.
  ///
  /// - Complexity: O(depth).
  var unretainedRootView: Unmanaged<View> {
    var view = Unmanaged.passUnretained(self)
    while let parent = view._withUnsafeGuaranteedRef({ $0.unretainedSuperview }) { view = parent }
    return view
  }

  /// The engine of the tree the view is in, if one has been made, not retained: its root holds
  /// it. Read this way, the update pass retains no engine for each view it updates.
  ///
  /// - Complexity: O(depth).
  var unretainedEngine: Unmanaged<LayoutEngine>? {
    unretainedRootView._withUnsafeGuaranteedRef { root in
      root.engineStorage.map { Unmanaged.passUnretained($0) }
    }
  }

  /// Calls `body` with the engine of the tree the view is in, made if there is none; one that
  /// is there already is not retained (``unretainedEngine``).
  ///
  /// - Complexity: O(depth), plus `body`'s.
  func withEngine(_ body: (LayoutEngine) -> Void) {
    guard let engine = unretainedEngine else { return body(rootView.ensureEngine()) }
    engine._withUnsafeGuaranteedRef(body)
  }

  /// Whether `self` is `view` or one of its descendants.
  ///
  /// - Complexity: O(depth), retaining no view on the way up.
  public func isDescendant(of view: View) -> Bool {
    let target = Unmanaged.passUnretained(view).toOpaque()
    var current: Unmanaged<View>? = .passUnretained(self)
    while let candidate = current {
      if candidate.toOpaque() == target { return true }
      current = candidate._withUnsafeGuaranteedRef { $0.unretainedSuperview }
    }
    return false
  }

  /// The closest view that is an ancestor of (or equal to) both views.
  ///
  /// - Complexity: O(depth of the two views).
  public func closestCommonAncestor(_ other: View) -> View? {
    unretainedCommonAncestor(other)?.takeUnretainedValue()
  }

  /// ``closestCommonAncestor(_:)``, not retained, and retaining no view on the way up:
  /// activation finds one for every constraint, and a walk that retained each superview cost
  /// a retain and a release a step.
  ///
  /// - Complexity: O(depth of the two views).
  func unretainedCommonAncestor(_ other: View) -> Unmanaged<View>? {
    typealias Reference = Unmanaged<View>
    @inline(__always) func parent(_ view: Reference) -> Reference? {
      view._withUnsafeGuaranteedRef { $0.unretainedSuperview }
    }
    @inline(__always) func same(_ a: Reference?, _ b: Reference?) -> Bool {
      a?.toOpaque() == b?.toOpaque()
    }
    let mine = Reference.passUnretained(self)
    let theirs = Reference.passUnretained(other)
    let myParent = parent(mine)
    let theirParent = parent(theirs)
    // Siblings, a parent and its child, or one view: most constraints.
    if same(theirs, mine) || same(theirParent, mine) { return mine }
    if let myParent, same(myParent, theirs) || same(myParent, theirParent) { return myParent }
    var depthSelf = 0
    var depthOther = 0
    var a = mine
    var b = theirs
    while let up = parent(a) {
      depthSelf += 1
      a = up
    }
    while let up = parent(b) {
      depthOther += 1
      b = up
    }
    guard same(a, b) else { return nil }
    a = mine
    b = theirs
    while depthSelf > depthOther {
      a = parent(a)!
      depthSelf -= 1
    }
    while depthOther > depthSelf {
      b = parent(b)!
      depthOther -= 1
    }
    while !same(a, b) {
      a = parent(a)!
      b = parent(b)!
    }
    return a
  }

  /// Adds `view` as the frontmost subview, moving it (and its active constraints) from any
  /// other tree.
  public func addSubview(_ view: View) {
    insertSubview(view, at: subviews.count)
  }

  /// Inserts `view` among the subviews at `index`.
  public func insertSubview(_ view: View, at index: Int) {
    precondition(!isDescendant(of: view), "a view cannot be added to its own subtree")
    if view.superviewLink != nil {
      view.removeFromSuperview()
    } else if view.engineStorage == nil, view.engineBlock >= 0 || !view.storedSubviews.isEmpty {
      // A root without an engine holds no row anywhere: what its subtree kept is from an
      // engine that went with an old root. (A leaf that never had variables has nothing.)
      view.forgetGoneEngine()
    }
    let detachedEngine = view.engineStorage
    if detachedEngine != nil { view.uninstallSubtree(from: detachedEngine!) }
    view.engineStorage = nil
    // Appended where it goes last (`addSubview`): an insertion retained and released the view
    // around the one retain the list keeps.
    changeSubviews { index == $0.count ? $0.append(view) : $0.insert(view, at: index) }
    view.setSuperviewLink(linkForSubviews())
    view.forgetEffectiveDirections()
    if detachedEngine != nil || view.hasUninstalledConstraints {
      view.hasUninstalledConstraints = false
      let root = rootView
      if let engine = root.engineStorage {
        root.installUninstalled(in: view, engine: engine)
      } else {
        root.hasUninstalledConstraints = true
      }
    }
    view.visitSubtree { $0.markSystemConstraintsDirty() }
    setNeedsLayout()
  }

  /// Takes the view out of its superview. Every active constraint between the view's subtree
  /// and the rest of the tree is deactivated, as UIKit does; constraints inside the subtree stay
  /// active and move with it.
  public func removeFromSuperview() {
    guard let parent = superview else { return }
    let engine = rootView.engineStorage
    engine?.beginBatch()
    LayoutConstraint.deactivate(constraintsCrossingItsCut())
    // An arranged view leaves its stack too, whose rows on it go now, as crossing constraints.
    let leftStack = arrangingStackView.flatMap { $0 === parent ? $0 : nil }
    leftStack?.arrangedSubviewDidLeave(self)
    if let engine { uninstallSubtree(from: engine) }
    engine?.endBatch()
    hasUninstalledConstraints = true
    autoresizingConstraints.removeAll()
    // One element leaves: find it and close the gap, rather than filtering every sibling (a
    // teardown that removes n siblings would visit n² of them). Searched from the end, where
    // the latest views are: removing views newest first (a teardown) then finds each at once
    // and moves nothing.
    if let index = parent.subviews.lastIndex(where: { $0 === self }) {
      parent.changeSubviews { _ = $0.remove(at: index) }
    }
    setSuperviewLink(nil)
    // The last subview gone, no view shares the parent's box: it goes too, so that views that
    // had subviews for a while do not each keep one for good.
    if parent.storedSubviews.isEmpty { parent.dropSubviewLink() }
    // No dirty list holds the view now (its old superview's skips a view that left): flagged
    // still, it would never be listed again, and its frame would keep its values for good.
    isFrameDirty = false
    forgetEffectiveDirections()
    parent.setNeedsLayout()
  }

  /// The active constraints between the view's subtree and the rest of its tree (or an item
  /// that went), each once: those that leave with the view.
  ///
  /// The walk lists a constraint once for each of its items in the subtree, and one that
  /// crosses has only one there: none is listed twice, and no set of those seen is kept (its
  /// hashing cost a teardown a tenth of its instructions).
  ///
  /// - Complexity: O(active constraints in the subtree × depth).
  func constraintsCrossingItsCut() -> [LayoutConstraint] {
    var crossing: [LayoutConstraint] = []
    appendConstraintsCrossingItsCut(to: &crossing)
    return crossing
  }

  /// Appends ``constraintsCrossingItsCut()`` to `crossing`.
  ///
  /// - Complexity: O(active constraints in the subtree × depth).
  func appendConstraintsCrossingItsCut(to crossing: inout [LayoutConstraint]) {
    let start = crossing.count
    forEachActiveConstraintInSubtree { _, constraint in
      if !constraint.isInside(self) { crossing.append(constraint) }
    }
    assert(
      Set(crossing[start...].map(ObjectIdentifier.init)).count == crossing.count - start,
      "a constraint across the cut was listed twice")
  }

  /// Takes every constraint of the subtree out of `engine`, leaving them active but uninstalled
  /// (system constraints are dropped and remade on the next update pass).
  func uninstallSubtree(from engine: LayoutEngine) {
    // A view's guides' pins first, in the order ``installUninstalled(in:engine:)`` adds them.
    visitSubtree { view in
      view.dropGuidePins(from: engine)
      view.forEachOwnActiveConstraint { _, constraint in
        if engine.lists(constraint) { engine.uninstall(constraint) }
      }
      view.uninstallOwnedRows(from: engine)
    }
    visitSubtree { view in
      view.dropSystemConstraints(from: engine)
    }
  }

  /// Installs every active, uninstalled constraint of `subtree` into `engine`. None has an item
  /// that went: a view that outlives its superview leaves its constraints across the cut
  /// inactive (see `deinit`).
  func installUninstalled(in subtree: View, engine: LayoutEngine) {
    engine.beginBatch()
    // A view's guides' pins before its constraints, as they were made before any constraint
    // on the guides could be.
    subtree.visitSubtree { view in
      view.installGuidePins(in: engine)
      view.forEachOwnActiveConstraint { _, constraint in
        assert(!constraint.hasGoneItem, "an active constraint kept an item that went")
        if !constraint.isInstalled { engine.install(constraint) }
      }
      view.installOwnedRows(in: engine)
    }
    engine.endBatch()
  }

  /// Takes the rows of the view's own tables (a stack view's arrangement) out of `engine`,
  /// keeping the tables for ``installOwnedRows(in:)``. A plain view has none.
  func uninstallOwnedRows(from engine: LayoutEngine) {}

  /// Installs the rows of the view's own tables (see ``uninstallOwnedRows(from:)``) in
  /// `engine`.
  func installOwnedRows(in engine: LayoutEngine) {}

  /// Forgets the solver ids of the rows of the view's own tables, which an engine gone with an
  /// old root held (see ``forgetGoneEngine()``): the rows are installed again as uninstalled
  /// ones, or by the next update pass.
  func forgetOwnedRows() {}

  /// Forgets, across the subtree, the variables and content-size rows that an engine gave its
  /// items before it went with the subtree's old root (the old root let go of the subtree
  /// without taking them out), so that they are not taken for another engine's. Only for a
  /// root without an engine, which holds none that are live.
  ///
  /// - Complexity: O(items in the subtree).
  func forgetGoneEngine() {
    forgetEngineVariables()
    contentSizeRows = ContentSizeRows()
    for which in PinnedGuide.allCases { setPinRows(GuidePinRows(), which) }
    forgetOwnedRows()
    for guide in layoutGuides { guide.forgetEngineVariables() }
    for subview in storedSubviews { subview.forgetGoneEngine() }
  }

  /// The engine of this tree, made on first use (the view must be a root).
  func ensureEngine() -> LayoutEngine {
    if let engine = engineStorage { return engine }
    let engine = LayoutEngine(solverKind: preferredSolver)
    forgetGoneEngine()
    engineStorage = engine
    if hasUninstalledConstraints {
      hasUninstalledConstraints = false
      installUninstalled(in: self, engine: engine)
    }
    return engine
  }

  /// The engine of the tree this view is in, if one has been made.
  public var layoutEngine: LayoutEngine? { rootView.engineStorage }

  /// The solver a root view's engine uses (``SolverStrategy/default`` unless set). Changing it
  /// on a root with an engine moves every constraint to a new engine of that kind.
  public var preferredSolver: SolverStrategy {
    get { rareProperties?.preferredSolver ?? .default }
    set {
      let oldValue = preferredSolver
      rare.preferredSolver = newValue
      guard newValue != oldValue, superview == nil, engineStorage != nil else { return }
      moveConstraints(to: LayoutEngine(solverKind: newValue))
    }
  }

  /// Moves every constraint of this root's tree into a new engine that drives `solver`, which
  /// must be empty: for solvers other than the two built in, and for tests that inject a solver
  /// double (`bench stress` proves it catches a corrupted one this way). ``preferredSolver`` is
  /// unchanged and names the engine's kind.
  public func replaceSolver(with solver: any LayoutSolver) {
    precondition(superview == nil, "only a root view has an engine")
    precondition(solver.statistics.constraints == 0, "the new solver must be empty")
    moveConstraints(to: LayoutEngine(solverKind: preferredSolver, solver: solver))
  }

  /// Takes every constraint out of this root's engine (if any) and installs them in `engine`.
  private func moveConstraints(to engine: LayoutEngine) {
    if let old = engineStorage { uninstallSubtree(from: old) }
    engineStorage = nil
    hasUninstalledConstraints = true
    visitSubtree { $0.markSystemConstraintsDirty() }
    engineStorage = engine
    hasUninstalledConstraints = false
    installUninstalled(in: self, engine: engine)
    setNeedsLayout()
  }

  /// Calls `body` with every item of the subtree (views and their guides) and each active
  /// constraint on it; a constraint between two items of the subtree comes twice. `body` may
  /// deactivate or uninstall the constraint it is given.
  func forEachActiveConstraintInSubtree(_ body: (LayoutItem, LayoutConstraint) -> Void) {
    visitSubtree { $0.forEachOwnActiveConstraint(body) }
  }

  /// ``forEachActiveConstraintInSubtree(_:)`` for this view and its guides only.
  func forEachOwnActiveConstraint(_ body: (LayoutItem, LayoutConstraint) -> Void) {
    forEachActiveConstraint { body(self, $0) }
    for guide in layoutGuides {
      guide.forEachActiveConstraint { body(guide, $0) }
    }
  }

  /// Calls `body` on this view and every descendant, parents first.
  public func visitSubtree(_ body: (View) -> Void) {
    body(self)
    forEachSubviewUnretained { $0.visitSubtree(body) }
  }

  // MARK: Layout guides

  /// Adds `guide` to the views this view owns; it may then take part in constraints.
  public func addLayoutGuide(_ guide: LayoutGuide) {
    precondition(guide.owner == nil, "the guide already has an owning view")
    guide.owner = self
    layoutGuides.append(guide)
  }

  /// Removes `guide` and deactivates every constraint that refers to it. The margins or
  /// safe-area guide goes with its pins, and the next use makes a new one.
  public func removeLayoutGuide(_ guide: LayoutGuide) {
    guard guide.owner === self else { return }
    (self as? StackView)?.dropRows(referringTo: guide)
    for which in PinnedGuide.allCases where pinnedGuide(which) === guide { unpinGuide(which) }
    LayoutConstraint.deactivate(guide.activeConstraints)
    if let index = layoutGuides.lastIndex(where: { $0 === guide }) {  // newest first: see above
      layoutGuides.remove(at: index)
    }
    guide.owner = nil
  }

  /// The active constraints this view holds: those whose closest common ancestor is this view,
  /// and its own content-size constraints (made for the asking: see
  /// ``constraintsAffectingLayout(for:)``).
  ///
  /// - Complexity: O(active constraints in the subtree × depth).
  public var constraints: [LayoutConstraint] {
    var result: [LayoutConstraint] = []
    forEachActiveConstraintInSubtree { item, constraint in
      if constraint.firstItem === item, (try? constraint.commonAncestor()) === self {
        result.append(constraint)
      }
    }
    result += guidePinConstraints()
    // A stack's rows between its items, and a single-item row on an arranged view.
    for stack in [self as? StackView, arrangingStackView].compactMap({ $0 }) {
      for row in stack.arrangementRows where (try? row.commonAncestor()) === self {
        result.append(row.describedConstraint())
      }
    }
    for axis in LayoutAttribute.Axis.allCases {
      if let contentSize = contentSizeConstraint(axis) { result.append(contentSize) }
    }
    return result
  }
}

extension LayoutConstraint {
  /// Whether every item of the constraint is inside `subtree`.
  func isInside(_ subtree: View) -> Bool {
    guard !hasGoneItem, let first = firstItem?.hostView, first.isDescendant(of: subtree) else {
      return false
    }
    guard let second = secondItem else { return true }
    return second.hostView?.isDescendant(of: subtree) ?? false
  }
}

/// How a view's frame follows its superview's bounds, as UIKit's `UIView.AutoresizingMask`.
public struct AutoresizingMask: OptionSet, Hashable, Sendable {
  public var rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }

  public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1)
  public static let flexibleWidth = AutoresizingMask(rawValue: 2)
  public static let flexibleRightMargin = AutoresizingMask(rawValue: 4)
  public static let flexibleTopMargin = AutoresizingMask(rawValue: 8)
  public static let flexibleHeight = AutoresizingMask(rawValue: 16)
  public static let flexibleBottomMargin = AutoresizingMask(rawValue: 32)
}

extension View {
  /// The first baseline of the view's text (its top when it has none).
  public var firstBaselineAnchor: YAxisAnchor { YAxisAnchor(itemID, .firstBaseline) }
  /// The last baseline of the view's text (its bottom when it has none).
  public var lastBaselineAnchor: YAxisAnchor { YAxisAnchor(itemID, .lastBaseline) }
}

/// A view as its subviews point to it: one box a superview shares with all its subviews, so that
/// a subview's link is a strong reference that is swapped, and the view in it a constant (see
/// ``View/superviewLink``). Unowned: a superview that goes clears its subviews' links first.
final class SuperviewLink {
  /// Unchecked in release builds, as ``LayoutConstraint/firstItem``'s references: a view links
  /// to the box only while it is a subview, and a superview that goes unlinks its subviews.
  #if DEBUG
    unowned(safe) let view: View
  #else
    unowned(unsafe) let view: View
  #endif
  init(_ view: View) { self.view = view }
}

extension View {
  /// Calls `body` with each subview in order, without retaining it. The list is copied first
  /// (one retain of its storage), so `body` may change it without freeing a view under the
  /// walk; a leaf returns before the copy. A walk down a tree of ten thousand views otherwise
  /// retains and releases each one for its call, a third of a layout pass.
  ///
  /// - Complexity: O(subviews) plus `body`'s.
  @inline(__always)
  func forEachSubviewUnretained(_ body: (View) -> Void) {
    guard !storedSubviews.isEmpty else { return }
    let subviews = storedSubviews
    subviews.forEachUnretained(body)
  }

  /// Calls `flag` with each superview, nearest first, without retaining it (the tree holds
  /// them), until `flag` returns true: that view was flagged already, and so are those above.
  ///
  /// - Complexity: O(depth) at most.
  @inline(__always)
  func flagAncestors(_ flag: (View) -> Bool) {
    var ancestor = unretainedSuperview
    while let view = ancestor {
      if view._withUnsafeGuaranteedRef(flag) { break }
      ancestor = view._withUnsafeGuaranteedRef { $0.unretainedSuperview }
    }
  }
}

extension Unmanaged where Instance: LayoutItem {
  /// The same reference as a layout item's.
  var item: Unmanaged<LayoutItem> { .fromOpaque(toOpaque()) }
}

extension Array where Element == View {
  /// Calls `body` with each view in order, without retaining it: the array holds them.
  ///
  /// - Complexity: O(count) plus `body`'s.
  @inline(__always)
  func forEachUnretained(_ body: (View) -> Void) {
    withUnsafeBufferPointer { views in
      views.withMemoryRebound(to: Unmanaged<View>.self) { references in
        for reference in references { reference._withUnsafeGuaranteedRef(body) }
      }
    }
  }
}
