/// Size classes: a view's traits, and constraints and subviews installed per size class, as
/// Interface Builder's "Installed" checkboxes make them.
extension View {
  /// The traits this view is in: those set on it, else its superview's (on a root with none set,
  /// Any-Any). Setting them on a root (a rotation, a split-screen resize) installs and
  /// uninstalls the size-class variations of the whole tree in one solver batch.
  public var traitCollection: TraitCollection {
    get { storedTraitCollection ?? superview?.traitCollection ?? .any }
    set {
      let old = traitCollection
      storedTraitCollection = newValue
      if newValue != old { applySizeClassVariations() }
    }
  }

  /// Adds `constraints`, installed (active) only in the size classes `installation` says: the
  /// Interface Builder way to keep two layouts in one tree, as the cookbook's "Two Buttons with
  /// Size Class-Based Layouts" does. This view keeps them and re-applies the rule whenever the
  /// traits change. A constraint whose items are not all in the tree (an uninstalled view) waits
  /// until they are.
  public func addConstraints(
    _ constraints: [LayoutConstraint], installation: SizeClassInstallation
  ) {
    for constraint in constraints { sizeClassConstraints.append((constraint, installation)) }
    applySizeClassVariations()
  }

  /// Deactivates `constraints` and forgets their size-class installation (they were added with
  /// ``addConstraints(_:installation:)`` on this view).
  public func removeSizeClassConstraints(_ constraints: [LayoutConstraint]) {
    LayoutConstraint.deactivate(constraints)
    let removed = Set(constraints.lazy.map(ObjectIdentifier.init))
    sizeClassConstraints.removeAll { removed.contains(ObjectIdentifier($0.constraint)) }
  }

  /// Adds `view` as a subview installed only in the size classes `installation` says; in the
  /// others it is not in the tree, and neither are the constraints that refer to it.
  public func addSubview(_ view: View, installation: SizeClassInstallation) {
    sizeClassSubviews.append((view, installation))
    applySizeClassVariations()
  }

  /// Installs and uninstalls every size-class variation of this subtree for its current traits:
  /// first the constraints that leave, then the views, then the constraints that arrive, all in
  /// one batch so the solver optimizes once.
  func applySizeClassVariations() {
    let engine = rootView.layoutEngine
    engine?.beginBatch()
    defer { engine?.endBatch() }
    var leaving: [LayoutConstraint] = []
    visitSizeClassConstraints(in: traitCollection) { constraints, traits in
      for (constraint, installation) in constraints
      where constraint.active && !installation.isInstalled(for: traits) {
        leaving.append(constraint)
      }
    }
    LayoutConstraint.deactivate(leaving)
    applySubviewVariations()
    var arriving: [LayoutConstraint] = []
    visitSizeClassConstraints(in: traitCollection) { constraints, traits in
      for (constraint, installation) in constraints
      where !constraint.active && installation.isInstalled(for: traits)
        && (try? constraint.commonAncestor()) != nil
      {
        arriving.append(constraint)
      }
    }
    LayoutConstraint.activate(arriving)
  }

  /// Calls `body` with the size-class constraints of each view of this subtree that has any,
  /// and the traits that view is in, this view's being `traits`. The traits are handed down
  /// rather than read from each view, which would walk up to the nearest view that sets them.
  ///
  /// - Complexity: O(views in the subtree), plus `body`'s.
  private func visitSizeClassConstraints(
    in traits: TraitCollection,
    _ body: ([(constraint: LayoutConstraint, installation: SizeClassInstallation)], TraitCollection)
      -> Void
  ) {
    let traits = storedTraitCollection ?? traits
    // Read from the rare properties directly: `sizeClassConstraints` hands a view without
    // them an empty array, which cost a churn 5 % more.
    if let constraints = rareProperties?.sizeClassConstraints, !constraints.isEmpty {
      body(constraints, traits)
    }
    forEachSubviewUnretained { $0.visitSizeClassConstraints(in: traits, body) }
  }

  /// Adds and removes the size-class subviews of this subtree; a view added brings its own
  /// subtree, whose variations are visited in turn.
  private func applySubviewVariations() {
    let traits = traitCollection
    for (view, installation) in sizeClassSubviews {
      let installed = installation.isInstalled(for: traits)
      if installed, view.superview !== self {
        addSubview(view)
      } else if !installed, view.superview === self {
        view.removeFromSuperview()
      }
    }
    for subview in subviews { subview.applySubviewVariations() }
  }
}
