/// The baseline tableau storage: a dense matrix of rows × columns of contiguous Doubles.
///
/// It is the textbook representation: a cell is found in O(1), but finding the rows that hold a
/// symbol scans every row, and a row operation touches every column. It refuses to grow past a
/// memory budget, so a scene too large for it is reported as skipped rather than exhausting the
/// machine.
public struct DenseTableau: TableauStorage {
  /// The default memory budget: 2 GiB.
  public static let defaultMemoryBudget = 2 << 30

  /// The bytes a matrix of `rows` rows and `columns` columns holds: what the harness and
  /// `bench solve` compare with the budget before building one.
  ///
  /// - Complexity: O(1).
  public static func bytesNeeded(rows: Int, columns: Int) -> Int {
    let (product, overflow) = rows.multipliedReportingOverflow(by: columns)
    let (bytes, overflowBytes) = product.multipliedReportingOverflow(
      by: MemoryLayout<Double>.stride)
    return overflow || overflowBytes ? .max : bytes
  }

  /// The most bytes the matrix may occupy.
  public var memoryBudget: Int

  private var values: [Double] = []
  private var constants: [Double] = []
  private var rowIsLive: [Bool] = []
  private var stride = 0  // columns per row
  private var freeRows: [Int32] = []
  private var liveRows = 0
  private var cellTotal = 0

  /// An empty tableau that may grow to `memoryBudget` bytes.
  public init(memoryBudget: Int = DenseTableau.defaultMemoryBudget) {
    self.memoryBudget = memoryBudget
  }

  public static var keepsDefinitionsAsWritten: Bool { false }

  public static var indexesColumns: Bool { false }

  /// Makes room for `rows` rows of `symbols` columns within the budget, which bounds the
  /// matrix's memory while it grows too: the old matrix and the new one it is copied into must
  /// fit together. Columns double (or, once that would pass the budget, grow to as many as the
  /// budget still holds), and room for rows doubles as far as the budget allows, so that near
  /// the budget one more symbol or row costs no copy of the matrix (growing it to the exact
  /// size on every new symbol copied gigabytes each time).
  public mutating func reserve(rows: Int, symbols: Int) throws(SolverError) {
    let rowsNeeded = max(rows, constants.count, 1)
    let cell = MemoryLayout<Double>.stride
    // While a larger matrix is filled, the current one still exists.
    let room = memoryBudget - values.capacity * cell
    if symbols > stride {
      var columns = max(symbols, stride * 2, 16)
      if rowsNeeded * columns * cell > room { columns = max(symbols, room / (rowsNeeded * cell)) }
      let bytes = rowsNeeded * columns * cell
      guard bytes <= room else {
        throw .memoryBudgetExceeded(
          rows: rowsNeeded, columns: columns, bytes: bytes + values.capacity * cell,
          budget: memoryBudget)
      }
      let rowCapacity = min(max(rowsNeeded, 2 * constants.count), room / (columns * cell))
      widen(to: columns, rowCapacity: rowCapacity)
    }
    if values.capacity < rowsNeeded * stride {
      let rowCapacity = min(max(rowsNeeded, 2 * constants.count), room / max(1, stride * cell))
      guard rowCapacity >= rowsNeeded else {
        throw .memoryBudgetExceeded(
          rows: rowsNeeded, columns: stride,
          bytes: rowsNeeded * stride * cell + values.capacity * cell, budget: memoryBudget)
      }
      values.reserveCapacity(rowCapacity * stride)
    }
  }

  /// Lays the matrix out again with `newStride` columns, with room for `rowCapacity` rows.
  private mutating func widen(to newStride: Int, rowCapacity: Int) {
    var widened: [Double] = []
    widened.reserveCapacity(max(rowCapacity, constants.count) * newStride)
    for row in 0..<constants.count {
      let base = row * stride
      widened.append(contentsOf: values[base..<base + stride])
      widened.append(contentsOf: repeatElement(0, count: newStride - stride))
    }
    values = widened
    stride = newStride
  }

  public mutating func makeRow() -> Int32 {
    liveRows += 1
    if let row = freeRows.popLast() {
      rowIsLive[Int(row)] = true
      return row
    }
    values.append(contentsOf: repeatElement(0, count: stride))
    constants.append(0)
    rowIsLive.append(true)
    return Int32(constants.count - 1)
  }

  public mutating func releaseRow(_ row: Int32) {
    clearRow(row)
    rowIsLive[Int(row)] = false
    freeRows.append(row)
    liveRows -= 1
    if liveRows == 0 { removeAll() }
  }

