import AutoLayout
import Cassowary

/// A solver that checks its tableau after every operation: the soak's `--verify-tableau`, which
/// names the first solver call that breaks the tableau's equations instead of the layout, many
/// operations later, that shows it.
///
/// Each check expands every constraint's equation through the rows (see
/// ``SparseSolver/structuralDefects(tolerance:)``): for scenes of a few hundred views.
struct VerifyingSolver<Base: LayoutSolver>: LayoutSolver {
  var base: Base
  /// The base solver's defects at a tolerance.
  let defects: (Base, Double) -> [String]
  /// The relative tolerance of a leftover term.
  let tolerance: Double
  private var depth = 0

  init(_ base: Base, tolerance: Double, defects: @escaping (Base, Double) -> [String]) {
    self.base = base
    self.tolerance = tolerance
    self.defects = defects
  }

  /// Stops the process with the defects after `operation`, when there are any. Inside a batch a
  /// row may wait, infeasible, for the batch's dual simplex: that is not a defect there.
  private func check(_ operation: @autoclosure () -> String) {
    var found = defects(base, tolerance)
    if depth > 0 { found.removeAll { $0.contains("is infeasible") } }
    guard !found.isEmpty else { return }
    fatalError(
      "the tableau is inconsistent after \(operation()):\n"
        + found.prefix(8).joined(separator: "\n"))
  }

  mutating func add(_ id: ConstraintID, _ constraint: Constraint) throws(SolverError) {
    defer { check("add(\(id), \(constraint))") }
    try base.add(id, constraint)
  }
  mutating func remove(_ id: ConstraintID) throws(SolverError) {
    defer { check("remove(\(id))") }
    try base.remove(id)
  }
  func contains(_ id: ConstraintID) -> Bool { base.contains(id) }
  func constraint(_ id: ConstraintID) -> Constraint? { base.constraint(id) }
  mutating func addEditVariable(_ variable: Variable, priority: Priority) throws(SolverError) {
    defer { check("addEditVariable(\(variable))") }
    try base.addEditVariable(variable, priority: priority)
  }
  mutating func removeEditVariable(_ variable: Variable) throws(SolverError) {
    defer { check("removeEditVariable(\(variable))") }
    try base.removeEditVariable(variable)
  }
  func hasEditVariable(_ variable: Variable) -> Bool { base.hasEditVariable(variable) }
  mutating func suggestValue(_ variable: Variable, _ value: Double) throws(SolverError) {
    defer { check("suggestValue(\(variable), \(value))") }
    try base.suggestValue(variable, value)
  }
  mutating func setConstant(_ id: ConstraintID, _ constant: Double) throws(SolverError) {
    defer { check("setConstant(\(id), \(constant))") }
    try base.setConstant(id, constant)
  }
  mutating func setPriority(_ id: ConstraintID, _ priority: Priority) throws(SolverError) {
    defer { check("setPriority(\(id), \(priority))") }
    try base.setPriority(id, priority)
  }
  mutating func beginBatch() {
    base.beginBatch()
    depth += 1
  }
  mutating func endBatch() {
    base.endBatch()
    depth -= 1
    check("endBatch()")
  }
  func value(of variable: Variable) -> Double { base.value(of: variable) }
  mutating func forEachChangedValue(_ body: (Variable, Double) -> Void) {
    base.forEachChangedValue(body)
  }
  mutating func solveFromScratch(renumbering newIDs: [Int32]) throws(SolverError) {
    defer { check("solveFromScratch(renumbering:)") }
    try base.solveFromScratch(renumbering: newIDs)
  }
  mutating func solveFromScratch() throws(SolverError) {
    defer { check("solveFromScratch()") }
    try base.solveFromScratch()
  }
  mutating func reset() { base.reset() }
  var statistics: SolverStatistics { base.statistics }
}

extension SolverStrategy {
  /// A solver of this strategy that checks its tableau after every operation.
  ///
  /// - Precondition: the strategy is ``SolverStrategy/sparse`` or ``SolverStrategy/dense``
  ///   (only ours expose their tableau).
  func makeVerifyingSolver(tolerance: Double) -> any LayoutSolver {
    if self == .sparse {
      return VerifyingSolver(SparseSolver(), tolerance: tolerance) {
        $0.structuralDefects(tolerance: $1)
      }
    }
    precondition(self == .dense, "\(name) has no tableau to verify")
    return VerifyingSolver(DenseSolver(), tolerance: tolerance) {
      $0.structuralDefects(tolerance: $1)
    }
  }
}
