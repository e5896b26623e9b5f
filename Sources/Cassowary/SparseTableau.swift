/// The optimized tableau storage: flat cell pools with a column index.
///
/// Each row's cells live in a segment of one shared pool and each symbol's column (the rows that
/// hold it) in a segment of another; a cell knows its place in its column and a column entry its
/// place in its row, so finding, adding and removing a cell are O(1), and a substitution costs
/// O(cells touched) rather than O(all rows). Nothing is a heap object of its own.
public struct SparseTableau: TableauStorage {
  struct RowCell: PoolElement {
    var symbol: Int32
    var columnSlot: Int32  // index of this cell's entry within its column
    var coefficient: Double

    init(symbol: Int32, columnSlot: Int32, coefficient: Double) {
      self.symbol = symbol
      self.columnSlot = columnSlot
      self.coefficient = coefficient
    }

    init(freeLink next: Int32) { self.init(symbol: next, columnSlot: -1, coefficient: 0) }

    var freeLink: Int32 { symbol }
  }

  struct ColumnEntry: PoolElement {
    var row: Int32
    var cellSlot: Int32  // index of the cell within its row

    init(row: Int32, cellSlot: Int32) {
      self.row = row
      self.cellSlot = cellSlot
    }

    init(freeLink next: Int32) { self.init(row: next, cellSlot: -1) }

    var freeLink: Int32 { row }
  }

  /// A cell of a row being rewritten: its coefficient so far (0 once it cancelled) and where the
  /// row holds it.
  struct AccumulatedCell {
    var symbol: Int32
    var coefficient: Double
    var slot: Int32  // the cell's slot in the row, or -1 for a cell the row does not hold yet
  }

  private var cells = SegmentPool(filler: RowCell(symbol: -1, columnSlot: -1, coefficient: 0))
  private var entries = SegmentPool(filler: ColumnEntry(row: -1, cellSlot: -1))
  private var rows: [Segment] = []
  private var constants: [Double] = []
  private var columns: [Segment] = []
  private var freeRows: [Int32] = []
  private var liveRows = 0
  /// Scatter workspace: the index of each symbol's cell in the row being updated, or -1.
  private var position: [Int32] = []
  private var cancelled: [Int32] = []
  /// Workspace of ``substituteDefinitions(of:in:definitions:)``: the row being rewritten, a cell
  /// per symbol (``position`` maps a symbol to its cell here).
  private var accumulator: [AccumulatedCell] = []
  private var cellTotal = 0
  /// Rows that hold a cell of almost every symbol (the objective's) are indexed: for each such
  /// row an ordinal, and for each symbol and ordinal the slot of its cell there, or -1. Finding a
  /// cell in them is then O(1); a scan of the shorter of row and column would cost the length of
  /// a shared symbol's column, once per cell, whenever a row is added into the objective.
  private var rowOrdinal: [Int32] = []
  private var indexedSlots: [Int32] = []
  private var ordinalStride = 0
  private var freeOrdinals: [Int32] = []

  /// An empty tableau.
  public init() {}

  public static var keepsDefinitionsAsWritten: Bool { true }

  public static var indexesColumns: Bool { true }

  public mutating func reserve(rows _: Int, symbols: Int) throws(SolverError) {
    if columns.count < symbols {
      let grown = max(symbols, columns.count * 2)
      columns.append(contentsOf: repeatElement(.empty, count: grown - columns.count))
      position.append(contentsOf: repeatElement(-1, count: grown - position.count))
      indexedSlots.append(
        contentsOf: repeatElement(-1, count: grown * ordinalStride - indexedSlots.count))
    }
  }

  public mutating func makeRow() -> Int32 {
    liveRows += 1
    if let row = freeRows.popLast() {
      constants[Int(row)] = 0
      return row
    }
    rows.append(.empty)
    constants.append(0)
    rowOrdinal.append(-1)
    return Int32(rows.count - 1)
  }

  public mutating func makeIndexedRow() -> Int32 {
    let row = makeRow()
    let ordinal: Int32
    if let free = freeOrdinals.popLast() {
      ordinal = free
    } else {
      ordinal = Int32(ordinalStride)
      widenIndex(to: max(4, 2 * ordinalStride))
      freeOrdinals.append(contentsOf: (ordinal + 1..<Int32(ordinalStride)).reversed())
    }
    rowOrdinal[Int(row)] = ordinal
    return row
  }

