extension Solver {
  // MARK: - Edit variables

  public func hasEditVariable(_ variable: Variable) -> Bool { editRecord(variable) != nil }

  public mutating func addEditVariable(
    _ variable: Variable, priority: Priority
  ) throws(SolverError) {
    prepareToChange()
    guard priority.isValid else { throw .invalidPriority(priority) }
    guard !priority.isRequired else { throw .requiredEditVariable(variable) }
    guard !hasEditVariable(variable) else { throw .duplicateEditVariable(variable) }
    flushIfBatching()
    // The edit starts at the variable's current value, so adding it moves nothing.
    let value = self.value(of: variable)
    var term = Term(variable)
    let tag = try withUnsafePointer(to: &term) { term throws(SolverError) in
      let constraint = BorrowedConstraint(
        terms: UnsafeBufferPointer(start: term, count: 1), constant: -value, relation: .equal,
        priority: priority)
      try reserve(for: constraint.expression)
      beginTransaction()
      do throws(SolverError) {
        let tag = try addRow(for: constraint, owner: -1, redefining: false)!.tag
        commit()
        return tag
      } catch {
        rollback()
        throw error
      }
    }
    addObjectiveEffects(of: tag, sign: 1)
    retainLevel(tag.priority)
    variableUses[Int(variable.id)] += 1
    edits[variable.id] = EditRecord(tag: tag, value: value, priority: priority)
    optimizeUnlessBatching()
    refactorIfWorn()
  }

  public mutating func removeEditVariable(_ variable: Variable) throws(SolverError) {
    prepareToChange()
    // Refused before the deferred removals are settled, which a refusal must not show.
    guard editRecord(variable) != nil else { throw .unknownEditVariable(variable) }
    applyRemovals()  // a rebuild renumbers the symbols of the tags read below
    let edit = editRecord(variable)!
    settleDeferredConstants()
    removeTagged(edit.tag)
    edits[variable.id] = nil
    variableUses[Int(variable.id)] -= 1
    if variableUses[Int(variable.id)] == 0 { retire(variable) }
    optimizeUnlessBatching()
    releaseStorageIfEmpty()
    refactorIfWorn()
  }

  public mutating func suggestValue(_ variable: Variable, _ value: Double) throws(SolverError) {
    prepareToChange()
    // Refused before the deferred removals are settled, which a refusal must not show.
    guard editRecord(variable) != nil else { throw .unknownEditVariable(variable) }
    guard value.isFinite else { throw .nonFinite("the value suggested for \(variable)") }
    applyRemovals()  // a rebuild renumbers the symbols of the tags read below
    let edit = editRecord(variable)!
    flushIfBatching()
    // The edit constraint is `variable − value == 0`: its constant moves by −Δvalue.
    shiftMarker(of: edit.tag, constantDelta: edit.value - value)
    edits[variable.id]!.value = value
    if let row = dualOptimize() {
      preconditionFailure("an optional edit left row \(row) infeasible: the tableau is corrupt")
    }
    settleCandidates()
    refactorIfWorn()
  }

  /// After the dual simplex, drains the entering candidates its pivots marked. The dual simplex
  /// keeps the basis optimal, so this normally only checks and clears them (guarding against
  /// rounding); left in place they would pile up over many suggestions.
  mutating func settleCandidates() {
    if !candidates.isEmpty { optimizeUnlessBatching() }
  }

  // MARK: - Constants and priorities in place

  public mutating func setConstant(_ id: ConstraintID, _ constant: Double) throws(SolverError) {
    prepareToChange()
    // Refused before the deferred removals are settled, which a refusal must not show.
    guard record(id) != nil else { throw .unknownConstraint(id) }
    guard constant.isFinite else { throw .nonFinite("the constant \(constant) for \(id)") }
    applyRemovals()  // a rebuild renumbers the symbols of the tags read below
    let record = record(id)!
    let delta = constant - record.constant
    guard delta != 0 else { return }
    if batchDepth > 0 && !record.priority.isRequired {
      // An optional constant cannot make the system unsatisfiable: inside a batch, the dual
      // simplex waits for the batch's other changes (an update pass's new content sizes).
      if needsOptimize { flushIfBatching() }
      shiftMarker(of: record.tag, constantDelta: delta)
      needsDualOptimize = true
      records[Int(id.rawValue)]!.constant = constant
      return
    }
    flushIfBatching()
    if record.priority.isRequired {
      // A required constraint's new constant may contradict the others: undo on failure.
      beginTransaction()
      shiftMarker(of: record.tag, constantDelta: delta)
      if let row = inconsistentRow() ?? dualOptimize() {
        var changed = Self.constraint(of: record, id: id.rawValue, terms: termStore, labels: labels)
        changed.expression.constant = constant
        let conflicts = requiredOwners(of: row)
        rollback()
        throw SolverError.unsatisfiable(id, changed, conflicts: conflicts).named(
          id, changed)
      }
      commit()
    } else {
      shiftMarker(of: record.tag, constantDelta: delta)
      if let row = dualOptimize() {
        preconditionFailure("an optional constraint left row \(row) infeasible")
      }
    }
    records[Int(id.rawValue)]!.constant = constant
    settleCandidates()
    refactorIfWorn()
  }

