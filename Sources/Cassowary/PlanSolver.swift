/// The plan-first solver: what the required equalities determine is evaluated by an
/// ``EqualityPlan``, with no tableau; only the rest goes to a ``SparseSolver``.
///
/// A first build (a batch given to an empty solver) matches each required equality to the
/// variable it determines, leaving free where it can the variables that inequalities, optional
/// constraints and edits mention. The rest goes to the sparse solver, which finds the
/// lexicographic optimum of the free variables: required inequalities, edits and the equalities
/// left unmatched as written, with every planned block they reach (the blocks that determine a
/// variable they mention, and the blocks those need); optional constraints *reduced*, each
/// determined variable they mention written out over the free ones (``ReducedConstraints``),
/// so that the blocks they reach stay determined. The blocks nothing takes (the
/// ``DeterminedPart``) are then evaluated from the sparse solver's answer, block by block, each
/// after the blocks it reads: a label's edges from the row above, a grid cell from its split.
/// Free variables that only optional one-term constraints hold (a view's height between its
/// hugging and its compression resistance) are bounded: solved in closed form
/// (``VariableBounds``). On the grid scenes the plan is the whole layout; on a form, the plan
/// and the bounds are.
///
/// Every later operation keeps that split. An operation that reaches a determined variable (a
/// constraint that mentions it, an edit on it, removing or lowering a planned equality) first
/// *promotes* the blocks it reaches, with the blocks they need, to the sparse solver; the rest
/// stays determined; one that removes or promotes an equality a reduced constraint was written
/// out through gives every reduced constraint back as written first (a constant change only
/// moves their constants). A change of values (a suggestion, a constant) is pushed down the
/// readers of each changed variable, so only the blocks downstream are evaluated again. A planned
/// equality's constant changes in place and is never refused: its variable is fixed by it alone.
/// ``solveFromScratch()`` plans the whole system again.
///
/// Semantics are the sparse solver's: the same lexicographic optimum, the same refusals, and a
/// refused operation leaves the solver as it was (values bit-identical). Where the optimum is
/// not unique, the two may settle on different optima.
public struct PlanSolver: LayoutSolver {
  /// The tableau part: everything the determined part does not hold.
  var inner = SparseSolver()
  /// ``Solver/storageResets`` of ``inner`` when the values were last read from it whole
  /// (``readInnerValuesAfterReset()``).
  var innerStorageResets = 0
  /// The determined part.
  var determined = DeterminedPart()
  /// Every variable's value, what changed, and what awaits evaluation.
  var state = PlanValues()
  /// The optional constraints the sparse solver holds reduced: written out through determined
  /// blocks.
  var reduced = ReducedConstraints()
  /// The free variables that only optional constraints over them alone hold, solved in closed
  /// form.
  var bounds = VariableBounds()
  /// The narrowing's scratch list.
  var boundScratch: [VariableBounds.Key] = []
  /// The bounded variables being narrowed again (``narrowStaleBounds()``), kept for its buffer.
  var staleBounds: [Int32] = []
  /// Whether an equality the reduced constraints were written out through changed or went:
  /// they go back as written before the values are next brought up to date.
  var restorePending = false
  /// The variables of the blocks whose equalities went while ``restorePending``: the reduced
  /// constraints written out through them, or downstream of them, are the ones to give back.
  var restoreSeeds: [Int32] = []
  /// Of those, the variables a block planned again determines as before: only their values
  /// changed, which the reduced constants follow.
  var unchangedSeeds: [Int32] = []
  /// The blocks that lost an equality whose definitions (``definitions``) wait to be forgotten:
  /// a block planned again with the same definitions keeps those downstream of it.
  var suspectBlocks: [Int32] = []
  /// Whether the constant of an equality the reduced constraints were written out through
  /// changed: their constants follow before the values are next brought up to date.
  var offsetsStale = false
  /// The determined variables written out for later batches' reductions, by step
  /// (``definition(ofStep:depth:)``); empty until a later batch reduces through the plan.
  var definitions = DefinitionCache()
  /// Marks and numbers by variable and block, for the walks of later batches, kept for their room.
  var scratchMarks = ScratchMarks()
  /// The tables later batches are planned in, kept for their room.
  var replanTables = ReplanTables()
  /// The sum a definition is written out in, and the room a block is solved in for its
  /// definitions, kept between calls.
  var definitionSum = DeterminedDefinitions.Sum()
  var definitionProbe = DeterminedDefinitions.BlockProbe()
  var definitionInputs: [(Int32, Double)] = []
  /// The determined step or reduced constraint of each constraint that is one, by id.
  var places: [ConstraintPlace] = []
  /// The depth of nested batches.
  var batchDepth = 0
  /// Whether every determined block must be evaluated (after a build) before the next read.
  var needsEvaluation = false
  /// The changes the sparse solver reported, kept for their room.
  var reportedChanges: [(Int32, Double)] = []
  /// The reduced constants ``updateReducedConstants()`` changes, kept for its next call.
  var reducedConstantUpdates: [(row: Int, constant: Double)] = []
  /// Variables promoted to the sparse solver since the values were last brought up to date:
  /// it did not report them (it had never told anyone another value), so they are read from it.
  var promotedVariables: [Int32] = []