  /// Lays the index out again with room for `stride` indexed rows per symbol.
  private mutating func widenIndex(to stride: Int) {
    var widened = [Int32](repeating: -1, count: columns.count * stride)
    for symbol in 0..<columns.count {
      for ordinal in 0..<ordinalStride {
        widened[symbol * stride + ordinal] = indexedSlots[symbol * ordinalStride + ordinal]
      }
    }
    indexedSlots = widened
    ordinalStride = stride
  }

  public mutating func releaseRow(_ row: Int32) {
    clearRow(row)
    cells.release(&rows[Int(row)])
    freeRows.append(row)
    let ordinal = rowOrdinal[Int(row)]
    if ordinal >= 0 {
      // Its slots are all -1 again: clearing the row removed every cell.
      freeOrdinals.append(ordinal)
      rowOrdinal[Int(row)] = -1
    }
    liveRows -= 1
    if liveRows == 0 { removeAll() }
  }

  public mutating func clearRow(_ row: Int32) {
    while rows[Int(row)].count > 0 { removeCell(at: rows[Int(row)].count - 1, of: row) }
    constants[Int(row)] = 0
  }

  @inline(__always)  // called from the solver's mutating methods, a call copies the tableau
  public func constant(of row: Int32) -> Double { constants[Int(row)] }

  public mutating func setConstant(_ value: Double, of row: Int32) {
    constants[Int(row)] = value
  }

  @inline(__always)  // called from the solver's mutating methods, a call copies the tableau
  public func coefficient(of symbol: Int32, in row: Int32) -> Double {
    let slot = cellSlot(of: symbol, in: row)
    return slot < 0 ? 0 : cells[rows[Int(row)].start + slot].coefficient
  }

  public mutating func add(_ coefficient: Double, for symbol: Int32, to row: Int32) {
    let slot = cellSlot(of: symbol, in: row)
    if slot < 0 {
      if coefficient != 0 { appendCell(symbol, coefficient, to: row) }
      return
    }
    let index = rows[Int(row)].start + slot
    let sum = prunedSum(cells[index].coefficient, coefficient)
    if sum == 0 {
      removeCell(at: slot, of: row)
    } else {
      cells[index].coefficient = sum
    }
  }

  public mutating func removeCell(for symbol: Int32, from row: Int32) {
    let slot = cellSlot(of: symbol, in: row)
    if slot >= 0 { removeCell(at: slot, of: row) }
  }

