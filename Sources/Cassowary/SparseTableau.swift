/// The optimized tableau storage: flat cell pools with a column index.
///
/// Each row's cells live in a segment of one shared pool and each symbol's column (the rows that
/// hold it) in a segment of another; a cell knows its place in its column and a column entry its
/// place in its row, so finding, adding and removing a cell are O(1), and a substitution costs
/// O(cells touched) rather than O(all rows). Nothing is a heap object of its own.
///
/// The tables live in manual memory (``ManualArray``) that one heap object owns
/// (``ManualStorage``). A tableau is still a value: each operation that changes it first checks
/// that no copy shares that object, and copies the tables if one does; that one check per
/// operation replaces an array's check per write.
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
  struct AccumulatedCell: BitwiseCopyable {
    var symbol: Int32
    var coefficient: Double
    var slot: Int32  // the cell's slot in the row, or -1 for a cell the row does not hold yet
  }

  private var storage = ManualStorage(Tables())

  /// An empty tableau.
  public init() {}

  /// The tables, to read.
  @inline(__always)
  private var tables: UnsafeMutablePointer<Tables> { storage.contents }

  /// The tables, to change: copied first when another tableau shares them.
  @inline(__always)
  private var uniqueTables: UnsafeMutablePointer<Tables> {
    mutating get {
      if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
      return storage.contents
    }
  }

  public static var keepsDefinitionsAsWritten: Bool { true }

  public static var indexesColumns: Bool { true }

  public mutating func reserve(rows _: Int, symbols: Int) throws(SolverError) {
    uniqueTables.pointee.reserve(symbols: symbols)
  }

  public mutating func reserveCapacity(rows: Int, symbols: Int) {
    uniqueTables.pointee.reserveCapacity(rows: rows, symbols: symbols)
  }

  public mutating func makeRow() -> Int32 { uniqueTables.pointee.makeRow() }

  public mutating func makeIndexedRow() -> Int32 { uniqueTables.pointee.makeIndexedRow() }

  public mutating func releaseRow(_ row: Int32) { uniqueTables.pointee.releaseRow(row) }

  public mutating func clearRow(_ row: Int32) { uniqueTables.pointee.clearRow(row) }

  @inline(__always)
  public func constant(of row: Int32) -> Double { tables.pointee.constants[Int(row)] }

  public mutating func setConstant(_ value: Double, of row: Int32) {
    uniqueTables.pointee.constants[Int(row)] = value
  }

  @inline(__always)
  public func coefficient(of symbol: Int32, in row: Int32) -> Double {
    tables.pointee.coefficient(of: symbol, in: row)
  }

  public mutating func add(_ coefficient: Double, for symbol: Int32, to row: Int32) {
    uniqueTables.pointee.add(coefficient, for: symbol, to: row)
  }

  public mutating func appendCells(
    symbols: UnsafeBufferPointer<Int32>, coefficients: UnsafeBufferPointer<Double>,
    to row: Int32
  ) {
    uniqueTables.pointee.appendCells(symbols: symbols, coefficients: coefficients, to: row)
  }

  public mutating func removeCell(for symbol: Int32, from row: Int32) {
    uniqueTables.pointee.removeCell(for: symbol, from: row)
  }

  public mutating func add(row source: Int32, times factor: Double, to target: Int32) {
    uniqueTables.pointee.add(row: source, times: factor, to: target)
  }

  public mutating func scale(row: Int32, by factor: Double) {
    uniqueTables.pointee.scale(row: row, by: factor)
  }

  public mutating func substitute(_ symbol: Int32, with source: Int32, changed: inout [Int32]) {
    uniqueTables.pointee.substitute(symbol, with: source, changed: &changed)
  }

  public mutating func substituteDefinitions(
    of symbols: [Int32], in row: Int32, definitions: some Definitions
  ) {
    uniqueTables.pointee.substituteDefinitions(of: symbols, in: row, definitions: definitions)
  }

  @inline(__always)
  public func cellCount(of row: Int32) -> Int { Int(tables.pointee.rows[Int(row)].count) }

  @inline(__always)
  public func forEachCell(of row: Int32, _ body: (Int32, Double) -> Void) {
    let tables = self.tables
    let segment = tables.pointee.rows[Int(row)]
    let cells = tables.pointee.cells.slots(of: segment)
    for slot in 0..<Int(segment.count) { body(cells[slot].symbol, cells[slot].coefficient) }
  }

  @inline(__always)
  public func forEachRow(containing symbol: Int32, _ body: (Int32, Double) -> Void) {
    let tables = self.tables
    guard Int(symbol) < tables.pointee.columns.count else { return }
    let column = tables.pointee.columns[Int(symbol)]
    for slot in 0..<column.count {
      let entry = tables.pointee.entries[column.start + slot]
      body(entry.row, tables.pointee.coefficient(at: entry.cellSlot, of: entry.row))
    }
  }

  public mutating func shiftConstants(
    ofRowsHolding symbol: Int32, by factor: Double, where isIncluded: (Int32) -> Bool
  ) {
    let tables = uniqueTables
    guard Int(symbol) < tables.pointee.columns.count else { return }
    let column = tables.pointee.columns[Int(symbol)]
    for slot in 0..<column.count {
      let entry = tables.pointee.entries[column.start + slot]
      guard isIncluded(entry.row) else { continue }
      let coefficient = tables.pointee.coefficient(at: entry.cellSlot, of: entry.row)
      tables.pointee.constants[Int(entry.row)] += factor * coefficient
    }
  }

  @inline(__always)
  public func rowCount(containing symbol: Int32) -> Int {
    let tables = self.tables
    return Int(symbol) < tables.pointee.columns.count
      ? Int(tables.pointee.columns[Int(symbol)].count) : 0
  }

  public mutating func releaseSymbol(_ symbol: Int32) {
    uniqueTables.pointee.releaseSymbol(symbol)
  }

  public var totalCells: Int { tables.pointee.cellTotal }

  public mutating func compactIfWasteful() { uniqueTables.pointee.compactIfWasteful() }

  public mutating func trimExcess() { uniqueTables.pointee.trimExcess() }

  public mutating func removeAll() {
    self = SparseTableau()
  }

  /// Bytes held by the tableau's tables.
  public var bytes: Int { tables.pointee.bytes }
}

