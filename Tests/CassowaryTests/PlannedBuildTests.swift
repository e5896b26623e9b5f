import Cassowary
import PropertyBased
import Testing

/// Random layout-like systems, large enough for ``SparseSolver/add(contentsOf:)`` to plan its
/// build: chains of required equalities (each variable placed from one made before it, some
/// closing a chain at a variable already placed, as a stack's last item ends at its edge),
/// required inequalities, optional constraints (some as siblings), and a stay per variable at
/// its own low priority, so that the optimum is unique. Every required constraint holds at a
/// hidden reference point, unless a conflict is injected.
struct LayoutSystemGenerator {
  var random: SeededGenerator
  let variableCount: Int
  let reference: [Double]
  var nextID: Int32 = 0

  init(seed: UInt64) {
    random = SeededGenerator(seed: seed)
    variableCount = Int.random(in: 30...70, using: &random)
    var reference: [Double] = []
    for _ in 0..<variableCount {
      reference.append(Double(Int.random(in: -200...200, using: &random)))
    }
    self.reference = reference
  }

  mutating func id() -> ConstraintID {
    defer { nextID += 1 }
    return ConstraintID(nextID)
  }

  /// `Σ terms + constant`, with the constant that makes it 0 at the reference point plus
  /// `offset`.
  func expression(_ terms: [(Int, Double)], offset: Double = 0) -> LinearExpression {
    var expression = LinearExpression(terms.map { Term(Variable($0.0), $0.1) })
    expression.constant = -expression.evaluate { reference[Int($0.id)] } + offset
    return expression
  }

  mutating func variable(below limit: Int) -> Int {
    Int.random(in: 0..<max(limit, 1), using: &random)
  }

  /// The system, in a shuffled order (or as written, with `shuffled` false).
  mutating func system(shuffled: Bool) -> [(ConstraintID, Constraint)] {
    var constraints: [(ConstraintID, Constraint)] = []
    for index in 1..<variableCount where Int.random(in: 0..<4, using: &random) != 0 {
      // Placed from an earlier variable, sometimes through a third one (a width).
      var terms = [(index, 1.0), (variable(below: index), -1.0)]
      if Bool.random(using: &random) { terms.append((variable(below: index), -1)) }
      constraints.append((id(), Constraint(expression(terms), .equal)))
    }
    for _ in 0..<(variableCount / 8) {
      // Closing a chain: two variables placed already, tied again (redundant but consistent).
      let a = variable(below: variableCount), b = variable(below: variableCount)
      guard a != b else { continue }
      constraints.append(
        (
          id(),
          Constraint(expression([(a, 1), (b, [-1, 1, 2].randomElement(using: &random)!)]), .equal)
        ))
    }
    for _ in 0..<(variableCount / 4) {
      let a = variable(below: variableCount), b = variable(below: variableCount)
      let slack = Double(Int.random(in: 0...30, using: &random))
      let relation = Bool.random(using: &random) ? Relation.lessThanOrEqual : .greaterThanOrEqual
      let offset = relation == .lessThanOrEqual ? -slack : slack
      constraints.append(
        (id(), Constraint(expression([(a, 1), (b, -1)], offset: offset), relation)))
    }
    for _ in 0..<(variableCount / 2) {
      let a = variable(below: variableCount)
      var expression = LinearExpression([Term(Variable(a))])
      expression.constant = Double(Int.random(in: -300...300, using: &random))
      let priority = SystemGenerator.optionalPriorities.randomElement(using: &random)!
      let relation = [Relation.equal, .lessThanOrEqual, .greaterThanOrEqual]
        .randomElement(using: &random)!
      constraints.append((id(), Constraint(expression, relation, priority: priority)))
      if Bool.random(using: &random) {
        // A sibling, as compression resistance follows hugging.
        let other: Relation = relation == .lessThanOrEqual ? .greaterThanOrEqual : .lessThanOrEqual
        constraints.append((id(), Constraint(expression, other, priority: 750)))
      }
    }
    if shuffled { constraints.shuffle(using: &random) }
    for index in 0..<variableCount {
      let target = Double(Int.random(in: -250...250, using: &random))
      constraints.append(
        (
          id(),
          (Variable(index) == LinearExpression(constant: target)).at(Priority(Float(1 + index)) / 8)
        ))
    }
    return constraints
  }

