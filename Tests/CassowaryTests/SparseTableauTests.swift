import Cassowary
import Testing

/// The sparse tableau keeps its rows and columns in pools of blocks; a row or column longer than
/// the largest block (65,536 slots) gets a block of its own size. Layouts reach that only past
/// 10,000 views (an objective row holds a cell per optional constraint), so these tests build
/// such a row and such a column directly and check them through growth, removal, compaction and
/// the reuse of the space they leave.
@Suite struct SparseTableauTests {
  static let length: Int32 = 70_000

  @Test func aRowLongerThanABlockKeepsItsCells() {
    var tableau = SparseTableau()
    try? tableau.reserve(rows: 2, symbols: Int(Self.length))
    let long = tableau.makeRow()
    let short = tableau.makeRow()
    for symbol in 0..<Self.length {
      tableau.add(Double(symbol + 1), for: symbol, to: long)
      if symbol % 7 == 0 { tableau.add(-1, for: symbol, to: short) }
    }
    #expect(tableau.cellCount(of: long) == Int(Self.length))
    #expect(tableau.coefficient(of: 65_536, in: long) == 65_537)
    #expect(tableau.coefficient(of: Self.length - 1, in: long) == Double(Self.length))
    #expect(tableau.rowCount(containing: 14) == 2)

    // Every other cell goes; what is left must survive compaction into new blocks.
    for symbol in stride(from: 0, to: Self.length, by: 2) {
      tableau.removeCell(for: symbol, from: long)
    }
    tableau.trimExcess()
    #expect(tableau.totalCells == Int(Self.length) / 2 + Int(Self.length + 6) / 7)
    var sum = 0.0
    tableau.forEachCell(of: long) { symbol, coefficient in
      #expect(symbol % 2 == 1 && coefficient == Double(symbol + 1))
      sum += coefficient
    }
    let odd = Double(Self.length) / 2
    #expect(sum == odd * (odd + 1))  // 2 + 4 + … + length
    #expect(tableau.rowCount(containing: 14) == 1)
    #expect(tableau.rowCount(containing: 7) == 2)

    // New short rows reuse the space: their cells are found as written.
    var rows: [Int32] = []
    for index in 0..<1_000 {
      let row = tableau.makeRow()
      rows.append(row)
      for offset in 0..<Int32(index % 5 + 1) {
        tableau.add(Double(offset + 1), for: Int32(index) * 7 + offset, to: row)
      }
    }
    for (index, row) in rows.enumerated() {
      #expect(tableau.cellCount(of: row) == index % 5 + 1)
      #expect(tableau.coefficient(of: Int32(index) * 7, in: row) == 1)
    }
  }

  @Test func aColumnLongerThanABlockKeepsItsRows() {
    var tableau = SparseTableau()
    try? tableau.reserve(rows: Int(Self.length), symbols: 2)
    var rows: [Int32] = []
    for index in 0..<Self.length {
      let row = tableau.makeRow()
      rows.append(row)
      tableau.add(1, for: 0, to: row)
      tableau.add(Double(index), for: 1, to: row)
    }
    #expect(tableau.rowCount(containing: 0) == Int(Self.length))
    // Substituting symbol 0 by a row rewrites every row that holds it.
    let source = tableau.makeRow()
    tableau.add(2, for: 1, to: source)
    tableau.setConstant(3, of: source)
    var changed: [Int32] = []
    tableau.substitute(0, with: source, changed: &changed)
    #expect(changed.count == Int(Self.length))
    #expect(tableau.rowCount(containing: 0) == 0)
    #expect(tableau.rowCount(containing: 1) == Int(Self.length) + 1)
    for index in [0, 65_535, 65_536, Int(Self.length) - 1] {
      #expect(tableau.coefficient(of: 1, in: rows[index]) == Double(index) + 2)
      #expect(tableau.constant(of: rows[index]) == 3)
    }
    for row in rows { tableau.releaseRow(row) }
    tableau.trimExcess()
    #expect(tableau.totalCells == 1)
    #expect(tableau.rowCount(containing: 1) == 1)
  }

  /// Rows and columns that grew, moved and shrank lie in no order across many blocks; a
  /// compaction copies them block by block, and each must come out whole and in place.
  @Test func compactionKeepsEveryRowAndColumnAcrossBlocks() {
    let rowCount: Int32 = 20_000
    let symbolCount: Int32 = 3_000
    var tableau = SparseTableau()
    try? tableau.reserve(rows: Int(rowCount), symbols: Int(symbolCount))
    var rows: [Int32] = []
    // Cell `k` of row `r` is symbol (r * 7 + k * 13) % symbolCount, coefficient r + 1 + k / 8.
    func symbol(_ row: Int32, _ k: Int32) -> Int32 { (row * 7 + k * 13) % symbolCount }
    func length(_ row: Int32) -> Int32 { row % 9 + 1 }
    for row in 0..<rowCount {
      rows.append(tableau.makeRow())
      // Cells added a round at a time: rows grow (and move) while others are made.
      if row >= 1 {
        for k in 0..<length(row - 1) where k > 0 {
          tableau.add(
            Double(row) + Double(k) / 8, for: symbol(row - 1, k), to: rows[Int(row - 1)])
        }
      }
      tableau.add(Double(row + 1), for: symbol(row, 0), to: rows[Int(row)])
    }
    for k in 1..<length(rowCount - 1) {
      let row = rowCount - 1
      tableau.add(Double(row + 1) + Double(k) / 8, for: symbol(row, k), to: rows[Int(row)])
    }
    // Waste to compact: every third row loses its cells past the first.
    var expected = 0
    for row in 0..<rowCount {
      if row % 3 == 0 {
        for k in 1..<length(row) { tableau.removeCell(for: symbol(row, k), from: rows[Int(row)]) }
        expected += 1
      } else {
        expected += Int(length(row))
      }
    }
    let before = tableau.bytes
    tableau.trimExcess()
    #expect(tableau.totalCells == expected)
    #expect(tableau.bytes < before)
    var columns = [Int](repeating: 0, count: Int(symbolCount))
    for row in 0..<rowCount {
      let kept = row % 3 == 0 ? 1 : length(row)
      #expect(tableau.cellCount(of: rows[Int(row)]) == Int(kept))
      for k in 0..<kept {
        columns[Int(symbol(row, k))] += 1
        let coefficient = tableau.coefficient(of: symbol(row, k), in: rows[Int(row)])
        if coefficient != Double(row + 1) + Double(k) / 8 {
          Issue.record("row \(row) cell \(k): \(coefficient)")
          return
        }
      }
    }
    for symbol in 0..<symbolCount {
      #expect(tableau.rowCount(containing: symbol) == columns[Int(symbol)])
    }
  }
}