  /// The fewest constraints a first build plans; fewer go to the sparse solver as they come.
  static var plannedBuildMinimum: Int { 8 }

  /// An empty solver.
  public init() {}

  // MARK: - Constraints

  public mutating func add(_ id: ConstraintID, _ constraint: Constraint) throws(SolverError) {
    if constraint.priority.isRequired { restoreStaleReducedConstraints() }
    try refusingAsWritten { solver throws(SolverError) in try solver.addConstraint(id, constraint) }
  }

  /// ``add(_:_:)``, refusals named as the solver holds the constraints.
  mutating func addConstraint(_ id: ConstraintID, _ constraint: Constraint) throws(SolverError) {
    // What can be refused without the system is refused before anything is promoted.
    try Self.validate(constraint)
    if let existing = self.constraint(id) { throw .duplicateConstraint(id, existing) }
    let variables = constraint.expression.terms.lazy.map(\.variable.id)
    if bounds.boundedCount > 0 && variables.contains(where: bounds.contains) {
      if addBound(id, constraint) {
        settle()
        return
      }
      // Its variables' bounds go to the sparse solver with it, and come back if it is refused.
      try withSnapshot { solver throws(SolverError) in
        try solver.unbind(variables)
        try solver.withPromotion(of: variables) { solver throws(SolverError) in
          try solver.inner.add(id, constraint)
        }
      }
      settle()
      return
    }
    try withPromotion(of: variables) { solver throws(SolverError) in
      try solver.inner.add(id, constraint)
    }
    settle()
  }

  public mutating func add(
    contentsOf constraints: [(ConstraintID, Constraint)]
  ) throws(SolverError) {
    try add(ConstraintBatch(constraints), leading: [])
  }

  public mutating func add(
    contentsOf constraints: [(ConstraintID, Constraint)], leading: [Int]
  ) throws(SolverError) {
    try add(ConstraintBatch(constraints), leading: leading)
  }

  public mutating func add(_ batch: ConstraintBatch, leading: [Int]) throws(SolverError) {
    do throws(SolverError) {
      try addBatch(batch, leading: leading)
    } catch {
      guard case .unsatisfiable(let id, _, _) = error, reduced.mayHoldRequired,
        let index = batch.entries.firstIndex(where: { $0.id == id })
      else { throw error }
      // Those before it stay added, as one by one; it is refused again as written, and if
      // that holds after all (rounding), the rest follow.
      try withReducedConstraintsRestored { solver throws(SolverError) in
        try solver.add(id, batch[index])
      }
      if index + 1 < batch.count {
        var rest = batch
        rest.entries.removeSubrange(...index)
        try add(rest, leading: leading.compactMap { $0 > index ? $0 - index - 1 : nil })
      }
      settle()
    }
  }

