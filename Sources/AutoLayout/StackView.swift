/// A view that lays out a list of views in a row or a column: the model of UIKit's
/// `UIStackView`, the guide's first rule of thumb.
///
/// The stack view makes the constraints UIKit makes, with UIKit's identifiers and priorities
/// (`UISV-canvas-connection`, `UISV-spacing`, `UISV-fill-equally`, `UISV-alignment`,
/// `UISV-hiding`, …), so a dump reads like UIKit's, as rows its engine holds (``ArrangementRow``)
/// rather than constraint objects. It keeps them up to date in the update-constraints pass: a
/// change (hiding a view, a new spacing) replaces only the rows whose terms changed and edits
/// constants in place, so the solver sees as little churn as possible.
open class StackView: View {
  /// How the arranged views share the length of the stack along its axis.
  public enum Distribution: Hashable, Sendable, CaseIterable {
    /// The views keep their spacing; hugging and compression resistance decide who stretches or
    /// shrinks.
    case fill
    /// Every view gets the same length.
    case fillEqually
    /// Lengths in proportion to the views' intrinsic lengths.
    case fillProportionally
    /// The views keep their own lengths; the gaps between them are equal.
    case equalSpacing
    /// The views keep their own lengths; their centers are equally far apart.
    case equalCentering
  }

  /// How the arranged views sit across the stack's axis.
  public enum Alignment: Hashable, Sendable, CaseIterable {
    /// Every view spans the stack's whole width (or height) across the axis.
    case fill
    /// Aligned to the leading edge (a vertical stack) or the top (a horizontal one).
    case leading
    /// Aligned to the first baselines (a horizontal stack; a vertical one aligns leading edges).
    case firstBaseline
    /// Centered across the axis.
    case center
    /// Aligned to the trailing edge (a vertical stack) or the bottom (a horizontal one).
    case trailing
    /// Aligned to the last baselines (a horizontal stack; a vertical one aligns trailing edges).
    case lastBaseline

    /// The top alignment of a horizontal stack: the same as ``leading``.
    public static var top: Alignment { .leading }
    /// The bottom alignment of a horizontal stack: the same as ``trailing``.
    public static var bottom: Alignment { .trailing }
  }

  /// A ``spacing`` (or custom spacing) that asks for the system's standard spacing, 8 points.
  public static let spacingUseSystem = Double.leastNonzeroMagnitude
  /// The custom spacing of a view that has none: the stack's ``spacing`` applies after it.
  public static let spacingUseDefault = Double.greatestFiniteMagnitude

  /// The views the stack lays out, in order. Each is also a subview.
  public var arrangedSubviews: [View] { storedArrangedSubviews }
  /// The value behind ``arrangedSubviews``: internal, so that the compiler sees every access
  /// and checks them statically (the update pass reads it per stack), and changed only where
  /// nothing is released inside the access (a removal swaps the list out; see
  /// ``View/storedSubviews``).
  var storedArrangedSubviews: [View] = []
  /// The constraints the stack keeps (active), in its arrangement's order: made for the
  /// asking, each standing for one of the rows its engine holds (``ArrangementRow``). They read
  /// their constant and whether they are active from the stack as it is now; changing,
  /// activating or deactivating one stops the program (change the arrangement instead).
  ///
  /// - Complexity: O(*n*) for *n* rows; allocates a constraint a row.
  public var arrangementConstraints: [LayoutConstraint] {
    arrangementRows.map { $0.describedConstraint() }
  }
  /// The rows the arrangement wanted at the last update pass, installed in the stack's engine
  /// while it has one (see ``updateArrangementConstraints()``).
  var arrangementRows: [ArrangementRow] = []

  var customSpacings: [ObjectIdentifier: Double] = [:]
  var gapGuides: [LayoutGuide] = []
  var spannerGuide: LayoutGuide?

  // The arrangement's properties are final: a change through an overridable accessor
  // (`stack.spacing += 1` from another module) allocates the accessor's coroutine frame. Each is
  // computed over an internal stored property, which the compiler sees every access of and
  // checks statically; a public stored property of a class is checked at run time on every
  // read (some 80 instructions), and the update pass reads them per arranged view.

