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
}