  /// ``add(_:leading:)``, refusals named as the solver holds the constraints.
  mutating func addBatch(_ batch: ConstraintBatch, leading: [Int]) throws(SolverError) {
    if inner.core.constraintCount == 0 && determined.liveSteps == 0 && bounds.boundedCount == 0
      && batch.count >= Self.plannedBuildMinimum
    {
      if try buildPlanned(batch, leading: leading) { return }
    }
    if addPlanned(batch) || addRebuilding(batch) { return }
    if restorePending && batch.entries.contains(where: \.priority.isRequired) {
      restoreStaleReducedConstraints()
    }
    try addToTableau(batch, leading: leading)
  }

  public mutating func remove(_ id: ConstraintID) throws(SolverError) {
    if let slot = boundSlot(of: id) {
      let variable = bounds.bounds[slot].variable
      if bounds.bounds[slot].reduced >= 0 { reduced.remove(Int(bounds.bounds[slot].reduced)) }
      bounds.remove(slot)
      setPlace(id, .notDetermined)
      narrow(variable)
      settle()
      return
    }
    guard let k = step(of: id) else {
      if let row = asideRow(of: id) {
        reduced.remove(row)
      } else {
        try inner.remove(id)
        if let row = reducedConstraint(of: id) { reduced.remove(row) }
      }
      setPlace(id, .notDetermined)
      settle()
      return
    }
    let block = Int(determined.blockOfStep[k])
    if determined.plan.steps(ofBlock: block).count == 1 {
      forgetDefinitions(from: CollectionOfOne(Int32(block)))
    } else if !determined.isRemoved[k]
      && !determined.plan.steps(ofBlock: block).contains(where: { determined.isRemoved[$0] })
    {
      // Settled when the batch ends, or planned again with the batch's adds (which may leave
      // what it determines as it was); listed once, on its first removed step.
      suspectBlocks.append(Int32(block))
    }
    if reduced.feedsAny(CollectionOfOne(Int32(block))) {
      // Rows written out through this equality no longer hold without it: they are reduced
      // again, or go back as written, when the batch ends, by when they have often gone too
      // (a teardown).
      restorePending = true
      for k in determined.plan.steps(ofBlock: block) {
        restoreSeeds.append(determined.plan.subjects[k])
      }
    }
    if determined.plan.steps(ofBlock: block).count == 1 {
      // Its variable, mentioned by nothing in the tableau, is left free: 0, as the sparse
      // solver reads a variable no constraint holds; the blocks that read it follow.
      let variable = determined.plan.subjects[k]
      determined.deactivate(block)
      setPlace(id, .notDetermined)
      state.set(variable, 0, readers: determined)
    } else {
      // One equality of a larger block leaves the others underdetermined; settled when the
      // batch ends (``settleRemovals()``), by when the rest of the block has often gone too.
      determined.markRemoved(k)
      setPlace(id, .notDetermined)
    }
    settle()
  }

  public func contains(_ id: ConstraintID) -> Bool {
    step(of: id) != nil || boundSlot(of: id) != nil || inner.contains(id)
      || asideRow(of: id) != nil
  }

  public func constraint(_ id: ConstraintID) -> Constraint? {
    if let k = step(of: id) { return determined.constraint(ofStep: k) }
    if let slot = boundSlot(of: id) { return constraint(ofBound: slot) }
    if let row = asideRow(of: id) { return reduced.asideConstraint(row) }
    if let row = reducedConstraint(of: id), var held = inner.constraint(id) {
      held.expression = LinearExpression(
        Array(reduced.writtenTerms(row)), constant: reduced.rows[row].constant)
      return held
    }
    return inner.constraint(id)
  }

  public mutating func setConstant(_ id: ConstraintID, _ constant: Double) throws(SolverError) {
    if restorePending && constraint(id)?.priority.isRequired == true {
      restoreStaleReducedConstraints()
    }
    try refusingAsWritten { solver throws(SolverError) in
      try solver.changeConstant(id, constant)
    }
  }