extension SparseTableau {
  /// Everything the tableau holds: the pools, the per-row and per-symbol tables and the
  /// workspaces, in manual memory that ``deallocate()`` frees.
  struct Tables: ManuallyAllocated {
    /// Rows start with room for four cells: a constraint's row holds its terms and one or two
    /// markers, three cells for most of a layout's, which from two slots would move once more.
    var cells = SegmentPool<RowCell>(initialCapacity: 4)
    var entries = SegmentPool<ColumnEntry>()
    var rows = ManualArray<Segment>()
    var constants = ManualArray<Double>()
    var columns = ManualArray<Segment>()
    var freeRows = ManualArray<Int32>()
    var liveRows = 0
    /// Scatter workspace: the index of each symbol's cell in the row being updated, or -1.
    var position = ManualArray<Int32>()
    var cancelled = ManualArray<Int32>()
    /// Workspace of ``substituteDefinitions(of:in:definitions:)``: the row being rewritten, a
    /// cell per symbol (``position`` maps a symbol to its cell here).
    var accumulator = ManualArray<AccumulatedCell>()
    var cellTotal = 0
    /// Long objective rows are indexed: for each such row an ordinal, and for each symbol and
    /// ordinal the slot of its cell there, or -1. Finding a cell in them is then O(1); a scan
    /// of the shorter of row and column would cost the length of a shared symbol's column, once
    /// per cell, whenever a row is added into the objective.
    ///
    /// An objective row (made by ``makeIndexedRow()``) gets an ordinal once it holds
    /// ``indexFrom`` cells and gives it back below ``unindexBelow``: the index costs a slot per
    /// symbol and ordinal, so a level with a handful of constraints, which a scan finds cells
    /// in as fast, does not pay for one (a layout with hundreds of priority levels would
    /// otherwise hold hundreds of slots per symbol). When no more than a quarter of the
    /// ordinals are in use, the index is laid out again at half its width. `rowOrdinal` is an
    /// ordinal, ``unindexedObjective``, or -1 for a row that is never indexed.
    var rowOrdinal = ManualArray<Int32>()
    var indexedSlots = ManualArray<Int32>()
    var ordinalStride = 0
    var freeOrdinals = ManualArray<Int32>()

