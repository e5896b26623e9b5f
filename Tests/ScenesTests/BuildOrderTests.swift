import AutoLayout
import Cassowary
import Scenes
import Testing

/// How a build's work depends on the order of its constraints. The scenes add their constraints
/// in their engine's order; a client may fix the root first, and a rebuild
/// (``SparseSolver/solveFromScratch()``) adds them in its canonical order, which puts the root's
/// constraints first too; a file, its variables numbered as they first appear, sorted as a
/// rebuild sorts, gives yet another order. Such orders used to cost quadratic
/// work: on dynamic-form (rows linked by required inequalities, size preferences on every
/// height) a required inequality defined a height from the row below, or a new optional row
/// walked the whole chain above it; on equal-spacing, an inequality came before the equality
/// matched to its variable and took it, and each row's closing equality needed phase one. The
/// measure is the rows substituted and the definitions expanded
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
    /// The optional constraints first (size preferences among them): a client that gives each
    /// view its intrinsic size as it makes it.
    case optionalFirst

    var description: String { rawValue }
  }

  /// The rows substituted and definitions expanded while building a `kind` scene of `views`
  /// views in `order` (for ``Order/rebuilt``, while rebuilding it), and its values.
  static func build(
    _ kind: SceneKind, views: Int, order: Order
  ) throws -> (work: Int, values: [Double]) {
    let scene = try Scene(kind, views: views)
    scene.layOut()
    let engine = scene.root.layoutEngine!
    var rows: [Constraint] = []
    for lowered in engine.loweredConstraints() { rows.append(contentsOf: lowered.rows) }
    if order == .rootFirst {
      let fixed = rows.filter { $0.priority.isRequired && $0.expression.terms.count == 1 }
      rows = fixed + rows.filter { !($0.priority.isRequired && $0.expression.terms.count == 1) }
    }
    if order == .optionalFirst {
      rows = rows.filter { !$0.priority.isRequired } + rows.filter(\.priority.isRequired)
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

  /// The scenes whose orders cost quadratic work, and each order.
  /// (dynamic-form with its optional constraints first is not one yet: there its optional
  /// `top == above.bottom + 8` rows come before the inequalities they tighten.)
  static let cases: [(SceneKind, Order)] =
    [SceneKind.dynamicForm, .equalSpacing].flatMap { kind in Order.allCases.map { (kind, $0) } }
    .filter { $0 != (.dynamicForm, .optionalFirst) } + [(.form, .optionalFirst)]

  /// Four times the views cost at most five times the work, in every order (quadratic, it was
  /// 11 to 15 times on dynamic-form: 10,799 → 121,624 rows and definitions fixing the root
  /// first, 22,871 → 331,555 rebuilding; with the optional constraints first, form's rows ended
  /// in phase one, pivoting through the rows above them).
  @Test(arguments: cases)
  func buildsInLinearWork(kind: SceneKind, order: Order) throws {
    let small = try Self.build(kind, views: 200, order: order)
    let large = try Self.build(kind, views: 800, order: order)
    #expect(large.work <= 5 * small.work, "\(small.work) → \(large.work)")
  }

  /// The order changes the tableau, not the layout: the optimum is unique.
  @Test(arguments: cases.filter { $0.1 != .engine })
  func everyOrderLaysOutTheSame(kind: SceneKind, order: Order) throws {
    let engine = try Self.build(kind, views: 200, order: .engine).values
    let other = try Self.build(kind, views: 200, order: order).values
    let differing = zip(engine, other).filter { abs($0 - $1) > 1e-7 * max(1, abs($0)) }
    #expect(differing.isEmpty, "\(differing.count) of \(engine.count) values differ")
  }

  /// The work and values of solving a `kind` scene of `views` views exported as a file
  /// (``Scene/exportFile()``: the root's size as edit variables), its constraints as written
  /// or sorted by their newest variable, then their oldest (variables numbered as they first
  /// appear), the order a rebuild of the file's constraints would add them in.
  static func solveFile(
    _ kind: SceneKind, views: Int, sorted: Bool
  ) throws -> (work: Int, values: [Double]) {
    var file = try Scene(kind, views: views).exportFile()
    if sorted {
      var keyed: [(newest: Int32, oldest: Int32, offset: Int)] = []
      var edits: [ConstraintFile.Statement] = []
      for (offset, statement) in file.statements.enumerated() {
        guard case .constraint(let constraint, _) = statement else {
          edits.append(statement)
          continue
        }
        let ids = constraint.expression.terms.map(\.variable.id)
        keyed.append((ids.max() ?? -1, ids.min() ?? -1, offset))
      }
      keyed.sort { ($0.newest, $0.oldest, $0.offset) < ($1.newest, $1.oldest, $1.offset) }
      file.statements = keyed.map { file.statements[$0.offset] } + edits
    }
    var solver = SparseSolver()
    let values = try file.solve(with: &solver, file: "\(kind).constraints")
    if views <= 200 {
      // The inequalities that waited for their equalities leave a sound tableau.
      let defects = solver.structuralDefects()
      #expect(defects.isEmpty, "\(defects.prefix(3))")
    }
    return (solver.statistics.substitutedRows + solver.statistics.expandedDefinitions, values)
  }

  /// Sorted, equal-spacing's file put each row's `short.left >= margins.left` before the
  /// equality matched to `short.left`; the inequality took that variable, and each row's
  /// closing equality then needed phase one, through the root's columns: 4 times the views
  /// cost 11 times the work (3,078 → 33,915 rows and definitions).
  @Test(arguments: [SceneKind.equalSpacing, .dynamicForm])
  func sortedFileSolvesInLinearWork(kind: SceneKind) throws {
    let small = try Self.solveFile(kind, views: 200, sorted: true)
    let large = try Self.solveFile(kind, views: 800, sorted: true)
    #expect(large.work <= 5 * small.work, "\(small.work) → \(large.work)")
    let written = try Self.solveFile(kind, views: 200, sorted: false)
    let differing = zip(written.values, small.values).filter {
      abs($0 - $1) > 1e-7 * max(1, abs($0))
    }
    #expect(differing.isEmpty, "\(differing.count) of \(written.values.count) values differ")
  }
}
