/// The optimized solver: Cassowary on ``SparseTableau`` (flat storage with a column index, rows
/// kept as written).
///
/// A concrete type rather than an alias of `Solver<SparseTableau>`, so that the whole engine is
/// compiled specialized for its storage whoever calls it: generic code reached from another module
/// runs unspecialized, with dynamic dispatch and boxed closure captures.
public struct SparseSolver: LayoutSolver {
  var core = Solver(tableau: SparseTableau())

  /// An empty solver.
  public init() {}

  public mutating func add(_ id: ConstraintID, _ constraint: Constraint) throws(SolverError) {
    try core.add(id, constraint)
  }
  public mutating func add(
    contentsOf constraints: [(ConstraintID, Constraint)]
  ) throws(SolverError) {
    try core.add(contentsOf: constraints)
  }
  public mutating func add(
    contentsOf constraints: [(ConstraintID, Constraint)], leading: [Int]
  ) throws(SolverError) {
    try core.add(contentsOf: constraints, leading: leading)
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
  /// ``SparseSolver``: the optimized tableau solver, and the reference the default is checked
  /// against.
  public static let sparse = SolverStrategy(
    name: "sparse",
    summary: "Cassowary on a sparse tableau (rows as written, a column index); the reference",
    capabilities: [.incrementalUpdates, .inPlaceConstants, .lexicographicPriorities],
    make: { SparseSolver() })
}