    /// The `rowOrdinal` of an objective row that holds too few cells to be indexed.
    static var unindexedObjective: Int32 { -2 }
    /// The cells from which an objective row is indexed.
    static var indexFrom: Int32 { 64 }
    /// The cells below which an indexed row gives its ordinal back (well below ``indexFrom``, so
    /// that a row whose length wavers around one threshold is not indexed again and again).
    static var unindexBelow: Int32 { 16 }

    /// Copies of every table, in memory of their own.
    func copy() -> Tables {
      var copy = self
      copy.cells = cells.copy()
      copy.entries = entries.copy()
      copy.rows = rows.copy()
      copy.constants = constants.copy()
      copy.columns = columns.copy()
      copy.freeRows = freeRows.copy()
      copy.position = position.copy()
      copy.cancelled = cancelled.copy()
      copy.accumulator = accumulator.copy()
      copy.rowOrdinal = rowOrdinal.copy()
      copy.indexedSlots = indexedSlots.copy()
      copy.freeOrdinals = freeOrdinals.copy()
      return copy
    }

    /// Frees every table.
    mutating func deallocate() {
      cells.deallocate()
      entries.deallocate()
      rows.deallocate()
      constants.deallocate()
      columns.deallocate()
      freeRows.deallocate()
      position.deallocate()
      cancelled.deallocate()
      accumulator.deallocate()
      rowOrdinal.deallocate()
      indexedSlots.deallocate()
      freeOrdinals.deallocate()
    }

    /// Frees every table and starts again empty.
    mutating func removeAll() {
      deallocate()
      self = Tables()
    }

    var bytes: Int {
      cells.bytes + entries.bytes + rows.bytes + constants.bytes + columns.bytes + position.bytes
        + rowOrdinal.bytes + indexedSlots.bytes + accumulator.bytes + freeRows.bytes
        + cancelled.bytes + freeOrdinals.bytes
    }

    mutating func reserve(symbols: Int) {
      guard columns.count < symbols else { return }
      // To the count asked for (the memory still doubles, ``ManualArray/grow(to:with:)``): a
      // count beyond the symbols there are would keep a trim from giving that memory back.
      columns.grow(to: symbols, with: .empty)
      position.grow(to: symbols, with: -1)
      indexedSlots.grow(to: symbols * ordinalStride, with: -1)
    }

    /// Room in the per-row and per-symbol tables (not the pools, which grow in blocks).
    mutating func reserveCapacity(rows rowCount: Int, symbols: Int) {
      rows.reserveCapacity(rowCount)
      constants.reserveCapacity(rowCount)
      columns.reserveCapacity(symbols)
      position.reserveCapacity(symbols)
    }

