/// What a system's equalities determine, ordered for evaluation: each equality is matched to the
/// unknown it fixes, and the matched pairs are grouped into *blocks*, the smallest sets of
/// equalities that must be solved together, in an order where each block needs only known
/// variables, free variables and the blocks before it (the block triangular form of the
/// equalities' incidence matrix).
///
/// Most of a layout is determined this way: a chain of required equalities fixes each edge from
/// the one before it, and a grid's split (two equal widths filling a known one) is a block of a
/// few equalities. Evaluating the plan costs each equality's terms once, with no tableau, no
/// pivots and no objective; only the unknowns the equalities leave free need an optimizer.
///
/// ```swift
/// var names = VariableTable()
/// let width = names.make("width"), left = names.make("left"), right = names.make("right")
/// let plan = try EqualityPlan(
///   equalities: [
///     LinearExpression([Term(left)], constant: -8),                       // left == 8
///     LinearExpression([Term(right), Term(left, -1), Term(width, -1)]),  // right == left + width
///   ],
///   variableCount: names.count, known: [width])
/// var values = [100.0, 0, 0]
/// plan.evaluate(&values)  // values == [100, 8, 108]
/// ```
public struct EqualityPlan: Sendable {
  /// The number of variables the plan reads and writes (ids below it).
  public internal(set) var variableCount: Int

  /// The equalities in evaluation order, by their index in the input.
  var order: [Int32] = []
  /// The variable each equality in `order` determines.
  var subjects: [Int32] = []
  /// Where each block starts in `order`, then `order.count`.
  var blockStarts: [Int32] = [0]
  /// Each ordered equality's constant (its expression's, as written).
  var constants: [Double] = []
  /// Where each ordered equality's terms outside its block start in `otherVariables` and
  /// `otherCoefficients`, then the end.
  var otherStarts: [Int32] = [0]
  /// The terms outside their equality's block, ordered equality after equality.
  var otherVariables: [Int32] = []
  var otherCoefficients: [Double] = []
  /// For a block of one equality, the coefficient of its subject; for a larger block's rows,
  /// unused (its factors are in `factors`).
  var pivots: [Double] = []
  /// For a block of one equality, where its subject is among its terms as the incidence lists
  /// them (each variable once, where it was first written), so that its terms can be given
  /// back in order; ``unplacedSubject`` for a larger block's rows, or past position 254.
  var subjectPositions: [UInt8] = []
  /// Each block larger than one: its LU factors (rows × rows, row-major, unit lower triangle
  /// implied), at `factorStarts[block]`.
  var factors: [Double] = []
  /// Where each block's factors start in `factors`, and its row permutation in `permutations`
  /// (-1 for a block of one).
  var factorStarts: [Int32] = []
  var permutationStarts: [Int32] = []
  var permutations: [Int32] = []

  /// The equalities that no unknown was left to match (each is implied by, or conflicts with,
  /// the others), by their index in the input.
  public internal(set) var unmatchedEqualities: [Int] = []
  /// The unknowns no equality determines, in id order: what inequalities and optional
  /// constraints must decide. ``evaluate(_:)`` reads their values.
  public internal(set) var freeVariables: [Variable] = []
  /// The number of equalities in the largest block.
  public internal(set) var largestBlock = 0

  /// ``subjectPositions``' mark of a step whose subject's position is not kept.
  static var unplacedSubject: UInt8 { .max }

  /// The number of blocks.
  public var blockCount: Int { max(blockStarts.count - 1, 0) }

  /// The number of unknowns the equalities determine.
  public var determinedCount: Int { subjects.count }

  /// The variable the `k`-th equality in evaluation order determines, and that equality's index
  /// in the input.
  public func step(_ k: Int) -> (variable: Variable, equality: Int) {
    (Variable(id: subjects[k]), Int(order[k]))
  }

  /// The range of steps (see ``step(_:)``) that make up block `block`.
  public func steps(ofBlock block: Int) -> Range<Int> {
    Int(blockStarts[block])..<Int(blockStarts[block + 1])
  }

