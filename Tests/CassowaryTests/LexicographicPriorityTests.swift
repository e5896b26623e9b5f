import Cassowary
import Testing

/// Auto Layout's priorities are strictly ordered levels, not weights.
@Suite struct LexicographicPriorityTests {
  /// 1,001 constraints at 250 pulling x to 10 lose to one at 251 pulling it to 0. A weighted
  /// objective (kiwi, GTK: 1,001 × 250 > 251) would put x at 10.
  @Test(arguments: SolverStrategy.exact)
  func anyErrorAtAHigherLevelOutweighsAnyAmountBelow(kind: SolverStrategy) throws {
    var solver = kind.makeSolver()
    let x = Variable(0)
    try solver.add(ConstraintID(0), (x == 0).at(251))
    for index in 1...1001 {
      try solver.add(ConstraintID(index), (x == 10).at(250))
    }
    #expect(solver.value(of: x) == 0)

    // Lower the 251 to 249 and the 250s win; raise it back and it wins again.
    try solver.setPriority(ConstraintID(0), 249)
    #expect(solver.value(of: x) == 10)
    try solver.setPriority(ConstraintID(0), 251)
    #expect(solver.value(of: x) == 0)
  }

  /// Within one level, errors add up (L1): three pulls to 10 beat two pulls to 0.
  @Test(arguments: SolverStrategy.exact)
  func errorsWithinALevelAddUp(kind: SolverStrategy) throws {
    var solver = kind.makeSolver()
    let x = Variable(0)
    for index in 0..<3 { try solver.add(ConstraintID(index), (x == 10).at(500)) }
    for index in 3..<5 { try solver.add(ConstraintID(index), (x == 0).at(500)) }
    #expect(solver.value(of: x) == 10)
    try solver.remove(ConstraintID(0))
    try solver.remove(ConstraintID(1))
    #expect(solver.value(of: x) == 0)
  }

  /// UIKit's fractional levels (999.5 and 999.999 in stack views) are levels of their own.
  @Test(arguments: SolverStrategy.exact)
  func fractionalPrioritiesAreDistinctLevels(kind: SolverStrategy) throws {
    var solver = kind.makeSolver()
    let x = Variable(0)
    try solver.add(ConstraintID(0), (x == 1).at(999.5))
    try solver.add(ConstraintID(1), (x == 2).at(999.999))
    try solver.add(ConstraintID(2), (x == 3).at(999))
    #expect(solver.value(of: x) == 2)
    #expect(solver.statistics.priorityLevels == 3)
  }
}

@Suite struct PriorityChangeTests {
  /// Rebuilding a row for required ↔ optional makes new symbols before the old ones are freed;
  /// the storage must make room for them (a sparse column index once overflowed here).
  @Test(arguments: SolverStrategy.exact)
  func togglingRequiredAndOptionalRepeatedly(kind: SolverStrategy) throws {
    var solver = kind.makeSolver()
    let (x, y) = (Variable(0), Variable(1))
    try solver.add(ConstraintID(0), x + y == 100)
    try solver.add(ConstraintID(1), (x == 30).at(500))
    try solver.add(ConstraintID(2), (x == 70).at(400))
    for round in 0..<50 {
      let required = round.isMultiple(of: 2)
      try solver.setPriority(ConstraintID(2), required ? .required : 400)
      #expect(solver.value(of: x) == (required ? 70 : 30))
      #expect(solver.value(of: y) == (required ? 30 : 70))
    }
    #expect(solver.statistics.symbols < 20)
  }
}
