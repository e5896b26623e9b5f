import Cassowary
import Testing

/// Solvers and tableaus are values: a copy changes independently of the original. The sparse
/// tableau keeps its tables in one shared heap object and copies them when a change finds the
/// object shared, so these tests change each side of a copy and check the other.
@Suite struct ValueSemanticsTests {
  /// A small layout: a label and a field in a row across a root whose width is an edit variable.
  static func row(in solver: inout some LayoutSolver) throws -> [Variable] {
    let root = Variable(0)
    let labelWidth = Variable(1)
    let fieldLeft = Variable(2)
    let fieldWidth = Variable(3)
    try solver.addEditVariable(root, priority: 999)
    try solver.suggestValue(root, 375)
    try solver.add(ConstraintID(0), fieldLeft == 16 + labelWidth + 8)
    try solver.add(ConstraintID(1), fieldLeft + fieldWidth == root - 16)
    try solver.add(ConstraintID(2), (labelWidth >= 80).at(750))
    try solver.add(ConstraintID(3), (labelWidth <= 80).at(251))
    try solver.add(ConstraintID(4), (fieldWidth <= 97).at(250))
    return [root, labelWidth, fieldLeft, fieldWidth]
  }

  @Test func aCopiedSparseSolverChangesIndependently() throws {
    var solver = SparseSolver()
    try Self.checkCopies(of: &solver)
  }

  @Test func aCopiedDenseSolverChangesIndependently() throws {
    var solver = DenseSolver()
    try Self.checkCopies(of: &solver)
  }

  @Test(arguments: SolverStrategy.exact)
  func aCopiedExistentialChangesIndependently(kind: SolverStrategy) throws {
    var solver = kind.makeSolver()
    try Self.checkCopies(of: &solver)
  }

  /// A read caches the values it evaluates in the storage that copies share until one changes;
  /// what either side reads afterwards is its own state's value.
  @Test func readsThroughASharedCopyCacheOnlyWhatBothHold() throws {
    var original = SparseSolver()
    let variables = try Self.row(in: &original)
    try original.suggestValue(variables[0], 500)
    var copy = original
    let fromCopy = variables.map { copy.value(of: $0) }
    #expect(fromCopy == [500, 80, 104, 380])
    try original.suggestValue(variables[0], 800)
    #expect(variables.map { copy.value(of: $0) } == fromCopy)
    #expect(variables.map { original.value(of: $0) } == [800, 80, 104, 680])
    try copy.setConstant(ConstraintID(0), -20)
    #expect(variables.map { copy.value(of: $0) } == [500, 80, 100, 384])
    #expect(variables.map { original.value(of: $0) } == [800, 80, 104, 680])
  }

  /// Builds ``row(in:)`` in `original`, then changes a copy and checks the original, and
  /// changes the original and checks a copy made before.
  static func checkCopies(of original: inout some LayoutSolver) throws {
    let variables = try row(in: &original)
    let before = original.snapshot(variables)

    var copy = original
    try copy.suggestValue(variables[0], 667)
    try copy.add(ConstraintID(5), variables[1] >= 120)
    try copy.setConstant(ConstraintID(0), -20)
    #expect(original.snapshot(variables) == before)
    #expect(copy.value(of: variables[3]) == 667 - 16 - 20 - 120)

    let copied = copy.snapshot(variables)
    let second = copy
    try copy.remove(ConstraintID(5))
    copy.reset()
    #expect(second.snapshot(variables) == copied)
    #expect(copy.value(of: variables[1]) == 0)
    #expect(original.snapshot(variables) == before)
  }

  @Test func aCopiedSparseTableauKeepsItsCells() {
    var tableau = SparseTableau()
    try? tableau.reserve(rows: 2, symbols: 4)
    let row = tableau.makeRow()
    tableau.add(2, for: 1, to: row)
    tableau.setConstant(5, of: row)
    let copy = tableau
    tableau.add(3, for: 2, to: row)
    tableau.scale(row: row, by: -1)
    #expect(copy.cellCount(of: row) == 1)
    #expect(copy.coefficient(of: 1, in: row) == 2)
    #expect(copy.constant(of: row) == 5)
    #expect(tableau.coefficient(of: 2, in: row) == -3)
    #expect(tableau.rowCount(containing: 2) == 1)
    #expect(copy.rowCount(containing: 2) == 0)
  }
}
