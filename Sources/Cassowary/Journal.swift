/// The undo log of one transaction: everything a failing operation must put back so that the
/// solver is left exactly as it was.
///
/// A row is copied the first time the transaction changes it; rows and symbols made during the
/// transaction are released on rollback; rows and symbols retired during it are only returned to
/// their free lists at commit. The log's buffers are kept between transactions, in manual memory
/// (``ManualArray``) that a ``ManualStorage`` of the solver's owns: every add opens and closes a
/// transaction and logs a few entries, and arrays checked their buffers on every write.
struct Journal: ManuallyAllocated {
  /// One cell of an objective row as it was (`symbol` -1: the row's constant).
  struct SavedCell {
    var row: Int32
    var symbol: Int32
    var value: Double
  }

  /// A parameter's value cache as it was before a mark reset it to 0.
  struct SavedParameter {
    var variable: Int32
    var value: Double
    var needsEvaluation: Bool
  }

  struct SavedRow {
    var row: Int32
    var subject: Int32
    var constant: Double
    var firstCell: Int
    var cellCount: Int
  }

  /// A row's constant as it was before a change that moved only the constant.
  struct SavedConstant {
    var row: Int32
    var constant: Double
  }

  private(set) var isActive = false
  private var epoch: UInt32 = 0
  private var savedEpoch = ManualArray<UInt32>()
  var savedRows = ManualArray<SavedRow>()
  var savedCells = ManualArray<Cell>()
  /// Constants of rows whose cells the transaction has not changed (yet), logged one by one
  /// (see ``Solver/saveConstant(of:)``); a row copied whole later is copied with its new
  /// constant, which the rollback then puts back from here.
  var savedConstants = ManualArray<SavedConstant>()
  /// Cells of objective rows, logged one by one before they change (see ``Solver/saveCells``).
  var savedObjectiveCells = ManualArray<SavedCell>()
  var createdRows = ManualArray<Int32>()
  var createdSymbols = ManualArray<Int32>()
  var pendingRows = ManualArray<Int32>()
  var pendingSymbols = ManualArray<Int32>()
  var createdLevels = ManualArray<Float>()
  /// The value caches the transaction marked, in order: a variable `v` (not negative) whose
  /// cache was marked stale (its value is untouched: nothing is evaluated in a transaction), or
  /// `~k` for the parameter saved at `savedParameters[k]`.
  var valueMarks = ManualArray<Int32>()
  var savedParameters = ManualArray<SavedParameter>()
  /// How many variables were listed as changed when the transaction began.
  var dirtyCount = 0
  /// Whether transactions log value caches (``Solver/logsValues``); off while a rebuild,
  /// which puts the whole solver back if it fails, re-adds every constraint.
  var logsValues = true
  var pivotCount = 0
  var substitutedRows = 0
  var expandedDefinitions = 0
  var breakpointsPassed = 0
  var degenerateLongSteps = 0

  /// Bytes held by the log's buffers.
  var bytes: Int {
    savedEpoch.bytes + savedRows.bytes + savedCells.bytes + savedConstants.bytes
      + createdRows.bytes
      + createdSymbols.bytes + pendingRows.bytes + pendingSymbols.bytes + createdLevels.bytes
      + savedObjectiveCells.bytes + valueMarks.bytes + savedParameters.bytes
  }

  func copy() -> Journal {
    var copy = self
    copy.savedEpoch = savedEpoch.copy()
    copy.savedRows = savedRows.copy()
    copy.savedCells = savedCells.copy()
    copy.savedConstants = savedConstants.copy()
    copy.savedObjectiveCells = savedObjectiveCells.copy()
    copy.createdRows = createdRows.copy()
    copy.createdSymbols = createdSymbols.copy()
    copy.pendingRows = pendingRows.copy()
    copy.pendingSymbols = pendingSymbols.copy()
    copy.createdLevels = createdLevels.copy()
    // Empty between transactions (a solver is copied between operations); a copy of their
    // capacity would be allocated by every copy, such as a rebuild's saved state.
    copy.valueMarks = ManualArray()
    copy.savedParameters = ManualArray()
    return copy
  }