  /// ``setConstant(_:_:)``, refusals named as the solver holds the constraints.
  mutating func changeConstant(_ id: ConstraintID, _ constant: Double) throws(SolverError) {
    if let slot = boundSlot(of: id) {
      guard constant.isFinite else { throw .nonFinite("the constant \(constant) for \(id)") }
      let row = Int(bounds.bounds[slot].reduced)
      let variable = bounds.bounds[slot].variable
      if bounds.bounds[slot].priority.isRequired {
        // Tried in place, and set back.
        let old = bounds.bounds[slot].constant
        bounds.bounds[slot].constant = constant + (row >= 0 ? reduced.rows[row].offset : 0)
        let holds = bounds.requiredBoundsHold(for: variable)
        bounds.bounds[slot].constant = old
        if !holds {
          // Refused as the sparse solver refuses it, from the constraints as written.
          try withSnapshot { solver throws(SolverError) in
            try solver.unbind(CollectionOfOne(variable))
            try solver.setConstant(id, constant)
          }
          settle()
          return
        }
      }
      if row >= 0 {
        bounds.bounds[slot].constant = constant + reduced.rows[row].offset
        reduced.rows[row].constant = constant
      } else {
        bounds.bounds[slot].constant = constant
      }
      narrow(bounds.bounds[slot].variable)
      settle()
      return
    }
    if let row = reducedConstraint(of: id) {
      guard constant.isFinite else { throw .nonFinite("the constant \(constant) for \(id)") }
      if !reduced.rows[row].isAside {
        try inner.setConstant(id, constant + reduced.rows[row].offset)
      }
      reduced.rows[row].constant = constant
      settle()
      return
    }
    guard let k = step(of: id) else {
      try inner.setConstant(id, constant)
      settle()
      return
    }
    guard constant.isFinite else { throw .nonFinite("the constant \(constant) for \(id)") }
    let block = determined.blockOfStep[k]
    if reduced.feedsRequired(block) {
      // What is pending first, then the required bounds it moves are checked now: a
      // refusal is the operation's.
      synchronize()
      // Settling may have given the reduced constraints back, and this step with them.
      guard step(of: id) == k else { return try changeConstant(id, constant) }
      if reduced.feedsRequired(block) {
        try setConstantCheckingRequiredBounds(id, step: k, constant)
        return
      }
    }
    // The constants of the rows written out through this equality follow when the batch ends.
    if reduced.feedsAny(CollectionOfOne(block)) { offsetsStale = true }
    determined.plan.constants[k] = constant
    state.enqueue(block, of: determined)
    settle()
  }

  /// Sets the constant of determined step `k` (constraint `id`), which feeds a required reduced
  /// constraint. One the sparse solver holds is given back as written first, with the others.
  /// Otherwise (required bounds only) the plan is evaluated with the new constant and every
  /// reduced constant it moves is read; if a required bound's variable is then left no value,
  /// the step is set back (the blocks evaluated again read what they did, bit for bit) and the
  /// operation is made as written, to be refused as the sparse solver refuses it. If not, the
  /// reduced constants follow now.
  ///
  /// - Complexity: O(blocks downstream + terms of the live reduced constraints).
  mutating func setConstantCheckingRequiredBounds(
    _ id: ConstraintID, step k: Int, _ constant: Double
  ) throws(SolverError) {
    if reduced.rows.contains(where: { $0.isLive && $0.isRequired && $0.boundSlot < 0 }) {
      try withReducedConstraintsRestored { solver throws(SolverError) in
        try solver.setConstant(id, constant)
      }
      settle()
      return
    }
    let block = determined.blockOfStep[k]
    let old = determined.plan.constants[k]
    determined.plan.constants[k] = constant
    state.enqueue(block, of: determined)
    bringValuesUpToDate()
    let holds = withReducedConstantUpdates { solver, updates in
      solver.collectReducedConstantUpdates(into: &updates)
      guard solver.requiredBoundsHold(after: &updates) else { return false }
      solver.applyReducedConstantUpdates(updates)
      return true
    }
    guard holds else {
      determined.plan.constants[k] = old
      state.enqueue(block, of: determined)
      bringValuesUpToDate()
      try withReducedConstraintsRestored { solver throws(SolverError) in
        try solver.setConstant(id, constant)
      }
      settle()
      return
    }
    offsetsStale = false
    settle()
  }

