import Cassowary
import Testing

/// A `ConstraintBatch` says what the constraints it was written from say, a solver given one
/// ends as `add(contentsOf:)` leaves it, and the solver's store of terms gives every constraint
/// back as it was added, through removals, reuse and packing.
@Suite struct ConstraintBatchTests {
  /// A chain of `count` views: each one's left at the last one's right plus 8, a width of at
  /// least 20 and preferably 30 + its index, and the last one's right at most 3,000 (less than
  /// the widths prefer).
  static func chain(_ count: Int) -> [(ConstraintID, Constraint)] {
    var constraints: [(ConstraintID, Constraint)] = []
    func add(_ constraint: Constraint) {
      constraints.append((ConstraintID(Int32(constraints.count)), constraint))
    }
    add(Variable(0) == LinearExpression(constant: 0))
    for index in 0..<count {
      let left = Variable(1 + 2 * index)
      let width = Variable(2 + 2 * index)
      let previousRight =
        index == 0
        ? LinearExpression(Variable(0))
        : LinearExpression(Variable(1 + 2 * (index - 1))) + LinearExpression(Variable(2 * index))
      add(left == previousRight + LinearExpression(constant: 8))
      add(width >= LinearExpression(constant: 20))
      add((width == LinearExpression(constant: Double(30 + index))).at(Priority(250)))
    }
    let last = LinearExpression(Variable(2 * count - 1)) + LinearExpression(Variable(2 * count))
    add(last <= LinearExpression(constant: 3_000))
    return constraints
  }

  /// `constraints` written term by term.
  static func written(_ constraints: [(ConstraintID, Constraint)]) -> ConstraintBatch {
    var batch = ConstraintBatch()
    for (id, constraint) in constraints {
      for term in constraint.expression.terms { batch.appendTerm(term) }
      batch.endConstraint(
        id, constant: constraint.expression.constant, relation: constraint.relation,
        priority: constraint.priority)
    }
    return batch
  }

  @Test func aBatchSaysWhatItsConstraintsSay() {
    let constraints = Self.chain(40)
    for batch in [ConstraintBatch(constraints), Self.written(constraints)] {
      #expect(batch.count == constraints.count)
      for index in constraints.indices {
        #expect(batch.id(at: index) == constraints[index].0)
        #expect(batch[index] == constraints[index].1)
      }
      let rest = batch.suffix(from: 100)
      #expect(rest.count == constraints.count - 100)
      #expect(rest[0] == constraints[100].1 && rest.id(at: 0) == constraints[100].0)
    }
  }

  @Test func twoConstraintsShareTheirTerms() {
    let x = Variable(0)
    var batch = ConstraintBatch()
    batch.appendTerm(Term(x, 2))
    batch.endConstraint(
      ConstraintID(0), constant: -40, relation: .lessThanOrEqual, priority: Priority(250))
    batch.appendOverLastTerms(ConstraintID(1), relation: .greaterThanOrEqual, priority: 750)
    #expect(batch[0] == (LinearExpression([Term(x, 2)], constant: -40) <= .init()).at(250))
    #expect(batch[1] == (LinearExpression([Term(x, 2)], constant: -40) >= .init()).at(750))
    var solver = SparseSolver()
    #expect(throws: Never.self) { try solver.add(batch, leading: []) }
    #expect(solver.value(of: x) == 20)
    #expect(solver.constraint(ConstraintID(1)) == batch[1])
  }

  @Test(arguments: SolverStrategy.exact)
  func aBatchBuildsWhatAddingItsConstraintsBuilds(_ kind: SolverStrategy) throws {
    let constraints = Self.chain(60)
    var byArray = kind.makeSolver()
    var byBatch = kind.makeSolver()
    try byArray.add(contentsOf: constraints, leading: [])
    try byBatch.add(Self.written(constraints), leading: [])
    for variable in (0...120).map(Variable.init) {
      #expect(byBatch.value(of: variable) == byArray.value(of: variable))
    }
    for (id, constraint) in constraints {
      #expect(byBatch.constraint(id) == constraint)
    }
    #expect(byBatch.statistics == byArray.statistics)
  }

  /// Labels name a refused constraint and the ones it conflicts with, and stay only with the
  /// constraints the solver holds.
  @Test func aRefusedBatchNamesItsConstraintsByLabel() {
    let x = Variable(0)
    var constraints = (0..<70).map { index in
      (
        ConstraintID(Int32(index)),
        (LinearExpression(Variable(index + 1)) == LinearExpression(x) + .init(constant: 1))
          .labeled("line \(index + 1)")
      )
    }
    constraints[10].1 = (x == LinearExpression(constant: 5)).labeled("line 11")
    constraints[20].1 = (x == LinearExpression(constant: 6)).labeled("line 21")
    var solver = SparseSolver()
    var thrown: SolverError? = nil
    do throws(SolverError) {
      try solver.add(contentsOf: constraints)
    } catch {
      thrown = error
    }
    guard case .unsatisfiable(let id, let refused, let conflicts) = thrown else {
      Issue.record("expected a refusal, got \(String(describing: thrown))")
      return
    }
    #expect(id == ConstraintID(20) && refused.label == "line 21")
    #expect(conflicts[ConstraintID(10)]?.label == "line 11")
    #expect(solver.constraint(ConstraintID(19))?.label == "line 20")
    #expect(solver.constraint(ConstraintID(20)) == nil)
    // The refused id's label is gone with it: the same id added again has none.
    #expect(throws: Never.self) {
      try solver.add(ConstraintID(20), Variable(99) == LinearExpression(x))
    }
    #expect(solver.constraint(ConstraintID(20))?.label == nil)
  }

  /// Thousands of constraints removed and others added in their place (reusing runs of the
  /// store, then packing it), then a rebuild: every constraint left reads as it was added.
  @Test func theTermStoreGivesBackWhatWasAdded() throws {
    var solver = SparseSolver()
    var held: [ConstraintID: Constraint] = [:]
    var next: Int32 = 0
    func constraint(_ index: Int32) -> Constraint {
      let terms = (0...(index % 4)).map { Term(Variable(Int(index) + Int($0)), Double($0 + 1)) }
      return (LinearExpression(terms, constant: Double(index)) >= .init()).at(
        Priority(Float(100 + index % 7)))
    }
    for _ in 0..<6_000 {
      let id = ConstraintID(next)
      held[id] = constraint(next)
      try solver.add(id, held[id]!)
      next += 1
    }
    for round in 0..<3 {
      for id in held.keys.sorted() where Int(id.rawValue) % 5 != round {
        try solver.remove(id)
        held[id] = nil
      }
      for _ in 0..<500 {
        let id = ConstraintID(next)
        held[id] = constraint(next)
        try solver.add(id, held[id]!)
        next += 1
      }
      for (id, constraint) in held { #expect(solver.constraint(id) == constraint) }
    }
    try solver.solveFromScratch()
    for (id, constraint) in held { #expect(solver.constraint(id) == constraint) }
    #expect(solver.statistics.constraints == held.count)
  }
}