  public mutating func setPriority(_ id: ConstraintID, _ priority: Priority) throws(SolverError) {
    prepareToChange()
    // Refused before the deferred removals are settled, which a refusal must not show.
    guard record(id) != nil else { throw .unknownConstraint(id) }
    guard priority.isValid else { throw .invalidPriority(priority) }
    applyRemovals()  // a rebuild renumbers the symbols of the tags read below
    let record = record(id)!
    let old = record.priority
    guard priority != old else { return }
    flushIfBatching()
    if !old.isRequired && !priority.isRequired {
      // Optional to optional: move the errors to the other level's objective row.
      addObjectiveEffects(of: record.tag, sign: -1)
      var tag = record.tag
      tag.priority = priority.rawValue
      pair(tag.marker, tag.other, priority: tag.priority)
      addObjectiveEffects(of: tag, sign: 1)
      retainLevel(tag.priority)
      releaseLevel(record.tag.priority)
      records[Int(id.rawValue)]!.tag = tag
    } else {
      // Required ↔ optional: rebuild the row, as iOS 13 and later do; undo on conflict.
      var changed = Self.constraint(of: record, id: id.rawValue, terms: termStore, labels: labels)
      changed.priority = priority
      let tag = try changed.expression.terms.withUnsafeBufferPointer {
        terms throws(SolverError) in
        let borrowed = BorrowedConstraint(changed, terms: terms)
        try reserve(for: borrowed.expression)
        beginTransaction()
        let tag: Tag
        do throws(SolverError) {
          removeRow(record.tag)
          tag = try addRow(for: borrowed, owner: id.rawValue, redefining: false)!.tag
          addObjectiveEffects(of: tag, sign: 1)
        } catch {
          rollback()
          throw error.named(id, changed)
        }
        commit()
        countSizePreference(borrowed, by: 1)
        return tag
      }
      retainLevel(tag.priority)
      releaseLevel(record.tag.priority)
      countSizePreference(of: record, by: -1)
      records[Int(id.rawValue)]!.tag = tag
    }
    optimizeUnlessBatching()
    refactorIfWorn()
  }

  /// Applies a change of `constantDelta` to the constant of the constraint with `tag`, as a
  /// change of variables on its marker: `marker_old = marker_new + Δ/μ`.
  ///
  /// Only the marker's row (or the other symbol's) or the marker's column is touched, so the
  /// cost is independent of the tableau's size. Rows left negative are queued for the dual
  /// simplex.
  mutating func shiftMarker(of tag: Tag, constantDelta: Double) {
    let shift = constantDelta / tag.markerCoefficient
    if basicRow[Int(tag.marker)] >= 0 {
      changeConstant(of: basicRow[Int(tag.marker)], by: -shift)
    } else if tag.other >= 0, basicRow[Int(tag.other)] >= 0 {
      changeConstant(of: basicRow[Int(tag.other)], by: shift)
    } else if !journal.isActive {
      // Every row holding the marker moves by its coefficient there, in one pass; then what
      // moved is noted: values to re-evaluate, rows to make feasible.
      let subjects = rowSubject
      tableau.shiftConstants(ofRowsHolding: tag.marker, by: shift) { subjects[Int($0)] >= 0 }
      var externals = takeScratch()
      Self.noteShiftedRows(
        holding: tag.marker, in: tableau, rowSubject, symbolKind, infeasible: &infeasible,
        externals: &externals)
      for subject in externals { markValueDirty(symbol: subject) }
      returnScratch(externals)
    } else {
      // Each row holding the marker, with the marker's coefficient there (a row in `symbol`),
      // saved for the transaction before it changes.
      var coefficients = scratchCells
      scratchCells = []
      coefficients.removeAllKeepingCapacity()
      tableau.forEachRow(containing: tag.marker) { row, coefficient in
        coefficients.append(Cell(symbol: row, coefficient: coefficient))
      }
      for cell in coefficients where rowSubject[Int(cell.symbol)] >= 0 {
        changeConstant(of: cell.symbol, by: cell.coefficient * shift)
      }
      scratchCells = coefficients
    }
  }

  /// After a shift of the constants of the rows holding `marker`: queues the restricted rows left
  /// negative in `infeasible` and appends the basic external variables among the subjects to
  /// `externals`. Static, with the tables passed in, so that it can read the tableau while
  /// writing the queue.
  private static func noteShiftedRows(
    holding marker: Int32, in tableau: Tableau, _ rowSubject: ManualArray<Int32>,
    _ symbolKind: ManualArray<SymbolKind>, infeasible: inout [Int32], externals: inout [Int32]
  ) {
    tableau.forEachRow(containing: marker) { row, _ in
      let subject = rowSubject[Int(row)]
      if subject >= 0, queueIfInfeasible(row, subject, tableau, symbolKind, &infeasible) {
        externals.append(subject)
      }
    }
  }

  private mutating func changeConstant(of row: Int32, by delta: Double) {
    saveConstant(of: row)
    tableau.setConstant(tableau.constant(of: row) + delta, of: row)
    noteConstantChanged(row: row, subject: rowSubject[Int(row)])
  }

  /// A row of a redundant required equality (a dummy subject) whose constant is no longer
  /// zero after a constant change, if any: its constraints contradict each other.
  private mutating func inconsistentRow() -> Int32? {
    func isInconsistent(_ row: Int32) -> Bool {
      let subject = rowSubject[Int(row)]
      return subject >= 0 && symbolKind[Int(subject)] == .dummy
        && abs(tableau.constant(of: row)) > valueTolerance
    }
    for index in journal.savedConstants.indices
    where isInconsistent(journal.savedConstants[index].row) {
      return journal.savedConstants[index].row
    }
    for index in journal.savedRows.indices where isInconsistent(journal.savedRows[index].row) {
      return journal.savedRows[index].row
    }
    return nil
  }
}
