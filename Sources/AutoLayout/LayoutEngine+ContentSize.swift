import Cassowary

/// The rows the engine makes and owns for a view's intrinsic content size (see
/// ``ContentSizeRows``): installed, changed in place and removed by the update pass, with no
/// ``LayoutConstraint`` object behind them.
extension LayoutEngine {
  /// Installs `view`'s two content-size rows on `axis`, holding `length` at its hugging and
  /// compression resistance priorities (a priority of 1000 becomes the strongest optional one:
  /// a content size never makes a required row); returns their solver ids. Counts as one
  /// constraint added. The view must have variables in this engine.
  ///
  /// - Complexity: that of two solver adds (deferred inside a batch), plus O(log free ids).
  func installContentSize(of view: View, _ axis: LayoutAttribute.Axis, length: Double) -> (
    growth: Int32, shrinkage: Int32
  ) {
    retain(view)
    counters.constraintsAdded += 1
    let owner = RowOwner.contentSize(.passUnretained(view))
    let growth = installed.insert(owner)
    let shrinkage = installed.insert(owner)
    // A refused engine still lists the rows (freed on removal); it no longer gives them to the
    // solver.
    guard !isRefused else { return (growth, shrinkage) }
    let term = contentSizeTerm(of: view, axis)
    if batchDepth > 0 || holdsFirstLayout {
      // The two rows share their one term in the batch.
      tables.pointee.pendingAdds.appendTerm(term)
      tables.pointee.pendingAdds.endConstraint(
        ConstraintID(growth), constant: -length, relation: .lessThanOrEqual,
        priority: optional(view.contentHuggingPriority(for: axis)))
      tables.pointee.pendingAdds.appendOverLastTerms(
        ConstraintID(shrinkage), relation: .greaterThanOrEqual,
        priority: optional(view.contentCompressionResistancePriority(for: axis)))
      tables.pointee.pendingOwners.append(owner)
      tables.pointee.pendingOwners.append(owner)
      return (growth, shrinkage)
    }
    let rows = contentSizeRows(of: view, axis, LinearExpression([term], constant: -length))
    addOrFail(growth, rows.growth)
    addOrFail(shrinkage, rows.shrinkage)
    return (growth, shrinkage)
  }

  /// The term a view's content-size rows on `axis` hold: its width or height.
  func contentSizeTerm(of view: View, _ axis: LayoutAttribute.Axis) -> Term {
    Term(Variable(id: view.engineBlock + (axis == .horizontal ? 2 : 3)), 1)
  }

  /// A view's two content-size rows on `axis`, over `terms` (its ``contentSizeTerm(of:_:)``),
  /// holding the length the view records (``ContentSizeRows/length(_:)``) at its priorities
  /// now.
  func contentSizeRows(
    of view: View, _ axis: LayoutAttribute.Axis, _ terms: LinearExpression
  ) -> (growth: Constraint, shrinkage: Constraint) {
    var expression = terms
    expression.constant = -view.contentSizeRows.length(axis)
    return (
      Constraint(
        expression, .lessThanOrEqual, priority: optional(view.contentHuggingPriority(for: axis))),
      Constraint(
        expression, .greaterThanOrEqual,
        priority: optional(view.contentCompressionResistancePriority(for: axis)))
    )
  }

  /// Removes the content-size rows `rows` of `view`. Counts as one constraint removed.
  ///
  /// - Complexity: that of two solver removals.
  func uninstallContentSize(_ rows: (growth: Int32, shrinkage: Int32), of view: View) {
    removeFromSolver(rows.growth)
    removeFromSolver(rows.shrinkage)
    counters.constraintsRemoved += 1
    release(view)
  }

  /// Makes the content-size rows `rows` hold `length`, in place. Counts as one constant
  /// changed.
  ///
  /// - Complexity: that of two solver constant changes.
  func setContentSizeLength(_ length: Double, of rows: (growth: Int32, shrinkage: Int32)) {
    counters.constantsChanged += 1
    setConstantOrFail(rows.growth, -length)
    setConstantOrFail(rows.shrinkage, -length)
  }

  /// Sets an optional row's constant, which only a refusal can stop.
  private func setConstantOrFail(_ id: Int32, _ constant: Double) {
    guard !hasRefused else { return }
    do throws(SolverError) {
      try solver.setConstant(ConstraintID(id), constant)
    } catch {
      if !refuses(error) { preconditionFailure("an optional constant change failed: \(error)") }
    }
  }

  /// Re-weights `view`'s content-size rows `rows` on `axis` to its hugging and compression
  /// resistance priorities now. Counts as one priority changed.
  ///
  /// - Complexity: that of two solver priority changes.
  func contentPrioritiesDidChange(
    of view: View, _ axis: LayoutAttribute.Axis, rows: (growth: Int32, shrinkage: Int32)
  ) {
    counters.prioritiesChanged += 1
    guard !hasRefused else { return }
    setPriorityOrFail(rows.growth, optional(view.contentHuggingPriority(for: axis)))
    setPriorityOrFail(
      rows.shrinkage, optional(view.contentCompressionResistancePriority(for: axis)))
  }

  /// Whether the row with solver id `id` is one of `view`'s content-size rows in this engine:
  /// false for the ids a view kept from an engine that went with its old root.
  ///
  /// - Complexity: O(1).
  func ownsContentSizeRow(_ id: Int32, of view: View) -> Bool {
    guard case .contentSize(let owner)? = installed[Int(id)] else { return false }
    return owner.toOpaque() == Unmanaged.passUnretained(view).toOpaque()
  }
}