  public mutating func add(row source: Int32, times factor: Double, to target: Int32) {
    // An indexed target (an objective row), or a long target with a short source: find each
    // source symbol in the target on its own, so the cost does not grow with the target.
    let isLong = rows[Int(target)].count > 8 * (rows[Int(source)].count + 1)
    if rowOrdinal[Int(target)] >= 0 || isLong {
      constants[Int(target)] += factor * constants[Int(source)]
      let sourceSegment = rows[Int(source)]
      for sourceSlot in 0..<sourceSegment.count {
        let cell = cells[sourceSegment.start + sourceSlot]
        add(factor * cell.coefficient, for: cell.symbol, to: target)
      }
      return
    }
    constants[Int(target)] += factor * constants[Int(source)]
    // Scatter the target's cells and count the source's symbols it lacks; make room for them,
    // then merge the source's cells in. Appended cells keep the source's order, and each joins
    // the end of its column, as one append at a time would leave them.
    let sourceSegment = rows[Int(source)]
    var segment = rows[Int(target)]
    var fresh: Int32 = 0
    cells.withUnsafeMutableSlots { cells in
      position.withUnsafeMutableBufferPointer { position in
        for slot in 0..<segment.count {
          position[Int(cells[Int(segment.start + slot)].symbol)] = slot
        }
        for sourceSlot in 0..<sourceSegment.count {
          let cell = cells[Int(sourceSegment.start + sourceSlot)]
          if position[Int(cell.symbol)] < 0 && factor * cell.coefficient != 0 { fresh += 1 }
        }
      }
    }
    if fresh > 0 {
      cells.reserve(&rows[Int(target)], toHold: segment.count + fresh)
      segment = rows[Int(target)]
    }
    let firstAppended = segment.count
    var count = segment.count
    var cancelled = self.cancelled
    self.cancelled = []
    cells.withUnsafeMutableSlots { cells in
      position.withUnsafeMutableBufferPointer { position in
        for sourceSlot in 0..<sourceSegment.count {
          let cell = cells[Int(sourceSegment.start + sourceSlot)]
          let delta = factor * cell.coefficient
          let slot = position[Int(cell.symbol)]
          if slot >= 0 {
            let index = Int(segment.start + slot)
            let sum = prunedSum(cells[index].coefficient, delta)
            cells[index].coefficient = sum
            if sum == 0 { cancelled.append(slot) }
          } else if delta != 0 {
            cells[Int(segment.start + count)] = RowCell(
              symbol: cell.symbol, columnSlot: -1, coefficient: delta)
            position[Int(cell.symbol)] = count
            count += 1
          }
        }
        for slot in 0..<count { position[Int(cells[Int(segment.start + slot)].symbol)] = -1 }
      }
    }
    rows[Int(target)].count = count
    for slot in firstAppended..<count {
      let index = segment.start + slot
      cells[index].columnSlot = enterInColumn(cells[index].symbol, at: slot, of: target)
    }
    cellTotal += Int(count - firstAppended)
    if !cancelled.isEmpty {
      // Highest slot first: a swap-remove only moves cells from above the removed slot.
      if cancelled.count <= 16 {
        Self.sortDescending(&cancelled)
      } else {
        // Many: the cells they name are the row's only zeros, so a scan from the top lists them
        // in order, for less than a sort (the row is at most a few times the source's length).
        cancelled.removeAllKeepingCapacity()
        for slot in stride(from: count - 1, through: 0, by: -1)
        where cells[segment.start + slot].coefficient == 0 {
          cancelled.append(slot)
        }
      }
      removeCells(atDescending: cancelled, of: target)
    }
    cancelled.removeAllKeepingCapacity()
    self.cancelled = cancelled
  }

  /// Sorts a few distinct slots from the highest down, by insertion (the library sort's generic
  /// set-up costs more than sorting them).
  private static func sortDescending(_ slots: inout [Int32]) {
    guard slots.count > 1 else { return }
    for index in 1..<slots.count {
      let slot = slots[index]
      var place = index
      while place > 0 && slots[place - 1] < slot {
        slots[place] = slots[place - 1]
        place -= 1
      }
      slots[place] = slot
    }
  }

  public mutating func scale(row: Int32, by factor: Double) {
    constants[Int(row)] *= factor
    let segment = rows[Int(row)]
    for slot in 0..<segment.count { cells[segment.start + slot].coefficient *= factor }
  }

  public mutating func substitute(_ symbol: Int32, with source: Int32, changed: inout [Int32]) {
    var column = columns[Int(symbol)]
    var skipped: Int32 = 0
    while column.count > skipped {
      let entry = entries[column.start + column.count - 1 - skipped]
      if entry.row == source {
        skipped += 1
        continue
      }
      let coefficient = cells[rows[Int(entry.row)].start + entry.cellSlot].coefficient
      removeCell(at: entry.cellSlot, of: entry.row)
      add(row: source, times: coefficient, to: entry.row)
      changed.append(entry.row)
      column = columns[Int(symbol)]
    }
  }

