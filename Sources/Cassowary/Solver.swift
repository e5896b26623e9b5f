import HeapModule

/// An incremental Cassowary solver with Auto Layout's lexicographic priorities, generic over where
/// it keeps its tableau.
///
/// Use ``SparseSolver`` (the optimized solver) or ``DenseSolver`` (the baseline). Both run the same
/// simplex with the same deterministic choices (Bland's rule: the lowest symbol id among equals)
/// and reach the same optimum (the same values wherever it is unique). The sparse storage keeps
/// definitions as written, which lets a new row take a definition over where the dense one runs
/// phase one, so their pivots can differ.
///
/// Objective: every distinct optional priority is a level with its own objective row. A symbol's
/// reduced cost is the vector of its coefficients in those rows, compared from the highest
/// priority down, so an error at a higher priority always outweighs any error at lower ones.
public struct Solver<Tableau: TableauStorage>: LayoutSolver {
  var tableau: Tableau

  /// The per-symbol, per-row and per-variable tables (see ``SolverTables``).
  var storage = ManualStorage(SolverTables())
  var liveSymbols = 0

  /// The edit variables, by variable id: a handful, so not a table over every variable.
  var edits: [Int32: EditRecord] = [:]
  var liveVariables = 0

  // Constraints, indexed by constraint id.
  var records: [ConstraintRecord?] = []
  /// The terms of every record (and of the removals a batch deferred).
  var termStore = TermStore()
  /// The labels of the constraints that have one, by constraint id: a layout's have none.
  var labels: [Int32: String] = [:]
  var constraintCount = 0
  /// The constraint added last, or -1: a new optional row over the same terms (the other half
  /// of a content-size pair) is written through its markers (see ``sibling(of:owner:)``).
  var lastAdded: Int32 = -1

  // The objective: one row per optional priority level.
  /// The objective's levels, highest priority first: each one's row and how many constraints
  /// (and edit variables) use it.
  var levelOrder: [Level] = []
  var infeasible: [Int32] = []

  var batchDepth = 0
  var needsOptimize = false
  /// Optional constant changes inside a batch left rows infeasible for the dual simplex, which
  /// runs once, before anything else needs a feasible tableau (see ``settleDeferredConstants()``).
  var needsDualOptimize = false
  /// Constraints removed inside the current batch whose rows are still in the tableau: a run of
  /// removals is applied as one step before the next other operation (see `applyRemovals`).
  var pendingRemovals: [ConstraintRecord] = []
  var pivotCount = 0
  /// Rows rewritten by substituting a new basic symbol (see ``SolverStatistics/substitutedRows``).
  var substitutedRows = 0
  /// Definitions substituted into rows (see ``SolverStatistics/expandedDefinitions``).
  var expandedDefinitions = 0
  var breakpointsPassed = 0
  /// Long steps that passed breakpoints without moving (see
  /// ``longStepLeavingRow(for:direction:minimizingArtificial:mayStayPut:)``).
  var degenerateLongSteps = 0
  /// The undo log, in manual memory of its own (see ``Journal``).
  var journalStorage = ManualStorage(Journal())
  /// Constraints added or removed since the last outermost batch closed.
  var structuralChanges = 0
  /// Operations since the last drift check, and the pivot count then (see
  /// ``refactorIfWorn()``).
  var workSinceDriftCheck = 0
  var pivotsAtDriftCheck = 0
  /// Binary orders of magnitude between the residual the last drift check measured and
  /// ``refactorizationThreshold``, at most ``fullDriftHeadroom``; ``rebuiltDriftHeadroom`` after
  /// a rebuild, until the first check measures the fresh tableau (see ``driftCheckInterval``).
  var driftHeadroom = Self.fullDriftHeadroom
  /// Set when a primal optimization stopped at its pivot limit: the operation ends with a
  /// rebuild.
  var needsRefactorization = false
  /// Rebuilds that drift, a stalled optimization or fill-in caused.
  var refactorizations = 0
  /// How many times ``reset()`` returned the solver to its empty state, counted across the
  /// resets: each starts the change reports over (nothing is reported for the variables that
  /// then read 0), which a client holding the values it was told must know (the plan solver
  /// reads its inner tableau's reports).
  var storageResets = 0
  /// The tableau's cells and the constraints after the last build (an outermost batch that
  /// added or removed at least half the constraints, or a rebuild): the measure of fill-in
  /// (see ``refactorIfWorn()``).
  var cellsAfterBuild = 0
  var constraintsAfterBuild = 0

