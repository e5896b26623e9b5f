/// The optional constraints a ``PlanSolver`` gave its sparse solver *reduced*: each determined
/// variable they mention written out over the variables the tableau holds (free variables, and
/// those of promoted blocks), so that the blocks determining it stay in the plan. A build
/// reduces required inequalities too (the spaces between equally spaced buttons): the
/// feasibility of the system is the same, but the conflicts a refusal names are the
/// constraints as written, so a refused operation is made again with every reduced
/// constraint given back (``PlanSolver/refusingAsWritten(_:)``), and a constant change that
/// moves a required one gives them back first.
///
/// A reduced constraint is the constraint as written plus a combination of required
/// equalities, so wherever those hold (and they always do) it has the same error, and the
/// lexicographic optimum is the same. It stays so while every equality it was written out
/// through holds: the blocks that feed a reduction (``isFeeding``) stay determined; when one of
/// their constants changes, the reduced constants follow
/// (``PlanSolver/updateReducedConstants()``); an operation that would remove or promote one of
/// them first gives every reduced constraint back as written
/// (``PlanSolver/restoreReducedConstraints()``). Each keeps its terms and constant as written,
/// so the constraint can be given back whole. A reduced constraint of one term over a bounded
/// variable is held as a bound (``boundSlot``), not by the sparse solver; an optional one
/// written out to no variable (a size preference of a view the equalities fix) is held by
/// neither (``Row/isAside``): its error is a constant no value moves, so it cannot change the
/// optimum.
struct ReducedConstraints {
  /// One reduced constraint. (Its fields are ordered to fill the row's 40 bytes.)
  struct Row {
    var id: ConstraintID
    /// Its terms as written: `terms[termStart..<termStart + termCount]`.
    var termStart: Int32
    var termCount: Int32
    /// The bound it is (``VariableBounds``), or -1 while the sparse solver holds it or it is
    /// held aside.
    var boundSlot: Int32 = -1
    /// Its constant as written.
    var constant: Double
    /// What the reduction adds to the constant: the row as held (the sparse solver's, or a
    /// bound's) has `constant + offset`. (One held aside is read by nothing, and its offset is
    /// not kept current.)
    var offset: Double
    /// False once the constraint is removed.
    var isLive: Bool
    /// Whether it was required when reduced (a later lowering leaves it set: it only makes a
    /// constant change that would move it take the careful way).
    var isRequired = false
    /// Whether it is held aside: optional, and written out to no variable.
    var isAside = false
    /// The relation, and the priority, of a row held aside (the sparse solver and the bounds
    /// keep their rows' own).
    var relation = Relation.equal
    var priority = Priority.required
  }

  /// The rows, in the order they were reduced.
  var rows: [Row] = []
  /// The rows' terms as written.
  var terms: [Term] = []
  /// The labels of the rows held aside.
  var asideLabels: [ConstraintID: String] = [:]
  /// How many live rows are held aside.
  private(set) var asideCount = 0
  /// Whether each block of the plan feeds a reduced constraint: determines a variable one
  /// mentions, or a variable such a block reads, directly or not.
  var isFeeding: [Bool] = []
  /// Whether each block feeds a required reduced constraint: a new constant of its equalities
  /// may leave the system no solution, which must be refused when it is set (empty when no
  /// block does).
  var isFeedingRequired: [Bool] = []
  /// How many rows are live.
  private(set) var liveCount = 0

  /// No rows.
  init() {}

  /// Appends a row for constraint `id`, whose terms as written are `written`.
  ///
  /// - Complexity: O(terms).
  mutating func append(
    _ id: ConstraintID, written: some Collection<Term>, constant: Double, offset: Double,
    isRequired: Bool = false
  ) -> Int {
    rows.append(
      Row(
        id: id, termStart: Int32(terms.count), termCount: Int32(written.count),
        constant: constant, offset: offset, isLive: true, isRequired: isRequired))
    terms.append(contentsOf: written)
    liveCount += 1
    return rows.count - 1
  }

  /// Holds row `index` aside, as `relation` at `priority`, labelled `label`.
  ///
  /// - Precondition: the row is optional and written out to no variable.
  /// - Complexity: O(1), but for a label's insertion.
  mutating func holdAside(
    _ index: Int, _ relation: Relation, _ priority: Priority, label: String?
  ) {
    rows[index].isAside = true
    rows[index].relation = relation
    rows[index].priority = priority
    if let label { asideLabels[rows[index].id] = label }
    asideCount += 1
  }

  /// Row `index` as written, with the relation, priority and label it is held aside with.
  ///
  /// - Precondition: the row is held aside.
  /// - Complexity: O(terms), but for its label's lookup.
  func asideConstraint(_ index: Int) -> Constraint {
    let row = rows[index]
    return Constraint(
      LinearExpression(Array(writtenTerms(index)), constant: row.constant), row.relation,
      priority: row.priority, label: asideLabels.isEmpty ? nil : asideLabels[row.id])
  }

  /// Marks row `index` removed.
  ///
  /// - Complexity: O(1), but for an aside row's label.
  mutating func remove(_ index: Int) {
    guard rows[index].isLive else { return }
    rows[index].isLive = false
    liveCount -= 1
    if rows[index].isAside {
      asideCount -= 1
      if !asideLabels.isEmpty { asideLabels[rows[index].id] = nil }
    }
  }

  /// Row `index`'s terms as written.
  func writtenTerms(_ index: Int) -> ArraySlice<Term> {
    let row = rows[index]
    return terms[Int(row.termStart)..<Int(row.termStart + row.termCount)]
  }

  /// Whether any of `blocks` feeds a live row.
  ///
  /// - Complexity: O(`blocks.count`).
  func feedsAny(_ blocks: some Sequence<Int32>) -> Bool {
    guard liveCount > 0 else { return false }
    return blocks.contains { Int($0) < isFeeding.count && isFeeding[Int($0)] }
  }

  /// Whether `block` feeds a required reduced constraint (live or not: a removed one leaves
  /// the mark, which only costs a check).
  ///
  /// - Complexity: O(1).
  func feedsRequired(_ block: Int32) -> Bool {
    Int(block) < isFeedingRequired.count && isFeedingRequired[Int(block)] && liveCount > 0
  }

  /// Whether a required constraint may be among the live rows: a refusal then names
  /// constraints as reduced, and is made again from the constraints as written.
  ///
  /// - Complexity: O(1).
  var mayHoldRequired: Bool { !isFeedingRequired.isEmpty && liveCount > 0 }

  /// Bytes held by the tables.
  var bytes: Int {
    rows.capacity * MemoryLayout<Row>.stride + terms.capacity * MemoryLayout<Term>.stride
      + isFeeding.capacity + isFeedingRequired.capacity
      + asideLabels.capacity * MemoryLayout<(ConstraintID, String)>.stride
  }
}