  mutating func deallocate() {
    savedEpoch.deallocate()
    savedRows.deallocate()
    savedCells.deallocate()
    savedConstants.deallocate()
    savedObjectiveCells.deallocate()
    createdRows.deallocate()
    createdSymbols.deallocate()
    pendingRows.deallocate()
    pendingSymbols.deallocate()
    createdLevels.deallocate()
    valueMarks.deallocate()
    savedParameters.deallocate()
  }

  /// Gives back what the buffers grew into beyond what they hold.
  mutating func trimExcess() {
    savedEpoch.trimExcessCapacity()
    savedRows.trimExcessCapacity()
    savedCells.trimExcessCapacity()
    savedConstants.trimExcessCapacity()
    savedObjectiveCells.trimExcessCapacity()
    valueMarks.trimExcessCapacity()
    savedParameters.trimExcessCapacity()
  }

  mutating func begin() {
    precondition(!isActive, "transactions do not nest")
    isActive = true
    epoch &+= 1
    if epoch == 0 {
      for index in savedEpoch.indices { savedEpoch[index] = 0 }
      epoch = 1
    }
  }

  /// Whether `row` was copied whole in this transaction.
  func isClaimed(_ row: Int32) -> Bool {
    Int(row) < savedEpoch.count && savedEpoch[Int(row)] == epoch
  }

  /// Whether `row` still needs saving in this transaction; marks it saved.
  mutating func claim(_ row: Int32) -> Bool {
    savedEpoch.grow(to: Int(row) + 1, with: 0)
    if savedEpoch[Int(row)] == epoch { return false }
    savedEpoch[Int(row)] = epoch
    return true
  }

  mutating func end() {
    isActive = false
    savedRows.removeAllKeepingCapacity()
    savedCells.removeAllKeepingCapacity()
    savedConstants.removeAllKeepingCapacity()
    savedObjectiveCells.removeAllKeepingCapacity()
    createdRows.removeAllKeepingCapacity()
    createdSymbols.removeAllKeepingCapacity()
    pendingRows.removeAllKeepingCapacity()
    pendingSymbols.removeAllKeepingCapacity()
    createdLevels.removeAllKeepingCapacity()
    valueMarks.removeAllKeepingCapacity()
    savedParameters.removeAllKeepingCapacity()
  }
}

extension Solver {
  /// Starts a transaction: until ``commit()`` or ``rollback()``, changes are logged.
  mutating func beginTransaction() {
    journal.begin()
    journal.pivotCount = pivotCount
    journal.substitutedRows = substitutedRows
    journal.expandedDefinitions = expandedDefinitions
    journal.breakpointsPassed = breakpointsPassed
    journal.degenerateLongSteps = degenerateLongSteps
    journal.dirtyCount = dirtyVariables.count
  }

  /// Whether a transaction is logging what it does to the value caches, so that a rollback
  /// leaves the values exactly as they were: evaluating a definition again can round
  /// differently from the value cached before (a definition rewritten to an equal one keeps its
  /// cached value). Only the sparse solver's caches need it (the dense one reads values off its
  /// rows), and not while a rebuild, which puts the whole solver back if it fails, re-adds
  /// every constraint.
  var logsValues: Bool { journal.isActive && journal.logsValues && keepsDefinitions }

  /// Logs that `variable`'s cache, up to date until now, is being marked stale.
  @inline(__always)
  mutating func logStaleMark(_ variable: Int32) {
    if logsValues { journal.valueMarks.append(variable) }
  }

  /// Logs `variable`'s cache before a mark resets it to a parameter's 0.
  @inline(__always)
  mutating func logParameterReset(_ variable: Int32) {
    guard logsValues else { return }
    journal.valueMarks.append(~Int32(journal.savedParameters.count))
    journal.savedParameters.append(
      Journal.SavedParameter(
        variable: variable, value: cachedValue[Int(variable)],
        needsEvaluation: needsEvaluation[Int(variable)]))
  }