  /// In one pass: the row is gathered into ``accumulator`` once, every definition is added there,
  /// and the row is written back once. One definition added at a time instead would gather and
  /// write the row back per definition, and a symbol that one definition brings in and a later
  /// one replaces would enter the row and its column only to leave them again; expanding a
  /// layout's new row reaches ten definitions or so. A replaced symbol leaves the workspace at
  /// once, so the workspace never holds more than the row would.
  public mutating func substituteDefinitions(
    of symbols: [Int32], in row: Int32, definitions: [Int32]
  ) {
    var definitionCells: Int32 = 0
    for symbol in symbols { definitionCells += rows[Int(definitions[Int(symbol)])].count }
    guard symbols.count > 2, rowOrdinal[Int(row)] < 0,
      rows[Int(row)].count <= 8 * (definitionCells + 1)
    else {
      // One or two definitions cost less added one at a time than gathered and written back;
      // so does a long row (or an indexed one) with short definitions, whose cells are then
      // found in the row on their own, as ``add(row:times:to:)`` does, rather than gathering
      // the whole row (into a workspace that would then be as long).
      substituteDefinitionsOneAtATime(of: symbols, in: row, definitions: definitions)
      return
    }
    var accumulator = self.accumulator
    var cancelled = self.cancelled
    self.accumulator = []
    self.cancelled = []
    accumulator.removeAllKeepingCapacity()
    cancelled.removeAllKeepingCapacity()
    let segment = rows[Int(row)]
    var constant = constants[Int(row)]
    for slot in 0..<segment.count {
      let cell = cells[segment.start + slot]
      position[Int(cell.symbol)] = Int32(accumulator.count)
      accumulator.append(
        AccumulatedCell(symbol: cell.symbol, coefficient: cell.coefficient, slot: slot))
    }
    for symbol in symbols {
      let index = Int(position[Int(symbol)])
      guard index >= 0 else { continue }
      let factor = accumulator[index].coefficient
      guard factor != 0 else { continue }
      // The symbol leaves: its cell, if the row held one, is removed at the end.
      if accumulator[index].slot >= 0 { cancelled.append(accumulator[index].slot) }
      position[Int(symbol)] = -1
      let last = accumulator.count - 1
      if index != last {
        accumulator[index] = accumulator[last]
        position[Int(accumulator[index].symbol)] = Int32(index)
      }
      accumulator.removeLast()
      let definition = definitions[Int(symbol)]
      constant += factor * constants[Int(definition)]
      let source = rows[Int(definition)]
      for slot in 0..<source.count {
        let cell = cells[source.start + slot]
        let delta = factor * cell.coefficient
        let at = Int(position[Int(cell.symbol)])
        if at >= 0 {
          // Pruned as it is formed: a residue left for later would be expanded as a factor when
          // its symbol's turn comes, bringing in cells of that residue's size.
          accumulator[at].coefficient = prunedSum(accumulator[at].coefficient, delta)
        } else if delta != 0 {
          position[Int(cell.symbol)] = Int32(accumulator.count)
          accumulator.append(AccumulatedCell(symbol: cell.symbol, coefficient: delta, slot: -1))
        }
      }
    }
    constants[Int(row)] = constant
    // Write back: coefficients in place, cancelled cells out (highest slot first), new cells in.
    var fresh: Int32 = 0
    for entry in accumulator {
      position[Int(entry.symbol)] = -1
      if entry.coefficient == 0 {
        if entry.slot >= 0 { cancelled.append(entry.slot) }
      } else if entry.slot >= 0 {
        cells[segment.start + entry.slot].coefficient = entry.coefficient
      } else {
        fresh += 1
      }
    }
    if !cancelled.isEmpty {
      if cancelled.count <= 16 {
        Self.sortDescending(&cancelled)
      } else {
        cancelled.sort(by: >)
      }
      removeCells(atDescending: cancelled, of: row)
    }
    if fresh > 0 {
      cells.reserve(&rows[Int(row)], toHold: rows[Int(row)].count + fresh)
      for entry in accumulator where entry.slot < 0 && entry.coefficient != 0 {
        appendCell(entry.symbol, entry.coefficient, to: row)
      }
    }
    cancelled.removeAllKeepingCapacity()
    accumulator.removeAllKeepingCapacity()
    self.cancelled = cancelled
    self.accumulator = accumulator
  }

  @inline(__always)  // called from the solver's mutating methods, a call copies the tableau
  public func cellCount(of row: Int32) -> Int { Int(rows[Int(row)].count) }

  @inline(__always)
  public func forEachCell(of row: Int32, _ body: (Int32, Double) -> Void) {
    let segment = rows[Int(row)]
    for slot in 0..<segment.count {
      let cell = cells[segment.start + slot]
      body(cell.symbol, cell.coefficient)
    }
  }