  /// Whether every required bound that `updates` moves leaves its variable a value: the new
  /// constants are tried in place and set back (`updates` is as it was after).
  ///
  /// - Complexity: O(updates + bounds of their variables).
  mutating func requiredBoundsHold(after updates: inout [(row: Int, constant: Double)]) -> Bool {
    func exchange(_ updates: inout [(row: Int, constant: Double)]) {
      for index in updates.indices {
        let slot = Int(reduced.rows[updates[index].row].boundSlot)
        guard slot >= 0 && bounds.bounds[slot].priority.isRequired else { continue }
        swap(&bounds.bounds[slot].constant, &updates[index].constant)
      }
    }
    exchange(&updates)
    defer { exchange(&updates) }
    return updates.allSatisfy { update in
      let slot = Int(reduced.rows[update.row].boundSlot)
      return slot < 0 || !bounds.bounds[slot].priority.isRequired
        || bounds.requiredBoundsHold(for: bounds.bounds[slot].variable)
    }
  }

  public mutating func setPriority(_ id: ConstraintID, _ priority: Priority) throws(SolverError) {
    if priority.isRequired { restoreStaleReducedConstraints() }
    try refusingAsWritten { solver throws(SolverError) in
      try solver.changePriority(id, priority)
    }
  }

  /// ``setPriority(_:_:)``, refusals named as the solver holds the constraints.
  mutating func changePriority(_ id: ConstraintID, _ priority: Priority) throws(SolverError) {
    if let slot = boundSlot(of: id) {
      guard priority.isValid else { throw .invalidPriority(priority) }
      guard priority != bounds.bounds[slot].priority else { return }
      let variable = bounds.bounds[slot].variable
      guard priority.isRequired else {
        bounds.bounds[slot].priority = priority
        narrow(variable)
        settle()
        return
      }
      if bounds.bounds[slot].reduced >= 0 {
        // Refused or not, as written: the reduced constraints go back first.
        try withReducedConstraintsRestored { solver throws(SolverError) in
          try solver.setPriority(id, priority)
        }
        return
      }
      // Required, it is the sparse solver's to refuse: the variable's bounds go there.
      try withSnapshot { solver throws(SolverError) in
        try solver.unbind(CollectionOfOne(variable))
        try solver.inner.setPriority(id, priority)
      }
      settle()
      return
    }
    if reducedConstraint(of: id) != nil && priority.isRequired {
      // A required constraint is refused, and conflicts are named, as written: the equalities
      // it was written out through are not in the tableau to be named.
      try withReducedConstraintsRestored { solver throws(SolverError) in
        try solver.setPriority(id, priority)
      }
      return
    }
    if let row = asideRow(of: id) {
      // Optional still (a raise to required gave it back above): no value moves.
      guard priority.isValid else { throw .invalidPriority(priority) }
      reduced.rows[row].priority = priority
      return
    }
    guard let k = step(of: id) else {
      try inner.setPriority(id, priority)
      settle()
      return
    }
    guard priority.isValid else { throw .invalidPriority(priority) }
    guard !priority.isRequired else { return }
    try withPromotion(ofBlocks: [determined.blockOfStep[k]]) { solver throws(SolverError) in
      try solver.inner.setPriority(id, priority)
    }
    settle()
  }

  // MARK: - Edit variables

  public mutating func addEditVariable(
    _ variable: Variable, priority: Priority
  ) throws(SolverError) {
    // The edit starts at the value the client reads now, as the sparse solver's does: where
    // the optimum is not unique, the promotion may have settled elsewhere.
    guard priority.isValid else { throw .invalidPriority(priority) }
    guard !priority.isRequired else { throw .requiredEditVariable(variable) }
    guard !hasEditVariable(variable) else { throw .duplicateEditVariable(variable) }
    // Inside a batch the values are brought up to date first, as the sparse solver settles
    // its deferred work before it reads the value an edit starts at.
    if batchDepth > 0 { synchronize() }
    let start = value(of: variable)
    try withSnapshot { solver throws(SolverError) in
      if solver.bounds.contains(variable.id) {
        try solver.unbind(CollectionOfOne(variable.id))
      }
      try solver.withPromotion(of: CollectionOfOne(variable.id)) { solver throws(SolverError) in
        try solver.inner.addEditVariable(variable, priority: priority)
        if solver.inner.value(of: variable) != start {
          try solver.inner.suggestValue(variable, start)
        }
      }
    }
    settle()
  }