  /// Copies `row` into the log the first time the transaction is about to change it.
  mutating func save(_ row: Int32) {
    guard journal.isActive, journal.claim(row) else { return }
    let first = journal.savedCells.count
    var cells = journal.savedCells
    journal.savedCells = ManualArray()
    tableau.forEachCell(of: row) { symbol, coefficient in
      cells.append(Cell(symbol: symbol, coefficient: coefficient))
    }
    journal.savedCells = cells
    journal.savedRows.append(
      Journal.SavedRow(
        row: row, subject: rowSubject[Int(row)], constant: tableau.constant(of: row),
        firstCell: first, cellCount: journal.savedCells.count - first))
  }

  /// Logs `row`'s constant before a change that moves only the constant (a constant change
  /// shifting the rows that hold a marker): a row whose cells stay as they are needs no copy,
  /// and a required constant's change may move the constants of a thousand long rows.
  @inline(__always)
  mutating func saveConstant(of row: Int32) {
    guard journal.isActive, !journal.isClaimed(row) else { return }
    journal.savedConstants.append(
      Journal.SavedConstant(row: row, constant: tableau.constant(of: row)))
  }

  /// Before `target` loses its cell of `replaced` and gains a multiple of `source` (if any):
  /// saves it. An objective row holds a cell of most symbols, so rather than copying it whole
  /// each time a transaction first changes it (once per add, which made adding n constraints
  /// that pivot cost n² on one long objective row), the cells about to change are logged, and
  /// its constant. A row already copied whole needs nothing more.
  mutating func saveCells(of target: Int32, replacing replaced: Int32, by source: Int32?) {
    guard journal.isActive else { return }
    guard rowSubject[Int(target)] == RowRole.objective else { return save(target) }
    guard !journal.isClaimed(target) else { return }
    var cells = journal.savedObjectiveCells
    journal.savedObjectiveCells = ManualArray()
    cells.append(.init(row: target, symbol: -1, value: tableau.constant(of: target)))
    cells.append(
      .init(row: target, symbol: replaced, value: tableau.coefficient(of: replaced, in: target)))
    if let source {
      tableau.forEachCell(of: source) { symbol, _ in
        cells.append(
          .init(row: target, symbol: symbol, value: tableau.coefficient(of: symbol, in: target)))
      }
    }
    journal.savedObjectiveCells = cells
  }

  /// Keeps the transaction's changes and returns what it retired to the free lists.
  mutating func commit() {
    let savedCells = journal.savedCells.count + journal.savedObjectiveCells.count
    defer { trimJournalAfter(savedCells: savedCells) }
    // Move the lists out rather than copy them: a copy would make `end()` reallocate them.
    var rows = ManualArray<Int32>()
    var symbols = ManualArray<Int32>()
    swap(&rows, &journal.pendingRows)
    swap(&symbols, &journal.pendingSymbols)
    journal.end()
    for row in rows { tableau.releaseRow(row) }
    for symbol in symbols { releaseSymbol(symbol) }
    rows.removeAllKeepingCapacity()
    symbols.removeAllKeepingCapacity()
    swap(&rows, &journal.pendingRows)
    swap(&symbols, &journal.pendingSymbols)
  }