  // Scratch buffers, kept to avoid allocating per operation.
  var changedRows: [Int32] = []
  var scratchCells: [Cell] = []
  var scratchPool: [[Int32]] = []
  var markEpoch: UInt32 = 0
  var visitEpoch: UInt32 = 0
  var scratchCosts: [LevelCost] = []
  var scratchBreakpoints: [Breakpoint] = []
  var breakpointHeap = Heap<Breakpoint>()
  var crossedRows: [Int32] = []
  var bestCosts: [LevelCost] = []
  /// How many size preferences (``isSizePreference(_:)``) the solver holds on each variable, by
  /// id, and which ones the batch being built adds (``add(contentsOf:)``): what a required
  /// inequality avoids defining (``lowestParametricExternal(in:avoidingSizePreferences:)``).
  /// Not among the variables' tables (``growVariables(to:)``): a layout without size
  /// preferences allocates none.
  var sizePreferences: [Int32] = []
  var plannedSizePreferences: [Bool] = []
  /// The index in the batch being built of the equality matched to each variable, by id, while
  /// that equality is not added yet (-1 for none), and the batch: the plan's matching
  /// (``add(contentsOf:)``). A required inequality leaves such a variable alone when its
  /// equality could define nothing else (``strands(_:)``).
  var plannedOwners: [Int32] = []
  var plannedBatch = ConstraintBatch()
  /// The batch's terms, for the duration of the build.
  var plannedTerms = UnsafeBufferPointer<Term>(start: nil, count: 0)
  /// The variable a required inequality added with `deferring` would have defined, stranding
  /// its equality (-1 for none): the inequality then waits for that equality.
  var reservedSubject: Int32 = -1

  /// A solver keeping its tableau in `tableau`.
  public init(tableau: Tableau) {
    self.tableau = tableau
  }

  // MARK: - Constraints

  public func contains(_ id: ConstraintID) -> Bool { tag(of: id) != nil }

  /// The tag of constraint `id`, if it is in the solver.
  @inline(__always)
  func tag(of id: ConstraintID) -> Tag? {
    guard Int(id.rawValue) < records.count else { return nil }
    return records.withUnsafeBufferPointer { $0[Int(id.rawValue)]?.tag }
  }

  public func constraint(_ id: ConstraintID) -> Constraint? {
    guard let record = record(id) else { return nil }
    return Self.constraint(of: record, id: id.rawValue, terms: termStore, labels: labels)
  }

  /// The constraint that `record`, the record of constraint `id`, holds. Static: called from a
  /// mutating method, a method call copies the whole solver.
  static func constraint(
    of record: ConstraintRecord, id: Int32, terms: TermStore, labels: [Int32: String]
  ) -> Constraint {
    Constraint(
      LinearExpression(
        terms.array(start: record.termStart, count: record.termCount),
        constant: record.constant),
      record.relation, priority: record.priority,
      label: labels.isEmpty ? nil : labels[id])
  }

  /// The record of constraint `id`, if it is in the solver.
  func record(_ id: ConstraintID) -> ConstraintRecord? {
    Int(id.rawValue) < records.count ? records[Int(id.rawValue)] : nil
  }

  /// The record of edit variable `variable`, if it is one.
  func editRecord(_ variable: Variable) -> EditRecord? {
    edits[variable.id]
  }

  /// Takes a constraint's row (or an edit's) out of the tableau and releases its level.
  mutating func removeTagged(_ tag: Tag) {
    flushIfBatching()
    removeRow(tag)
    releaseLevel(tag.priority)
  }

  public mutating func add(_ id: ConstraintID, _ constraint: Constraint) throws(SolverError) {
    // The label first, so that an error names the constraint by it; taken back on failure.
    let labeled = constraint.label != nil && !contains(id)
    if labeled { labels[id.rawValue] = constraint.label }
    do throws(SolverError) {
      try constraint.expression.terms.withUnsafeBufferPointer { terms throws(SolverError) in
        _ = try add(id, BorrowedConstraint(constraint, terms: terms), subject: -1)
      }
    } catch {
      if labeled { labels[id.rawValue] = nil }
      throw error
    }
  }

