/// The solver's tables of plain values — per symbol, per row and per variable — in manual memory
/// (``ManualArray``) owned by one ``ManualStorage``.
///
/// Swift arrays checked on every write that their buffer was not shared: several times per
/// symbol made and per row written, some 5 % of a layout's build. The solver instead checks once,
/// at the start of each public operation that changes it (``Solver/prepareToChange()``), that no
/// copy of it shares the storage, and copies the tables when one does, so a solver stays a value.
struct SolverTables: ManuallyAllocated {
  // Symbols, indexed by symbol id.
  var symbolKind = ManualArray<SymbolKind>()
  var basicRow = ManualArray<Int32>()
  /// The other symbol of an optional constraint's slack/error or error/error pair, or -1.
  var symbolPartner = ManualArray<Int32>()
  /// The priority level of an optional constraint's slack or error (0 otherwise).
  var symbolLevel = ManualArray<Float>()
  /// The variable of an external symbol (≥ 0); for a required constraint's marker, −2 − the
  /// constraint's id (see ``Solver/owner(of:)``); otherwise −1. One table serves both, as no symbol
  /// has both: it is per symbol, and every byte per symbol counts at 10,000 views.
  var symbolVariable = ManualArray<Int32>()
  /// The symbols the primal simplex may try next (see ``CandidateSet``).
  var candidates = CandidateSet()
  var freeSymbols = ManualArray<Int32>()
  var symbolMark = ManualArray<UInt32>()
  var visitMark = ManualArray<UInt32>()
  // Rows, indexed by row id.
  var rowSubject = ManualArray<Int32>()
  var rowPriority = ManualArray<Float>()
  // Variables, indexed by variable id.
  var variableSymbol = ManualArray<Int32>()
  var variableUses = ManualArray<Int32>()
  var reportedValue = ManualArray<Double>()
  var isValueDirty = ManualArray<Bool>()
  var cachedValue = ManualArray<Double>()
  var needsEvaluation = ManualArray<Bool>()
  // Lists.
  var dirtyVariables = ManualArray<Int32>()

  func copy() -> SolverTables {
    var copy = self
    copy.symbolKind = symbolKind.copy()
    copy.basicRow = basicRow.copy()
    copy.symbolPartner = symbolPartner.copy()
    copy.symbolLevel = symbolLevel.copy()
    copy.symbolVariable = symbolVariable.copy()
    copy.candidates = candidates.copy()
    copy.freeSymbols = freeSymbols.copy()
    copy.symbolMark = symbolMark.copy()
    copy.visitMark = visitMark.copy()
    copy.rowSubject = rowSubject.copy()
    copy.rowPriority = rowPriority.copy()
    copy.variableSymbol = variableSymbol.copy()
    copy.variableUses = variableUses.copy()
    copy.reportedValue = reportedValue.copy()
    copy.isValueDirty = isValueDirty.copy()
    copy.cachedValue = cachedValue.copy()
    copy.needsEvaluation = needsEvaluation.copy()
    copy.dirtyVariables = dirtyVariables.copy()
    return copy
  }

  mutating func deallocate() {
    deallocateSymbolsAndRows()
    symbolMark.deallocate()
    visitMark.deallocate()
    variableSymbol.deallocate()
    variableUses.deallocate()
    reportedValue.deallocate()
    isValueDirty.deallocate()
    cachedValue.deallocate()
    needsEvaluation.deallocate()
    dirtyVariables.deallocate()
  }

  /// Frees the per-symbol and per-row tables, which a solver left with no symbol no longer
  /// needs; the per-variable tables stay (they still say what its client was told), and so do
  /// the marks (their epochs run on).
  mutating func deallocateSymbolsAndRows() {
    symbolKind.deallocate()
    basicRow.deallocate()
    symbolPartner.deallocate()
    symbolLevel.deallocate()
    symbolVariable.deallocate()
    candidates.deallocate()
    freeSymbols.deallocate()
    rowSubject.deallocate()
    rowPriority.deallocate()
  }

  /// Bytes held by the tables.
  var bytes: Int {
    symbolKind.bytes + basicRow.bytes + symbolPartner.bytes + symbolLevel.bytes
      + symbolVariable.bytes + candidates.bytes + freeSymbols.bytes + symbolMark.bytes
      + visitMark.bytes + rowSubject.bytes + rowPriority.bytes + variableSymbol.bytes
      + variableUses.bytes + reportedValue.bytes + isValueDirty.bytes + cachedValue.bytes
      + needsEvaluation.bytes + dirtyVariables.bytes
  }

  /// Room for `symbols` symbols and `rows` rows in all (see ``ManualArray/reserveCapacity(_:)``).
  mutating func reserveCapacity(symbols: Int, rows: Int) {
    symbolKind.reserveCapacity(symbols)
    basicRow.reserveCapacity(symbols)
    symbolPartner.reserveCapacity(symbols)
    symbolLevel.reserveCapacity(symbols)
    symbolVariable.reserveCapacity(symbols)
    symbolMark.reserveCapacity(symbols)
    visitMark.reserveCapacity(symbols)
    rowSubject.reserveCapacity(rows)
    rowPriority.reserveCapacity(rows)
  }

