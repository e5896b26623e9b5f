/// The operations every LayoutBench solver offers, so that the Auto Layout model, the scenes and
/// the harness can drive either solver and compare them.
///
/// Every throwing operation leaves the solver unchanged when it throws.
public protocol LayoutSolver {
  /// Adds `constraint` under `id`.
  mutating func add(_ id: ConstraintID, _ constraint: Constraint) throws(SolverError)
  /// Adds `constraints` as adding them one by one in order would, throwing what that would
  /// throw for the first one refused (those before it stay added, the rest are not); a solver
  /// may choose the order of its work, so that a layout's first build costs less than its
  /// constraints one at a time.
  mutating func add(contentsOf constraints: [(ConstraintID, Constraint)]) throws(SolverError)
  /// ``add(contentsOf:)``, told which constraints the others lean on: `leading` holds indices
  /// into `constraints`, in increasing order, of equalities that fix a variable the rest refer
  /// to (a root's frame). A solver that plans its build may add them first; the result, and
  /// what is thrown, are ``add(contentsOf:)``'s.
  mutating func add(
    contentsOf constraints: [(ConstraintID, Constraint)], leading: [Int]
  ) throws(SolverError)
  /// ``add(contentsOf:leading:)`` for constraints laid out as a ``ConstraintBatch``, which a
  /// client can write without making an array for each constraint's terms.
  mutating func add(_ batch: ConstraintBatch, leading: [Int]) throws(SolverError)
  /// Removes the constraint `id`.
  mutating func remove(_ id: ConstraintID) throws(SolverError)
  /// Whether the constraint `id` is in the solver.
  func contains(_ id: ConstraintID) -> Bool
  /// The constraint `id` as it is now (with its current constant and priority), if present.
  func constraint(_ id: ConstraintID) -> Constraint?

  /// Makes `variable` an edit variable whose suggestions hold at `priority` (below 1000).
  mutating func addEditVariable(_ variable: Variable, priority: Priority) throws(SolverError)
  /// Stops editing `variable`.
  mutating func removeEditVariable(_ variable: Variable) throws(SolverError)
  /// Whether `variable` is an edit variable.
  func hasEditVariable(_ variable: Variable) -> Bool
  /// Asks the edit variable `variable` to take `value`, and re-solves.
  mutating func suggestValue(_ variable: Variable, _ value: Double) throws(SolverError)

  /// Sets the constant of constraint `id`'s expression in place, without removing it, and
  /// re-solves. This is how Auto Layout changes `constraint.constant`.
  mutating func setConstant(_ id: ConstraintID, _ constant: Double) throws(SolverError)
  /// Changes constraint `id`'s priority; changing between required and optional removes and
  /// re-adds it, and is rolled back if the result is unsatisfiable.
  mutating func setPriority(_ id: ConstraintID, _ priority: Priority) throws(SolverError)

  /// Defers optimization until the outermost batch ends, for many changes at once. Inside a
  /// batch, constant changes of optional constraints are re-solved together, before the next
  /// other operation or at the end; until then ``value(of:)`` may read values that no longer
  /// satisfy every constraint (``forEachChangedValue(_:)`` re-solves first).
  mutating func beginBatch()
  /// Ends a batch; the outermost end re-optimizes.
  mutating func endBatch()

  /// The value of `variable` (0 for a variable no constraint mentions).
  func value(of variable: Variable) -> Double
  /// Calls `body` for every variable whose value changed since the last call, with its value.
  mutating func forEachChangedValue(_ body: (Variable, Double) -> Void)

  /// Rebuilds the tableau from the current constraints and edit suggestions and solves it from
  /// scratch: the full solve that incremental updates are compared against.
  mutating func solveFromScratch() throws(SolverError)
  /// ``solveFromScratch()``, with the constraints' ids changed on the way: the constraint with
  /// id `i` comes back as `newIDs[i]`. The client closes the gaps that constraints coming and
  /// going left in its ids, so that tables indexed by id hold only the constraints there are.
  /// Every constraint's entry must be a distinct id (≥ 0); unchanged if it throws.
  ///
  /// - Complexity: as ``solveFromScratch()``.
  mutating func solveFromScratch(renumbering newIDs: [Int32]) throws(SolverError)
  /// Removes every constraint and edit variable.
  mutating func reset()

  /// Figures about the tableau's size, for reports.
  var statistics: SolverStatistics { get }
}

extension LayoutSolver {
  /// Runs `body` inside a batch.
  public mutating func batch<Result, Failure: Error>(
    _ body: (inout Self) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    beginBatch()
    defer { endBatch() }
    return try body(&self)
  }

  /// Adds the constraints one by one.
  public mutating func add(
    contentsOf constraints: [(ConstraintID, Constraint)]
  ) throws(SolverError) {
    for (id, constraint) in constraints { try add(id, constraint) }
  }

  /// Adds the constraints as ``add(contentsOf:)`` does, without use for the hint.
  public mutating func add(
    contentsOf constraints: [(ConstraintID, Constraint)], leading: [Int]
  ) throws(SolverError) {
    try add(contentsOf: constraints)
  }

  /// Adds the batch's constraints as ``add(contentsOf:leading:)`` does, copying each one's terms
  /// into an array of its own.
  public mutating func add(_ batch: ConstraintBatch, leading: [Int]) throws(SolverError) {
    try add(contentsOf: batch.constraints, leading: leading)
  }
}

/// The size of a solver's tableau.
public struct SolverStatistics: Equatable, Sendable {
  /// Constraints in the solver.
  public var constraints: Int
  /// External variables with a symbol in the tableau.
  public var variables: Int
  /// Symbols of every kind (external, slack, error, dummy).
  public var symbols: Int
  /// Rows, including the objective's.
  public var rows: Int
  /// Non-zero cells in all rows.
  public var cells: Int
  /// The most cells in one row.
  public var maximumRowCells: Int
  /// Distinct optional priority levels in the objective.
  public var priorityLevels: Int
  /// Pivots performed since the solver was made.
  public var pivots: Int
  /// Rows rewritten since the solver was made because a symbol they held became basic (by a
  /// pivot, or as a new constraint's subject) and was substituted out: the cost of those steps
  /// beyond their own row. Deterministic, so tests can bound how an operation's work grows with
  /// the system (a pivot whose symbol sits in every row is what makes a solver quadratic).
  public var substitutedRows: Int = 0
  /// Definitions substituted into rows since the solver was made, to write a row over
  /// non-basic symbols only (a new optional row, a restricted row). Deterministic, like
  /// ``substitutedRows``: a row reaching through a chain of definitions costs the chain.
  public var expandedDefinitions: Int = 0
  /// Breakpoints of optional constraints the primal simplex passed in long steps instead of
  /// pivoting at each (each pass is a pivot inside one row, counted in ``pivots`` too).
  public var breakpointsPassed: Int = 0
  /// Long steps that passed breakpoints sitting exactly where the step began, so that the step
  /// moved nothing (each ends in a pivot, counted in ``pivots`` too).
  public var degenerateLongSteps: Int = 0
  /// Times the tableau was rebuilt from the constraints because round-off had worn it (an
  /// equation off by more than a relative 1e-10 at the current values) or an optimization
  /// cycled; see the solvers' documentation on refactorization.
  public var refactorizations: Int = 0
  /// Bytes held by the tableau storage.
  public var tableauBytes: Int
  /// Bytes held by the solver's other tables (symbols, variables, constraints, scratch, log).
  public var bookkeepingBytes: Int
}