  /// ``add(_:_:)``, making the row the definition of the variable `subject` (an id, or -1 for
  /// the usual choice) where it can be: see ``addRow(for:owner:redefining:subject:acyclic:)``.
  /// With `deferring` (a required inequality of a planned build), a row whose only subject
  /// would strand an equality not added yet (``strands(_:)``) is not added: the solver is left
  /// as it was, and the subject's variable id is returned; else -1.
  @discardableResult
  mutating func add(
    _ id: ConstraintID, _ constraint: BorrowedConstraint, subject hint: Int32,
    acyclic: Bool = false, deferring: Bool = false
  ) throws(SolverError) -> Int32 {
    prepareToChange()
    try validate(constraint, id: id)
    if contains(id) { throw .duplicateConstraint(id, self.constraint(id)!) }
    settleDeferredConstants()
    applyRemovals()
    try reserve(for: constraint.expression)
    beginTransaction()
    let tag: Tag
    let pending: PendingSubject?
    do {
      if let added = try addRow(
        for: constraint, owner: id.rawValue, subject: hint, acyclic: acyclic,
        deferring: deferring)
      {
        (tag, pending) = added
      } else if reservedSubject >= 0 {
        rollback()
        defer { reservedSubject = -1 }
        return reservedSubject
      } else {
        rollback()
        beginTransaction()
        (tag, pending) = try addRow(for: constraint, owner: id.rawValue, redefining: false)!
      }
    } catch {
      rollback()
      throw error.named(id, constraint.owned(label: labels.isEmpty ? nil : labels[id.rawValue]))
    }
    commit()
    if let pending { completeRedefinition(pending) }
    addObjectiveEffects(of: tag, sign: 1)
    recordAdded(id, constraint, tag: tag)
    optimizeUnlessBatching()
    tableau.compactIfWasteful()
    refactorIfWorn()
    return -1
  }

  /// Records constraint `id`, whose rows the tableau now holds under `tag`: its record, the
  /// counts, and the uses of its level and variables.
  @inline(__always)
  mutating func recordAdded(_ id: ConstraintID, _ constraint: BorrowedConstraint, tag: Tag) {
    while records.count <= Int(id.rawValue) { records.append(nil) }
    let terms = constraint.expression.terms
    records[Int(id.rawValue)] = ConstraintRecord(
      constant: constraint.expression.constant, tag: tag, termStart: termStore.store(terms),
      termCount: Int32(terms.count), relation: constraint.relation)
    lastAdded = id.rawValue
    constraintCount += 1
    structuralChanges += 1
    retainLevel(tag.priority)
    retainVariables(of: constraint.expression)
    countSizePreference(constraint, by: 1)
  }

  public mutating func remove(_ id: ConstraintID) throws(SolverError) {
    prepareToChange()
    guard let record = record(id) else { throw .unknownConstraint(id) }
    settleDeferredConstants()
    records[Int(id.rawValue)] = nil
    if !labels.isEmpty { labels[id.rawValue] = nil }
    constraintCount -= 1
    structuralChanges += 1
    if batchDepth > 0 {
      // Inside a batch, a run of removals (a teardown, a size-class switch) is applied at once.
      pendingRemovals.append(record)
      needsOptimize = true
      return
    }
    removeRows(of: record)
    packTermsIfWasteful()
    optimize()
    tableau.compactIfWasteful()
    releaseStorageIfEmpty()
    refactorIfWorn()
  }

  /// Takes a removed constraint's rows and symbols out of the tableau, and its terms out of the
  /// store.
  mutating func removeRows(of record: ConstraintRecord) {
    removeTagged(record.tag)
    releaseVariables(of: record)
    countSizePreference(of: record, by: -1)
    termStore.release(start: record.termStart, count: record.termCount)
  }

  /// Packs the term store once its holes outnumber the terms in use. Only while no removal is
  /// deferred: a deferred removal's terms are still in the store, and no record names them.
  mutating func packTermsIfWasteful() {
    guard termStore.isWasteful, pendingRemovals.isEmpty else { return }
    termStore.pack(records: &records)
  }

  /// Whether `constraint` is a size preference: an optional constraint on one variable, as a
  /// view's content hugging and compression resistance are.
  static func isSizePreference(_ constraint: BorrowedConstraint) -> Bool {
    !constraint.priority.isRequired && constraint.expression.terms.count == 1
  }

  /// Adds `delta` to the count of size preferences on `constraint`'s variable, if it is one.
  mutating func countSizePreference(_ constraint: BorrowedConstraint, by delta: Int32) {
    guard Self.isSizePreference(constraint) else { return }
    countSizePreference(on: constraint.expression.terms[0].variable.id, by: delta)
  }

