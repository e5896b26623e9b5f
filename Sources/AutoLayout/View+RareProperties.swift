import Cassowary

extension View {
  /// The properties that most views leave at their defaults: alignment-rectangle insets, the
  /// margins guide, the safe area and its guide, the view's own layout guides, traits, size-class
  /// variations and the solver a root asks for.
  ///
  /// A view holds one optional reference to them, made when one of them is first set, instead of
  /// their storage (about 150 bytes): a view that only takes part in constraints holds none of
  /// it. Reading a property that was never set gives its default without making the storage.
  final class RareProperties {
    var alignmentRectInsets = EdgeInsets.zero
    var safeAreaInsets = EdgeInsets.zero
    var layoutGuides: [LayoutGuide] = []
    var marginsGuide: LayoutGuide?
    var marginsPinRows = GuidePinRows()
    var marginsGuideIsArrangementOnly = false
    var safeAreaGuide: LayoutGuide?
    var safeAreaPinRows = GuidePinRows()
    var traitCollection: TraitCollection?
    var sizeClassConstraints:
      [(constraint: LayoutConstraint, installation: SizeClassInstallation)] = []
    var sizeClassSubviews: [(view: View, installation: SizeClassInstallation)] = []
    var preferredSolver: SolverStrategy?

    /// Whether every property reads its default: the box then holds nothing a view needs.
    ///
    /// - Complexity: O(1).
    var isAtDefaults: Bool {
      alignmentRectInsets == .zero && safeAreaInsets == .zero && layoutGuides.isEmpty
        && marginsGuide == nil && marginsPinRows.isEmpty
        && !marginsGuideIsArrangementOnly && safeAreaGuide == nil
        && safeAreaPinRows.isEmpty && traitCollection == nil
        && sizeClassConstraints.isEmpty && sizeClassSubviews.isEmpty && preferredSolver == nil
    }
  }

  /// ``rareProperties``, made on first use.
  ///
  /// - Complexity: O(1).
  var rare: RareProperties {
    if let rareProperties { return rareProperties }
    let made = RareProperties()
    rareProperties = made
    return made
  }

  var storedAlignmentRectInsets: EdgeInsets {
    get { rareProperties?.alignmentRectInsets ?? .zero }
    set { rare.alignmentRectInsets = newValue }
  }

  var storedSafeAreaInsets: EdgeInsets {
    get { rareProperties?.safeAreaInsets ?? .zero }
    set { rare.safeAreaInsets = newValue }
  }

  /// The layout guides this view owns.
  public internal(set) var layoutGuides: [LayoutGuide] {
    get { rareProperties?.layoutGuides ?? [] }
    _modify { yield &rare.layoutGuides }
  }

  /// ``marginsGuide``, not retained: the view holds it.
  ///
  /// - Complexity: O(1).
  var unretainedMarginsGuide: Unmanaged<LayoutGuide>? {
    guard let rare = rareProperties, let guide = rare.marginsGuide else { return nil }
    return .passUnretained(guide)
  }

  var marginsGuide: LayoutGuide? {
    get { rareProperties?.marginsGuide }
    set {
      if newValue == nil && rareProperties == nil { return }
      rare.marginsGuide = newValue
    }
  }

  /// Whether the margins guide was made for a stack view's arrangement and never handed to a
  /// client: the arrangement may then drop it once it stops using it.
  var marginsGuideIsArrangementOnly: Bool {
    get { rareProperties?.marginsGuideIsArrangementOnly ?? false }
    set {
      if !newValue && rareProperties == nil { return }
      rare.marginsGuideIsArrangementOnly = newValue
    }
  }

  var safeAreaGuide: LayoutGuide? {
    get { rareProperties?.safeAreaGuide }
    set {
      if newValue == nil && rareProperties == nil { return }
      rare.safeAreaGuide = newValue
    }
  }

  /// The guide `which` names, if the view has made it.
  ///
  /// - Complexity: O(1).
  func pinnedGuide(_ which: PinnedGuide) -> LayoutGuide? {
    which == .margins ? marginsGuide : safeAreaGuide
  }

  /// The rows that pin the guide `which` names, as the engine last installed them (empty when
  /// it has none).
  ///
  /// - Complexity: O(1).
  func pinRows(_ which: PinnedGuide) -> GuidePinRows {
    guard let rareProperties else { return GuidePinRows() }
    return which == .margins ? rareProperties.marginsPinRows : rareProperties.safeAreaPinRows
  }

  /// Records the rows that pin the guide `which` names.
  ///
  /// - Complexity: O(1).
  func setPinRows(_ rows: GuidePinRows, _ which: PinnedGuide) {
    if rows.isEmpty && rareProperties == nil { return }
    if which == .margins { rare.marginsPinRows = rows } else { rare.safeAreaPinRows = rows }
  }

  /// The insets the guide `which` names sits at inside the bounds.
  ///
  /// - Complexity: O(1).
  func pinInsets(_ which: PinnedGuide) -> EdgeInsets {
    which == .margins ? layoutMargins : safeAreaInsets
  }

  var storedTraitCollection: TraitCollection? {
    get { rareProperties?.traitCollection }
    set {
      if newValue == nil && rareProperties == nil { return }
      rare.traitCollection = newValue
    }
  }

  var sizeClassConstraints: [(constraint: LayoutConstraint, installation: SizeClassInstallation)] {
    get { rareProperties?.sizeClassConstraints ?? [] }
    _modify { yield &rare.sizeClassConstraints }
  }

  var sizeClassSubviews: [(view: View, installation: SizeClassInstallation)] {
    get { rareProperties?.sizeClassSubviews ?? [] }
    _modify { yield &rare.sizeClassSubviews }
  }
}