    mutating func makeRow() -> Int32 {
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

    mutating func makeIndexedRow() -> Int32 {
      let row = makeRow()
      rowOrdinal[Int(row)] = Self.unindexedObjective
      return row
    }

    /// Gives `row`, an objective row long enough, an ordinal and indexes its cells.
    ///
    /// - Complexity: O(cells of the row), plus O(symbols × ordinals) when the index widens.
    @inline(never)
    private mutating func index(_ row: Int32) {
      let ordinal: Int32
      if let free = freeOrdinals.popLast() {
        ordinal = free
      } else {
        ordinal = Int32(ordinalStride)
        layOutIndex(stride: max(4, 2 * ordinalStride))
        for free in (ordinal + 1..<Int32(ordinalStride)).reversed() { freeOrdinals.append(free) }
      }
      rowOrdinal[Int(row)] = ordinal
      let segment = rows[Int(row)]
      for slot in 0..<segment.count {
        indexedSlots[Int(cells[segment.start + slot].symbol) * ordinalStride + Int(ordinal)] = slot
      }
    }

    /// Takes `row`'s ordinal back (its slots become -1), and narrows the index once at most a
    /// quarter of its ordinals are in use.
    ///
    /// - Complexity: O(cells of the row), plus O(symbols × ordinals) when the index narrows.
    @inline(never)
    private mutating func unindex(_ row: Int32) {
      let ordinal = Int(rowOrdinal[Int(row)])
      let segment = rows[Int(row)]
      for slot in 0..<segment.count {
        indexedSlots[Int(cells[segment.start + slot].symbol) * ordinalStride + ordinal] = -1
      }
      freeOrdinals.append(Int32(ordinal))
      rowOrdinal[Int(row)] = Self.unindexedObjective
      let used = ordinalStride - freeOrdinals.count
      if ordinalStride > 4 && used <= ordinalStride / 4 { layOutIndex(stride: ordinalStride / 2) }
    }

    /// Lays the index out again with room for `stride` indexed rows per symbol; when it narrows,
    /// the rows in use are numbered again from 0.
    private mutating func layOutIndex(stride: Int) {
      let widened = ManualArray<Int32>(repeating: -1, count: columns.count * stride)
      if stride >= ordinalStride {
        for symbol in 0..<columns.count {
          for ordinal in 0..<ordinalStride {
            widened[symbol * stride + ordinal] = indexedSlots[symbol * ordinalStride + ordinal]
          }
        }
      } else {
        freeOrdinals.removeAllKeepingCapacity()
        var next: Int32 = 0
        for row in rowOrdinal.indices where rowOrdinal[row] >= 0 {
          rowOrdinal[row] = next
          let segment = rows[row]
          for slot in 0..<segment.count {
            widened[Int(cells[segment.start + slot].symbol) * stride + Int(next)] = slot
          }
          next += 1
        }
        for free in (next..<Int32(stride)).reversed() { freeOrdinals.append(free) }
      }
      indexedSlots.deallocate()
      indexedSlots = widened
      ordinalStride = stride
    }

    mutating func releaseRow(_ row: Int32) {
      clearRow(row)
      cells.release(&rows[Int(row)])
      freeRows.append(row)
      // Clearing the row took its ordinal back, if it had one, before its last cells went.
      rowOrdinal[Int(row)] = -1
      liveRows -= 1
      if liveRows == 0 { removeAll() }
    }

    mutating func clearRow(_ row: Int32) {
      while rows[Int(row)].count > 0 { removeCell(at: rows[Int(row)].count - 1, of: row) }
      constants[Int(row)] = 0
    }

    /// The coefficient of the cell at `slot` of `row`.
    @inline(__always)
    func coefficient(at slot: Int32, of row: Int32) -> Double {
      cells[rows[Int(row)].start + slot].coefficient
    }

    @inline(__always)
    func coefficient(of symbol: Int32, in row: Int32) -> Double {
      let slot = cellSlot(of: symbol, in: row)
      return slot < 0 ? 0 : coefficient(at: slot, of: row)
    }

    mutating func add(_ coefficient: Double, for symbol: Int32, to row: Int32) {
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

    mutating func removeCell(for symbol: Int32, from row: Int32) {
      let slot = cellSlot(of: symbol, in: row)
      if slot >= 0 { removeCell(at: slot, of: row) }
    }

    mutating func add(row source: Int32, times factor: Double, to target: Int32) {
      constants[Int(target)] += factor * constants[Int(source)]
      let sourceSegment = rows[Int(source)]
      // An indexed target (an objective row), or a long target with a short source: find each
      // source symbol in the target on its own, so the cost does not grow with the target.
      let isLong = rows[Int(target)].count > 8 * (sourceSegment.count + 1)
      if rowOrdinal[Int(target)] >= 0 || isLong {
        for sourceSlot in 0..<sourceSegment.count {
          let cell = cells[sourceSegment.start + sourceSlot]
          add(factor * cell.coefficient, for: cell.symbol, to: target)
        }
        return
      }
      // Scatter the target's cells and count the source's symbols it lacks; make room for them,
      // then merge the source's cells in. Appended cells keep the source's order, and each joins
      // the end of its column, as one append at a time would leave them.
      var segment = rows[Int(target)]
      let sourceCount = Int(sourceSegment.count)
      var fresh: Int32 = 0
      do {
        let targetCells = cells.slots(of: segment)
        let sourceCells = cells.slots(of: sourceSegment)
        for slot in 0..<Int(segment.count) {
          position[Int(targetCells[slot].symbol)] = Int32(slot)
        }
        for slot in 0..<sourceCount {
          let cell = sourceCells[slot]
          if position[Int(cell.symbol)] < 0 && factor * cell.coefficient != 0 { fresh += 1 }
        }
      }
      if fresh > 0 {
        cells.reserve(&rows[Int(target)], toHold: segment.count + fresh)
        segment = rows[Int(target)]
      }
      let firstAppended = segment.count
      var count = segment.count
      cancelled.removeAllKeepingCapacity()
      do {
        // Read after the reserve, which may have moved the target (never the source).
        let targetCells = cells.slots(of: segment)
        let sourceCells = cells.slots(of: rows[Int(source)])
        for sourceSlot in 0..<sourceCount {
          let cell = sourceCells[sourceSlot]
          let delta = factor * cell.coefficient
          let slot = position[Int(cell.symbol)]
          if slot >= 0 {
            let sum = prunedSum(targetCells[Int(slot)].coefficient, delta)
            targetCells[Int(slot)].coefficient = sum
            if sum == 0 { cancelled.append(slot) }
          } else if delta != 0 {
            targetCells[Int(count)] = RowCell(
              symbol: cell.symbol, columnSlot: -1, coefficient: delta)
            position[Int(cell.symbol)] = count
            count += 1
          }
        }
        for slot in 0..<Int(count) { position[Int(targetCells[slot].symbol)] = -1 }
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
          Self.sortDescending(cancelled)
        } else {
          // Many: the cells they name are the row's only zeros, so a scan from the top lists
          // them in order, for less than a sort (the row is at most a few times the source's
          // length).
          cancelled.removeAllKeepingCapacity()
          for slot in stride(from: count - 1, through: 0, by: -1)
          where cells[segment.start + slot].coefficient == 0 {
            cancelled.append(slot)
          }
        }
        removeCancelledCells(of: target)
      }
      cancelled.removeAllKeepingCapacity()
      if rowOrdinal[Int(target)] == Self.unindexedObjective
        && rows[Int(target)].count >= Self.indexFrom
      {
        index(target)
      }
    }

    /// Sorts a few distinct slots from the highest down, by insertion (the library sort's
    /// generic set-up costs more than sorting them).
    private static func sortDescending(_ slots: ManualArray<Int32>) {
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

    mutating func scale(row: Int32, by factor: Double) {
      constants[Int(row)] *= factor
      let segment = rows[Int(row)]
      let rowCells = cells.slots(of: segment)
      for slot in 0..<Int(segment.count) { rowCells[slot].coefficient *= factor }
    }

    mutating func substitute(_ symbol: Int32, with source: Int32, changed: inout [Int32]) {
      var column = columns[Int(symbol)]
      var skipped: Int32 = 0
      while column.count > skipped {
        let entry = entries[column.start + column.count - 1 - skipped]
        if entry.row == source {
          skipped += 1
          continue
        }
        let coefficient = coefficient(at: entry.cellSlot, of: entry.row)
        removeCell(at: entry.cellSlot, of: entry.row)
        add(row: source, times: coefficient, to: entry.row)
        changed.append(entry.row)
        column = columns[Int(symbol)]
      }
    }

    /// In one pass: the row is gathered into ``accumulator`` once, every definition is added
    /// there, and the row is written back once. One definition added at a time instead would
    /// gather and write the row back per definition, and a symbol that one definition brings in
    /// and a later one replaces would enter the row and its column only to leave them again;
    /// expanding a layout's new row reaches ten definitions or so. A replaced symbol leaves the
    /// workspace at once, so the workspace never holds more than the row would.
    mutating func substituteDefinitions(
      of symbols: [Int32], in row: Int32, definitions: some Definitions
    ) {
      var definitionCells: Int32 = 0
      for symbol in symbols { definitionCells += rows[Int(definitions[Int(symbol)])].count }
      guard symbols.count > 2, rowOrdinal[Int(row)] < 0,
        rows[Int(row)].count <= 8 * (definitionCells + 1)
      else {
        // One or two definitions cost less added one at a time than gathered and written
        // back; so does a long row (or an indexed one) with short definitions, whose cells are
        // then found in the row on their own, as ``add(row:times:to:)`` does, rather than
        // gathering the whole row (into a workspace that would then be as long).
        for symbol in symbols {
          let coefficient = coefficient(of: symbol, in: row)
          guard coefficient != 0 else { continue }
          removeCell(for: symbol, from: row)
          add(row: definitions[Int(symbol)], times: coefficient, to: row)
        }
        return
      }
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
        let sourceCells = cells.slots(of: source)
        for slot in 0..<Int(source.count) {
          let cell = sourceCells[slot]
          let delta = factor * cell.coefficient
          let at = Int(position[Int(cell.symbol)])
          if at >= 0 {
            // Pruned as it is formed: a residue left for later would be expanded as a factor
            // when its symbol's turn comes, bringing in cells of that residue's size.
            accumulator[at].coefficient = prunedSum(accumulator[at].coefficient, delta)
          } else if delta != 0 {
            position[Int(cell.symbol)] = Int32(accumulator.count)
            accumulator.append(AccumulatedCell(symbol: cell.symbol, coefficient: delta, slot: -1))
          }
        }
      }
      constants[Int(row)] = constant
      // Write back: coefficients in place, cancelled cells out (highest slot first), new cells
      // in.
      var fresh: Int32 = 0
      for index in accumulator.indices {
        let entry = accumulator[index]
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
          Self.sortDescending(cancelled)
        } else {
          var slots = UnsafeMutableBufferPointer(
            start: cancelled.pointer(from: 0, length: cancelled.count), count: cancelled.count)
          slots.sort(by: >)
        }
        removeCancelledCells(of: row)
      }
      if fresh > 0 {
        cells.reserve(&rows[Int(row)], toHold: rows[Int(row)].count + fresh)
        for index in accumulator.indices {
          let entry = accumulator[index]
          if entry.slot < 0 && entry.coefficient != 0 {
            appendCell(entry.symbol, entry.coefficient, to: row)
          }
        }
      }
      cancelled.removeAllKeepingCapacity()
      accumulator.removeAllKeepingCapacity()
    }

