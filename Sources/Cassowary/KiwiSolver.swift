import CKiwi

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// kiwi, the C++ Cassowary solver that kiwisolver (matplotlib, enaml) ships, behind
/// ``LayoutSolver``, so that the harness measures it in the same process, scenes, phases and
/// counters as ours.
///
/// kiwi is not part of this package: `scripts/peers/kiwi-peer install` places its headers where
/// the `CKiwi` target finds them, and a build without them has no kiwi (``isAvailable`` is
/// false; ``SolverStrategy/kiwi`` says how to install it).
///
/// What differs from our solvers, by kiwi's design:
/// - **Priorities are weighted, not lexicographic.** kiwi minimizes one sum of strength ×
///   error. A priority `p` below 1000 becomes the strength 10^(6p/1000) (``strength(of:)``):
///   order-preserving, from 1 to 10⁶ as kiwi's own weak…strong constants span. Neighbouring
///   priorities differ by a factor of 1.014 only, so enough error at one priority can outweigh a
///   little at a higher one; where that changes the optimum, kiwi's frames differ from ours.
///   Priority 1000 is kiwi's `required`. (Strengths up to 10⁹, as the cross-check of whole
///   files uses, make kiwi fail with "the objective is unbounded" when a layout is torn down:
///   its round-off allowance is absolute, 1e-8, and errors weighted by 10⁹ pass it.)
/// - **No in-place changes.** ``setConstant(_:_:)`` and ``setPriority(_:_:)`` remove the
///   constraint and add it back changed (``SolverStrategy/Capabilities/inPlaceConstants`` is
///   absent).
/// - **Every change optimizes at once**; batches change nothing.
/// - **Values are read after `updateVariables()`**, which copies every variable's value: the
///   first read after a change pays it, later reads are O(1).
/// - **No conflict sets**: an unsatisfiable required constraint is reported without the
///   constraints it conflicts with, and ``statistics`` knows the constraints and variables only.
/// - **A refusal leaves kiwi off its optimum**, so after refusing a constraint the adapter
///   rebuilds kiwi from its record of the constraints: the solver is then as it was.
///
/// A class, not a struct: it owns the C++ solver.
public final class KiwiSolver: LayoutSolver {
  /// Whether this build has kiwi (its headers were installed when `CKiwi` was compiled).
  public static var isAvailable: Bool { ckiwi_is_available() }
  /// kiwi's version, or `nil` without it.
  public static var version: String? { isAvailable ? String(cString: ckiwi_version()) : nil }

  /// kiwi's strength for an Auto Layout `priority`: kiwi's required for 1000, else
  /// 10^(6 × priority / 1000).
  public static func strength(of priority: Priority) -> Double {
    priority.isRequired
      ? ckiwi_required_strength() : pow(10, 6 * Double(priority.rawValue) / 1000)
  }

  private let handle: OpaquePointer
  /// Constraints by id, as given (with their current constant and priority).
  private var constraints: [Constraint?] = []
  private var constraintCount = 0
  /// Edit variables by variable id: their priority and last suggestion.
  private var edits: [Variable: (priority: Priority, suggestion: Double?)] = [:]
  /// One past the highest variable id any constraint or edit mentioned.
  private var variableLimit = 0
  /// Each variable's value as last reported by ``forEachChangedValue(_:)``.
  private var reported: [Double] = []
  /// Whether kiwi changed since the last `updateVariables()`.
  private var stale = false

  /// An empty solver; `nil` when this build has no kiwi.
  public init?() {
    guard let handle = ckiwi_make() else { return nil }
    self.handle = handle
  }

  deinit { ckiwi_free(handle) }

  public func add(_ id: ConstraintID, _ constraint: Constraint) throws(SolverError) {
    guard constraint.priority.isValid else { throw .invalidPriority(constraint.priority) }
    guard constraint.expression.isFinite else {
      throw .nonFinite("a coefficient or constant of \(constraint)")
    }
    if contains(id) { throw .duplicateConstraint(id, constraint) }
    do {
      try insert(id, constraint)
    } catch {
      try rebuildAfterRefusal()
      throw error
    }
    let index = Int(id.rawValue)
    if index >= constraints.count {
      constraints.append(contentsOf: repeatElement(nil, count: index + 1 - constraints.count))
    }
    constraints[index] = constraint
    constraintCount += 1
  }

  public func remove(_ id: ConstraintID) throws(SolverError) {
    guard contains(id) else { throw .unknownConstraint(id) }
    try check(ckiwi_remove_constraint(handle, id.rawValue), id)
    constraints[Int(id.rawValue)] = nil
    constraintCount -= 1
    stale = true
  }

