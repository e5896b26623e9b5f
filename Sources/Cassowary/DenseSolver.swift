/// The baseline solver: the same Cassowary algorithm in its textbook form on ``DenseTableau``, a
/// dense rows × columns matrix that refuses to grow past a memory budget.
///
/// A concrete type for the same reason as ``SparseSolver``: so the comparison measures the
/// storage and the algorithm, not dispatch.
public struct DenseSolver: LayoutSolver {
  var core: Solver<DenseTableau>

  /// An empty solver whose matrix may grow to `memoryBudget` bytes (2 GiB by default).
  public init(memoryBudget: Int = DenseTableau.defaultMemoryBudget) {
    core = Solver(tableau: DenseTableau(memoryBudget: memoryBudget))
  }

  public mutating func add(_ id: ConstraintID, _ constraint: Constraint) throws(SolverError) {
    try core.add(id, constraint)
  }
  public mutating func add(
    contentsOf constraints: [(ConstraintID, Constraint)]
  ) throws(SolverError) {
    try core.add(contentsOf: constraints)
  }
  public mutating func add(_ batch: ConstraintBatch, leading: [Int]) throws(SolverError) {
    try core.add(batch, leading: leading)
  }
  public mutating func remove(_ id: ConstraintID) throws(SolverError) { try core.remove(id) }
  public func contains(_ id: ConstraintID) -> Bool { core.contains(id) }
  public func constraint(_ id: ConstraintID) -> Constraint? { core.constraint(id) }
  public mutating func addEditVariable(
    _ variable: Variable, priority: Priority
  ) throws(SolverError) {
    try core.addEditVariable(variable, priority: priority)
  }
  public mutating func removeEditVariable(_ variable: Variable) throws(SolverError) {
    try core.removeEditVariable(variable)
  }
  public func hasEditVariable(_ variable: Variable) -> Bool { core.hasEditVariable(variable) }
  public mutating func suggestValue(_ variable: Variable, _ value: Double) throws(SolverError) {
    try core.suggestValue(variable, value)
  }
  public mutating func setConstant(_ id: ConstraintID, _ constant: Double) throws(SolverError) {
    try core.setConstant(id, constant)
  }
  public mutating func setPriority(_ id: ConstraintID, _ priority: Priority) throws(SolverError) {
    try core.setPriority(id, priority)
  }
  public mutating func beginBatch() { core.beginBatch() }
  public mutating func endBatch() { core.endBatch() }
  public func value(of variable: Variable) -> Double { core.value(of: variable) }
  public mutating func forEachChangedValue(_ body: (Variable, Double) -> Void) {
    core.forEachChangedValue(body)
  }
  public mutating func solveFromScratch() throws(SolverError) { try core.solveFromScratch() }
  public mutating func solveFromScratch(renumbering newIDs: [Int32]) throws(SolverError) {
    try core.solveFromScratch(renumbering: newIDs)
  }
  public mutating func reset() { core.reset() }
  public var statistics: SolverStatistics { core.statistics }
  /// The tableau in a canonical order, for tests and debugging.
  public var tableauDescription: String { core.tableauDescription }
}

extension SolverStrategy {
  /// ``DenseSolver``: the textbook baseline, with its default memory budget.
  public static let dense = SolverStrategy(
    name: "dense",
    summary: "the same algorithm on a dense rows × columns matrix (2 GiB budget); the baseline",
    capabilities: [
      .incrementalUpdates, .inPlaceConstants, .lexicographicPriorities, .memoryBudget,
    ],
    make: { DenseSolver() })
}
