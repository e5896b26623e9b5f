extension Solver {
  // MARK: - Values

  @inline(__always)  // into `SparseSolver.value(of:)`: see `evaluateCaching(_:)`
  public func value(of variable: Variable) -> Double {
    guard Int(variable.id) < variableSymbol.count else { return 0 }
    let symbol = variableSymbol[Int(variable.id)]
    guard symbol >= 0 else { return 0 }
    if keepsDefinitions { return evaluateCaching(symbol) }
    let row = basicRow[Int(symbol)]
    return row >= 0 ? tableau.constant(of: row) : 0
  }

  public mutating func forEachChangedValue(_ body: (Variable, Double) -> Void) {
    prepareToChange()
    flushIfBatching()
    for variable in dirtyVariables {
      isValueDirty[Int(variable)] = false
      let value =
        keepsDefinitions ? evaluate(variable: variable) : self.value(of: Variable(id: variable))
      if value != reportedValue[Int(variable)] {
        reportedValue[Int(variable)] = value
        body(Variable(id: variable), value)
      }
    }
    dirtyVariables.removeAllKeepingCapacity()
  }

  // MARK: - Whole-system operations

  public mutating func solveFromScratch() throws(SolverError) {
    prepareToChange()
    pendingRemovals.removeAll()
    try rebuild()
  }

  /// Replaces the tableau by one built from the current constraints and edit suggestions,
  /// keeping the pivot counts and what the client was last told; unchanged if it throws.
  mutating func rebuild() throws(SolverError) {
    let constraints = records.indices.compactMap { index in
      records[index].map { (ConstraintID(index), $0.constraint) }
    }
    let edits = self.edits.sorted { $0.key < $1.key }.map { (Variable(id: $0.key), $0.value) }
    // Variables past the last one reported non-zero need no entries: no constraint mentions
    // them, so they read 0 as they were last reported, and the tables indexed by variable end
    // with the variables in use.
    var reportedCount = reportedValue.count
    while reportedCount > 0 && reportedValue[reportedCount - 1] == 0 { reportedCount -= 1 }
    let reported = (0..<reportedCount).map { reportedValue[$0] }
    let saved = self
    // Inside a client's batch, the rebuild still solves fully; the client's batch stays open.
    let outerBatchDepth = batchDepth
    var variables = reported.count
    for (_, constraint) in constraints {
      for term in constraint.expression.terms {
        variables = max(variables, Int(term.variable.id) + 1)
      }
    }
    reset()
    // The per-variable tables at their final size in one step: grown variable by variable
    // they would double past it, and their size after the rebuild would depend on how.
    growVariables(to: variables)
    do {
      beginBatch()
      defer { closeBatch() }
      for (id, constraint) in constraints { try add(id, constraint) }
      for (variable, edit) in edits {
        try addEditVariable(variable, priority: edit.priority)
        try suggestValue(variable, edit.value)
      }
    } catch {
      self = saved
      throw error
    }
    batchDepth = outerBatchDepth
    // What re-adding every constraint grew (the journal, scratch lists) is given back: the
    // rebuilt solver holds what a first build of these constraints leaves, however few.
    trimExcess()
    noteBuilt()
    pivotCount += saved.pivotCount
    substitutedRows += saved.substitutedRows
    breakpointsPassed += saved.breakpointsPassed
    degenerateLongSteps += saved.degenerateLongSteps
    refactorizations = saved.refactorizations
    // Keep reporting changes against what the client last saw, including variables that no
    // constraint mentions any more (they now read 0).
    growVariables(to: reported.count)
    for index in reported.indices {
      reportedValue[index] = reported[index]
      if !isValueDirty[index] {
        isValueDirty[index] = true
        dirtyVariables.append(Int32(index))
      }
    }
  }

  public mutating func reset() {
    var empty = tableau
    empty.removeAll()
    self = Solver(tableau: empty)
  }

  // MARK: - Reports

  public var statistics: SolverStatistics {
    var maximumRowCells = 0
    var rows = 0
    for row in rowSubject.indices where rowSubject[row] != RowRole.released {
      rows += 1
      maximumRowCells = max(maximumRowCells, tableau.cellCount(of: Int32(row)))
    }
    return SolverStatistics(
      constraints: constraintCount, variables: liveVariables, symbols: liveSymbols, rows: rows,
      cells: tableau.totalCells, maximumRowCells: maximumRowCells,
      priorityLevels: levelOrder.count, pivots: pivotCount, substitutedRows: substitutedRows,
      breakpointsPassed: breakpointsPassed, degenerateLongSteps: degenerateLongSteps,
      refactorizations: refactorizations,
      tableauBytes: tableau.bytes,
      bookkeepingBytes: bookkeepingBytes)
  }

  private var bookkeepingBytes: Int {
    func size<T>(_ array: [T]) -> Int { array.capacity * MemoryLayout<T>.stride }
    return storage.contents.pointee.bytes
      + edits.capacity * MemoryLayout<(Int32, EditRecord)>.stride
      + size(records) + size(infeasible)
      + size(changedRows) + size(scratchCells) + scratchPool.reduce(0) { $0 + size($1) }
      + journal.bytes + size(scratchBreakpoints) + size(crossedRows) + candidates.count * 4
  }

  /// The tableau written out in a canonical order (rows by subject, cells by symbol), for tests
  /// that check an operation left the solver unchanged and for debugging.
  public var tableauDescription: String {
    var lines: [String] = []
    for row in rowSubject.indices where rowSubject[row] != RowRole.released {
      var cells: [(Int32, Double)] = []
      tableau.forEachCell(of: Int32(row)) { cells.append(($0, $1)) }
      cells.sort { $0.0 < $1.0 }
      let subject = rowSubject[row]
      let name: String
      switch subject {
      case RowRole.objective: name = "objective@\(rowPriority[row])"
      case RowRole.artificial: name = "artificial"
      case RowRole.none: name = "unassigned"
      default: name = symbolName(subject)
      }
      let terms = cells.map { " + \($0.1)*\(symbolName($0.0))" }.joined()
      lines.append("\(name) = \(tableau.constant(of: Int32(row)))\(terms)")
    }
    return lines.sorted().joined(separator: "\n")
  }

  private func symbolName(_ symbol: Int32) -> String {
    let prefix: String
    switch symbolKind[Int(symbol)] {
    case .external: return "v\(symbolVariable[Int(symbol)])"
    case .slack: prefix = "s"
    case .error: prefix = "e"
    case .dummy: prefix = "d"
    case .free: prefix = "free"
    }
    return "\(prefix)\(symbol)"
  }
}
