import Cassowary
import PropertyBased
import Testing

/// The primal simplex passes the breakpoints of optional constraints in long steps. These tests
/// check the answers it reaches that way, and that it does take long steps where they apply.
@Suite struct LongStepTests {
  /// Label widths of a form whose labels align: one shared width, hugging each label at 251 and
  /// resisting compression at 750. The widest label wins, past every narrower one.
  static func alignedLabels(_ count: Int) -> [Double] {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    return (0..<count).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(40 + (state >> 33) % 200)
    }
  }

  func addLabels(
    _ widths: [Double], sharing width: Variable, to solver: inout some LayoutSolver
  ) throws {
    try solver.batch { (solver) throws(SolverError) in
      for (index, intrinsic) in widths.enumerated() {
        let constant = LinearExpression(constant: intrinsic)
        try solver.add(ConstraintID(2 * index), (width <= constant).at(251))
        try solver.add(ConstraintID(2 * index + 1), (width >= constant).at(750))
      }
    }
  }

  @Test(arguments: SolverStrategy.exact)
  func theWidestLabelWinsInLongSteps(kind: SolverStrategy) throws {
    var solver = kind.makeSolver()
    let width = Variable(0)
    let widths = Self.alignedLabels(300)
    try addLabels(widths, sharing: width, to: &solver)
    #expect(solver.value(of: width) == widths.max()!)
    // Without long steps each narrower label would be a pivot of its own.
    #expect(solver.statistics.breakpointsPassed > 0)
  }

  /// A required cap stops the step where it binds: breakpoints past it are not passed.
  @Test(arguments: SolverStrategy.exact)
  func aRequiredBoundStopsTheStep(kind: SolverStrategy) throws {
    var solver = kind.makeSolver()
    let width = Variable(0)
    let widths = Self.alignedLabels(100)
    try solver.add(ConstraintID(10_000), width <= 120)
    try addLabels(widths, sharing: width, to: &solver)
    #expect(solver.value(of: width) == 120)
  }

  /// A stronger optional constraint stops the step too: crossing it would make the move worse.
  @Test(arguments: SolverStrategy.exact)
  func aStrongerLevelStopsTheStep(kind: SolverStrategy) throws {
    var solver = kind.makeSolver()
    let width = Variable(0)
    let widths = Self.alignedLabels(100)
    try solver.add(ConstraintID(10_000), (width == 150).at(800))
    try addLabels(widths, sharing: width, to: &solver)
    #expect(solver.value(of: width) == 150)
    // Remove it and the widest label wins again.
    try solver.remove(ConstraintID(10_000))
    #expect(solver.value(of: width) == widths.max()!)
  }

  /// Random systems rich in breakpoints (many optional constraints on few variables, added in
  /// one batch so that one optimization crosses many of them) reach the lexicographic optimum
  /// the reference LP finds, on both solvers alike. With `tied`, the constants come from a few
  /// values, so that many breakpoints coincide and long steps that move nothing are taken too.
  @Test(arguments: [false, true])
  func breakpointRichSystemsReachTheOptimum(tied: Bool) async {
    var passed = 0
    var degenerate = 0
    await propertyCheck(count: propertyCaseCount(200), input: Gen.uint64(in: 0...UInt64.max)) {
      seed in
      var random = SeededGenerator(seed: seed)
      let variableCount = Int.random(in: 1...3, using: &random)
      var constraints: [(ConstraintID, Constraint)] = []
      for index in 0..<Int.random(in: 5...40, using: &random) {
        var expression = LinearExpression(
          [Term(Variable(Int.random(in: 0..<variableCount, using: &random)))])
        if Int.random(in: 0..<4, using: &random) == 0 {
          expression.terms.append(
            Term(Variable(Int.random(in: 0..<variableCount, using: &random)), -1))
        }
        expression.constant =
          tied
          ? Double(20 * Int.random(in: -2...2, using: &random))
          : Double(Int.random(in: -100...100, using: &random))
        let relation = [Relation.equal, .lessThanOrEqual, .greaterThanOrEqual]
          .randomElement(using: &random)!
        let priority = [Priority(250), 251, 750, 999].randomElement(using: &random)!
        let constraint = Constraint(expression, relation, priority: priority)
        constraints.append((ConstraintID(index), constraint))
      }
      for index in 0..<variableCount {
        let id = ConstraintID(constraints.count)
        let stay = (Variable(index) == LinearExpression(constant: Double(index)))
          .at(Priority(Float(1 + index)) / 4)
        constraints.append((id, stay))
      }
      var sparse = SparseSolver()
      var dense = DenseSolver()
      #expect(throws: Never.self, "seed \(seed)") {
        try sparse.batch { (solver) throws(SolverError) in
          for (id, constraint) in constraints { try solver.add(id, constraint) }
        }
        try dense.batch { (solver) throws(SolverError) in
          for (id, constraint) in constraints { try solver.add(id, constraint) }
        }
      }
      let system = RandomSystem(variableCount: variableCount, constraints: constraints)
      expectSameValues(sparse, dense, variables: variableCount, seed: seed, "sparse/dense")
      expectOptimal(sparse, system, seed: seed)
      passed += sparse.statistics.breakpointsPassed
      degenerate += sparse.statistics.degenerateLongSteps
    }
    // The systems exercise the long step, not only the textbook one.
    #expect(passed > 0)
    if tied { #expect(degenerate > 0) }
  }

  /// The intrinsic widths of the form's labels and fields (``installForm``).
  static let formLabels = alignedLabels(240)
  static let formFields = alignedLabels(480).suffix(240).map { $0 + 1.5 }
  /// The form's root, label and field widths.
  static let formWidths = [Variable(0), Variable(1), Variable(2)]

  /// A form's widths: the root (variable 0, an edit variable at 999, suggested `rootWidth`)
  /// holds one label width (1) and one field width (2) with 40 points between; each label and
  /// field of the lists hugs at 251 and 250 and resists compression at 750, four constraints
  /// each, from id 1.
  static func installForm(
    in solver: inout some LayoutSolver, labels: [Double], fields: [Double], rootWidth: Double
  ) throws {
    let (root, label, field) = (formWidths[0], formWidths[1], formWidths[2])
    try solver.addEditVariable(root, priority: 999)
    try solver.suggestValue(root, rootWidth)
    try solver.batch { (solver) throws(SolverError) in
      try solver.add(ConstraintID(0), label + field + 40 == LinearExpression(root))
      for (index, (labelWidth, fieldWidth)) in zip(labels, fields).enumerated() {
        let id = Int32(1 + 4 * index)
        let labelIntrinsic = LinearExpression(constant: labelWidth)
        let fieldIntrinsic = LinearExpression(constant: fieldWidth)
        try solver.add(ConstraintID(id), (label >= labelIntrinsic).at(750))
        try solver.add(ConstraintID(id + 1), (label <= labelIntrinsic).at(251))
        try solver.add(ConstraintID(id + 2), (field >= fieldIntrinsic).at(750))
        try solver.add(ConstraintID(id + 3), (field <= fieldIntrinsic).at(250))
      }
    }
  }

  /// A form's rows share a label width and a field width that fill the root: the optimum at
  /// 750 is a weighted median of the labels' and fields' intrinsic widths. Resizing the root
  /// moves it past many of them; the dual simplex sets those rows aside, swaps their pairs in
  /// place and re-optimizes, and must land where a fresh solve does.
  @Test(arguments: SolverStrategy.exact)
  func aResizePastManyBreakpointsSwapsThemInPlace(kind: SolverStrategy) throws {
    let (labels, fields) = (Self.formLabels, Self.formFields)
    var solver = kind.makeSolver()
    try Self.installForm(in: &solver, labels: labels, fields: fields, rootWidth: 260)
    for rootWidth in [520.0, 260, 400] {
      let before = solver.statistics.breakpointsPassed
      try solver.suggestValue(Variable(0), rootWidth)
      #expect(solver.statistics.breakpointsPassed > before, "no swaps at root width \(rootWidth)")
      var fresh = kind.makeSolver()
      try Self.installForm(in: &fresh, labels: labels, fields: fields, rootWidth: rootWidth)
      for variable in Self.formWidths {
        #expect(abs(solver.value(of: variable) - fresh.value(of: variable)) <= 1e-9)
      }
    }
  }

  /// An update pass gives many labels new intrinsic widths in one batch. Their constraints are
  /// optional, so the dual simplex waits for the batch's end and settles them all in one run:
  /// it lands where one re-solve per change and a fresh solve do, in fewer pivots (it swaps the
  /// pairs and re-optimizes once).
  @Test(arguments: SolverStrategy.exact)
  func optionalConstantsChangedInABatchAreSettledTogether(kind: SolverStrategy) throws {
    let (labels, fields) = (Self.formLabels, Self.formFields)
    // Every third label grows by 90 points: the shared width moves past many breakpoints.
    var changed = labels
    for index in stride(from: 0, to: changed.count, by: 3) { changed[index] += 90 }
    func update(_ solver: inout some LayoutSolver) throws {
      for index in stride(from: 0, to: changed.count, by: 3) {
        let id = Int32(1 + 4 * index)
        try solver.setConstant(ConstraintID(id), -changed[index])
        try solver.setConstant(ConstraintID(id + 1), -changed[index])
      }
    }
    var batched = kind.makeSolver()
    try Self.installForm(in: &batched, labels: labels, fields: fields, rootWidth: 400)
    var oneByOne = batched
    let pivotsBefore = batched.statistics.pivots
    batched.beginBatch()
    try update(&batched)
    batched.endBatch()
    try update(&oneByOne)
    var fresh = kind.makeSolver()
    try Self.installForm(in: &fresh, labels: changed, fields: fields, rootWidth: 400)
    for variable in Self.formWidths {
      #expect(abs(batched.value(of: variable) - fresh.value(of: variable)) <= 1e-9)
      #expect(abs(oneByOne.value(of: variable) - fresh.value(of: variable)) <= 1e-9)
    }
    #expect(batched.constraint(ConstraintID(1))?.expression.constant == -changed[0])
    let batchedPivots = batched.statistics.pivots - pivotsBefore
    let oneByOnePivots = oneByOne.statistics.pivots - pivotsBefore
    #expect(batchedPivots < oneByOnePivots, "\(batchedPivots) batched, \(oneByOnePivots) not")
  }
}