  /// The system, shuffled, with ``conflict(among:)`` inserted at a place `seed` chooses; nil
  /// when the system has no equality to conflict with.
  mutating func systemWithConflict(seed: UInt64) -> [(ConstraintID, Constraint)]? {
    var constraints = system(shuffled: true)
    guard let conflict = conflict(among: constraints) else { return nil }
    constraints.insert((id(), conflict), at: Int(seed % UInt64(constraints.count)))
    return constraints
  }

  /// A required equality that no value of the system can satisfy with it: the first required
  /// equality of two terms, with its constant moved by 17.
  func conflict(among constraints: [(ConstraintID, Constraint)]) -> Constraint? {
    let equality = constraints.first {
      $0.1.relation == .equal && $0.1.priority.isRequired && $0.1.expression.terms.count == 2
    }
    guard var expression = equality?.1.expression else { return nil }
    expression.constant += 17
    return Constraint(expression, .equal)
  }
}

@Suite struct PlannedBuildTests {
  /// The values, constraint by constraint, of a solver built one add at a time and of one built
  /// by `add(contentsOf:leading:)`.
  func build(
    _ constraints: [(ConstraintID, Constraint)], leading: [Int] = []
  ) -> (
    one: SparseSolver, planned: SparseSolver, oneError: SolverError?, plannedError: SolverError?
  ) {
    var one = SparseSolver()
    var oneError: SolverError?
    one.beginBatch()
    for (id, constraint) in constraints {
      do throws(SolverError) { try one.add(id, constraint) } catch {
        oneError = error
        break
      }
    }
    one.endBatch()
    var planned = SparseSolver()
    var plannedError: SolverError?
    planned.beginBatch()
    do throws(SolverError) { try planned.add(contentsOf: constraints, leading: leading) } catch {
      plannedError = error
    }
    planned.endBatch()
    return (one, planned, oneError, plannedError)
  }