  /// ``countSizePreference(_:by:)`` for a constraint the solver holds.
  mutating func countSizePreference(of record: ConstraintRecord, by delta: Int32) {
    guard !record.priority.isRequired && record.termCount == 1 else { return }
    countSizePreference(on: termStore[record.termStart].variable.id, by: delta)
  }

  /// Adds `delta` to the count of size preferences on the variable with id `variable`.
  private mutating func countSizePreference(on variable: Int32, by delta: Int32) {
    let variable = Int(variable)
    if sizePreferences.count <= variable {
      // To the variables' tables' size at once (a planned build grows them first), not
      // variable by variable.
      let missing = max(variable + 1, variableSymbol.count) - sizePreferences.count
      sizePreferences.append(contentsOf: repeatElement(0, count: missing))
    }
    sizePreferences[variable] += delta
  }

  /// Whether a size preference the solver holds, or one the batch being built adds, mentions
  /// the variable with id `variable`.
  @inline(__always)
  func hasSizePreference(_ variable: Int32) -> Bool {
    let index = Int(variable)
    return (index < sizePreferences.count && sizePreferences[index] > 0)
      || (index < plannedSizePreferences.count && plannedSizePreferences[index])
  }

  /// Whether the batch being built matched the variable with id `variable` to an equality not
  /// added yet that could define no other variable: every other variable of it is defined, or
  /// matched to another equality not added yet. Defined by a required inequality, the variable
  /// would leave that equality to take another equality's variable, and so on along the
  /// chain, until one defines nothing and needs phase one. An equality on one variable (a
  /// root's position, fixed last) is left out: whichever row defines the variable, the
  /// equality then fixes it (checked for every inequality, keeping the root's top for
  /// `root.top == 0` cost dynamic-form's first layout 12 % more).
  ///
  /// - Complexity: O(terms of the equality).
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func strands(_ variable: Int32) -> Bool {
    let index = Int(variable)
    guard index < plannedOwners.count, plannedOwners[index] >= 0 else { return false }
    let terms = plannedBatch.constraint(Int(plannedOwners[index]), in: plannedTerms).expression
      .terms
    guard terms.count > 1 else { return false }
    for term in terms where term.variable.id != variable {
      let other = Int(term.variable.id)
      let symbol = variableSymbol[other]
      let isDefined = symbol >= 0 && basicRow[Int(symbol)] >= 0
      if !isDefined && plannedOwners[other] < 0 { return false }
    }
    return true
  }

  /// Applies the removals a batch deferred, before any other operation or at the batch's end.
  ///
  /// Removing a constraint pivots its marker out of every row that holds it; removing the
  /// constraints at the head of a chain one by one costs the chain's length each time. When a
  /// run removes at least as many constraints as remain, rebuilding the tableau from what
  /// remains costs no more than building it did, so the run does that instead (a teardown is
  /// then linear); a shorter run is removed constraint by constraint. So is a run over a small
  /// tableau among many variable ids (a plan solver's): a rebuild makes the tables indexed by
  /// variable anew, as long as the largest id, which costs more than a few removals.
  mutating func applyRemovals() {
    guard !pendingRemovals.isEmpty else { return }
    if pendingRemovals.count >= constraintCount
      && pendingRemovals.count + constraintCount
        >= variableSymbol.count / Self.variablesPerConstraintForRebuild
    {
      pendingRemovals.removeAll()
      do throws(SolverError) {
        try rebuild()
      } catch {
        fatalError("a subset of a satisfiable system became unsatisfiable: \(error)")
      }
      return
    }
    // Taken out while they are removed (a removal flushes, which comes back here), and put back
    // empty so that the list keeps its capacity.
    var removals: [ConstraintRecord] = []
    swap(&removals, &pendingRemovals)
    for record in removals { removeRows(of: record) }
    removals.removeAllKeepingCapacity()
    pendingRemovals = removals
    packTermsIfWasteful()
    needsOptimize = true
    tableau.compactIfWasteful()
  }

  /// Removals that leave fewer constraints than they remove are applied by a rebuild when
  /// there are at least one for this many variable ids (see ``applyRemovals()``).
  static var variablesPerConstraintForRebuild: Int { 16 }

  /// Once the last constraint and edit variable are gone, returns every table to its initial,
  /// empty state, so memory comes back to where it started (kiwi never shrinks:
  /// nucleic/kiwi#10, #154). Variables then read 0, and no change is reported for them.
  mutating func releaseStorageIfEmpty() {
    guard constraintCount == 0, liveSymbols == 0, batchDepth == 0 else { return }
    reset()
  }

