import Cassowary
import Testing

/// kiwi behind ``LayoutSolver``: what it must share with ours (errors that leave it unchanged,
/// changes by remove and add), and what it says about itself; `ReferenceSystemTests` also runs
/// the spec's example on it. The tests that need kiwi run only in a build that has it
/// (`scripts/peers/kiwi-peer install`).
@Suite struct KiwiSolverTests {
  @Test func availabilityIsReportedConsistently() {
    #expect(SolverStrategy.kiwi.isAvailable == KiwiSolver.isAvailable)
    #expect((KiwiSolver() != nil) == KiwiSolver.isAvailable)
    #expect((KiwiSolver.version != nil) == KiwiSolver.isAvailable)
    #expect(SolverStrategy.named("kiwi") == .kiwi)
    #expect(!SolverStrategy.exact.contains(.kiwi))
    #expect(!SolverStrategy.kiwi.capabilities.contains(.lexicographicPriorities))
  }

  @Test func strengthsKeepThePrioritiesOrder() {
    let priorities: [Float] = [1, 50, 249, 250, 251, 500, 749, 750, 751, 999, Float(1000).nextDown]
    let strengths = priorities.map { KiwiSolver.strength(of: Priority($0)) }
    #expect(zip(strengths, strengths.dropFirst()).allSatisfy { $0 < $1 })
    #expect(strengths.last! <= 1e6)
    #expect(KiwiSolver.strength(of: .required) > strengths.last! * 1000)
  }

  let x = Variable(0), y = Variable(1)

  /// kiwi with x == 10, y >= x + 5 and y == 40 @500.
  func populated() throws -> any LayoutSolver {
    var solver = SolverStrategy.kiwi.makeSolver()
    try solver.add(ConstraintID(0), x == 10)
    try solver.add(ConstraintID(1), y >= x + 5)
    try solver.add(ConstraintID(2), (y == 40).at(500))
    return solver
  }

  @Test(.enabled(if: KiwiSolver.isAvailable))
  func constantsAndPrioritiesChangeByRemoveAndAdd() throws {
    var solver = try populated()
    #expect(solver.value(of: y) == 40)
    try solver.setConstant(ConstraintID(0), -50)
    #expect(solver.value(of: x) == 50)
    #expect(solver.value(of: y) == 55)
    #expect(solver.constraint(ConstraintID(0))?.expression.constant == -50)
    // Required, y == 40 conflicts with y >= x + 5 at x = 50: refused, and nothing is lost.
    #expect(throws: SolverError.self) { try solver.setPriority(ConstraintID(2), .required) }
    #expect(solver.constraint(ConstraintID(2))?.priority == Priority(500))
    #expect(solver.value(of: y) == 55)
    try solver.setPriority(ConstraintID(2), 250)
    #expect(solver.constraint(ConstraintID(2))?.priority == Priority(250))
    var changed: [Variable: Double] = [:]
    solver.forEachChangedValue { changed[$0] = $1 }
    #expect(changed[x] != nil && changed[y] != nil)
    solver.forEachChangedValue { variable, _ in Issue.record("\(variable) reported twice") }
  }

  @Test(.enabled(if: KiwiSolver.isAvailable))
  func refusedOperationsLeaveItUnchanged() throws {
    var solver = try populated()

    #expect(throws: SolverError.duplicateConstraint(ConstraintID(0), x == 11)) {
      try solver.add(ConstraintID(0), x == 11)
    }
    #expect(throws: SolverError.unknownConstraint(ConstraintID(9))) {
      try solver.remove(ConstraintID(9))
    }
    do throws(SolverError) {
      try solver.add(ConstraintID(3), y <= 12)
      Issue.record("y <= 12 is unsatisfiable with x == 10 and y >= x + 5")
    } catch {
      guard case .unsatisfiable(let id, _, _) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(id == ConstraintID(3))
    }
    #expect(!solver.contains(ConstraintID(3)))
    // x == 10 cannot become x == 100 with y <= 20 required.
    try solver.add(ConstraintID(4), y <= 20)
    #expect(throws: SolverError.self) { try solver.setConstant(ConstraintID(0), -100) }
    #expect(solver.constraint(ConstraintID(0))?.expression.constant == -10)
    #expect(solver.value(of: x) == 10)
    #expect(solver.value(of: y) == 20)

    #expect(throws: SolverError.requiredEditVariable(x)) {
      try solver.addEditVariable(x, priority: .required)
    }
    #expect(throws: SolverError.unknownEditVariable(y)) { try solver.suggestValue(y, 3) }
    #expect(solver.statistics.constraints == 4)
  }

  @Test(.enabled(if: KiwiSolver.isAvailable))
  func aFullSolveRebuildsTheSameAnswer() throws {
    var solver = SolverStrategy.kiwi.makeSolver()
    let (x, y, w) = (Variable(0), Variable(1), Variable(2))
    try solver.add(ConstraintID(0), x == 10)
    try solver.add(ConstraintID(1), y >= x + w)
    try solver.addEditVariable(w, priority: 750)
    try solver.suggestValue(w, 30)
    let before = (solver.value(of: x), solver.value(of: y), solver.value(of: w))
    try solver.solveFromScratch()
    #expect(before == (10, 40, 30))
    #expect((solver.value(of: x), solver.value(of: y), solver.value(of: w)) == before)
    solver.reset()
    #expect(solver.statistics.constraints == 0)
    #expect(!solver.hasEditVariable(w))
  }

  @Test(.enabled(if: KiwiSolver.isAvailable))
  func aRenumberedFullSolveKeepsEachConstraintUnderItsNewID() throws {
    var solver = SolverStrategy.kiwi.makeSolver()
    let (x, y) = (Variable(0), Variable(1))
    try solver.add(ConstraintID(4), x == 10)
    try solver.add(ConstraintID(9), y >= x + 5)
    try solver.add(ConstraintID(7), (y == 0).at(500))
    try solver.solveFromScratch(renumbering: [-1, -1, -1, -1, 0, -1, -1, 1, -1, 2])
    #expect(solver.constraint(ConstraintID(0)) == (x == 10))
    #expect(solver.constraint(ConstraintID(2)) == (y >= x + 5))
    #expect(!solver.contains(ConstraintID(9)))
    #expect((solver.value(of: x), solver.value(of: y)) == (10, 15))
    try solver.remove(ConstraintID(0))
    #expect(solver.statistics.constraints == 2)
  }
}