  public func contains(_ id: ConstraintID) -> Bool { constraint(id) != nil }

  public func constraint(_ id: ConstraintID) -> Constraint? {
    let index = Int(id.rawValue)
    return index >= 0 && index < constraints.count ? constraints[index] : nil
  }

  public func addEditVariable(_ variable: Variable, priority: Priority) throws(SolverError) {
    guard priority.isValid else { throw .invalidPriority(priority) }
    guard !priority.isRequired else { throw .requiredEditVariable(variable) }
    guard edits[variable] == nil else { throw .duplicateEditVariable(variable) }
    mention(variable)
    try check(ckiwi_add_edit_variable(handle, variable.id, Self.strength(of: priority)), nil)
    edits[variable] = (priority, nil)
    stale = true
  }

  public func removeEditVariable(_ variable: Variable) throws(SolverError) {
    guard edits[variable] != nil else { throw .unknownEditVariable(variable) }
    try check(ckiwi_remove_edit_variable(handle, variable.id), nil)
    edits[variable] = nil
    stale = true
  }

  public func hasEditVariable(_ variable: Variable) -> Bool { edits[variable] != nil }

  public func suggestValue(_ variable: Variable, _ value: Double) throws(SolverError) {
    guard edits[variable] != nil else { throw .unknownEditVariable(variable) }
    guard value.isFinite else { throw .nonFinite("the value suggested for \(variable)") }
    try check(ckiwi_suggest_value(handle, variable.id, value), nil)
    edits[variable]?.suggestion = value
    stale = true
  }

  /// Removes constraint `id` and adds it back with `constant` (kiwi has no in-place change);
  /// if kiwi refuses the changed constraint, kiwi is rebuilt with the old one and the error
  /// thrown.
  ///
  /// - Complexity: kiwi's removal and add of one constraint; a rebuild after a refusal.
  public func setConstant(_ id: ConstraintID, _ constant: Double) throws(SolverError) {
    guard var changed = constraint(id) else { throw .unknownConstraint(id) }
    guard constant.isFinite else { throw .nonFinite("the constant \(constant) for \(id)") }
    changed.expression.constant = constant
    try replace(id, with: changed)
  }

  /// Removes constraint `id` and adds it back at `priority`, as ``setConstant(_:_:)`` does.
  ///
  /// - Complexity: as ``setConstant(_:_:)``.
  public func setPriority(_ id: ConstraintID, _ priority: Priority) throws(SolverError) {
    guard var changed = constraint(id) else { throw .unknownConstraint(id) }
    guard priority.isValid else { throw .invalidPriority(priority) }
    changed.priority = priority
    try replace(id, with: changed)
  }

  /// Nothing to defer: kiwi optimizes on every change.
  public func beginBatch() {}
  public func endBatch() {}

  public func value(of variable: Variable) -> Double {
    if stale {
      ckiwi_update_variables(handle)
      stale = false
    }
    return ckiwi_value(handle, variable.id)
  }

  /// Copies kiwi's values once (`updateVariables()`), then calls `body` for each variable whose
  /// value differs from the one last reported.
  ///
  /// - Complexity: O(variables): kiwi keeps no set of changed values.
  public func forEachChangedValue(_ body: (Variable, Double) -> Void) {
    if stale {
      ckiwi_update_variables(handle)
      stale = false
    }
    if reported.count < variableLimit {
      reported.append(contentsOf: repeatElement(0, count: variableLimit - reported.count))
    }
    for index in 0..<variableLimit {
      let value = ckiwi_value(handle, Int32(index))
      if value != reported[index] {
        reported[index] = value
        body(Variable(index), value)
      }
    }
  }

  /// Resets kiwi and adds every constraint back in id order, then the edit variables and their
  /// suggestions.
  ///
  /// - Complexity: kiwi's build of every constraint.
  public func solveFromScratch() throws(SolverError) {
    ckiwi_reset(handle)
    stale = true
    for (index, constraint) in constraints.enumerated() {
      guard let constraint else { continue }
      try insert(ConstraintID(index), constraint)
    }
    for (variable, edit) in edits.sorted(by: { $0.key < $1.key }) {
      try check(ckiwi_add_edit_variable(handle, variable.id, Self.strength(of: edit.priority)), nil)
      if let suggestion = edit.suggestion {
        try check(ckiwi_suggest_value(handle, variable.id, suggestion), nil)
      }
    }
  }