  /// Throws when constraint `id` could not be added whatever the solver holds: an invalid
  /// priority, or a coefficient or constant that is not finite.
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func validate(_ constraint: BorrowedConstraint, id: ConstraintID) throws(SolverError) {
    guard constraint.priority.isValid else { throw .invalidPriority(constraint.priority) }
    guard constraint.expression.isFinite else {
      throw Self.nonFinite(constraint, label: labels.isEmpty ? nil : labels[id.rawValue])
    }
  }

  /// The error for a constraint with a coefficient or constant that is not finite.
  @inline(never)  // the refusal's message, kept out of the callers of `validate`
  static func nonFinite(_ constraint: BorrowedConstraint, label: String?) -> SolverError {
    .nonFinite("a coefficient or constant of \(constraint.owned(label: label))")
  }

  /// Makes room for a constraint over `expression`: a row, a level row and an artificial row,
  /// and a symbol per term plus four helpers.
  mutating func reserve(for expression: BorrowedExpression) throws(SolverError) {
    var maximumVariable: Int32 = -1
    for term in expression.terms { maximumVariable = max(maximumVariable, term.variable.id) }
    let symbols = liveSymbols + freeSymbols.count + expression.terms.count + 4
    try tableau.reserve(rows: rowSubject.count + 3, symbols: symbols)
    self.growVariables(to: Int(maximumVariable) + 1)
  }

  // MARK: - Batches

  public mutating func beginBatch() {
    prepareToChange()
    batchDepth += 1
  }

  public mutating func endBatch() {
    closeBatch()
    refactorIfWorn()
  }

  /// ``endBatch()`` without the drift check, for the rebuild that refactorization runs.
  mutating func closeBatch() {
    prepareToChange()
    precondition(batchDepth > 0, "endBatch() without beginBatch()")
    batchDepth -= 1
    guard batchDepth == 0 else { return }
    flushIfBatching()
    if structuralChanges >= max(1024, constraintCount / 2) {
      trimExcess()
      noteBuilt()
    }
    structuralChanges = 0
  }

  /// Gives back the space that growth left unused in the tableau and the solver's tables, once
  /// the client's outermost batch has added or removed as many constraints as half of those that
  /// remain (a layout's build, a large rebuild). Only then: after a batch that changes less (a
  /// layout pass, a size-class switch, churn) the next operations would grow the same buffers
  /// again, allocating in what should be a steady state.
  mutating func trimExcess() {
    tableau.trimExcess()
    storage.contents.pointee.trimExcessCapacity()
    records.trimExcessCapacity()
    termStore.trimExcessCapacity()
    journal.trimExcess()
    // Scratch buffers are empty between operations; a large build leaves them large.
    changedRows.trimExcessCapacity()
    infeasible.trimExcessCapacity()
    crossedRows.trimExcessCapacity()
    scratchBreakpoints.trimExcessCapacity()
    breakpointHeap = Heap()
  }

  mutating func optimizeUnlessBatching() {
    if batchDepth > 0 { needsOptimize = true } else { optimize() }
  }

  mutating func flushIfBatching() {
    applyRemovals()
    settleDeferredConstants()
    if needsOptimize {
      needsOptimize = false
      optimize()
    }
  }

  /// Runs the dual simplex that optional constant changes inside a batch deferred. One run for
  /// the whole batch swaps the pairs of every row a shared column would cross and re-optimizes
  /// once (see ``dualOptimize()``), where one run per change re-optimizes after each. Every
  /// operation but another such change calls this first, since it needs a feasible tableau;
  /// while it is pending, no removal or primal re-solve is.
  mutating func settleDeferredConstants() {
    guard needsDualOptimize else { return }
    needsDualOptimize = false
    if let row = dualOptimize() {
      preconditionFailure("an optional constant left row \(row) infeasible: the tableau is corrupt")
    }
    settleCandidates()
  }

  // MARK: - Symbols and variables

  mutating func makeSymbol(_ kind: SymbolKind, owner: Int32 = -1) -> Int32 {
    let symbol: Int32
    if let reused = freeSymbols.popLast() {
      symbol = reused
    } else {
      symbol = Int32(symbolKind.count)
      symbolKind.append(.free)
      basicRow.append(RowRole.none)
      symbolPartner.append(-1)
      symbolLevel.append(0)
      symbolVariable.append(-1)
    }
    symbolKind[Int(symbol)] = kind
    symbolVariable[Int(symbol)] = owner >= 0 ? -2 - owner : -1
    liveSymbols += 1
    if journal.isActive { journal.createdSymbols.append(symbol) }
    return symbol
  }