  /// The axis the views are laid out along.
  public final var axis: LayoutAttribute.Axis {
    get { storedAxis }
    set { arrangementDidChange(Self.replace(&storedAxis, with: newValue)) }
  }
  /// How the views share the length along the axis.
  public final var distribution: Distribution {
    get { storedDistribution }
    set { arrangementDidChange(Self.replace(&storedDistribution, with: newValue)) }
  }
  /// How the views sit across the axis.
  public final var alignment: Alignment {
    get { storedAlignment }
    set { arrangementDidChange(Self.replace(&storedAlignment, with: newValue)) }
  }
  /// The space between adjacent views (the least space for the equal-spacing distributions).
  public final var spacing: Double {
    get { storedSpacing }
    set { arrangementDidChange(Self.replace(&storedSpacing, with: newValue)) }
  }
  /// Whether the views are laid out inside the stack's layout margins instead of its edges.
  public final var isLayoutMarginsRelativeArrangement: Bool {
    get { storedMarginsRelative }
    set { arrangementDidChange(Self.replace(&storedMarginsRelative, with: newValue)) }
  }
  /// Whether a vertical stack measures its spacing from one view's last baseline to the next
  /// view's first baseline.
  public final var isBaselineRelativeArrangement: Bool {
    get { storedBaselineRelative }
    set { arrangementDidChange(Self.replace(&storedBaselineRelative, with: newValue)) }
  }
  /// Sets `stored` to `value`; returns whether that changed it.
  @inline(__always)
  private static func replace<T: Equatable>(_ stored: inout T, with value: T) -> Bool {
    defer { stored = value }
    return stored != value
  }

  var storedAxis: LayoutAttribute.Axis = .horizontal
  var storedDistribution: Distribution = .fill
  var storedAlignment: Alignment = .fill
  var storedSpacing: Double = 0
  var storedMarginsRelative = false
  var storedBaselineRelative = false

  /// A stack of `views`, horizontal, filling, aligned to fill, no spacing: UIKit's defaults.
  public init(arrangedSubviews views: [View] = []) {
    super.init(frame: .zero)
    for view in views { addArrangedSubview(view) }
  }

  deinit {
    // Arranged views hold their stack view unowned (see `View.arrangingStackView`).
    for view in storedArrangedSubviews { view.arrangingStackView = nil }
    // The stack's own references to its arranged views and guides go before `View.deinit`
    // asks which of its subviews and guides outlive it: they are not a client's.
    changeArrangedSubviews { $0.removeAll() }
    changeGapGuides { $0.removeAll() }
    spannerGuide = nil
  }

  override func compactLists() {
    super.compactLists()
    changeArrangedSubviews { $0.shrinkToAppendedCapacity() }
    changeGapGuides { $0.shrinkToAppendedCapacity() }
  }

  /// Runs `change` on the arranged views swapped out of the stack, so that what it releases (a
  /// view, or the storage an insertion outgrew) is released outside any access to the stored
  /// list.
  ///
  /// - Complexity: O(1) besides `change`.
  private func changeArrangedSubviews(_ change: (inout [View]) -> Void) {
    var views: [View] = []
    swap(&views, &storedArrangedSubviews)
    change(&views)
    swap(&views, &storedArrangedSubviews)
  }

  /// Runs `change` on the gap guides swapped out of the stack, as
  /// ``changeArrangedSubviews(_:)`` does for the arranged views.
  ///
  /// - Complexity: O(1) besides `change`.
  func changeGapGuides(_ change: (inout [LayoutGuide]) -> Void) {
    var guides: [LayoutGuide] = []
    swap(&guides, &gapGuides)
    change(&guides)
    swap(&guides, &gapGuides)
  }

  /// Adds `view` at the end of the arranged views (and as a subview if it is not one).
  public func addArrangedSubview(_ view: View) {
    insertArrangedSubview(view, at: storedArrangedSubviews.count)
  }

  /// Inserts `view` among the arranged views at `index`; a view already arranged moves there.
  /// Like UIKit, the stack turns off the view's `translatesAutoresizingMaskIntoConstraints`.
  public func insertArrangedSubview(_ view: View, at index: Int) {
    precondition(view !== self, "a stack view cannot arrange itself")
    var index = index
    if let existing = storedArrangedSubviews.firstIndex(where: { $0 === view }) {
      changeArrangedSubviews { _ = $0.remove(at: existing) }
      if existing < index { index -= 1 }
    }
    precondition(
      index >= 0 && index <= storedArrangedSubviews.count, "index \(index) out of range")
    if view.superview !== self { addSubview(view) }
    view.translatesAutoresizingMaskIntoConstraints = false
    view.arrangingStackView = self
    changeArrangedSubviews { $0.insert(view, at: index) }
    arrangementDidChange(true)
  }