    mutating func releaseSymbol(_ symbol: Int32) {
      guard Int(symbol) < columns.count else { return }
      precondition(columns[Int(symbol)].count == 0, "a retired symbol still has cells")
      entries.release(&columns[Int(symbol)])
    }

    mutating func compactIfWasteful() {
      // Measured by the slots segments have taken, which a steady state of moves reuses, not by
      // the capacity, which doubling leaves anywhere up to twice that: a threshold between the
      // two would compact, regrow and compact again on every resize.
      let limit = 4 * cellTotal + 4096
      if Int(cells.taken) > limit { cells.compact(&rows, holding: cellTotal) }
      if Int(entries.taken) > limit { entries.compact(&columns, holding: cellTotal) }
    }

    mutating func trimExcess() {
      // Close to the contents: how the pools grew (in a build, or in the rebuild that follows a
      // long run of edits) must not decide what they hold afterwards; a compaction costs a pass
      // over the cells, as the batch that called this did.
      if cells.isWasteful(holding: cellTotal, beyond: 1.0625, allowance: 256) {
        cells.compact(&rows, holding: cellTotal)
      }
      if entries.isWasteful(holding: cellTotal, beyond: 1.0625, allowance: 256) {
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

    // MARK: - Cells

    /// The slot of `symbol`'s cell in `row`, or -1: from the index if the row has one, else by
    /// scanning the shorter of the row and the column.
    @inline(__always)
    func cellSlot(of symbol: Int32, in row: Int32) -> Int32 {
      guard Int(symbol) < columns.count else { return -1 }
      let ordinal = rowOrdinal[Int(row)]
      if ordinal >= 0 { return indexedSlots[Int(symbol) * ordinalStride + Int(ordinal)] }
      let segment = rows[Int(row)]
      let column = columns[Int(symbol)]
      if column.count < segment.count {
        let columnEntries = entries.slots(of: column)
        for slot in 0..<Int(column.count) where columnEntries[slot].row == row {
          return columnEntries[slot].cellSlot
        }
      } else {
        let rowCells = cells.slots(of: segment)
        for slot in 0..<Int(segment.count) where rowCells[slot].symbol == symbol {
          return Int32(slot)
        }
      }
      return -1
    }

    /// ``SparseTableau/appendCells(symbols:coefficients:to:)``: the row's segment is made room
    /// in once, and no cell is looked for, since none is there.
    mutating func appendCells(
      symbols: UnsafeBufferPointer<Int32>, coefficients: UnsafeBufferPointer<Double>,
      to row: Int32
    ) {
      let count = Int32(symbols.count)
      precondition(
        coefficients.count == symbols.count && rows[Int(row)].count == 0,
        "cells appended to a row that holds some")
      guard count > 0 else { return }
      let ordinal = rowOrdinal[Int(row)]
      guard ordinal == -1 else {
        // An objective row: its index is kept cell by cell.
        for index in 0..<Int(count) { add(coefficients[index], for: symbols[index], to: row) }
        return
      }
      cells.reserve(&rows[Int(row)], toHold: count)
      let segment = rows[Int(row)]
      let rowCells = cells.slots(of: segment)
      for index in 0..<Int(count) {
        let symbol = symbols[index]
        precondition(Int(symbol) < columns.count, "a symbol the tableau has no column for")
        let columnSlot = enterInColumn(symbol, at: Int32(index), of: row)
        rowCells[index] = RowCell(
          symbol: symbol, columnSlot: columnSlot, coefficient: coefficients[index])
      }
      rows[Int(row)].count = count
      cellTotal += Int(count)
    }

    @inline(__always)
    private mutating func appendCell(_ symbol: Int32, _ coefficient: Double, to row: Int32) {
      cells.reserveOneMore(&rows[Int(row)])
      let segment = rows[Int(row)]
      let cellSlot = segment.count
      let columnSlot = enterInColumn(symbol, at: cellSlot, of: row)
      cells[segment.start + cellSlot] = RowCell(
        symbol: symbol, columnSlot: columnSlot, coefficient: coefficient)
      let ordinal = rowOrdinal[Int(row)]
      if ordinal >= 0 { indexedSlots[Int(symbol) * ordinalStride + Int(ordinal)] = cellSlot }
      rows[Int(row)].count = cellSlot + 1
      cellTotal += 1
      if ordinal == Self.unindexedObjective && cellSlot + 1 >= Self.indexFrom { index(row) }
    }

    /// Adds an entry for the cell of `symbol` at `slot` of `row` to the end of the symbol's
    /// column; returns its place there, which the cell keeps.
    @inline(__always)
    private mutating func enterInColumn(_ symbol: Int32, at slot: Int32, of row: Int32) -> Int32 {
      entries.reserveOneMore(&columns[Int(symbol)])
      let column = columns[Int(symbol)]
      entries[column.start + column.count] = ColumnEntry(row: row, cellSlot: slot)
      columns[Int(symbol)].count = column.count + 1
      return column.count
    }

    /// Removes the cells at the slots in ``cancelled`` (distinct, highest first) from `row`, a
    /// row without an index: the swap-removes of ``removeCell(at:of:)`` one after another.
    private mutating func removeCancelledCells(of row: Int32) {
      let rowStart = rows[Int(row)].start
      var rowCount = rows[Int(row)].count
      for index in cancelled.indices {
        let slot = cancelled[index]
        let cell = cells[rowStart + slot]
        // Swap-remove the column entry, re-pointing the cell of the entry that moves.
        let column = columns[Int(cell.symbol)]
        let lastEntry = entries[column.start + column.count - 1]
        entries[column.start + cell.columnSlot] = lastEntry
        cells[rows[Int(lastEntry.row)].start + lastEntry.cellSlot].columnSlot = cell.columnSlot
        columns[Int(cell.symbol)].count = column.count - 1
        // Swap-remove the row cell, re-pointing the column entry of the cell that moves.
        let lastSlot = rowCount - 1
        if slot != lastSlot {
          let lastCell = cells[rowStart + lastSlot]
          cells[rowStart + slot] = lastCell
          entries[columns[Int(lastCell.symbol)].start + lastCell.columnSlot].cellSlot = slot
        }
        rowCount -= 1
      }
      rows[Int(row)].count = rowCount
      cellTotal -= cancelled.count
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
      columns[Int(cell.symbol)].count = column.count - 1
      // Swap-remove the row cell, re-pointing the column entry (and index) of the cell that
      // moves.
      let lastSlot = segment.count - 1
      let ordinal = Int(rowOrdinal[Int(row)])
      if ordinal >= 0 { indexedSlots[Int(cell.symbol) * ordinalStride + ordinal] = -1 }
      if slot != lastSlot {
        let lastCell = cells[segment.start + lastSlot]
        cells[segment.start + slot] = lastCell
        entries[columns[Int(lastCell.symbol)].start + lastCell.columnSlot].cellSlot = slot
        if ordinal >= 0 { indexedSlots[Int(lastCell.symbol) * ordinalStride + ordinal] = slot }
      }
      rows[Int(row)].count = segment.count - 1
      cellTotal -= 1
      if ordinal >= 0 && segment.count - 1 < Self.unindexBelow { unindex(row) }
    }
  }
}
