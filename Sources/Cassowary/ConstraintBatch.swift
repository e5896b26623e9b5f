/// A constraint as the add path reads it: its terms where they lie (a caller's array, a batch's
/// term array, the term store of a solver being rebuilt), without owning them. Valid only while
/// that storage is: the add path never keeps one.
struct BorrowedConstraint {
  /// The left side minus the right side, its terms borrowed.
  var expression: BorrowedExpression
  /// How the expression compares with zero.
  var relation: Relation
  /// How strongly the constraint should hold.
  var priority: Priority

  /// `constraint`, whose terms are `terms`.
  @inline(__always)
  init(_ constraint: Constraint, terms: UnsafeBufferPointer<Term>) {
    expression = BorrowedExpression(terms: terms, constant: constraint.expression.constant)
    relation = constraint.relation
    priority = constraint.priority
  }

  @inline(__always)
  init(terms: UnsafeBufferPointer<Term>, constant: Double, relation: Relation, priority: Priority) {
    expression = BorrowedExpression(terms: terms, constant: constant)
    self.relation = relation
    self.priority = priority
  }

  /// The constraint with its terms copied, named `label`: for an error, which outlives the
  /// borrowed terms.
  ///
  /// - Complexity: O(terms).
  func owned(label: String?) -> Constraint {
    Constraint(
      LinearExpression(Array(expression.terms), constant: expression.constant), relation,
      priority: priority, label: label)
  }
}

/// A linear expression whose terms are borrowed (see ``BorrowedConstraint``).
struct BorrowedExpression {
  /// The terms, in the order they were written.
  var terms: UnsafeBufferPointer<Term>
  /// The constant part.
  var constant: Double

  /// Whether every coefficient and the constant are finite.
  var isFinite: Bool { constant.isFinite && terms.allSatisfy { $0.coefficient.isFinite } }
}

/// Constraints to add in one build, laid out as a build reads them: every constraint's terms in
/// one array, each constraint a run of it, so that no constraint's terms are an array of their
/// own.
///
/// A client writes one term by term (``appendTerm(_:)``, then
/// ``endConstraint(_:constant:relation:priority:)``) or from constraints it has
/// (``append(_:_:)``), and gives it to ``LayoutSolver/add(_:leading:)``. A rebuild lays a
/// solver's records out as one over the term store they name, and so copies no terms at all.
public struct ConstraintBatch: Sendable {
  /// One constraint: its id, its run of ``terms``, and the rest of what it says.
  ///
  /// Usable from inlinable code, as the tables below are: the engine writes a layout's
  /// constraints a term at a time, and an append that is a call into this module cost some 50
  /// instructions a term.
  @usableFromInline
  struct Entry: Sendable {
    @usableFromInline var id: ConstraintID
    @usableFromInline var termStart: Int32
    @usableFromInline var termCount: Int32
    @usableFromInline var constant: Double
    @usableFromInline var relation: Relation
    @usableFromInline var priority: Priority

    @usableFromInline
    init(
      id: ConstraintID, termStart: Int32, termCount: Int32, constant: Double, relation: Relation,
      priority: Priority
    ) {
      self.id = id
      self.termStart = termStart
      self.termCount = termCount
      self.constant = constant
      self.relation = relation
      self.priority = priority
    }
  }

  /// The constraints, in the order they are to be added.
  @usableFromInline var entries: [Entry] = []
  /// Their terms (and, for a rebuild's batch, the holes of the store they came from). Two
  /// entries may share a run.
  @usableFromInline var terms: [Term] = []
  /// Where the terms of the constraint being written start (``appendTerm(_:)``).
  @usableFromInline var openStart: Int32 = 0
  /// The labels of the constraints that have one: a layout's have none.
  var labels: [(ConstraintID, String)] = []

  /// An empty batch.
  public init() {}

  /// `constraints`, in order, their terms copied into one array.
  ///
  /// - Complexity: O(constraints + terms).
  public init(_ constraints: [(ConstraintID, Constraint)]) {
    var termCount = 0
    for (_, constraint) in constraints { termCount += constraint.expression.terms.count }
    reserveCapacity(constraints: constraints.count, terms: termCount)
    for (id, constraint) in constraints { append(id, constraint) }
  }

  /// The number of constraints.
  public var count: Int { entries.count }

  /// Whether the batch holds no constraint.
  public var isEmpty: Bool { entries.isEmpty }

