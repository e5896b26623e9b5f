import Cassowary
import Testing

/// Systems that once broke a solver, replayed operation by operation.
@Suite("Removal regressions")
struct RemovalRegressionTests {
  /// The red and blue views of "Anatomy of a Constraint" (blue aligned to red) with a fixed
  /// superview, as the Auto Layout model lowers them; removing the red view's constraints pivoted
  /// a marker into a definition's row, whose basic references then formed a cycle and the sparse
  /// solver's expansion never ended.
  @Test(
    "Removing a view's constraints from aligned columns",
    arguments: SolverStrategy.exact, Removal.allCases)
  func alignedColumns(kind: SolverStrategy, removal: Removal) throws {
    var solver = kind.makeSolver()
    let v = (0..<12).map { Variable($0) }
    func e(_ terms: [(Int, Double)], _ constant: Double = 0) -> LinearExpression {
      LinearExpression(terms.map { Term(v[$0.0], $0.1) }, constant: constant)
    }
    let rows: [LinearExpression] = [
      e([(1, 1), (5, -1)], -20), e([(5, 1), (7, 1), (1, -1), (3, -1)], -20),
      e([(1, 1), (9, -1)]), e([(1, 1), (3, 1), (9, -1), (11, -1)]),
      e([(0, 1), (4, -1)], -20), e([(8, 1), (0, -1), (2, -1)], -8),
      e([(4, 1), (6, 1), (8, -1), (10, -1)], -20), e([(2, 1), (10, -1)]),
      e([(4, 1)]), e([(6, 1)], -375), e([(5, 1)]), e([(7, 1)], -667),
    ]
    for batch in [0..<8, 8..<12] {
      solver.beginBatch()
      for id in batch { try solver.add(ConstraintID(id), Constraint(rows[id], .equal)) }
      solver.endBatch()
    }
    #expect(abs(solver.value(of: v[10]) - 163.5) < 1e-9)
    try removal.remove([0, 1, 2, 3, 4, 5, 7].map { ConstraintID($0) }, from: &solver)
    // Blue keeps only its trailing edge at 375 - 20.
    #expect(abs(solver.value(of: v[8]) + solver.value(of: v[10]) - 355) < 1e-9)
    var fresh = kind.makeSolver()
    try fresh.add(ConstraintID(6), Constraint(rows[6], .equal))
    for id in 8..<12 { try fresh.add(ConstraintID(id), Constraint(rows[id], .equal)) }
    #expect(abs(fresh.value(of: v[8]) + fresh.value(of: v[10]) - 355) < 1e-9)
  }

  /// The same views with blue pinned to the superview: after the removals, the sparse solver's
  /// blue height read -40 instead of 627.
  @Test(
    "Removing a view's constraints from pinned columns",
    arguments: SolverStrategy.exact, Removal.allCases)
  func pinnedColumns(kind: SolverStrategy, removal: Removal) throws {
    var solver = kind.makeSolver()
    let v = (0..<12).map { Variable($0) }
    func e(_ terms: [(Int, Double)], _ constant: Double = 0) -> LinearExpression {
      LinearExpression(terms.map { Term(v[$0.0], $0.1) }, constant: constant)
    }
    let rows: [LinearExpression] = [
      e([(1, 1), (5, -1)], -20), e([(5, 1), (7, 1), (1, -1), (3, -1)], -20),
      e([(9, 1), (5, -1)], -20), e([(5, 1), (7, 1), (9, -1), (11, -1)], -20),
      e([(0, 1), (4, -1)], -20), e([(8, 1), (0, -1), (2, -1)], -8),
      e([(4, 1), (6, 1), (8, -1), (10, -1)], -20), e([(2, 1), (10, -1)]),
      e([(4, 1)]), e([(6, 1)], -375), e([(5, 1)]), e([(7, 1)], -667),
    ]
    for batch in [0..<8, 8..<12] {
      solver.beginBatch()
      for id in batch { try solver.add(ConstraintID(id), Constraint(rows[id], .equal)) }
      solver.endBatch()
    }
    for variable in v { _ = solver.value(of: variable) }
    solver.forEachChangedValue { _, _ in }
    try removal.remove([0, 1, 4, 5, 7].map { ConstraintID($0) }, from: &solver)
    #expect(abs(solver.value(of: v[9]) - 20) < 1e-9)
    #expect(abs(solver.value(of: v[11]) - 627) < 1e-9)
    #expect(abs(solver.value(of: v[8]) + solver.value(of: v[10]) - 355) < 1e-9)
  }
}

/// How a test removes several constraints: one by one (each removal pivots its marker out), or
/// in one batch (a run that removes at least as many constraints as remain rebuilds instead).
enum Removal: String, CaseIterable, CustomStringConvertible, Sendable {
  case oneByOne
  case batched

  func remove(_ ids: [ConstraintID], from solver: inout any LayoutSolver) throws {
    switch self {
    case .oneByOne:
      for id in ids { try solver.remove(id) }
    case .batched:
      solver.beginBatch()
      defer { solver.endBatch() }
      for id in ids { try solver.remove(id) }
    }
  }

  var description: String { rawValue }
}

/// Constraints that mention no variable: a layout's size preference written out through the
/// equalities that fix its view (the plan solver's reduced rows) is one.
@Suite("Constraints over no variable")
struct ConstantConstraintTests {
  /// The last constraint's removal released the symbol tables with its priority level's
  /// objective row still listed, and releasing the level then read past the rows.
  @Test(
    "Removing the last constraint when it mentions no variable",
    arguments: SolverStrategy.exact, Removal.allCases)
  func removingTheLast(kind: SolverStrategy, removal: Removal) throws {
    var solver = kind.makeSolver()
    let x = Variable(0)
    let zero = LinearExpression(constant: 0)
    try solver.add(ConstraintID(0), (zero == LinearExpression(constant: 5)).at(250))
    try solver.add(ConstraintID(1), (zero >= LinearExpression(constant: 5)).at(750))
    try solver.add(ConstraintID(2), (x == LinearExpression(constant: 10)).at(500))
    #expect(solver.value(of: x) == 10)
    try removal.remove([2, 0, 1].map { ConstraintID($0) }, from: &solver)
    #expect(solver.statistics.constraints == 0)
    #expect(solver.statistics.priorityLevels == 0)
    // Usable after: a constraint added later is solved.
    try solver.add(ConstraintID(3), x == LinearExpression(constant: 4))
    #expect(solver.value(of: x) == 4)
  }
}
