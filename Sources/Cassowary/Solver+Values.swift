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

  public mutating func solveFromScratch(renumbering newIDs: [Int32]) throws(SolverError) {
    prepareToChange()
    pendingRemovals.removeAll()
    try rebuild(renumbering: newIDs)
  }

  /// Replaces the tableau by one built from the current constraints and edit suggestions,
  /// keeping the pivot counts and what the client was last told; unchanged if it throws. With
  /// `newIDs`, the constraint with id `i` is added back as `newIDs[i]`.
  mutating func rebuild(renumbering newIDs: [Int32]? = nil) throws(SolverError) {
    // The records, laid out as a batch over the term store they name: no constraint's terms
    // are copied. (A plain loop over a copy: a closure or a method call here would copy the
    // whole solver.)
    let held = records
    var batch = ConstraintBatch()
    batch.entries.reserveCapacity(constraintCount)
    batch.terms = termStore.terms
    for index in held.indices {
      guard let record = held[index] else { continue }
      var id = Int32(index)
      if let newIDs {
        precondition(
          index < newIDs.count && newIDs[index] >= 0, "constraint \(index) has no new id")
        id = newIDs[index]
      }
      batch.entries.append(
        ConstraintBatch.Entry(
          id: ConstraintID(id), termStart: record.termStart, termCount: record.termCount,
          constant: record.constant, relation: record.relation, priority: record.priority))
    }
    for (id, label) in labels.sorted(by: { $0.key < $1.key }) {
      batch.labels.append((ConstraintID(newIDs.map { $0[Int(id)] } ?? id), label))
    }
    // Sparse only: the order decides a sparse tableau's fill-in; a dense one costs rows × columns
    // whatever it holds, and in this order it was seen to keep a wider matrix.
    if Tableau.indexesColumns { Self.sortCanonically(&batch) }
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
    var recordCount = 0
    batch.terms.withUnsafeBufferPointer { terms in
      for entry in batch.entries {
        recordCount = max(recordCount, Int(entry.id.rawValue) + 1)
        for term in terms[Int(entry.termStart)..<Int(entry.termStart + entry.termCount)] {
          variables = max(variables, Int(term.variable.id) + 1)
        }
      }
    }
    reset()
    // The per-variable tables at their final size in one step: grown variable by variable
    // they would double past it, and their size after the rebuild would depend on how. So
    // the records, whose size the allocator then rounds up to its next size class.
    growVariables(to: variables)
    records.reserveCapacity(recordCount)
    do {
      beginBatch()
      // A failure puts the whole solver back (below): no add needs to log value caches.
      journal.logsValues = false
      defer {
        journal.logsValues = true
        closeBatch()
      }
      try add(batch)
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
    expandedDefinitions += saved.expandedDefinitions
    breakpointsPassed += saved.breakpointsPassed
    degenerateLongSteps += saved.degenerateLongSteps
    refactorizations = saved.refactorizations
    // Checked early: how close to the threshold a rebuild's own round-off comes depends on how
    // well conditioned its pivots were. The work is counted from here: the pivots added back
    // above were made on the tableau this one replaces.
    driftHeadroom = Self.rebuiltDriftHeadroom
    workSinceDriftCheck = 0
    pivotsAtDriftCheck = pivotCount
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

  /// Puts the constraints of `batch` in an order that depends on what they say, not on their ids
  /// or history: by the newest variable each mentions, then the oldest, then their content. A
  /// rebuild adds them in this order, so the tableau it makes (its subjects, and so its fill-in
  /// and memory) is a function of the constraints alone: after a run of edits is undone, a
  /// rebuild holds what a rebuild before it held. Variables are numbered as the client made
  /// them (a view's before its subviews'), so a constraint tends to come after those that fix
  /// the variables it refers to, and its newest variable becomes its row's subject without a
  /// pivot.
  ///
  /// - Complexity: O(*n* log *n*) comparisons for *n* constraints.
  static func sortCanonically(_ batch: inout ConstraintBatch) {
    var keys: [(newest: Int32, oldest: Int32, index: Int)] = []
    keys.reserveCapacity(batch.count)
    batch.terms.withUnsafeBufferPointer { terms in
      for index in 0..<batch.count {
        var newest: Int32 = -1
        var oldest: Int32 = .max
        for term in batch.constraint(index, in: terms).expression.terms {
          newest = max(newest, term.variable.id)
          oldest = min(oldest, term.variable.id)
        }
        keys.append((newest, oldest, index))
      }
      keys.sort { a, b in
        if a.newest != b.newest { return a.newest < b.newest }
        if a.oldest != b.oldest { return a.oldest < b.oldest }
        let order = compareContent(
          batch.constraint(a.index, in: terms), batch.constraint(b.index, in: terms))
        return order != 0 ? order < 0 : batch.id(at: a.index) < batch.id(at: b.index)
      }
    }
    let entries = batch.entries
    batch.entries = keys.map { entries[$0.index] }
  }

  /// -1, 0 or 1 as `a` comes before, with or after `b` in a total order of what constraints
  /// say (terms as written, constant, relation, priority); equal constraints compare 0.
  private static func compareContent(_ a: BorrowedConstraint, _ b: BorrowedConstraint) -> Int {
    func compare<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x > y ? 1 : 0) }
    func rank(_ relation: Relation) -> Int {
      switch relation {
      case .equal: 0
      case .lessThanOrEqual: 1
      case .greaterThanOrEqual: 2
      }
    }
    let (x, y) = (a.expression, b.expression)
    var order = compare(x.terms.count, y.terms.count)
    for (s, t) in zip(x.terms, y.terms) where order == 0 {
      order = compare(s.variable.id, t.variable.id)
      if order == 0 { order = compare(s.coefficient, t.coefficient) }
    }
    if order == 0 { order = compare(x.constant, y.constant) }
    if order == 0 { order = compare(rank(a.relation), rank(b.relation)) }
    if order == 0 { order = compare(a.priority, b.priority) }
    return order
  }

  public mutating func reset() {
    var empty = tableau
    empty.removeAll()
    let resets = storageResets
    self = Solver(tableau: empty)
    storageResets = resets &+ 1
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
      expandedDefinitions: expandedDefinitions,
      breakpointsPassed: breakpointsPassed, degenerateLongSteps: degenerateLongSteps,
      refactorizations: refactorizations,
      tableauBytes: tableau.bytes,
      bookkeepingBytes: bookkeepingBytes)
  }

  private var bookkeepingBytes: Int {
    func size<T>(_ array: [T]) -> Int { array.capacity * MemoryLayout<T>.stride }
    return storage.contents.pointee.bytes
      + edits.capacity * MemoryLayout<(Int32, EditRecord)>.stride
      + size(records) + termStore.bytes
      + labels.capacity * MemoryLayout<(Int32, String)>.stride + size(infeasible)
      + size(changedRows) + size(scratchCells) + scratchPool.reduce(0) { $0 + size($1) }
      + journal.bytes + size(scratchBreakpoints) + size(crossedRows)
      + size(sizePreferences) + size(plannedSizePreferences) + size(plannedOwners)
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
