import Cassowary
import Testing

/// Removing a constraint whose marker only its own definition holds drops that definition: its
/// variable becomes a parameter, and no other row is expanded or pivoted on.
@Suite struct DefinitionRemovalTests {
  /// A chain `x0 = 0`, `x(i) = x(i-1) + 10`: every link is a definition as written (two cells:
  /// the previous variable and the marker). Removing a middle link costs no pivot and takes out
  /// exactly that definition's cells; the variables above it keep their values, and adding the
  /// link back restores the chain.
  @Test func removingALinkOfAChainDropsItsDefinitionAlone() throws {
    let count = 40
    let x = (0..<count).map { Variable($0) }
    func link(_ index: Int) -> Constraint {
      index == 0 ? x[0] == 0 : x[index] == x[index - 1] + 10
    }
    var solver = SparseSolver()
    for index in 0..<count { try solver.add(ConstraintID(Int32(index)), link(index)) }
    let before = solver.statistics
    try solver.remove(ConstraintID(20))
    let after = solver.statistics
    #expect(after.pivots == before.pivots)
    #expect(after.cells == before.cells - 2)
    #expect(after.rows == before.rows - 1)
    #expect(solver.structuralDefects().isEmpty)
    for index in 0..<20 { #expect(abs(solver.value(of: x[index]) - Double(10 * index)) < 1e-9) }
    // Above the gap, each link still holds.
    for index in 22..<count {
      #expect(abs(solver.value(of: x[index]) - solver.value(of: x[index - 1]) - 10) < 1e-9)
    }
    try solver.add(ConstraintID(20), link(20))
    for index in 0..<count { #expect(abs(solver.value(of: x[index]) - Double(10 * index)) < 1e-9) }
    #expect(solver.structuralDefects().isEmpty)
  }
}