  public mutating func removeEditVariable(_ variable: Variable) throws(SolverError) {
    try inner.removeEditVariable(variable)
    settle()
  }

  public func hasEditVariable(_ variable: Variable) -> Bool { inner.hasEditVariable(variable) }

  public mutating func suggestValue(_ variable: Variable, _ value: Double) throws(SolverError) {
    try inner.suggestValue(variable, value)
    settle()
  }

  // MARK: - Batches

  public mutating func beginBatch() {
    batchDepth += 1
    inner.beginBatch()
  }

  public mutating func endBatch() {
    inner.endBatch()
    batchDepth -= 1
    settle()
  }

  // MARK: - Values

  /// A determined or bounded variable's value is a load; the others are the sparse solver's.
  ///
  /// - Complexity: O(1) for a determined or bounded variable; the sparse solver's read for the
  ///   others.
  public func value(of variable: Variable) -> Double {
    if determined.step(determining: variable.id) != nil || bounds.contains(variable.id) {
      return state.values[Int(variable.id)]
    }
    return inner.value(of: variable)
  }

  /// - Complexity: O(changed variables), after the evaluation pending.
  public mutating func forEachChangedValue(_ body: (Variable, Double) -> Void) {
    synchronize()
    for variable in state.dirty {
      state.isDirty[Int(variable)] = false
      let value = value(of: Variable(id: variable))
      guard value != state.reported[Int(variable)] else { continue }
      state.reported[Int(variable)] = value
      body(Variable(id: variable), value)
    }
    state.dirty.removeAll(keepingCapacity: true)
  }

  public mutating func reset() {
    let previous = state
    self = PlanSolver()
    // Every variable the client was told something else of reads 0 now: it hears of it.
    state.reserve(variables: previous.reported.count, blocks: 0)
    state.reported = previous.reported
    for (index, value) in previous.reported.enumerated() where value != 0 {
      state.markDirty(Int32(index))
    }
  }

  public var statistics: SolverStatistics {
    var figures = inner.statistics
    figures.constraints += determined.liveSteps + bounds.liveCount + reduced.asideCount
    figures.variables += determined.liveSteps + bounds.boundedCount
    figures.bookkeepingBytes +=
      determined.bytes + state.values.capacity * 8 + state.reported.capacity * 8
      + state.isDirty.capacity
      + state.dirty.capacity * 4 + state.isQueued.capacity + state.queue.capacity * 16
      + places.capacity * MemoryLayout<ConstraintPlace>.stride + reduced.bytes + bounds.bytes
      + boundScratch.capacity * MemoryLayout<VariableBounds.Key>.stride + staleBounds.capacity * 4
      + reportedChanges.capacity * MemoryLayout<(Int32, Double)>.stride
      + reducedConstantUpdates.capacity * MemoryLayout<(row: Int, constant: Double)>.stride
      + definitions.bytes + restoreSeeds.capacity * 4 + scratchMarks.bytes
      + definitionProbe.bytes + definitionInputs.capacity * 16 + replanTables.bytes
    return figures
  }

  /// How many optional constraints the sparse solver holds reduced: written out over its own
  /// variables through the determined blocks they reach, which stay determined.
  ///
  /// - Complexity: O(1).
  public var reducedConstraintCount: Int { reduced.liveCount }

  /// How many free variables are bounded: held only by optional constraints over them alone,
  /// and solved in closed form rather than in the tableau.
  ///
  /// - Complexity: O(1).
  public var boundedVariableCount: Int { bounds.boundedCount }

  /// The sparse solver's tableau, then the determined steps (each constraint's id, the variable
  /// it determines and its constant, block by block in evaluation order), for tests and
  /// debugging.
  public var tableauDescription: String {
    var lines = [inner.tableauDescription]
    let plan = determined.plan
    for block in 0..<plan.blockCount where determined.isActive[block] {
      let steps = plan.steps(ofBlock: block)
      lines.append(
        "block "
          + steps.map { k in
            "\(determined.ids[k]) → v\(plan.subjects[k]) (\(plan.constants[k]))"
          }.joined(separator: ", "))
    }
    return lines.joined(separator: "\n")
  }