  /// ``solveFromScratch()`` with each constraint under its new id; unchanged if it throws.
  public func solveFromScratch(renumbering newIDs: [Int32]) throws(SolverError) {
    let old = constraints
    var renumbered: [Constraint?] = []
    for (index, constraint) in old.enumerated() {
      guard let constraint else { continue }
      precondition(
        index < newIDs.count && newIDs[index] >= 0, "constraint \(index) has no new id")
      let id = Int(newIDs[index])
      if renumbered.count <= id {
        renumbered.append(contentsOf: repeatElement(nil, count: id + 1 - renumbered.count))
      }
      renumbered[id] = constraint
    }
    constraints = renumbered
    do {
      try solveFromScratch()
    } catch {
      constraints = old
      try? solveFromScratch()
      throw error
    }
  }

  public func reset() {
    ckiwi_reset(handle)
    constraints = []
    constraintCount = 0
    edits = [:]
    stale = true
  }

  /// The constraints and the variables mentioned; kiwi does not expose its tableau, so the
  /// other figures are 0.
  public var statistics: SolverStatistics {
    SolverStatistics(
      constraints: constraintCount, variables: variableLimit, symbols: 0, rows: 0, cells: 0,
      maximumRowCells: 0, priorityLevels: 0, pivots: 0, tableauBytes: 0, bookkeepingBytes: 0)
  }

  // MARK: Implementation

  private func mention(_ variable: Variable) {
    variableLimit = max(variableLimit, Int(variable.id) + 1)
  }

  /// Adds `constraint` to kiwi under `id` (the caller records it).
  private func insert(_ id: ConstraintID, _ constraint: Constraint) throws(SolverError) {
    let terms = constraint.expression.terms
    var variables = [Int32]()
    var coefficients = [Double]()
    variables.reserveCapacity(terms.count)
    coefficients.reserveCapacity(terms.count)
    for term in terms {
      mention(term.variable)
      variables.append(term.variable.id)
      coefficients.append(term.coefficient)
    }
    let relation: CKiwiRelation =
      switch constraint.relation {
      case .equal: CKIWI_EQUAL
      case .lessThanOrEqual: CKIWI_LESS_THAN_OR_EQUAL
      case .greaterThanOrEqual: CKIWI_GREATER_THAN_OR_EQUAL
      }
    let status = ckiwi_add_constraint(
      handle, id.rawValue, variables, coefficients, Int32(terms.count),
      constraint.expression.constant, relation, Self.strength(of: constraint.priority))
    stale = true
    if status == CKIWI_UNSATISFIABLE { throw .unsatisfiable(id, constraint, conflicts: [:]) }
    try check(status, id)
  }

  private func replace(_ id: ConstraintID, with changed: Constraint) throws(SolverError) {
    try check(ckiwi_remove_constraint(handle, id.rawValue), id)
    do {
      try insert(id, changed)
    } catch {
      // The record still holds the old constraint: the rebuild puts it back.
      try rebuildAfterRefusal()
      throw error
    }
    constraints[Int(id.rawValue)] = changed
  }

  /// Rebuilds kiwi from the record after it refused a constraint as unsatisfiable: kiwi's
  /// refusal leaves the basis where its search for a feasible row stopped, not optimal (and
  /// required constraints may then break in later changes), so the solver would not be as it
  /// was before the call.
  ///
  /// - Complexity: kiwi's build of every constraint; refusals are rare (a conflict).
  private func rebuildAfterRefusal() throws(SolverError) {
    try solveFromScratch()
  }

  /// Turns a status other than success into the error it stands for; kiwi's internal errors
  /// (such as "The objective is unbounded", from round-off) become ``SolverError/failed(_:)``.
  private func check(_ status: CKiwiStatus, _ id: ConstraintID?) throws(SolverError) {
    switch status {
    case CKIWI_OK: return
    case CKIWI_UNKNOWN: if let id { throw .unknownConstraint(id) }
    default: break
    }
    throw .failed("kiwi: \(String(cString: ckiwi_last_error(handle)))")
  }
}

extension SolverStrategy {
  /// ``KiwiSolver``: kiwi (C++), when its headers were installed before the build.
  public static let kiwi = SolverStrategy(
    name: "kiwi",
    summary: "kiwi, kiwisolver's C++ Cassowary (weighted priorities, constants by remove + add)",
    capabilities: [.incrementalUpdates],
    unavailableReason: KiwiSolver.isAvailable
      ? nil
      : "this build has no kiwi: run `scripts/peers/kiwi-peer install`, then build again",
    make: { KiwiSolver() })
}