  /// Makes room for `constraints` more constraints over `terms` more terms.
  public mutating func reserveCapacity(constraints: Int, terms: Int) {
    entries.reserveCapacity(entries.count + constraints)
    self.terms.reserveCapacity(self.terms.count + terms)
  }

  /// Appends `constraint` under `id`, copying its terms.
  ///
  /// - Complexity: O(terms of `constraint`), amortized.
  public mutating func append(_ id: ConstraintID, _ constraint: Constraint) {
    precondition(Int(openStart) == terms.count, "a constraint is being written term by term")
    for term in constraint.expression.terms { terms.append(term) }
    endConstraint(
      id, constant: constraint.expression.constant, relation: constraint.relation,
      priority: constraint.priority)
    if let label = constraint.label { labels.append((id, label)) }
  }

  /// Appends `term` to the constraint being written: the terms appended since the last
  /// constraint ended are the next constraint's (``endConstraint(_:constant:relation:priority:)``).
  ///
  /// - Complexity: O(1), amortized.
  @inlinable
  public mutating func appendTerm(_ term: Term) { terms.append(term) }

  /// Ends the constraint being written: the terms appended since the last one ended, plus
  /// `constant`, compared with zero by `relation`, at `priority`, under `id`.
  ///
  /// - Complexity: O(1), amortized.
  @inlinable
  public mutating func endConstraint(
    _ id: ConstraintID, constant: Double, relation: Relation, priority: Priority
  ) {
    entries.append(
      Entry(
        id: id, termStart: openStart, termCount: Int32(terms.count) - openStart,
        constant: constant, relation: relation, priority: priority))
    openStart = Int32(terms.count)
  }

  /// Appends, under `id`, a constraint over the last constraint's terms and constant, compared
  /// by `relation` at `priority` (a view's content hugging after its compression resistance):
  /// the two share their terms.
  ///
  /// - Precondition: the batch holds a constraint, and none is being written.
  /// - Complexity: O(1), amortized.
  public mutating func appendOverLastTerms(
    _ id: ConstraintID, relation: Relation, priority: Priority
  ) {
    precondition(Int(openStart) == terms.count, "a constraint is being written term by term")
    var entry = entries.last!
    entry.id = id
    entry.relation = relation
    entry.priority = priority
    entries.append(entry)
  }

  /// The id of constraint `index`.
  @inline(__always)
  public func id(at index: Int) -> ConstraintID {
    entries.withUnsafeBufferPointer { $0[index].id }
  }

  /// Constraint `index`, its terms copied.
  ///
  /// - Complexity: O(its terms).
  public subscript(index: Int) -> Constraint {
    let entry = entries[index]
    let start = Int(entry.termStart)
    let id = entry.id
    let terms = Array(self.terms[start..<start + Int(entry.termCount)])
    return Constraint(
      LinearExpression(terms, constant: entry.constant), entry.relation, priority: entry.priority,
      label: labels.isEmpty ? nil : labels.first { $0.0 == id }?.1)
  }

  /// Every constraint with its id, their terms copied: for a solver that adds them one by one.
  ///
  /// - Complexity: O(constraints + terms).
  public var constraints: [(ConstraintID, Constraint)] {
    (0..<count).map { (id(at: $0), self[$0]) }
  }

  /// The constraints from `start` on, as a batch of their own (it shares this one's terms).
  ///
  /// - Complexity: O(constraints from `start`).
  public func suffix(from start: Int) -> ConstraintBatch {
    var rest = self
    rest.entries = Array(entries[start...])
    if !labels.isEmpty {
      let ids = Set(rest.entries.map(\.id))
      rest.labels = labels.filter { ids.contains($0.0) }
    }
    return rest
  }

  /// Removes every constraint.
  public mutating func removeAll(keepingCapacity: Bool = false) {
    entries.removeAll(keepingCapacity: keepingCapacity)
    terms.removeAll(keepingCapacity: keepingCapacity)
    labels.removeAll()
    openStart = 0
  }

  /// Constraint `index`, its terms borrowed from `terms`, a pointer to this batch's ``terms``.
  @inline(__always)
  func constraint(_ index: Int, in terms: UnsafeBufferPointer<Term>) -> BorrowedConstraint {
    entries.withUnsafeBufferPointer { entries in
      let entry = entries[index]
      return BorrowedConstraint(
        terms: UnsafeBufferPointer(
          rebasing: terms[Int(entry.termStart)..<Int(entry.termStart + entry.termCount)]),
        constant: entry.constant, relation: entry.relation, priority: entry.priority)
    }
  }
}