  // MARK: - Helpers

  /// The determined step of constraint `id`, if it is one.
  @inline(__always)
  func step(of id: ConstraintID) -> Int? {
    let index = Int(id.rawValue)
    guard index < places.count else { return nil }
    return places[index].step
  }

  /// The slot of constraint `id` among the bounds, if it is one.
  @inline(__always)
  func boundSlot(of id: ConstraintID) -> Int? {
    let index = Int(id.rawValue)
    guard index < places.count else { return nil }
    return places[index].bound
  }

  /// The reduced constraint of constraint `id`, if it is one.
  @inline(__always)
  func reducedConstraint(of id: ConstraintID) -> Int? {
    let index = Int(id.rawValue)
    guard index < places.count else { return nil }
    return places[index].reducedConstraint
  }
  /// The reduced constraint `id` is, if it is held aside (optional, written out to no
  /// variable).
  ///
  /// - Complexity: O(1).
  @inline(__always)
  func asideRow(of id: ConstraintID) -> Int? {
    guard reduced.asideCount > 0, let row = reducedConstraint(of: id), reduced.rows[row].isAside
    else { return nil }
    return row
  }

  mutating func setPlace(_ id: ConstraintID, _ place: ConstraintPlace) {
    let index = Int(id.rawValue)
    if index >= places.count {
      guard place != .notDetermined else { return }
      places.append(contentsOf: repeatElement(.notDetermined, count: index + 1 - places.count))
    }
    places[index] = place
  }

  /// Brings the values up to date, unless a batch is open: the sparse solver's changes, then
  /// the determined blocks they reach.
  mutating func settle() {
    if batchDepth == 0 { synchronize() }
  }

  /// Reads the sparse solver's changes (which ends its deferred work) and evaluates the
  /// determined blocks they reach, or every one after a build.
  ///
  /// - Complexity: O(changed variables + blocks evaluated again).
  mutating func synchronize() {
    // The reduced constraints written out through what changed are given back before the
    // blocks waiting are settled, as a build's rows are (one written out through a block
    // waiting goes as written).
    restoreStaleReducedConstraints()
    settleRemovals()
    bringValuesUpToDate()
    if offsetsStale {
      offsetsStale = false
      updateReducedConstants()
      bringValuesUpToDate()
    }
    // Blocks replaced by later batches are dropped once they outnumber the live ones.
    if planIsWasteful { compactPlan() }
    if reducedRowsAreWasteful && batchDepth == 0 { compactReducedRows() }
    // Emptied, the solver gives its tables back, as the sparse solver does.
    if inner.core.constraintCount == 0 && inner.core.edits.isEmpty && determined.liveSteps == 0
      && bounds.liveCount == 0 && batchDepth == 0
      && (state.values.capacity > 0 || places.capacity > 0)
    {
      self = PlanSolver()
    }
  }

  /// Reads the sparse solver's changes and evaluates the determined blocks they reach (every
  /// one after a build).
  mutating func bringValuesUpToDate() {
    narrowStaleBounds()
    var changes = reportedChanges
    reportedChanges = []
    changes.removeAll(keepingCapacity: true)
    // The reports first: taking them ends the work the sparse solver deferred in a batch, so
    // that a reset is read at the values it settles on, which no later report would correct.
    inner.forEachChangedValue { changes.append(($0.id, $1)) }
    if inner.core.storageResets != innerStorageResets { readInnerValuesAfterReset() }
    for (variable, value) in changes {
      // A variable the plan took over while the sparse solver still had rows over it (removed
      // in its batch, released when the batch ends) reads the plan's value.
      guard determined.step(determining: variable) == nil && !bounds.contains(variable) else {
        continue
      }
      state.set(variable, value, readers: determined)
    }
    reportedChanges = changes
    for variable in promotedVariables {
      state.set(variable, inner.value(of: Variable(id: variable)), readers: determined)
    }
    promotedVariables.removeAll()
    if needsEvaluation {
      needsEvaluation = false
      state.evaluateAll(determined)
    } else {
      state.propagate(determined)
    }
  }