  /// Stops arranging `view`; it stays a subview, as in UIKit (remove it from its superview to
  /// take it out of the tree).
  public func removeArrangedSubview(_ view: View) {
    guard let index = storedArrangedSubviews.firstIndex(where: { $0 === view }) else { return }
    changeArrangedSubviews { _ = $0.remove(at: index) }
    dropRows(referringTo: view)
    customSpacings[ObjectIdentifier(view)] = nil
    if view.arrangingStackView === self { view.arrangingStackView = nil }
    arrangementDidChange(true)
  }

  /// Sets the space after `view` (``spacingUseDefault`` goes back to ``spacing``).
  public func setCustomSpacing(_ spacing: Double, after view: View) {
    let key = ObjectIdentifier(view)
    let old = customSpacings[key]
    customSpacings[key] = spacing == Self.spacingUseDefault ? nil : spacing
    arrangementDidChange(old != customSpacings[key])
  }

  /// The space after `view`, or ``spacingUseDefault`` when none was set.
  public func customSpacing(after view: View) -> Double {
    customSpacings[ObjectIdentifier(view)] ?? Self.spacingUseDefault
  }

  /// Where the row installed under solver id `id` is in ``arrangementRows``, if it is there. For
  /// a conflict's one row; a walk over every row uses ``LayoutEngine/arrangementRowIndices()``.
  ///
  /// - Complexity: O(rows).
  func arrangementRowIndex(ofSolverID id: Int32) -> Int? {
    arrangementRows.firstIndex { $0.solverID == id }
  }

  override func uninstallOwnedRows(from engine: LayoutEngine) {
    engine.uninstallArrangementRows(of: self)
  }

  override func installOwnedRows(in engine: LayoutEngine) {
    engine.installArrangementRows(of: self)
  }

  override func forgetOwnedRows() {
    for index in arrangementRows.indices {
      arrangementRows[index].solverID = -1
      arrangementRows[index].isBroken = false
    }
  }

  /// Removes and adds again the rows whose terms depend on the reading direction (leading and
  /// trailing), after it changed.
  ///
  /// - Complexity: O(rows), plus a solver removal and add a directional row.
  func relowerDirectionalRows() {
    guard let engine = layoutEngine else { return }
    var rows: [ArrangementRow] = []
    swap(&rows, &arrangementRows)
    engine.beginBatch()
    for index in rows.indices
    where rows[index].solverID >= 0
      && (rows[index].firstAttribute.isDirectional || rows[index].secondAttribute.isDirectional)
    {
      engine.uninstallArrangementRow(&rows[index])
      engine.installArrangementRow(&rows[index], of: self)
    }
    swap(&rows, &arrangementRows)
    engine.endBatch()
  }

  /// Gives the engine the constants of the rows on `view` again, after its baselines moved.
  ///
  /// - Complexity: O(rows), plus a solver constant change a row on `view`.
  func refreshRowConstants(referringTo view: View) {
    guard let engine = layoutEngine else { return }
    var rows: [ArrangementRow] = []
    swap(&rows, &arrangementRows)
    for index in rows.indices where rows[index].solverID >= 0 && rows[index].refers(to: view) {
      engine.counters.constantsChanged += 1
      engine.setArrangementConstant(&rows[index])
    }
    swap(&rows, &arrangementRows)
  }

  /// Brings the arrangement constraints up to date, then lets subclasses add their own.
  open override func updateConstraints() {
    updateArrangementConstraints()
    super.updateConstraints()
  }

  func arrangementDidChange(_ changed: Bool) {
    if changed { setNeedsUpdateConstraints() }
  }

  /// An arranged view was hidden or shown, or its intrinsic size changed.
  func arrangedSubviewDidChange(_ view: View, intrinsicSize: Bool) {
    if !intrinsicSize || storedDistribution == .fillProportionally { setNeedsUpdateConstraints() }
  }

  /// An arranged view left the stack's subviews: it is no longer arranged either.
  func arrangedSubviewDidLeave(_ view: View) {
    removeArrangedSubview(view)
  }
}