  @inline(__always)
  public func forEachRow(containing symbol: Int32, _ body: (Int32, Double) -> Void) {
    guard Int(symbol) < columns.count else { return }
    let column = columns[Int(symbol)]
    for slot in 0..<column.count {
      let entry = entries[column.start + slot]
      body(entry.row, cells[rows[Int(entry.row)].start + entry.cellSlot].coefficient)
    }
  }

  public mutating func shiftConstants(
    ofRowsHolding symbol: Int32, by factor: Double, where isIncluded: (Int32) -> Bool
  ) {
    guard Int(symbol) < columns.count else { return }
    let column = columns[Int(symbol)]
    for slot in 0..<column.count {
      let entry = entries[column.start + slot]
      guard isIncluded(entry.row) else { continue }
      let coefficient = cells[rows[Int(entry.row)].start + entry.cellSlot].coefficient
      constants[Int(entry.row)] += factor * coefficient
    }
  }

  @inline(__always)  // called from the solver's mutating methods, a call copies the tableau
  public func rowCount(containing symbol: Int32) -> Int {
    Int(symbol) < columns.count ? Int(columns[Int(symbol)].count) : 0
  }

  public mutating func releaseSymbol(_ symbol: Int32) {
    guard Int(symbol) < columns.count else { return }
    precondition(columns[Int(symbol)].count == 0, "a retired symbol still has cells")
    entries.release(&columns[Int(symbol)])
  }

  public var totalCells: Int { cellTotal }

  public mutating func compactIfWasteful() {
    // Measured by the slots segments have taken, which a steady state of moves reuses, not by
    // the capacity, which doubling leaves anywhere up to twice that: a threshold between the
    // two would compact, regrow and compact again on every resize.
    let limit = 4 * cellTotal + 4096
    if Int(cells.taken) > limit { cells.compact(&rows, holding: cellTotal) }
    if Int(entries.taken) > limit { entries.compact(&columns, holding: cellTotal) }
  }

  public mutating func trimExcess() {
    if cells.isWasteful(holding: cellTotal, beyond: 1.5) {
      cells.compact(&rows, holding: cellTotal)
    }
    if entries.isWasteful(holding: cellTotal, beyond: 1.5) {
      entries.compact(&columns, holding: cellTotal)
    }
    accumulator.trimExcessCapacity()
    rows.trimExcessCapacity()
    constants.trimExcessCapacity()
    rowOrdinal.trimExcessCapacity()
    columns.trimExcessCapacity()
    position.trimExcessCapacity()
    indexedSlots.trimExcessCapacity()
  }

  public mutating func removeAll() {
    self = SparseTableau()
  }

  /// Bytes held by the tableau's arrays.
  public var bytes: Int {
    cells.bytes + entries.bytes + rows.capacity * MemoryLayout<Segment>.stride
      + constants.capacity * 8 + columns.capacity * MemoryLayout<Segment>.stride
      + position.capacity * 4 + rowOrdinal.capacity * 4 + indexedSlots.capacity * 4
      + accumulator.capacity * MemoryLayout<AccumulatedCell>.stride
  }

  // MARK: - Cells

  /// The slot of `symbol`'s cell in `row`, or -1: from the index if the row has one, else by
  /// scanning the shorter of the row and the column. Inlined: called from a mutating method, a
  /// method call copies the whole tableau first.
  @inline(__always)
  private func cellSlot(of symbol: Int32, in row: Int32) -> Int32 {
    guard Int(symbol) < columns.count else { return -1 }
    let ordinal = rowOrdinal[Int(row)]
    if ordinal >= 0 { return indexedSlots[Int(symbol) * ordinalStride + Int(ordinal)] }
    let segment = rows[Int(row)]
    let column = columns[Int(symbol)]
    if column.count < segment.count {
      for slot in 0..<column.count {
        let entry = entries[column.start + slot]
        if entry.row == row { return entry.cellSlot }
      }
    } else {
      for slot in 0..<segment.count where cells[segment.start + slot].symbol == symbol {
        return slot
      }
    }
    return -1
  }