  /// Plans the evaluation of `equalities` (each meaning `expression == 0`) over variables with
  /// ids below `variableCount`, of which those in `known` have values given at evaluation.
  ///
  /// A variable's terms in one equality add up; a variable whose coefficients there sum to zero
  /// does not count as mentioned.
  ///
  /// - Throws: ``EqualityPlanError/singularBlock(equalities:)`` when a block's equalities are
  ///   dependent (the structure matches them, the coefficients do not).
  /// - Precondition: every variable's id is below `variableCount`.
  /// - Complexity: O(*t* + *u*·*t*) for *t* terms in all and *u* equalities that the first,
  ///   greedy matching pass leaves unmatched (each then searches for an augmenting path), plus
  ///   O(*k*³) for each block of *k* equalities.
  public init(equalities: [LinearExpression], variableCount: Int, known: [Variable] = [])
    throws(EqualityPlanError)
  {
    var isKnown = [Bool](repeating: false, count: variableCount)
    for variable in known { isKnown[Int(variable.id)] = true }
    try self.init(
      Incidence(equalities, variableCount: variableCount, isKnown: isKnown),
      avoiding: [Bool](repeating: false, count: variableCount),
      constants: equalities.map(\.constant))
  }

  /// Plans the equalities of `incidence`, whose constants are `constants`, leaving the unknowns
  /// `avoided` marks free where the structure allows
  /// (``Incidence/maximumMatching(avoiding:)``).
  ///
  /// - Complexity: as ``init(equalities:variableCount:known:)``.
  init(_ incidence: Incidence, avoiding avoided: [Bool], constants: [Double])
    throws(EqualityPlanError)
  {
    self.init()
    var workspace = Workspace()
    try rebuild(from: incidence, avoiding: avoided, constants: constants, in: &workspace)
  }

  /// Plans the equalities of `incidence` as ``init(_:avoiding:constants:)`` does, in this plan's
  /// tables emptied with their room kept and with `workspace` for room: a client that plans
  /// again and again allocates only where a table outgrows what it held.
  ///
  /// - Complexity: as ``init(equalities:variableCount:known:)``.
  mutating func rebuild(
    from incidence: Incidence, avoiding avoided: [Bool], constants: [Double],
    in workspace: inout Workspace
  ) throws(EqualityPlanError) {
    variableCount = incidence.isKnown.count
    incidence.maximumMatching(avoiding: avoided, in: &workspace)
    let matching = workspace.matching
    unmatchedEqualities.removeAll(keepingCapacity: true)
    for e in matching.subject.indices where matching.subject[e] < 0 {
      unmatchedEqualities.append(e)
    }
    freeVariables.removeAll(keepingCapacity: true)
    for v in 0..<variableCount where !incidence.isKnown[v] && matching.owner[v] < 0 {
      freeVariables.append(Variable(v))
    }
    incidence.blocks(of: matching, in: &workspace)
    try factorize(incidence, matching, constants: constants, in: &workspace)
  }

  /// An empty plan over no variables, holding no storage.
  init() {
    variableCount = 0
    blockStarts = []
    otherStarts = []
  }

  /// Writes the value of every determined variable into `values` (indexed by variable id), from
  /// the values there of the known and free variables, block after block.
  ///
  /// - Precondition: `values.count == variableCount`.
  /// - Complexity: O(*t*) for *t* terms, plus O(*k*²) for each block of *k* equalities; it
  ///   allocates nothing.
  public func evaluate(_ values: inout [Double]) {
    precondition(values.count == variableCount, "one value a variable")
    values.withUnsafeMutableBufferPointer { values in
      withUnsafeTemporaryAllocation(of: Double.self, capacity: max(largestBlock, 1)) { scratch in
        for block in 0..<blockCount {
          let start = Int(blockStarts[block]), end = Int(blockStarts[block + 1])
          if end - start == 1 {
            values[Int(subjects[start])] = rightSide(start, values) / pivots[start]
            continue
          }
          solveBlock(block, values, scratch)
          for (row, k) in (start..<end).enumerated() { values[Int(subjects[k])] = scratch[row] }
        }
      }
    }
  }

  /// `-(constant + Σ terms outside the block)` of the `k`-th ordered equality.
  @inline(__always)
  func rightSide(_ k: Int, _ values: UnsafeMutableBufferPointer<Double>) -> Double {
    var sum = constants[k]
    for index in Int(otherStarts[k])..<Int(otherStarts[k + 1]) {
      sum += otherCoefficients[index] * values[Int(otherVariables[index])]
    }
    return -sum
  }