  public mutating func clearRow(_ row: Int32) {
    let base = Int(row) * stride
    for column in 0..<stride where values[base + column] != 0 {
      values[base + column] = 0
      cellTotal -= 1
    }
    constants[Int(row)] = 0
  }

  public func constant(of row: Int32) -> Double { constants[Int(row)] }

  public mutating func setConstant(_ value: Double, of row: Int32) {
    constants[Int(row)] = value
  }

  public func coefficient(of symbol: Int32, in row: Int32) -> Double {
    Int(symbol) < stride ? values[Int(row) * stride + Int(symbol)] : 0
  }

  public mutating func add(_ coefficient: Double, for symbol: Int32, to row: Int32) {
    let index = Int(row) * stride + Int(symbol)
    let old = values[index]
    values[index] = store(old: old, adding: coefficient)
  }

  public mutating func removeCell(for symbol: Int32, from row: Int32) {
    let index = Int(row) * stride + Int(symbol)
    if values[index] != 0 {
      values[index] = 0
      cellTotal -= 1
    }
  }

  public mutating func add(row source: Int32, times factor: Double, to target: Int32) {
    constants[Int(target)] += factor * constants[Int(source)]
    let sourceBase = Int(source) * stride
    let targetBase = Int(target) * stride
    for column in 0..<stride {
      let delta = factor * values[sourceBase + column]
      if delta == 0 { continue }
      let old = values[targetBase + column]
      values[targetBase + column] = store(old: old, adding: delta)
    }
  }

  /// The value to store for a cell that changes from `old` by `delta` (zero if it cancelled),
  /// keeping the cell count.
  @inline(__always)
  private mutating func store(old: Double, adding delta: Double) -> Double {
    let value = prunedSum(old, delta)
    if old == 0, value != 0 { cellTotal += 1 }
    if old != 0, value == 0 { cellTotal -= 1 }
    return value
  }

  public mutating func scale(row: Int32, by factor: Double) {
    constants[Int(row)] *= factor
    let base = Int(row) * stride
    for column in 0..<stride { values[base + column] *= factor }
  }

  public mutating func substitute(_ symbol: Int32, with source: Int32, changed: inout [Int32]) {
    for row in 0..<Int32(constants.count) where row != source && rowIsLive[Int(row)] {
      let index = Int(row) * stride + Int(symbol)
      let coefficient = values[index]
      if coefficient == 0 { continue }
      values[index] = 0
      cellTotal -= 1
      add(row: source, times: coefficient, to: row)
      changed.append(row)
    }
  }

  public func cellCount(of row: Int32) -> Int {
    let base = Int(row) * stride
    var count = 0
    for column in 0..<stride where values[base + column] != 0 { count += 1 }
    return count
  }

  @inline(__always)
  public func forEachCell(of row: Int32, _ body: (Int32, Double) -> Void) {
    let base = Int(row) * stride
    for column in 0..<stride where values[base + column] != 0 {
      body(Int32(column), values[base + column])
    }
  }

  @inline(__always)
  public func forEachRow(containing symbol: Int32, _ body: (Int32, Double) -> Void) {
    guard Int(symbol) < stride else { return }
    for row in 0..<constants.count where rowIsLive[row] {
      let value = values[row * stride + Int(symbol)]
      if value != 0 { body(Int32(row), value) }
    }
  }

  public mutating func shiftConstants(
    ofRowsHolding symbol: Int32, by factor: Double, where isIncluded: (Int32) -> Bool
  ) {
    guard Int(symbol) < stride else { return }
    for row in 0..<constants.count where rowIsLive[row] && isIncluded(Int32(row)) {
      constants[row] += factor * values[row * stride + Int(symbol)]
    }
  }

  public func rowCount(containing symbol: Int32) -> Int {
    var count = 0
    forEachRow(containing: symbol) { _, _ in count += 1 }
    return count
  }

  public mutating func releaseSymbol(_ symbol: Int32) {}

  public var totalCells: Int { cellTotal }

  public mutating func compactIfWasteful() {}

  public mutating func trimExcess() {}

  /// The matrix grows with ``reserve(rows:symbols:)``, to what it holds; nothing is reserved
  /// ahead.
  public mutating func reserveCapacity(rows _: Int, symbols _: Int) {}

  public mutating func removeAll() {
    self = DenseTableau(memoryBudget: memoryBudget)
  }

  /// Bytes held by the matrix.
  public var bytes: Int { values.capacity * 8 + constants.capacity * 8 + rowIsLive.capacity }
}
