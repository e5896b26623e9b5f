import Cassowary

/// The rows the engine holds for a stack view's arrangement (``ArrangementRow``), with no
/// ``LayoutConstraint`` object behind them: installed, changed in place and removed as the
/// stack's update pass diffs what its arrangement wants against what it has. A required row
/// that conflicts is broken, logged and held at ``brokenPriority``, as a constraint would be.
extension LayoutEngine {
  /// Installs `row`, one of `stack`'s rows, under a new solver id recorded on the row. Counts as
  /// a constraint added.
  ///
  /// - Complexity: that of a solver add (deferred inside a batch), plus O(log free ids).
  func installArrangementRow(_ row: inout ArrangementRow, of stack: StackView) {
    forEachItem(of: row) { retain($0) }
    counters.constraintsAdded += 1
    let owner = RowOwner.arrangement(.passUnretained(stack))
    let id = installed.insert(owner)
    row.solverID = id
    row.isBroken = false
    // A refused engine still lists the row (freed on removal); it no longer gives it to the
    // solver.
    guard !isRefused else { return }
    if batchDepth > 0 || holdsFirstLayout {
      appendLoweredTerms(row, to: &tables.pointee.pendingAdds)
      tables.pointee.pendingAdds.endConstraint(
        ConstraintID(id), constant: loweredConstant(row), relation: row.relation,
        priority: row.priority)
      tables.pointee.pendingOwners.append(owner)
      return
    }
    let lowered = Constraint(lower(row), row.relation, priority: row.priority)
    add(id, lowered) { breakArrangementRow(&row, conflictingWith: $0) }
  }

  /// Removes `row` (installed here) and forgets its solver id. Counts as a constraint removed.
  ///
  /// - Complexity: that of a solver removal.
  func uninstallArrangementRow(_ row: inout ArrangementRow) {
    removeFromSolver(row.solverID)
    row.solverID = -1
    row.isBroken = false
    counters.constraintsRemoved += 1
    forEachItem(of: row) { release($0) }
  }

  /// Gives the installed `row` the constant and priority of `wanted`, a row with the same terms,
  /// in place, as setting a constraint's would: each change is counted, and a required row that
  /// cannot take it is broken first.
  ///
  /// - Complexity: that of up to two solver changes.
  func updateArrangementRow(_ row: inout ArrangementRow, to wanted: ArrangementRow) {
    if row.constant != wanted.constant {
      row.constant = wanted.constant
      counters.constantsChanged += 1
      setArrangementConstant(&row)
    }
    if row.priority != wanted.priority {
      row.priority = wanted.priority
      counters.prioritiesChanged += 1
      setArrangementPriority(&row)
    }
  }

  /// Gives the solver `row`'s constant as it lowers now (after the constant or an item's
  /// baseline changed); a required row that cannot take it is broken first.
  ///
  /// - Complexity: that of a solver constant change.
  func setArrangementConstant(_ row: inout ArrangementRow) {
    let id = row.solverID
    guard id >= 0, !hasRefused else { return }
    setConstant(loweredConstant(row), ofRow: id) { breakArrangementRow(&row, conflictingWith: $0) }
  }

  /// Gives the solver `row`'s priority: an optional one as it is (a broken row mends), a
  /// required one unless the row is held broken; one that cannot hold is broken.
  private func setArrangementPriority(_ row: inout ArrangementRow) {
    let id = row.solverID
    guard id >= 0, !hasRefused else { return }
    guard row.priority.isRequired else {
      row.isBroken = false
      return setPriorityOrFail(id, row.priority)
    }
    guard !row.isBroken else { return }
    setRequiredPriority(row.priority, ofRow: id) { breakArrangementRow(&row, conflictingWith: $0) }
  }

  /// Breaks `row`, which cannot hold with the required rows `others`: marks it broken and
  /// records and logs the conflict (``recover(breaking:conflictingWith:)``) with a constraint
  /// made to describe it. The caller holds it at ``brokenPriority``.
  func breakArrangementRow(
    _ row: inout ArrangementRow, conflictingWith others: [ConstraintID: Constraint]
  ) {
    row.isBroken = true
    var others = others
    others[ConstraintID(row.solverID)] = nil
    recover(breaking: row.describedConstraint(), conflictingWith: others)
  }

  /// ``breakArrangementRow(_:conflictingWith:)`` for the row of `stack` with solver id `id`, as
  /// the stack holds it (a pending add that failed).
  func breakArrangementRow(
    _ id: Int32, of stack: StackView, conflictingWith others: [ConstraintID: Constraint]
  ) {
    guard let index = stack.arrangementRowIndex(ofSolverID: id) else {
      preconditionFailure("row \(id) is not one of \(stack)'s")
    }
    var row = stack.arrangementRows[index]
    breakArrangementRow(&row, conflictingWith: others)
    stack.arrangementRows[index] = row
  }

  /// Installs every row of `stack` (none installed), in order.
  ///
  /// - Complexity: that of one solver add a row.
  func installArrangementRows(of stack: StackView) {
    var rows: [ArrangementRow] = []
    swap(&rows, &stack.arrangementRows)
    for index in rows.indices { installArrangementRow(&rows[index], of: stack) }
    swap(&rows, &stack.arrangementRows)
  }

  /// Removes every row of `stack` (each installed here), keeping them in its table.
  ///
  /// - Complexity: that of one solver removal a row.
  func uninstallArrangementRows(of stack: StackView) {
    var rows: [ArrangementRow] = []
    swap(&rows, &stack.arrangementRows)
    for index in rows.indices where rows[index].solverID >= 0 {
      uninstallArrangementRow(&rows[index])
    }
    swap(&rows, &stack.arrangementRows)
  }

  /// For each solver id, the index of the stack row installed under it in its stack's table,
  /// or -1; empty when no stack row is installed. Built in one pass, so that the walks over
  /// every installed row find a stack's rows in O(1).
  ///
  /// - Complexity: O(solver ids handed out); allocates the table when a stack row is installed.
  func arrangementRowIndices() -> [Int32] {
    var indices: [Int32] = []
    for (id, entry) in installed.entries.enumerated() {
      guard case .arrangement(let owner)? = entry else { continue }
      if indices.isEmpty { indices = Array(repeating: -1, count: installed.entries.count) }
      // Filled for the whole stack at its first row met: its other rows are skipped.
      guard indices[id] < 0 else { continue }
      owner._withUnsafeGuaranteedRef { stack in
        for (index, row) in stack.arrangementRows.enumerated() where row.solverID >= 0 {
          indices[Int(row.solverID)] = Int32(index)
        }
      }
    }
    return indices
  }
}

extension ArrangementRow {
  /// A constraint that stands for the row (`UISV-…`), made for the asking: it reads its
  /// constant and whether it is active from its stack as they are now, and whether the engine
  /// broke it as of when it was made.
  ///
  /// - Complexity: O(1); allocates the constraint.
  func describedConstraint() -> LayoutConstraint {
    let constraint = LayoutConstraint(
      kind: .arrangement, first.takeUnretainedValue(), firstAttribute, relation, secondItem,
      secondAttribute, multiplier: multiplier, constant: constant, priority: priority,
      identifier: identifier.name)
    constraint.isHeldBroken = isBroken
    return constraint
  }
}