  @inline(__always)
  private mutating func appendCell(_ symbol: Int32, _ coefficient: Double, to row: Int32) {
    cells.reserveOneMore(&rows[Int(row)])
    let cellSlot = rows[Int(row)].count
    let columnSlot = enterInColumn(symbol, at: cellSlot, of: row)
    cells[rows[Int(row)].start + cellSlot] = RowCell(
      symbol: symbol, columnSlot: columnSlot, coefficient: coefficient)
    let ordinal = rowOrdinal[Int(row)]
    if ordinal >= 0 { indexedSlots[Int(symbol) * ordinalStride + Int(ordinal)] = cellSlot }
    rows[Int(row)].count += 1
    cellTotal += 1
  }

  /// Adds an entry for the cell of `symbol` at `slot` of `row` to the end of the symbol's column;
  /// returns its place there, which the cell keeps.
  @inline(__always)
  private mutating func enterInColumn(_ symbol: Int32, at slot: Int32, of row: Int32) -> Int32 {
    entries.reserveOneMore(&columns[Int(symbol)])
    let columnSlot = columns[Int(symbol)].count
    entries[columns[Int(symbol)].start + columnSlot] = ColumnEntry(row: row, cellSlot: slot)
    columns[Int(symbol)].count += 1
    return columnSlot
  }

  /// Removes the cells at `slots` (distinct, highest first) from `row`, a row without an index:
  /// the swap-removes of ``removeCell(at:of:)`` one after another, in one pass over the pools
  /// without a check per access (nothing grows while cells are removed).
  private mutating func removeCells(atDescending slots: [Int32], of row: Int32) {
    let rowStart = rows[Int(row)].start
    var rowCount = rows[Int(row)].count
    cells.withUnsafeMutableSlots { cells in
      entries.withUnsafeMutableSlots { entries in
        columns.withUnsafeMutableBufferPointer { columns in
          rows.withUnsafeBufferPointer { rows in
            for slot in slots {
              let cell = cells[Int(rowStart + slot)]
              // Swap-remove the column entry, re-pointing the cell of the entry that moves.
              let column = columns[Int(cell.symbol)]
              let lastEntry = entries[Int(column.start + column.count - 1)]
              entries[Int(column.start + cell.columnSlot)] = lastEntry
              cells[Int(rows[Int(lastEntry.row)].start + lastEntry.cellSlot)].columnSlot =
                cell.columnSlot
              columns[Int(cell.symbol)].count -= 1
              // Swap-remove the row cell, re-pointing the column entry of the cell that moves.
              let lastSlot = rowCount - 1
              if slot != lastSlot {
                let lastCell = cells[Int(rowStart + lastSlot)]
                cells[Int(rowStart + slot)] = lastCell
                entries[Int(columns[Int(lastCell.symbol)].start + lastCell.columnSlot)].cellSlot =
                  slot
              }
              rowCount -= 1
            }
          }
        }
      }
    }
    rows[Int(row)].count = rowCount
    cellTotal -= slots.count
  }

  @inline(__always)
  private mutating func removeCell(at slot: Int32, of row: Int32) {
    let segment = rows[Int(row)]
    let cell = cells[segment.start + slot]
    // Swap-remove the column entry, re-pointing the cell of the entry that moves.
    let column = columns[Int(cell.symbol)]
    let lastEntry = entries[column.start + column.count - 1]
    entries[column.start + cell.columnSlot] = lastEntry
    cells[rows[Int(lastEntry.row)].start + lastEntry.cellSlot].columnSlot = cell.columnSlot
    columns[Int(cell.symbol)].count -= 1
    // Swap-remove the row cell, re-pointing the column entry (and index) of the cell that moves.
    let lastSlot = segment.count - 1
    let ordinal = Int(rowOrdinal[Int(row)])
    if ordinal >= 0 { indexedSlots[Int(cell.symbol) * ordinalStride + ordinal] = -1 }
    if slot != lastSlot {
      let lastCell = cells[segment.start + lastSlot]
      cells[segment.start + slot] = lastCell
      entries[columns[Int(lastCell.symbol)].start + lastCell.columnSlot].cellSlot = slot
      if ordinal >= 0 { indexedSlots[Int(lastCell.symbol) * ordinalStride + ordinal] = slot }
    }
    rows[Int(row)].count -= 1
    cellTotal -= 1
  }
}