  func expectSameValues(
    _ a: SparseSolver, _ b: SparseSolver, count: Int, _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for id in 0..<count {
      let x = a.value(of: Variable(id)), y = b.value(of: Variable(id))
      #expect(
        abs(x - y) <= 1e-7 * max(1, abs(x)), "\(context): variable \(id) \(x) vs \(y)",
        sourceLocation: sourceLocation)
    }
  }

  /// A planned build reaches the same optimum as adding one at a time, its tableau is sound,
  /// and incremental changes continue from it to the same values.
  @Test func plannedBuildsMatchAddingOneAtATime() async {
    await propertyCheck(count: propertyCaseCount(40), input: Gen.uint64(in: 0...UInt64.max)) {
      seed in
      checkPlannedBuild(seed: seed)
    }
  }

  /// Seeds that once failed, kept as regression cases.
  @Test(arguments: [UInt64(10_466_769_307_838_613_996)])
  func plannedBuildRegressions(seed: UInt64) {
    checkPlannedBuild(seed: seed)
  }

  /// Every third seed none, else some of the required equalities of `constraints`, to be added
  /// first (``SparseSolver/add(contentsOf:leading:)``): every third or every fourth.
  func leadingEqualities(of constraints: [(ConstraintID, Constraint)], seed: UInt64) -> [Int] {
    guard seed % 3 != 0 else { return [] }
    return constraints.indices.filter { index in
      let constraint = constraints[index].1
      return constraint.relation == .equal && constraint.priority.isRequired
        && index % Int(seed % 3 + 2) == 0
    }
  }

  /// Leading indices are a hint: out of range, repeated or out of order, they are passed over,
  /// and the build holds what adding one at a time holds.
  @Test func leadingIndicesOutOfRangeOrOrderArePassedOver() {
    var generator = LayoutSystemGenerator(seed: 7)
    let constraints = generator.system(shuffled: false)
    let equalities = constraints.indices.filter { constraints[$0].1.relation == .equal }
    let leading = [-1, equalities[3], equalities[3], equalities[1], constraints.count, .max]
    let (one, planned, oneError, plannedError) = build(constraints, leading: leading)
    #expect(oneError == nil && plannedError == nil)
    #expect(planned.structuralDefects().isEmpty)
    expectSameValues(one, planned, count: generator.variableCount, "leading \(leading)")
  }

  func checkPlannedBuild(seed: UInt64) {
    var generator = LayoutSystemGenerator(seed: seed)
    let constraints = generator.system(shuffled: seed % 2 == 0)
    let count = generator.variableCount
    var (one, planned, oneError, plannedError) = build(
      constraints, leading: leadingEqualities(of: constraints, seed: seed))
    #expect(
      oneError == nil && plannedError == nil,
      "seed \(seed): \(String(describing: oneError)) \(String(describing: plannedError))")
    #expect(planned.structuralDefects().isEmpty, "seed \(seed): \(planned.structuralDefects())")
    expectSameValues(one, planned, count: count, "seed \(seed), built")
    // Continue incrementally on both: a suggestion, constant changes, removals.
    let edited = Variable(Int(seed % UInt64(count)))
    for index in stride(from: 0, to: constraints.count, by: 7) {
      let (id, constraint) = constraints[index]
      let constant = constraint.expression.constant + (constraint.priority.isRequired ? 0 : 13)
      do throws(SolverError) {
        try one.setConstant(id, constant)
        try planned.setConstant(id, constant)
      } catch { Issue.record("seed \(seed): \(error)") }
    }
    // Not the stays (the last `count`), which keep the optimum unique.
    for index in stride(from: 3, to: constraints.count - count, by: 5) {
      do throws(SolverError) {
        try one.remove(constraints[index].0)
        try planned.remove(constraints[index].0)
      } catch { Issue.record("seed \(seed): \(error)") }
    }
    do throws(SolverError) {
      try one.addEditVariable(edited, priority: 900)
      try planned.addEditVariable(edited, priority: 900)
      try one.suggestValue(edited, 123)
      try planned.suggestValue(edited, 123)
    } catch { Issue.record("seed \(seed): \(error)") }
    #expect(planned.structuralDefects().isEmpty, "seed \(seed): \(planned.structuralDefects())")
    expectSameValues(one, planned, count: count, "seed \(seed), after changes")
  }

  /// A batch with a conflicting required constraint fails where adding one at a time fails:
  /// the same constraint refused, for the same conflicts, the ones before it added and the
  /// ones after it not.
  @Test func aPlannedBuildFailsAsAddingOneAtATime() async {
    await propertyCheck(count: propertyCaseCount(25), input: Gen.uint64(in: 0...UInt64.max)) {
      seed in
      var generator = LayoutSystemGenerator(seed: seed)
      guard let constraints = generator.systemWithConflict(seed: seed) else { return }
      let (one, planned, oneError, plannedError) = build(
        constraints, leading: leadingEqualities(of: constraints, seed: seed))
      #expect(oneError != nil, "seed \(seed): the conflict was not refused")
      #expect(plannedError == oneError, "seed \(seed)")
      for (id, _) in constraints {
        #expect(one.contains(id) == planned.contains(id), "seed \(seed): \(id)")
      }
      #expect(planned.structuralDefects().isEmpty, "seed \(seed)")
      expectSameValues(one, planned, count: generator.variableCount, "seed \(seed)")
    }
  }

  /// On a solver that holds something already (an edit variable), where a batch's size
  /// preferences may wait for equalities after them, the refused constraint is the one adding
  /// one at a time refuses, with every constraint before it held (size preferences too) and
  /// none after it. (The conflicts named may differ: such a solver is not rebuilt one by one.)
  @Test func aPlannedBuildOnAHeldSolverHoldsWhatCameBeforeTheRefusal() async {
    await propertyCheck(count: propertyCaseCount(25), input: Gen.uint64(in: 0...UInt64.max)) {
      seed in
      var generator = LayoutSystemGenerator(seed: seed)
      guard let constraints = generator.systemWithConflict(seed: seed) else { return }
      var one = SparseSolver()
      var planned = SparseSolver()
      var oneFailed: ConstraintID?
      var plannedFailed: ConstraintID?
      do throws(SolverError) {
        try one.addEditVariable(Variable(0), priority: 500)
        try planned.addEditVariable(Variable(0), priority: 500)
      } catch { Issue.record("seed \(seed): \(error)") }
      for (id, constraint) in constraints {
        do throws(SolverError) { try one.add(id, constraint) } catch {
          if case .unsatisfiable(let failed, _, _) = error { oneFailed = failed }
          break
        }
      }
      do throws(SolverError) { try planned.add(contentsOf: constraints) } catch {
        if case .unsatisfiable(let failed, _, _) = error { plannedFailed = failed }
      }
      #expect(oneFailed != nil && plannedFailed == oneFailed, "seed \(seed)")
      for (id, _) in constraints {
        #expect(one.contains(id) == planned.contains(id), "seed \(seed): \(id)")
      }
      // Not the values: the constraints after the refused one include the stays that make the
      // optimum unique, and this solver is not rebuilt one by one.
      #expect(planned.structuralDefects().isEmpty, "seed \(seed)")
    }
  }

  /// Invalid input is refused as one at a time refuses it: the first invalid constraint or
  /// duplicate id, with what comes before it added.
  @Test func invalidConstraintsAreRefusedInOrder() {
    var generator = LayoutSystemGenerator(seed: 5)
    var constraints = generator.system(shuffled: true)
    constraints.insert(constraints[10], at: 40)  // id used twice
    var solver = SparseSolver()
    #expect(throws: SolverError.duplicateConstraint(constraints[40].0, constraints[40].1)) {
      try solver.add(contentsOf: constraints)
    }
    for (index, (id, _)) in constraints.enumerated() where index != 40 {
      #expect(solver.contains(id) == (index < 40), "\(index)")
    }
  }

  /// Where the plan defines the variable one at a time would define too (each equality's
  /// newest variable, new to the tableau), the rows it writes at once hold the same cells,
  /// bit for bit: the same values, exactly. A variable that comes twice in an equality takes
  /// the usual path, with the same result.
  @Test func freshDefinitionsHoldWhatAddingOneAtATimeHolds() throws {
    var constraints: [(ConstraintID, Constraint)] = []
    func add(_ terms: [(Int, Double)], _ constant: Double) {
      let expression = LinearExpression(
        terms.map { Term(Variable(id: Int32($0.0)), $0.1) }, constant: constant)
      constraints.append((ConstraintID(Int32(constraints.count)), Constraint(expression, .equal)))
    }
    add([(0, 3)], -0.7)
    for index in 1..<200 {
      switch index % 3 {
      case 0: add([(index, 0.1), (index - 1, -0.3)], 1.0 / 3)
      case 1: add([(index, -7), (index - 1, 1), (index / 2, 0.25)], 0.1)
      default: add([(index, 1), (index, 2), (index - 1, -1)], 5)  // the variable twice
      }
    }
    let (one, planned, oneError, plannedError) = build(constraints)
    #expect(oneError == nil && plannedError == nil)
    #expect(planned.structuralDefects().isEmpty)
    #expect(planned.statistics.cells == one.statistics.cells)
    for id in Int32(0)..<200 {
      let variable = Variable(id: id)
      #expect(planned.value(of: variable) == one.value(of: variable), "\(id)")
    }
  }

  /// Size preferences, which a planned batch writes without the usual add's searches when
  /// their subject follows from their shape (a content hugging defining its variable, then its
  /// compression resistance written through the hugging's markers), leave the tableau one at a
  /// time leaves, bit for bit: the same rows, symbols, constants and coefficients. Also in the
  /// shapes that take the usual path: a variable an equality defines, a pair in either order,
  /// a preference alone, a coefficient other than 1, a preference that holds at zero.
  @Test func sizePreferencesHoldWhatAddingOneAtATimeHolds() throws {
    func constraint(
      _ variable: Int, _ coefficient: Double, _ relation: Relation, _ constant: Double,
      _ priority: Float = 1000
    ) -> Constraint {
      let expression = LinearExpression(
        [Term(Variable(id: Int32(variable)), coefficient)], constant: -constant)
      return Constraint(expression, relation, priority: Priority(priority))
    }
    // Held first by both solvers: variables 0..<20 defined, 20..<40 mentioned and free.
    var held: [(ConstraintID, Constraint)] = []
    for index in 0..<20 {
      let expression = LinearExpression(
        [Term(Variable(id: Int32(index)), 1), Term(Variable(id: Int32(index + 20)), -1)],
        constant: -3)
      held.append((ConstraintID(Int32(held.count)), Constraint(expression, .equal)))
    }
    var batch: [(ConstraintID, Constraint)] = []
    func add(_ constraint: Constraint) {
      batch.append((ConstraintID(Int32(held.count + batch.count)), constraint))
    }
    for variable in 0..<60 {
      let size = Double(20 + variable % 7) + (variable % 5 == 0 ? 0.1 : 0)
      let coefficient = variable % 4 == 3 ? 2.5 : 1
      switch variable % 6 {
      case 0, 1, 2:  // hugging, then compression resistance
        add(constraint(variable, coefficient, .lessThanOrEqual, size, 250))
        add(constraint(variable, coefficient, .greaterThanOrEqual, size, 750))
      case 3:  // the other way round
        add(constraint(variable, coefficient, .greaterThanOrEqual, size, 750))
        add(constraint(variable, coefficient, .lessThanOrEqual, size, 251))
      case 4:  // alone
        add(constraint(variable, coefficient, .lessThanOrEqual, size, 250))
      default:  // holding at zero
        add(constraint(variable, 1, .lessThanOrEqual, 0, 250))
        add(constraint(variable, 1, .greaterThanOrEqual, 0, 750))
      }
    }
    #expect(batch.count >= 64 && batch.count >= held.count)
    var one = SparseSolver()
    var planned = SparseSolver()
    for (id, constraint) in held {
      try one.add(id, constraint)
      try planned.add(id, constraint)
    }
    one.beginBatch()
    for (id, constraint) in batch { try one.add(id, constraint) }
    one.endBatch()
    planned.beginBatch()
    try planned.add(contentsOf: batch)
    planned.endBatch()
    #expect(planned.structuralDefects().isEmpty)
    #expect(planned.tableauDescription == one.tableauDescription)
    for id in Int32(0)..<60 {
      let variable = Variable(id: id)
      #expect(planned.value(of: variable) == one.value(of: variable), "\(id)")
    }
  }

  /// An id the solver holds already is refused where it comes in a planned batch, as one at a
  /// time refuses it, with the constraints before it added and the rest not.
  @Test func anIDTheSolverHoldsIsRefusedInOrder() {
    var generator = LayoutSystemGenerator(seed: 7)
    let constraints = generator.system(shuffled: false)
    var solver = SparseSolver()
    let held = constraints[3]
    do {
      try solver.add(held.0, held.1)
    } catch {
      Issue.record("\(error)")
    }
    var batch = Array(constraints[4...])
    batch.insert((held.0, held.1), at: 30)
    #expect(batch.count >= 64)
    #expect(throws: SolverError.duplicateConstraint(held.0, held.1)) {
      try solver.add(contentsOf: batch)
    }
    for (index, (id, _)) in batch.enumerated() where index != 30 {
      #expect(solver.contains(id) == (index < 30), "\(index)")
    }
  }

  /// A form's rows, as the engine hands them over: every row's equalities first, then the
  /// labels' and fields' content sizes. Most equalities define a variable that earlier rows
  /// mention already (a field's width, which its row's trailing edge refers to), alone in its
  /// block of the plan, so their cycles are not looked for: the tableau must still be sound,
  /// acyclic, and solve to the same values as one at a time.
  @Test func aFormsEqualitiesNeedNoCycleChecks() throws {
    var constraints: [(ConstraintID, Constraint)] = []
    func add(
      _ terms: [(Int, Double)], _ constant: Double, _ relation: Relation = .equal,
      _ priority: Priority = .required
    ) {
      let expression = LinearExpression(
        terms.map { Term(Variable(id: Int32($0.0)), $0.1) }, constant: constant)
      let constraint = Constraint(expression, relation, priority: priority)
      constraints.append((ConstraintID(Int32(constraints.count)), constraint))
    }
    // Variables: 0 the margin's x, 1 its width; row i: 2 + 4i label x, +1 label width,
    // +2 field x, +3 field width.
    add([(0, 1)], -16)
    add([(1, 1)], -343)
    let rows = 200
    for row in 0..<rows {
      let label = 2 + 4 * row, field = label + 2
      add([(label, 1), (0, -1)], 0)  // label.leading == margin.leading
      add([(field, 1), (label, -1), (label + 1, -1)], -8)  // field.leading == label.trailing + 8
      add([(field, 1), (field + 1, 1), (0, -1), (1, -1)], 0)  // field.trailing == margin.trailing
      if row > 0 { add([(field + 1, 1), (5, -1)], 0) }  // field.width == the first field's
    }
    for row in 0..<rows {
      let label = 2 + 4 * row
      let length = Double(40 + (row * 37) % 90)
      add([(label + 1, 1)], -length, .lessThanOrEqual, 250)
      add([(label + 1, 1)], -length, .greaterThanOrEqual, 750)
      add([(label + 3, 1)], -120, .lessThanOrEqual, 250)
      add([(label + 3, 1)], -120, .greaterThanOrEqual, 750)
    }
    let (one, planned, oneError, plannedError) = build(constraints)
    #expect(oneError == nil && plannedError == nil)
    #expect(planned.structuralDefects().isEmpty, "\(planned.structuralDefects().prefix(3))")
    for id in Int32(0)..<Int32(2 + 4 * rows) {
      let x = one.value(of: Variable(id: id)), y = planned.value(of: Variable(id: id))
      #expect(abs(x - y) <= 1e-7 * max(1, abs(x)), "v\(id): \(x) one by one, \(y) planned")
    }
  }
}