  /// Reads every variable the sparse solver holds (one neither determined nor bounded) from
  /// it, once it has emptied and given its tables back since the values were last brought up
  /// to date: its change reports started over then, and a variable its last
  /// constraint held reads 0 without a report (``Solver/releaseStorageIfEmpty()``), while
  /// blocks of the plan may still read it.
  ///
  /// - Complexity: O(variables), plus the blocks that read the variables that changed.
  mutating func readInnerValuesAfterReset() {
    innerStorageResets = inner.core.storageResets
    for index in state.values.indices {
      let variable = Int32(index)
      guard determined.step(determining: variable) == nil && !bounds.contains(variable) else {
        continue
      }
      state.set(variable, inner.value(of: Variable(id: variable)), readers: determined)
    }
  }

  /// Settles the blocks that lost equalities: a block that lost them all leaves its variables
  /// free (0, as the sparse solver reads a variable nothing holds); one that kept some goes
  /// to the sparse solver, which decides what those leave open.
  ///
  /// - Complexity: O(steps of the blocks settled), plus the sparse solver's adds.
  mutating func settleRemovals() {
    if !suspectBlocks.isEmpty {
      forgetDefinitions(from: suspectBlocks)
      suspectBlocks.removeAll()
    }
    guard !determined.pendingBlocks.isEmpty else { return }
    for block in determined.takePendingBlocks() where determined.isActive[Int(block)] {
      let steps = determined.plan.steps(ofBlock: Int(block))
      if steps.allSatisfy({ determined.isRemoved[$0] }) {
        determined.deactivate(Int(block))
        for k in steps { state.set(determined.plan.subjects[k], 0, readers: determined) }
        continue
      }
      do throws(SolverError) {
        try promote(determined.closure(of: [block]))
      } catch {
        preconditionFailure("equalities that held could not be added again: \(error)")
      }
    }
  }

  /// Checks what a constraint's add checks before anything else, in the sparse solver's order.
  static func validate(_ constraint: Constraint) throws(SolverError) {
    guard constraint.priority.isValid else { throw .invalidPriority(constraint.priority) }
    guard
      constraint.expression.constant.isFinite
        && constraint.expression.terms.allSatisfy({ $0.coefficient.isFinite })
    else { throw .nonFinite("a coefficient or constant of \(constraint)") }
  }
}

/// Whether a ``PlanSolver`` holds a constraint as a determined step or as a reduced constraint,
/// and which (anything else is the sparse solver's to know: whether it holds the constraint as
/// written, or nobody does).
struct ConstraintPlace: Equatable {
  /// The step; -1 for none of them; -2 - 2*i* for reduced constraint *i*; -3 - 2*i* for the
  /// bound in slot *i*.
  private var raw: Int32

  static let notDetermined = ConstraintPlace(raw: -1)
  static func step(_ k: Int) -> ConstraintPlace { ConstraintPlace(raw: Int32(k)) }
  static func reduced(_ index: Int) -> ConstraintPlace {
    ConstraintPlace(raw: -2 - 2 * Int32(index))
  }
  static func bound(_ slot: Int) -> ConstraintPlace { ConstraintPlace(raw: -3 - 2 * Int32(slot)) }

  /// The determined step, if the constraint is one.
  var step: Int? { raw >= 0 ? Int(raw) : nil }
  /// The reduced constraint, if the constraint is one.
  var reducedConstraint: Int? { raw <= -2 && raw % 2 == 0 ? Int((-2 - raw) / 2) : nil }
  /// The bound's slot, if the constraint is one.
  var bound: Int? { raw <= -3 && raw % 2 != 0 ? Int((-3 - raw) / 2) : nil }
}

extension SolverStrategy {
  /// ``PlanSolver``: required equalities evaluated by a plan, the rest in a sparse tableau; the
  /// default (``SolverStrategy/default``).
  public static let plan = SolverStrategy(
    name: "plan",
    summary:
      "required equalities evaluated as a plan, only what competes in a sparse tableau; the default",
    capabilities: [.incrementalUpdates, .inPlaceConstants, .lexicographicPriorities],
    make: { PlanSolver() })
}