  /// The required constraint whose marker `symbol` is, or -1.
  func owner(of symbol: Int32) -> Int32 {
    let reference = symbolVariable[Int(symbol)]
    return reference <= -2 ? -2 - reference : -1
  }

  /// Retires `symbol`, which must hold no cells; inside a transaction, at its commit.
  mutating func releaseSymbol(_ symbol: Int32) {
    if journal.isActive {
      journal.pendingSymbols.append(symbol)
      return
    }
    let variable = symbolVariable[Int(symbol)]
    if variable >= 0 {
      variableSymbol[Int(variable)] = RowRole.none
      liveVariables -= 1
    }
    symbolVariable[Int(symbol)] = -1
    tableau.releaseSymbol(symbol)
    symbolKind[Int(symbol)] = .free
    symbolPartner[Int(symbol)] = -1
    symbolLevel[Int(symbol)] = 0
    basicRow[Int(symbol)] = RowRole.none
    freeSymbols.append(symbol)
    liveSymbols -= 1
    // A priority level's objective row outlives the last symbol when the last constraint
    // mentioned no variable (`0 == 5` at 250): its rows go with the level (``releaseLevel(_:)``).
    if liveSymbols == 0 && levelOrder.isEmpty { releaseSymbolTables() }
  }

  /// Frees the symbol tables once nothing is left, so memory returns to where it started.
  mutating func releaseSymbolTables() {
    storage.contents.pointee.deallocateSymbolsAndRows()
    tableau.removeAll()
  }

  /// Room for `symbols` symbols and `rows` rows in all, in the solver's tables and the
  /// tableau's, for a build that knows its size (``ManualArray/reserveCapacity(_:)``).
  mutating func reserveTables(symbols: Int, rows: Int) {
    storage.contents.pointee.reserveCapacity(symbols: symbols, rows: rows)
    tableau.reserveCapacity(rows: rows, symbols: symbols)
  }

  mutating func growVariables(to count: Int) {
    guard variableSymbol.count < count else { return }
    variableSymbol.grow(to: count, with: RowRole.none)
    variableUses.grow(to: count, with: 0)
    reportedValue.grow(to: count, with: 0)
    isValueDirty.grow(to: count, with: false)
    cachedValue.grow(to: count, with: 0)
    needsEvaluation.grow(to: count, with: false)
  }

  /// The symbol of `variable`, made when the variable is new.
  mutating func symbol(for variable: Variable) -> Int32 {
    let existing = variableSymbol[Int(variable.id)]
    if existing >= 0 { return existing }
    let symbol = makeSymbol(.external)
    variableSymbol[Int(variable.id)] = symbol
    symbolVariable[Int(symbol)] = variable.id
    liveVariables += 1
    // No definition refers to a new variable yet: nothing downstream to mark.
    markValueDirty(symbol: symbol, downstream: false)
    return symbol
  }

  mutating func retainVariables(of expression: BorrowedExpression) {
    for term in expression.terms { variableUses[Int(term.variable.id)] += 1 }
  }

  /// Releases the variables of `record`'s terms, retiring those no constraint mentions any more.
  mutating func releaseVariables(of record: ConstraintRecord) {
    for offset in 0..<record.termCount {
      let variable = termStore[record.termStart + offset].variable
      variableUses[Int(variable.id)] -= 1
      if variableUses[Int(variable.id)] == 0 { retire(variable) }
    }
  }

  /// Drops the symbol of a variable no constraint mentions any more. Exactly, such a symbol holds
  /// no cells; rounding may leave tiny ones, which are removed.
  mutating func retire(_ variable: Variable) {
    let symbol = variableSymbol[Int(variable.id)]
    guard symbol >= 0, edits[variable.id] == nil else { return }
    markValueDirty(symbol: symbol)
    purge(symbol)
    releaseSymbol(symbol)
  }

  /// Removes every trace of `symbol` from the tableau: its row, if basic, and its cells.
  mutating func purge(_ symbol: Int32) {
    let row = basicRow[Int(symbol)]
    if row >= 0 { dropRow(row) }
    collectRows(containing: symbol)
    for row in changedRows {
      saveCells(of: row, replacing: symbol, by: nil)
      tableau.removeCell(for: symbol, from: row)
    }
  }

