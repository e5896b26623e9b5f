import Cassowary
import Testing

/// How the work of removing constraints one at a time, outside a batch, grows with the system.
/// The measure is ``SolverStatistics/substitutedRows``, which repeats exactly (timings do not).
@Suite("Removal cost")
struct RemovalCostTests {
  /// The order a client removes a system's constraints in.
  enum Order: String, CaseIterable, CustomStringConvertible, Sendable {
    case oldestFirst
    case newestFirst

    var description: String { rawValue }
  }

  /// A form's columns, as Fixed Height Columns lays them out: in each row a label and a field;
  /// every label's trailing edge aligns with the first label's and every field's width equals the
  /// first field's, so each row after the first is redundant through the first row's
  /// constraints. Returns the constraints in the order they were made.
  static func formColumns(rows: Int) -> [(ConstraintID, Constraint)] {
    var builder = SystemBuilder()
    var made: [(ConstraintID, Constraint)] = []
    func add(_ constraint: Constraint) { made.append((builder.nextID(), constraint)) }
    var first: (labelLeft: Variable, labelWidth: Variable, fieldWidth: Variable)? = nil
    for row in 0..<rows {
      let labelLeft = builder.variable("label\(row).left")
      let labelWidth = builder.variable("label\(row).width")
      let fieldLeft = builder.variable("field\(row).left")
      let fieldWidth = builder.variable("field\(row).width")
      let intrinsic = Double(40 + row * 37 % 80)
      add((labelWidth <= LinearExpression(constant: intrinsic)).at(251))
      add((labelWidth >= LinearExpression(constant: intrinsic)).at(750))
      add((fieldWidth <= LinearExpression(constant: 97)).at(250))
      add((fieldWidth >= LinearExpression(constant: 97)).at(750))
      add(labelLeft == 16)
      add(fieldLeft == labelLeft + labelWidth + 8)
      add(fieldLeft + fieldWidth == LinearExpression(constant: 375 - 16))
      if let first {
        add(labelLeft + labelWidth == first.labelLeft + first.labelWidth)
        add(fieldWidth == LinearExpression(first.fieldWidth))
      } else {
        first = (labelLeft, labelWidth, fieldWidth)
      }
    }
    return made
  }

  /// The rows rewritten while removing every constraint of a form of `rows` rows in `order`.
  static func teardownWork(
    rows: Int, order: Order, kind: SolverStrategy
  ) throws -> (work: Int, left: SolverStatistics) {
    var solver = kind.makeSolver()
    let constraints = formColumns(rows: rows)
    solver.beginBatch()
    for (id, constraint) in constraints { try solver.add(id, constraint) }
    solver.endBatch()
    // One constraint stays, so that the solver is not reset when the last one goes.
    let sentinel = ConstraintID(constraints.count)
    try solver.add(sentinel, Variable(4 * rows) == 1)
    let before = solver.statistics.substitutedRows
    let ids = constraints.map(\.0)
    for id in order == .oldestFirst ? ids : ids.reversed() { try solver.remove(id) }
    return (solver.statistics.substitutedRows - before, solver.statistics)
  }

  /// Removing each row's constraints pivots out markers that every redundant row holds; if each
  /// such pivot made the next row the hub of the redundancy, removing the rows oldest first would
  /// rewrite every remaining row each time (quadratic; it took 4.8 s for 10,000 views).
  @Test(
    "Removing a form's constraints one at a time does linear work, in either order",
    arguments: Order.allCases, SolverStrategy.exact)
  func teardownIsLinear(order: Order, kind: SolverStrategy) throws {
    let small = try Self.teardownWork(rows: 60, order: order, kind: kind)
    let large = try Self.teardownWork(rows: 240, order: order, kind: kind)
    #expect(small.left.constraints == 1 && large.left.constraints == 1)
    #expect(large.left.rows == small.left.rows && large.left.cells == small.left.cells)
    // Four times the rows: linear work is about four times as much, quadratic sixteen.
    #expect(
      Double(large.work) <= 5 * Double(max(small.work, 1)),
      "rows rewritten: \(small.work) for 60 rows, \(large.work) for 240")
  }
}