  /// Puts the solver back exactly as it was when the transaction began.
  mutating func rollback() {
    let savedCells = journal.savedCells.count + journal.savedObjectiveCells.count
    defer { trimJournalAfter(savedCells: savedCells) }
    // Forget the subjects the transaction gave, then restore the saved rows and subjects.
    var unmade = takeScratch()
    for saved in journal.savedRows {
      let subject = rowSubject[Int(saved.row)]
      if subject >= 0 {
        basicRow[Int(subject)] = RowRole.none
        unmade.append(subject)
      }
    }
    for row in journal.createdRows {
      let subject = rowSubject[Int(row)]
      if subject >= 0 {
        basicRow[Int(subject)] = RowRole.none
        unmade.append(subject)
      }
      tableau.clearRow(row)
      rowSubject[Int(row)] = RowRole.released
    }
    for saved in journal.savedRows {
      tableau.clearRow(saved.row)
      tableau.setConstant(saved.constant, of: saved.row)
      for index in saved.firstCell..<(saved.firstCell + saved.cellCount) {
        let cell = journal.savedCells[index]
        tableau.add(cell.coefficient, for: cell.symbol, to: saved.row)
      }
      rowSubject[Int(saved.row)] = saved.subject
      if saved.subject >= 0 {
        basicRow[Int(saved.subject)] = saved.row
        markValueDirty(symbol: saved.subject)
      }
    }
    // Latest first, so that each constant ends as it was before its first change; a row copied
    // whole after its constant moved was restored above with the moved constant.
    for saved in journal.savedConstants.reversed() {
      tableau.setConstant(saved.constant, of: saved.row)
    }
    // A variable the transaction made basic is a parameter again: its value is 0 once more,
    // and what was evaluated from it meanwhile must be evaluated again.
    for symbol in unmade where basicRow[Int(symbol)] < 0 { markValueDirty(symbol: symbol) }
    returnScratch(unmade)
    // Latest first, so that each cell ends as it was before its first change. Rows copied
    // whole were logged only before their copy, so the copy does not undo what this restores.
    for saved in journal.savedObjectiveCells.reversed()
    where rowSubject[Int(saved.row)] == RowRole.objective {
      if saved.symbol < 0 {
        tableau.setConstant(saved.value, of: saved.row)
      } else {
        tableau.setCoefficient(saved.value, for: saved.symbol, in: saved.row)
      }
    }
    infeasible.removeAllKeepingCapacity()
    pivotCount = journal.pivotCount
    substitutedRows = journal.substitutedRows
    expandedDefinitions = journal.expandedDefinitions
    breakpointsPassed = journal.breakpointsPassed
    degenerateLongSteps = journal.degenerateLongSteps
    for priority in journal.createdLevels {
      let (index, found) = levelPosition(of: priority)
      if found { levelOrder.remove(at: index) }
    }
    // The value caches last, after the marks above, latest first.
    for index in stride(from: journal.valueMarks.count - 1, through: 0, by: -1) {
      let mark = journal.valueMarks[index]
      if mark >= 0 {
        needsEvaluation[Int(mark)] = false
      } else {
        let saved = journal.savedParameters[Int(~mark)]
        cachedValue[Int(saved.variable)] = saved.value
        needsEvaluation[Int(saved.variable)] = saved.needsEvaluation
      }
    }
    // Each variable listed since the transaction began was listed when its flag went from
    // clear to set.
    while dirtyVariables.count > journal.dirtyCount {
      isValueDirty[Int(dirtyVariables.removeLast())] = false
    }
    var createdRows = ManualArray<Int32>()
    var createdSymbols = ManualArray<Int32>()
    swap(&createdRows, &journal.createdRows)
    swap(&createdSymbols, &journal.createdSymbols)
    journal.end()
    for row in createdRows.reversed() {
      tableau.clearRow(row)
      tableau.releaseRow(row)
    }
    for symbol in createdSymbols.reversed() {
      collectRows(containing: symbol)
      for row in changedRows { tableau.removeCell(for: symbol, from: row) }
      releaseSymbol(symbol)
    }
    createdRows.removeAllKeepingCapacity()
    createdSymbols.removeAllKeepingCapacity()
    swap(&createdRows, &journal.createdRows)
    swap(&createdSymbols, &journal.createdSymbols)
  }

  /// Gives back the journal's room after a transaction that saved `savedCells` cells, when
  /// that room is larger than twice what the tableau's cells take (and than 1 MiB). A long
  /// transaction logs every change to the objective's cells (one refused after filling the
  /// tableau in, in a 1,000-view soak, logged 2.4 million: 68 MB), and its room would otherwise
  /// be kept until a batch large enough to trim the solver's tables, though later transactions
  /// save a few rows each. The cells are weighed, not the tableau's room, which the refused
  /// transaction's fill-in left as large. Room up to that size is kept, so that steady
  /// transactions of the same size allocate nothing.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  mutating func trimJournalAfter(savedCells: Int) {
    guard savedCells > Self.journalTrimCells else { return }
    let kept = max(
      2 * tableau.totalCells * MemoryLayout<Cell>.stride,
      Self.journalTrimCells * MemoryLayout<Cell>.stride)
    if journal.bytes > kept { journal.trimExcess() }
  }

  /// The fewest cells a transaction saves for its journal's room to be weighed against the
  /// tableau afterwards (at 16 bytes a cell, 1 MiB).
  static var journalTrimCells: Int { 1 << 16 }
}