  /// Marks the value of `symbol`'s variable, if it has one, as changed; with `downstream`,
  /// the variables whose definitions depend on it too.
  mutating func markValueDirty(symbol: Int32, downstream: Bool = true) {
    let variable = symbolVariable[Int(symbol)]
    guard variable >= 0 else { return }
    if !isValueDirty[Int(variable)] {
      isValueDirty[Int(variable)] = true
      dirtyVariables.append(variable)
    }
    guard keepsDefinitions else { return }
    if basicRow[Int(symbol)] < 0 {
      // A parameter reads 0 and needs no evaluation, so its flag is kept clear. A flag left set
      // on it would be stale: evaluating a definition that refers to it reads it as 0 without
      // clearing it, and when it next became basic, marking it would stop at that flag and
      // leave the definitions evaluated meanwhile with old values.
      logParameterReset(variable)
      needsEvaluation[Int(variable)] = false
      cachedValue[Int(variable)] = 0
      if downstream { propagateChange(from: symbol) }
    } else if !needsEvaluation[Int(variable)] {
      logStaleMark(variable)
      needsEvaluation[Int(variable)] = true
      if downstream { propagateChange(from: symbol) }
    }
  }

  /// Marks every symbol of `row` as a possible entering symbol.
  mutating func markCandidates(inRow row: Int32) {
    collectCells(of: row)
    for index in scratchCells.indices { markCandidate(scratchCells[index].symbol) }
  }

  /// Fills `changedRows` with the rows holding `symbol`.
  mutating func collectRows(containing symbol: Int32) {
    changedRows.removeAllKeepingCapacity()
    var rows = changedRows
    changedRows = []
    tableau.forEachRow(containing: symbol) { row, _ in rows.append(row) }
    changedRows = rows
  }

  /// Fills `scratchCells` with the cells of `row`.
  mutating func collectCells(of row: Int32) {
    var cells = scratchCells
    scratchCells = []
    cells.removeAllKeepingCapacity()
    tableau.forEachCell(of: row) { symbol, coefficient in
      cells.append(Cell(symbol: symbol, coefficient: coefficient))
    }
    scratchCells = cells
  }

  mutating func markCandidate(_ symbol: Int32) {
    storage.contents.pointee.candidates.insert(symbol)
  }

  // MARK: - Rows

  mutating func makeRow(subject: Int32, priority: Float = 0) -> Int32 {
    let row = subject == RowRole.objective ? tableau.makeIndexedRow() : tableau.makeRow()
    while rowSubject.count <= Int(row) {
      rowSubject.append(RowRole.released)
      rowPriority.append(0)
    }
    rowSubject[Int(row)] = subject
    rowPriority[Int(row)] = priority
    if journal.isActive {
      journal.createdRows.append(row)
      _ = journal.claim(row)  // a new row has nothing to restore
    }
    return row
  }

  /// Removes `row` from the tableau; its storage is returned at once, or at the commit of the
  /// current transaction.
  mutating func dropRow(_ row: Int32) {
    save(row)
    let subject = rowSubject[Int(row)]
    if subject >= 0 {
      basicRow[Int(subject)] = RowRole.none
      markValueDirty(symbol: subject)
    }
    tableau.clearRow(row)
    rowSubject[Int(row)] = RowRole.released
    if journal.isActive {
      journal.pendingRows.append(row)
    } else {
      tableau.releaseRow(row)
    }
  }

  /// Rewrites `row` (`0 = constant + Σ cells`) as `subject = constant' + Σ cells'`.
  mutating func solve(_ row: Int32, for subject: Int32) {
    let coefficient = tableau.coefficient(of: subject, in: row)
    tableau.removeCell(for: subject, from: row)
    tableau.scale(row: row, by: -1 / coefficient)
  }

  /// Makes `subject` basic in `row` and substitutes the row wherever the subject appears.
  mutating func install(_ row: Int32, subject: Int32) {
    rowSubject[Int(row)] = subject
    basicRow[Int(subject)] = row
    markValueDirty(symbol: subject)
    if keepsDefinitions && symbolKind[Int(subject)] == .external {
      installKeepingDefinitions(row, subject: subject)
    } else {
      // A slack, error or dummy row stays over non-basic symbols only. A new constraint's row
      // comes here as written, possibly mentioning basic externals; its subject is fresh, so no
      // definition mentions it and expanding cannot make a cycle. (Removal expands the
      // definitions around a marker before pivoting on it: see `expandDefinitions`.)
      if keepsDefinitions && referencesBasicExternals(row) { expandFully(row) }
      substitute(subject, with: row)
    }
  }

