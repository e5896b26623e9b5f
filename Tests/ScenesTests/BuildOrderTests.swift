import AutoLayout
import Cassowary
import Scenes
import Testing

/// How a build's work depends on the order of its constraints. The scenes add their constraints
/// in their engine's order; a client may fix the root first, and a rebuild
/// (``SparseSolver/solveFromScratch()``) adds them in its canonical order, which puts the root's
/// constraints first too. On dynamic-form, rows linked by required inequalities with size
/// preferences on every height, such orders used to cost quadratic work: a required inequality
/// defined a height from the row below, or a new optional row walked the whole chain above it.
/// The measure is the rows substituted and the definitions expanded
/// (``SolverStatistics/substitutedRows``, ``SolverStatistics/expandedDefinitions``), which
/// repeat exactly.
@Suite("Build order")
struct BuildOrderTests {
  /// The orders a build is measured in.
  enum Order: String, CaseIterable, CustomStringConvertible, Sendable {
    /// As the engine installs them.
    case engine
    /// The required constraints on one variable (the root's position) first.
    case rootFirst
    /// Built in the engine's order, then rebuilt by `solveFromScratch()`.
    case rebuilt

    var description: String { rawValue }
  }

  /// The rows substituted and definitions expanded while building a dynamic-form of `views`
  /// views in `order` (for ``Order/rebuilt``, while rebuilding it), and its values.
  static func build(views: Int, order: Order) throws -> (work: Int, values: [Double]) {
    let scene = try Scene(.dynamicForm, views: views)
    scene.layOut()
    let engine = scene.root.layoutEngine!
    var rows: [Constraint] = []
    for lowered in engine.loweredConstraints() { rows.append(contentsOf: lowered.rows) }
    if order == .rootFirst {
      let fixed = rows.filter { $0.priority.isRequired && $0.expression.terms.count == 1 }
      rows = fixed + rows.filter { !($0.priority.isRequired && $0.expression.terms.count == 1) }
    }
    var solver = SparseSolver()
    solver.beginBatch()
    try solver.add(contentsOf: rows.enumerated().map { (ConstraintID($0.offset), $0.element) })
    solver.endBatch()
    func work(_ statistics: SolverStatistics) -> Int {
      statistics.substitutedRows + statistics.expandedDefinitions
    }
    var built = work(solver.statistics)
    if order == .rebuilt {
      try solver.solveFromScratch()
      built = work(solver.statistics) - built
    }
    let values = (0..<engine.solverVariableCapacity).map { solver.value(of: Variable($0)) }
    return (built, values)
  }

  /// Four times the views cost at most five times the work, in every order (quadratic, it was
  /// 11 to 15 times: 10,799 → 121,624 rows and definitions fixing the root first, 22,871 →
  /// 331,555 rebuilding).
  @Test(arguments: Order.allCases)
  func dynamicFormBuildsInLinearWork(order: Order) throws {
    let small = try Self.build(views: 200, order: order)
    let large = try Self.build(views: 800, order: order)
    #expect(large.work <= 5 * small.work, "\(small.work) → \(large.work)")
  }

  /// The order changes the tableau, not the layout: the optimum is unique.
  @Test(arguments: [Order.rootFirst, .rebuilt])
  func everyOrderLaysOutTheSame(order: Order) throws {
    let engine = try Self.build(views: 200, order: .engine).values
    let other = try Self.build(views: 200, order: order).values
    let differing = zip(engine, other).filter { abs($0 - $1) > 1e-7 * max(1, abs($0)) }
    #expect(differing.isEmpty, "\(differing.count) of \(engine.count) values differ")
  }
}
