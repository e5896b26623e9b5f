import Testing

@testable import Cassowary

/// The journal keeps the room its transactions grew into, so that a steady run of operations
/// allocates nothing; but after a transaction that saved more than 65,536 cells, room larger
/// than twice what the tableau's cells take is given back (a required constraint refused after
/// a long optimization logs every change to the objective's cells), or the solver would keep it
/// until its tables are next trimmed.
@Suite struct JournalTrimmingTests {
  /// A solver of `views` independent views, and its journal's bytes after a transaction that
  /// saved `cells` cells and ended by `ending`, with the tableau's bytes and cells.
  static func journalBytes(
    afterSaving cells: Int, views: Int = 100, _ ending: (inout Solver<SparseTableau>) -> Void
  ) throws -> (journal: Int, tableau: Int, tableauCells: Int) {
    var solver = SparseSolver()
    try StorageTrimmingTests.install(
      StorageTrimmingTests.views(views), in: &solver, rootWidth: 375)
    solver.core.beginTransaction()
    // Cells saved for no row: the rollback restores none of them, and the room is the same.
    for index in 0..<cells {
      solver.core.journal.savedCells.append(Cell(symbol: Int32(index % 7), coefficient: 1))
    }
    ending(&solver.core)
    return (solver.core.journal.bytes, solver.core.tableau.bytes, solver.statistics.cells)
  }

  @Test(arguments: ["commit", "rollback"])
  func aTransactionLargerThanTheTableauGivesItsRoomBack(ending: String) throws {
    let cells = Solver<SparseTableau>.journalTrimCells + 1
    let end: (inout Solver<SparseTableau>) -> Void =
      ending == "commit" ? { $0.commit() } : { $0.rollback() }
    let (journal, tableau, _) = try Self.journalBytes(afterSaving: cells, end)
    // The cells alone took more than the tableau holds.
    #expect(cells * MemoryLayout<Cell>.stride > tableau)
    #expect(journal <= tableau, "journal \(journal) B, tableau \(tableau) B")
  }

  @Test func aSmallerTransactionKeepsItsRoom() throws {
    let cells = Solver<SparseTableau>.journalTrimCells
    let (journal, _, _) = try Self.journalBytes(afterSaving: cells) { $0.rollback() }
    #expect(journal >= cells * MemoryLayout<Cell>.stride)
  }

  /// Room a large transaction grew into is kept where the tableau's cells would take twice as
  /// much: steady transactions of that size then allocate nothing.
  @Test func theRoomIsKeptInALargerTableau() throws {
    let cells = Solver<SparseTableau>.journalTrimCells + 1
    let (journal, _, tableauCells) = try Self.journalBytes(afterSaving: cells, views: 7000) {
      $0.commit()
    }
    // Twice the tableau's cells exceed the room those cells grow into, doubling.
    try #require(tableauCells > 2 * cells)
    #expect(journal >= cells * MemoryLayout<Cell>.stride)
  }
}