  /// Gives back what growth left unused (see ``ManualArray/trimExcessCapacity()``).
  mutating func trimExcessCapacity() {
    symbolKind.trimExcessCapacity()
    basicRow.trimExcessCapacity()
    symbolPartner.trimExcessCapacity()
    symbolLevel.trimExcessCapacity()
    symbolVariable.trimExcessCapacity()
    freeSymbols.trimExcessCapacity()
    symbolMark.trimExcessCapacity()
    visitMark.trimExcessCapacity()
    rowSubject.trimExcessCapacity()
    rowPriority.trimExcessCapacity()
    variableSymbol.trimExcessCapacity()
    variableUses.trimExcessCapacity()
    reportedValue.trimExcessCapacity()
    isValueDirty.trimExcessCapacity()
    cachedValue.trimExcessCapacity()
    needsEvaluation.trimExcessCapacity()
    dirtyVariables.trimExcessCapacity()
  }
}

extension Solver {
  /// Copies the tables first if another solver shares them. Every public operation that changes
  /// the solver calls this before anything else: the tables' elements are written in place, with
  /// no check of their own.
  @inline(__always)
  mutating func prepareToChange() {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    if !isKnownUniquelyReferenced(&journalStorage) { journalStorage = journalStorage.copy() }
  }

  /// The undo log, changed in place.
  var journal: Journal {
    @inline(__always) unsafeAddress { UnsafePointer(journalStorage.contents) }
    @inline(__always) unsafeMutableAddress { journalStorage.contents }
  }

  var symbolKind: ManualArray<SymbolKind> {
    @inline(__always) get { storage.contents.pointee.symbolKind }
    @inline(__always) set { storage.contents.pointee.symbolKind = newValue }
  }

  var basicRow: ManualArray<Int32> {
    @inline(__always) get { storage.contents.pointee.basicRow }
    @inline(__always) set { storage.contents.pointee.basicRow = newValue }
  }

  var symbolPartner: ManualArray<Int32> {
    @inline(__always) get { storage.contents.pointee.symbolPartner }
    @inline(__always) set { storage.contents.pointee.symbolPartner = newValue }
  }

  var symbolLevel: ManualArray<Float> {
    @inline(__always) get { storage.contents.pointee.symbolLevel }
    @inline(__always) set { storage.contents.pointee.symbolLevel = newValue }
  }

  var symbolVariable: ManualArray<Int32> {
    @inline(__always) get { storage.contents.pointee.symbolVariable }
    @inline(__always) set { storage.contents.pointee.symbolVariable = newValue }
  }

  var candidates: CandidateSet {
    @inline(__always) get { storage.contents.pointee.candidates }
  }

  var freeSymbols: ManualArray<Int32> {
    @inline(__always) get { storage.contents.pointee.freeSymbols }
    @inline(__always) set { storage.contents.pointee.freeSymbols = newValue }
  }

  var symbolMark: ManualArray<UInt32> {
    @inline(__always) get { storage.contents.pointee.symbolMark }
    @inline(__always) set { storage.contents.pointee.symbolMark = newValue }
  }

  var visitMark: ManualArray<UInt32> {
    @inline(__always) get { storage.contents.pointee.visitMark }
    @inline(__always) set { storage.contents.pointee.visitMark = newValue }
  }

  var rowSubject: ManualArray<Int32> {
    @inline(__always) get { storage.contents.pointee.rowSubject }
    @inline(__always) set { storage.contents.pointee.rowSubject = newValue }
  }

  var rowPriority: ManualArray<Float> {
    @inline(__always) get { storage.contents.pointee.rowPriority }
    @inline(__always) set { storage.contents.pointee.rowPriority = newValue }
  }

  var variableSymbol: ManualArray<Int32> {
    @inline(__always) get { storage.contents.pointee.variableSymbol }
    @inline(__always) set { storage.contents.pointee.variableSymbol = newValue }
  }

  var variableUses: ManualArray<Int32> {
    @inline(__always) get { storage.contents.pointee.variableUses }
    @inline(__always) set { storage.contents.pointee.variableUses = newValue }
  }

  var reportedValue: ManualArray<Double> {
    @inline(__always) get { storage.contents.pointee.reportedValue }
    @inline(__always) set { storage.contents.pointee.reportedValue = newValue }
  }

  var isValueDirty: ManualArray<Bool> {
    @inline(__always) get { storage.contents.pointee.isValueDirty }
    @inline(__always) set { storage.contents.pointee.isValueDirty = newValue }
  }

  var cachedValue: ManualArray<Double> {
    @inline(__always) get { storage.contents.pointee.cachedValue }
    @inline(__always) set { storage.contents.pointee.cachedValue = newValue }
  }

  var needsEvaluation: ManualArray<Bool> {
    @inline(__always) get { storage.contents.pointee.needsEvaluation }
    @inline(__always) set { storage.contents.pointee.needsEvaluation = newValue }
  }

  var dirtyVariables: ManualArray<Int32> {
    @inline(__always) get { storage.contents.pointee.dirtyVariables }
    @inline(__always) set { storage.contents.pointee.dirtyVariables = newValue }
  }
}
