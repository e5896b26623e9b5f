extension PlanSolver {
  // MARK: - Bounded variables

  /// Marks bounded `variable` to be narrowed again before the values are next brought up to
  /// date (once however many of its bounds changed in a batch).
  ///
  /// - Complexity: O(1).
  mutating func narrow(_ variable: Int32) {
    bounds.markStale(variable)
  }

  /// Sets each bounded variable whose bounds changed to the optimum of its bounds; the blocks
  /// that read it follow.
  ///
  /// - Complexity: O(*k* log *k*) for *k* bounds of each.
  mutating func narrowStaleBounds() {
    guard !bounds.stale.isEmpty else { return }
    bounds.takeStale(into: &staleBounds)
    for index in staleBounds.indices where bounds.contains(staleBounds[index]) {
      let variable = staleBounds[index]
      let value = bounds.optimum(of: variable, scratch: &boundScratch)
      state.set(variable, value, readers: determined)
    }
  }

  /// The constraint of the bound in `slot`, as written.
  func constraint(ofBound slot: Int) -> Constraint {
    let bound = bounds.bounds[slot]
    if bound.reduced >= 0 {
      let row = Int(bound.reduced)
      return Constraint(
        LinearExpression(Array(reduced.writtenTerms(row)), constant: reduced.rows[row].constant),
        bound.relation, priority: bound.priority, label: bounds.labels[bound.id])
    }
    return Constraint(
      LinearExpression(
        [Term(Variable(id: bound.variable), bound.coefficient)], constant: bound.constant),
      bound.relation, priority: bound.priority, label: bounds.labels[bound.id])
  }

  /// Adds `constraint` as a bound if it is one: optional, one term as written, over a bounded
  /// variable. False, with nothing done, otherwise.
  ///
  /// - Complexity: O(*k* log *k*) for the variable's *k* bounds.
  mutating func addBound(_ id: ConstraintID, _ constraint: Constraint) -> Bool {
    let terms = constraint.expression.terms
    guard !constraint.priority.isRequired, terms.count == 1, terms[0].coefficient != 0,
      bounds.contains(terms[0].variable.id)
    else { return false }
    let variable = terms[0].variable.id
    let slot = bounds.insert(
      VariableBounds.Bound(
        id: id, variable: variable, coefficient: terms[0].coefficient,
        constant: constraint.expression.constant, relation: constraint.relation,
        priority: constraint.priority))
    if let label = constraint.label { bounds.labels[id] = label }
    setPlace(id, .bound(slot))
    narrow(variable)
    return true
  }

  /// Gives the bounds of `variables` (those that are bounded) to the sparse solver as written:
  /// something else is about to mention them.
  ///
  /// - Complexity: O(their bounds), plus the sparse solver's adds.
  mutating func unbind(_ variables: some Sequence<Int32>) throws(SolverError) {
    var batch = ConstraintBatch()
    for variable in variables where bounds.contains(variable) {
      for (bound, label) in bounds.unbind(variable) {
        batch.entries.append(
          ConstraintBatch.Entry(
            id: bound.id, termStart: Int32(batch.terms.count), termCount: 1,
            constant: bound.constant, relation: bound.relation, priority: bound.priority))
        batch.terms.append(Term(Variable(id: variable), bound.coefficient))
        if let label { batch.labels.append((bound.id, label)) }
        if bound.reduced >= 0 {
          // It goes as reduced, and stays one.
          reduced.rows[Int(bound.reduced)].boundSlot = -1
          setPlace(bound.id, .reduced(Int(bound.reduced)))
        } else {
          setPlace(bound.id, .notDetermined)
        }
      }
      // The sparse solver did not report it: it is read from it.
      promotedVariables.append(variable)
    }
    guard !batch.entries.isEmpty else { return }
    try inner.add(batch, leading: [])
  }

  /// The bounded variables among those `batch`'s constraints mention, each once.
  func boundedVariables(mentionedBy batch: ConstraintBatch) -> [Int32] {
    guard bounds.boundedCount > 0 else { return [] }
    var found = Set<Int32>()
    for entry in batch.entries {
      for index in Int(entry.termStart)..<Int(entry.termStart + entry.termCount) {
        let variable = batch.terms[index].variable.id
        if bounds.contains(variable) { found.insert(variable) }
      }
    }
    return found.sorted()
  }

  /// The bounded variables among those the equalities of `closure`'s blocks mention.
  func boundedVariables(mentionedByBlocks closure: [Int32]) -> [Int32] {
    guard bounds.boundedCount > 0 else { return [] }
    var found = Set<Int32>()
    for block in closure {
      for k in determined.plan.steps(ofBlock: Int(block)) {
        determined.forEachWrittenTerm(ofStep: k) { term in
          if bounds.contains(term.variable.id) { found.insert(term.variable.id) }
        }
      }
    }
    return found.sorted()
  }

  /// Runs `body`; if it throws, the solver is as it was (a copy taken before: for the rare
  /// operations that give bounds or reduced constraints back, which are O(size) anyway).
  mutating func withSnapshot(
    _ body: (inout PlanSolver) throws(SolverError) -> Void
  ) throws(SolverError) {
    let saved = self
    do throws(SolverError) {
      try body(&self)
    } catch {
      self = saved
      throw error
    }
  }
}