  /// Replaces `symbol` by `row`'s expression in every other row, objective rows included.
  mutating func substitute(_ symbol: Int32, with row: Int32) {
    if journal.isActive {
      collectRows(containing: symbol)
      for changed in changedRows { saveCells(of: changed, replacing: symbol, by: row) }
    }
    changedRows.removeAllKeepingCapacity()
    tableau.substitute(symbol, with: row, changed: &changedRows)
    substitutedRows += changedRows.count
    var objectiveChanged = false
    for changed in changedRows {
      let subject = rowSubject[Int(changed)]
      if subject >= 0 {
        noteConstantChanged(row: changed, subject: subject)
      } else if subject == RowRole.objective {
        objectiveChanged = true
      }
    }
    if objectiveChanged { markCandidates(inRow: row) }
  }

  /// Records what follows from a change to the constant of `row`, whose subject is `subject`.
  @inline(__always)
  mutating func noteConstantChanged(row: Int32, subject: Int32) {
    if Self.queueIfInfeasible(row, subject, tableau, symbolKind, &infeasible) {
      markValueDirty(symbol: subject)
    }
  }

  /// Queues `subject` in `infeasible` when it is a slack, error or dummy whose row's constant is
  /// negative; returns whether it is an external variable instead, whose value the caller marks.
  /// Static, with the tables passed in, so that callers can read the tableau while queueing.
  @inline(__always)
  static func queueIfInfeasible(
    _ row: Int32, _ subject: Int32, _ tableau: Tableau, _ symbolKind: ManualArray<SymbolKind>,
    _ infeasible: inout [Int32]
  ) -> Bool {
    switch symbolKind[Int(subject)] {
    case .external:
      return true
    case .slack, .error, .dummy:
      if tableau.constant(of: row) < -valueTolerance { infeasible.append(subject) }
    case .free:
      break
    }
    return false
  }
}

/// What a constraint added to the tableau: its marker symbol and, for an optional constraint or
/// an inequality, the other error or slack symbol.
struct Tag {
  /// The slack of an inequality, the dummy of a required equality, or the positive error.
  var marker: Int32
  /// The error of an optional inequality or the negative error of an optional equality, or -1.
  var other: Int32
  /// The marker's coefficient in the constraint's own equation (`0 = expression + μ·marker …`).
  var markerCoefficient: Double
  /// The priority level of the errors, or 0 for a required constraint.
  var priority: Float

  /// The marker and the other symbol, without allocating.
  var symbols: TwoSymbols { TwoSymbols(first: marker, second: other) }

  /// The other symbol's coefficient in the constraint's equation: an inequality's error moves
  /// against its slack, an optional equality's negative error has coefficient 1.
  func otherCoefficient(for relation: Relation) -> Double {
    relation == .equal ? 1 : -markerCoefficient
  }
}

/// Two symbols to iterate over without an array.
struct TwoSymbols: Sequence, IteratorProtocol {
  var first: Int32
  var second: Int32
  var index = 0

  init(first: Int32, second: Int32) {
    self.first = first
    self.second = second
  }

  mutating func next() -> Int32? {
    index += 1
    return index == 1 ? first : index == 2 ? second : nil
  }
}

/// What the solver keeps of a constraint: its terms' run in the ``TermStore``, its constant, its
/// relation, and the symbols of its rows. 40 bytes in a table of optionals, and no reference to
/// count; the priority is the tag's level, and a label is kept apart (``Solver/labels``).
struct ConstraintRecord {
  var constant: Double
  var tag: Tag
  var termStart: Int32
  var termCount: Int32
  var relation: Relation

  /// The constraint's priority: its tag's level, which is 0 exactly for a required constraint.
  var priority: Priority { tag.priority == 0 ? .required : Priority(tag.priority) }
}

struct EditRecord {
  var tag: Tag
  var value: Double
  var priority: Priority
}

/// A priority level of the objective: its row, and how many constraints and edit variables have
/// errors there (the level goes when none do). Kept with the row rather than in a table keyed by
/// priority, which an add hashed into once per optional constraint.
struct Level {
  var row: Int32
  var uses: Int
}

/// One level of a symbol's reduced-cost vector.
struct LevelCost {
  var priority: Float
  var value: Double
}

extension SolverError {
  /// The error with the failed constraint's id filled in.
  func named(_ id: ConstraintID, _ constraint: Constraint) -> SolverError {
    if case .unsatisfiable(_, _, let conflicts) = self {
      var others = conflicts
      others[id] = nil
      return .unsatisfiable(id, constraint, conflicts: others)
    }
    return self
  }
}