  /// Solves block `block`, of two or more equalities, with its LU factors, from the values of
  /// the variables it reads: the value of each of its steps' variables, in step order, is left
  /// in `scratch`.
  func solveBlock(
    _ block: Int, _ values: UnsafeMutableBufferPointer<Double>,
    _ scratch: UnsafeMutableBufferPointer<Double>
  ) {
    let steps = Int(blockStarts[block])..<Int(blockStarts[block + 1])
    let factorStart = Int(factorStarts[block])
    let permutationStart = Int(permutationStarts[block])
    let size = steps.count
    // Forward: L y = P b.
    for row in 0..<size {
      var sum = rightSide(steps.lowerBound + Int(permutations[permutationStart + row]), values)
      for column in 0..<row { sum -= factors[factorStart + row * size + column] * scratch[column] }
      scratch[row] = sum
    }
    // Back: U x = y.
    for row in stride(from: size - 1, through: 0, by: -1) {
      var sum = scratch[row]
      for column in (row + 1)..<size {
        sum -= factors[factorStart + row * size + column] * scratch[column]
      }
      scratch[row] = sum / factors[factorStart + row * size + row]
    }
  }
}

extension EqualityPlan {
  /// Calls `body` with each term of step `k`, a block of one equality whose subject's position
  /// is kept: its terms outside the block, with its subject and pivot at that position.
  ///
  /// - Precondition: `subjectPositions[k] != unplacedSubject`.
  /// - Complexity: O(terms of the step).
  @inline(__always)
  func forEachTerm(ofStep k: Int, _ body: (Term) -> Void) {
    let position = Int(subjectPositions[k])
    let start = Int(otherStarts[k]), end = Int(otherStarts[k + 1])
    let subject = Term(Variable(id: subjects[k]), pivots[k])
    for index in start..<end {
      if index - start == position { body(subject) }
      body(Term(Variable(id: otherVariables[index]), otherCoefficients[index]))
    }
    if end - start == position { body(subject) }
  }

  /// Step `k`'s terms (see ``forEachTerm(ofStep:_:)``), for checks.
  func writtenTerms(ofStep k: Int) -> [Term] {
    var terms: [Term] = []
    forEachTerm(ofStep: k) { terms.append($0) }
    return terms
  }
}

/// Why an ``EqualityPlan`` could not be made.
public enum EqualityPlanError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The equalities of one block (by their index in the input) are dependent: their unknowns
  /// are matched one to one, but no values satisfy them uniquely.
  case singularBlock(equalities: [Int])

  public var description: String {
    switch self {
    case .singularBlock(let equalities):
      "the equalities \(equalities.map(String.init).joined(separator: ", ")) are dependent: "
        + "they do not fix their unknowns"
    }
  }
}

extension EqualityPlan {
  /// The steps (see ``step(_:)``) whose variables `expressions` mention, with every step those
  /// need, block by block, in evaluation order: the part of the plan that a solver given
  /// `expressions` must also be given, so that the plan can evaluate the rest from its answer.
  ///
  /// - Complexity: O(*t*) for *t* terms of `expressions` and of the equalities reached.
  public func stepsReached(from expressions: [LinearExpression]) -> [Int] {
    var blockOfStep = [Int32](repeating: 0, count: determinedCount)
    for block in 0..<blockCount {
      for k in steps(ofBlock: block) { blockOfStep[k] = Int32(block) }
    }
    var stepOf = [Int32](repeating: -1, count: variableCount)
    for k in 0..<determinedCount { stepOf[Int(subjects[k])] = Int32(k) }
    var reached = [Bool](repeating: false, count: blockCount)
    var pending: [Int32] = []
    func reach(_ variable: Int32) {
      let k = stepOf[Int(variable)]
      guard k >= 0 else { return }
      let block = Int(blockOfStep[Int(k)])
      guard !reached[block] else { return }
      reached[block] = true
      pending.append(Int32(block))
    }
    for expression in expressions {
      for term in expression.terms { reach(term.variable.id) }
    }
    while let block = pending.popLast() {
      for k in steps(ofBlock: Int(block)) {
        for index in Int(otherStarts[k])..<Int(otherStarts[k + 1]) { reach(otherVariables[index]) }
      }
    }
    return (0..<blockCount).filter { reached[$0] }.flatMap { steps(ofBlock: $0) }
  }
}
