import Testing

@testable import Cassowary

/// The journal keeps the room its transactions grew into, so that a steady run of operations
/// allocates nothing; but the room of one transaction that saved more than the tableau holds
/// (an operation refused late in a large system, which copied most of its rows) is given back,
/// or the solver would hold it for good.
@Suite struct JournalTrimmingTests {
  /// A solver of 100 independent views, and its journal after a transaction that saved
  /// `cells` cells and ended by `ending`.
  static func journalBytes(
    afterSaving cells: Int, _ ending: (inout Solver<SparseTableau>) -> Void
  ) throws -> (journal: Int, tableau: Int) {
    var solver = SparseSolver()
    try StorageTrimmingTests.install(StorageTrimmingTests.views(100), in: &solver, rootWidth: 375)
    solver.core.beginTransaction()
    // Cells saved for no row: the rollback restores none of them, and the room is the same.
    for index in 0..<cells {
      solver.core.journal.savedCells.append(Cell(symbol: Int32(index % 7), coefficient: 1))
    }
    ending(&solver.core)
    return (solver.core.journal.bytes, solver.core.tableau.bytes)
  }

  @Test(arguments: ["commit", "rollback"])
  func aTransactionLargerThanTheTableauGivesItsRoomBack(ending: String) throws {
    let cells = Solver<SparseTableau>.journalTrimCells + 1
    let end: (inout Solver<SparseTableau>) -> Void =
      ending == "commit" ? { $0.commit() } : { $0.rollback() }
    let (journal, tableau) = try Self.journalBytes(afterSaving: cells, end)
    // The cells alone took more than the tableau holds.
    #expect(cells * MemoryLayout<Cell>.stride > tableau)
    #expect(journal <= tableau, "journal \(journal) B, tableau \(tableau) B")
  }

  @Test func aSmallerTransactionKeepsItsRoom() throws {
    let cells = Solver<SparseTableau>.journalTrimCells
    let (journal, _) = try Self.journalBytes(afterSaving: cells) { $0.rollback() }
    #expect(journal >= cells * MemoryLayout<Cell>.stride)
  }
}

extension JournalTrimmingTests {
  /// Room a large transaction grew into is kept where the tableau's cells would take twice as
  /// much: steady transactions of that size then allocate nothing.
  @Test func theRoomIsKeptInALargerTableau() throws {
    var solver = SparseSolver()
    try StorageTrimmingTests.install(StorageTrimmingTests.views(7000), in: &solver, rootWidth: 375)
    let cells = Solver<SparseTableau>.journalTrimCells + 1
    // Twice the tableau's cells exceed the room those cells grow into, doubling.
    try #require(solver.statistics.cells > 2 * cells)
    solver.core.beginTransaction()
    for index in 0..<cells {
      solver.core.journal.savedCells.append(Cell(symbol: Int32(index % 7), coefficient: 1))
    }
    solver.core.commit()
    #expect(solver.core.journal.bytes >= cells * MemoryLayout<Cell>.stride)
  }
}
