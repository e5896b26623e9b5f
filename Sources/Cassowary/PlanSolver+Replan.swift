extension PlanSolver {
  // MARK: - Planning a later batch

  /// Adds `batch`, a batch after the first build, keeping it out of the tableau where it can:
  /// the blocks whose equalities this batch removed (still waiting to be settled) and the
  /// batch's required equalities are planned again together, over the variables those blocks
  /// determined and the ones nothing holds; the new blocks are spliced into the determined part
  /// at a rank between the blocks they read and the blocks that read them. The batch's optional
  /// constraints are then reduced through the determined part (``addReducing(_:)``), or given
  /// to the sparse solver as today where they cannot be.
  ///
  /// False, with nothing changed, where the batch must take the tableau's way: an entry that is
  /// invalid, held already or given twice, a required inequality (which may be refused, and
  /// what stays added then depends on the order), a required reduced constraint anywhere (a new
  /// equality could leave it no value, which only the tableau can refuse), an equality that
  /// determines nothing new, a singular block, or blocks that no rank can order.
  ///
  /// - Complexity: O(terms of the batch and of the blocks planned again, plus the readers of
  ///   their variables), plus the reduction of the optional constraints.
  mutating func addPlanned(_ batch: ConstraintBatch) -> Bool {
    // A larger batch is planned with the whole system or goes the tableau's way: planned
    // here, its matching would cost what a build does, and the holders of each variable it
    // opens are searched for.
    guard determined.plan.blockCount > 0, !reduced.mayHoldRequired, batch.count > 0,
      batch.count <= Self.plannedBatchMaximum,
      batch.entries.allSatisfy({ $0.relation == .equal || !$0.priority.isRequired }),
      isNewAndValid(batch)
    else {
      return false
    }
    guard var plan = replan(batch) else { return false }
    defer { replanTables.recycle(&plan) }
    commit(plan, batch)
    for (index, entry) in batch.entries.enumerated() where !plan.isPlannedEntry[index] {
      let constraint = batch[index]
      if !addReducing(entry.id, constraint) {
        do throws(SolverError) {
          try addConstraint(entry.id, constraint)
        } catch {
          preconditionFailure("an optional constraint was refused: \(error)")
        }
      }
    }
    settle()
    return true
  }

  /// The most constraints a later batch plans (``addPlanned(_:)``); a larger one (a size-class
  /// switch) is planned with the whole system (``addRebuilding(_:)``) or goes to the tableau.
  static var plannedBatchMaximum: Int { 256 }

  /// Adds `batch`, a large share of the system that reads what the solver holds (a size-class
  /// switch: a constraint or more a row replaced, each over the row's buttons and the margins),
  /// by planning every constraint held again with it (``rebuild(renumbering:adding:)``), as a
  /// first build plans. Given to the tableau, its constraints would promote the blocks they
  /// reach, and the layout would stay in the tableau, where each later one costs an add.
  ///
  /// It takes more than ``plannedBatchMaximum`` of the batch's constraints, and an eighth of
  /// the constraints held or more, reading a variable the plan holds (one a live equality
  /// determines, or bounds hold). A batch that adds back a removed subtree (a churn) is mostly
  /// over variables nothing holds since its removal, which the tableau takes without promoting
  /// anything, and keeps the tableau's way; so does one over what the tableau holds already.
  ///
  /// False, with nothing changed, when the batch reads too little of the solver, the solver
  /// plans nothing, an entry is invalid, held already or given twice, or the whole system
  /// refuses a constraint: the batch then takes the tableau's way, which decides (and names)
  /// the refusal as one by one.
  ///
  /// - Complexity: O(terms of the batch), and when it rebuilds, that of a build of every
  ///   constraint held and the batch's.
  mutating func addRebuilding(_ batch: ConstraintBatch) -> Bool {
    guard batch.count > Self.plannedBatchMaximum, determined.liveSteps > 0 else { return false }
    // Only what the plan holds counts: where the layout is in the tableau already, the tableau
    // takes the batch an add at a time and promotes nothing.
    func isHeld(_ variable: Int32) -> Bool {
      if let k = determined.step(determining: variable) { return !determined.isRemoved[k] }
      return bounds.contains(variable)
    }
    var reading = 0
    for entry in batch.entries {
      let run = Int(entry.termStart)..<Int(entry.termStart + entry.termCount)
      if run.contains(where: { isHeld(batch.terms[$0].variable.id) }) { reading += 1 }
    }
    let held =
      inner.core.constraintCount + determined.liveSteps + bounds.liveCount + reduced.asideCount
    guard reading > Self.plannedBatchMaximum, reading * 8 >= held, isNewAndValid(batch) else {
      return false
    }
    do throws(SolverError) {
      try rebuild(renumbering: nil, adding: batch)
    } catch {
      return false
    }
    return true
  }

  /// Whether every constraint of `batch` is valid (a priority in range, finite numbers) and
  /// new: an id the solver does not hold, given once. A batch that is not goes the tableau's
  /// way, which refuses it as one by one.
  ///
  /// - Complexity: O(terms of the batch).
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func isNewAndValid(_ batch: ConstraintBatch) -> Bool {
    for (index, entry) in batch.entries.enumerated() {
      guard entry.priority.isValid, entry.constant.isFinite, !contains(entry.id) else {
        return false
      }
      for position in Int(entry.termStart)..<Int(entry.termStart + entry.termCount)
      where !batch.terms[position].coefficient.isFinite {
        return false
      }
      // Small batches are the rule; a larger one is checked once through a set.
      if batch.count <= 32 {
        for other in batch.entries[..<index] where other.id == entry.id { return false }
      }
    }
    return batch.count <= 32 || Set(batch.entries.lazy.map(\.id)).count == batch.count
  }

  /// The blocks a batch's equalities are planned into, before anything changes.
  struct BatchPlan {
    /// The plan over local ids, and the global id of each local one.
    var plan: EqualityPlan
    var globalOf: [Int32]
    /// The blocks planned again (their steps' live equalities are among the plan's).
    var replaced: [Int32]
    /// Each local equality's constraint id, and where its terms as written are: a step of the
    /// determined part (>= 0), or the batch's entry `-1 - value`.
    var ids: [ConstraintID]
    var sources: [Int32]
    /// Each local equality's terms as written: `written[writtenStarts[e]..<writtenStarts[e + 1]]`.
    var writtenStarts: [Int32]
    var written: [Term]
    /// The reduced constraints that held a variable the plan may determine, to be reduced again.
    var reheld: [Int]
    /// Each new block's rank.
    var ranks: [Double]
    /// The variables the replaced blocks determined that no new block does.
    var freed: [Int32]
    /// Whether each batch entry is one of the plan's equalities.
    var isPlannedEntry: [Bool]
  }

  /// Plans the waiting blocks' live equalities with `batch`'s required equalities; nil when they
  /// do not all determine something new, a block is singular, or a new block has no rank
  /// between what it reads and what reads it.
  ///
  /// - Complexity: O(terms planned + readers of their variables).
  mutating func replan(_ batch: ConstraintBatch) -> BatchPlan? {
    // Each table is taken out of the solver's while it is filled, and given back after:
    // taking the whole set out would copy and release every one of them.
    var replaced = ReplanTables.take(&replanTables.replaced)
    for block in determined.pendingBlocks where determined.isActive[Int(block)] {
      replaced.append(block)
    }
    replaced.sort()
    replaced.removeDuplicatesInSortedOrder()
    var marks = scratchMarks
    scratchMarks = ScratchMarks()
    defer {
      marks.clear()
      scratchMarks = marks
    }
    marks.grow(variables: determined.plan.variableCount, blocks: determined.plan.blockCount)
    for block in replaced { _ = marks.markBlock(block) }
    func isReplaced(_ block: Int32) -> Bool { marks.isMarked(block: block) }
    // Local ids: the replaced blocks' variables, then every other variable met.
    var largestVariable = determined.plan.variableCount - 1
    for entry in batch.entries {
      for position in Int(entry.termStart)..<Int(entry.termStart + entry.termCount) {
        largestVariable = max(largestVariable, Int(batch.terms[position].variable.id))
      }
    }
    marks.grow(variables: largestVariable + 1, blocks: determined.plan.blockCount)
    var globalOf = ReplanTables.take(&replanTables.globalOf)
    var isKnown = ReplanTables.take(&replanTables.isKnown)
    var reheld = ReplanTables.take(&replanTables.reheld)
    func local(_ variable: Int32, mayOpen: Bool = false) -> Int32 {
      if let id = marks.local(of: variable) { return id }
      let id = Int32(globalOf.count)
      marks.setLocal(id, of: variable)
      globalOf.append(variable)
      // An unknown when its block is planned again, or when nothing holds it but reduced
      // constraints (a hidden view's place, or what is written out over it), which are then
      // reduced again (a batch's equality may determine it).
      let known: Bool
      if let k = determined.step(determining: variable) {
        known = !isReplaced(determined.blockOfStep[k])
      } else if (bounds.contains(variable) && bounds.first[Int(variable)] >= 0)
        || tableauMentions(variable)
      {
        if mayOpen, let rows = reducedHolders(of: variable) {
          known = false
          reheld += rows
        } else {
          known = true
        }
      } else {
        known = false
      }
      isKnown.append(known)
      return id
    }
    for block in replaced {
      for k in determined.plan.steps(ofBlock: Int(block)) {
        _ = local(determined.plan.subjects[k])
      }
    }
    var starts = ReplanTables.take(&replanTables.starts)
    starts.append(0)
    var variables = ReplanTables.take(&replanTables.variables)
    var coefficients = ReplanTables.take(&replanTables.coefficients)
    var constants = ReplanTables.take(&replanTables.constants)
    var ids = ReplanTables.take(&replanTables.ids)
    var sources = ReplanTables.take(&replanTables.sources)
    var writtenStarts = ReplanTables.take(&replanTables.writtenStarts)
    writtenStarts.append(0)
    var writtenTerms = ReplanTables.take(&replanTables.writtenTerms)
    func append(_ terms: some Sequence<Term>, mayOpen: Bool = false) {
      let first = variables.count
      for term in terms {
        writtenTerms.append(term)
        let v = local(term.variable.id, mayOpen: mayOpen)
        if let earlier = variables[first...].firstIndex(of: v) {
          coefficients[earlier] += term.coefficient
        } else {
          variables.append(v)
          coefficients.append(term.coefficient)
        }
      }
      var position = first
      while position < variables.count {
        if coefficients[position] == 0 {
          variables.remove(at: position)
          coefficients.remove(at: position)
        } else {
          position += 1
        }
      }
      starts.append(Int32(variables.count))
      writtenStarts.append(Int32(writtenTerms.count))
    }
    var written = ReplanTables.take(&replanTables.written)
    for block in replaced {
      for k in determined.plan.steps(ofBlock: Int(block)) where !determined.isRemoved[k] {
        written.removeAll(keepingCapacity: true)
        determined.appendWrittenTerms(ofStep: k, to: &written)
        append(written)
        constants.append(determined.plan.constants[k])
        ids.append(determined.ids[k])
        sources.append(Int32(k))
      }
    }
    var isPlannedEntry = ReplanTables.take(&replanTables.isPlannedEntry)
    isPlannedEntry.append(contentsOf: repeatElement(false, count: batch.count))
    for (index, entry) in batch.entries.enumerated()
    where entry.relation == .equal && entry.priority.isRequired {
      isPlannedEntry[index] = true
      append(
        batch.terms[Int(entry.termStart)..<Int(entry.termStart + entry.termCount)], mayOpen: true)
      constants.append(entry.constant)
      ids.append(entry.id)
      sources.append(-1 - Int32(index))
    }
    guard !ids.isEmpty || !replaced.isEmpty else { return nil }
    // What the batch's other constraints mention is left free where the structure allows, to
    // be bounded or reduced.
    var avoided = ReplanTables.take(&replanTables.avoided)
    avoided.append(contentsOf: repeatElement(false, count: globalOf.count))
    for (index, entry) in batch.entries.enumerated() where !isPlannedEntry[index] {
      for position in Int(entry.termStart)..<Int(entry.termStart + entry.termCount) {
        if let v = marks.local(of: batch.terms[position].variable.id) { avoided[Int(v)] = true }
      }
    }
    let incidence = EqualityPlan.Incidence(
      starts: starts, variables: variables, coefficients: coefficients, isKnown: isKnown)
    var plan = EqualityPlan()
    swap(&plan, &replanTables.plan)
    do throws(EqualityPlanError) {
      try plan.rebuild(
        from: incidence, avoiding: avoided, constants: constants, in: &replanTables.workspace)
    } catch {
      return nil
    }
    guard plan.unmatchedEqualities.isEmpty else { return nil }

    // Ranks: above every block a new block reads, below every block that reads its variables.
    func rankOfDeterminer(_ variable: Int32) -> Double? {
      guard let k = determined.step(determining: variable) else { return nil }
      let block = determined.blockOfStep[k]
      return isReplaced(block) ? nil : determined.rank(of: block)
    }
    let blockCount = plan.blockCount
    var blockOfLocal = ReplanTables.take(&replanTables.blockOfLocal)
    blockOfLocal.append(contentsOf: repeatElement(-1, count: globalOf.count))
    for block in 0..<blockCount {
      for k in plan.steps(ofBlock: block) { blockOfLocal[Int(plan.subjects[k])] = Int32(block) }
    }
    var low = ReplanTables.take(&replanTables.low)
    low.append(contentsOf: repeatElement(-.infinity, count: blockCount))
    var high = ReplanTables.take(&replanTables.high)
    high.append(contentsOf: repeatElement(.infinity, count: blockCount))
    for block in 0..<blockCount {
      for k in plan.steps(ofBlock: block) {
        determined.forEachReader(of: globalOf[Int(plan.subjects[k])]) { reader in
          guard !isReplaced(reader) else { return }
          high[block] = min(high[block], determined.rank(of: reader))
        }
        for index in Int(plan.otherStarts[k])..<Int(plan.otherStarts[k + 1]) {
          let v = plan.otherVariables[index]
          if let rank = rankOfDeterminer(globalOf[Int(v)]) { low[block] = max(low[block], rank) }
        }
      }
    }
    // A block below every new block that reads it.
    for block in stride(from: blockCount - 1, through: 0, by: -1) {
      for k in plan.steps(ofBlock: block) {
        for index in Int(plan.otherStarts[k])..<Int(plan.otherStarts[k + 1]) {
          let needed = blockOfLocal[Int(plan.otherVariables[index])]
          if needed >= 0 && needed != block {
            high[Int(needed)] = min(high[Int(needed)], high[block])
          }
        }
      }
    }
    var ranks = ReplanTables.take(&replanTables.ranks)
    ranks.append(contentsOf: repeatElement(0, count: blockCount))
    let end = Double(determined.plan.blockCount)
    for block in 0..<blockCount {
      var below = low[block]
      for k in plan.steps(ofBlock: block) {
        for index in Int(plan.otherStarts[k])..<Int(plan.otherStarts[k + 1]) {
          let needed = blockOfLocal[Int(plan.otherVariables[index])]
          if needed >= 0 && needed != block { below = max(below, ranks[Int(needed)]) }
        }
      }
      let above = high[block]
      let rank: Double
      switch (below.isFinite, above.isFinite) {
      case (true, true): rank = below + (above - below) / 4
      case (true, false): rank = max(below + 1, end)
      case (false, true): rank = above - 1
      case (false, false): rank = end
      }
      guard below < rank && rank < above else { return nil }
      ranks[block] = rank
    }
    var freed = ReplanTables.take(&replanTables.freed)
    for block in replaced {
      for k in determined.plan.steps(ofBlock: Int(block)) {
        let v = determined.plan.subjects[k]
        if blockOfLocal[Int(marks.local(of: v)!)] < 0 { freed.append(v) }
      }
    }
    reheld.sort()
    reheld.removeDuplicatesInSortedOrder()
    // What only planning needed goes back now; the rest after the batch is committed.
    replanTables.isKnown = isKnown
    replanTables.starts = starts
    replanTables.variables = variables
    replanTables.coefficients = coefficients
    replanTables.constants = constants
    replanTables.written = written
    replanTables.avoided = avoided
    replanTables.blockOfLocal = blockOfLocal
    replanTables.low = low
    replanTables.high = high
    return BatchPlan(
      plan: plan, globalOf: globalOf, replaced: replaced, ids: ids, sources: sources,
      writtenStarts: writtenStarts, written: writtenTerms, reheld: reheld,
      ranks: ranks, freed: freed, isPlannedEntry: isPlannedEntry)
  }

  /// Puts `plan` in place: the replaced blocks leave the determined part, the new ones join it
  /// at their ranks, the variables no block determines any more read 0, and the new blocks wait
  /// for evaluation.
  ///
  /// - Complexity: O(terms of the new blocks + readers of the freed variables).
  mutating func commit(_ plan: BatchPlan, _ batch: ConstraintBatch) {
    // The definitions written out through the replaced blocks, by the variable they determined:
    // where a new block gives a variable the same one, nothing downstream of it changed but its
    // values (a stack's views moved along when one of them was hidden).
    // (Their terms stay where they are: definitions are only added until the next forgetting.)
    var before: [(variable: Int32, terms: Range<Int>?)] = []
    for block in plan.replaced {
      for k in determined.plan.steps(ofBlock: Int(block)) {
        before.append((determined.plan.subjects[k], definitions.terms(ofStep: k)))
      }
    }
    suspectBlocks.removeAll { plan.replaced.contains($0) }
    for block in plan.replaced { determined.deactivate(Int(block)) }
    determined.clearPendingBlocks()
    let stepIDs = plan.plan.order.map { plan.ids[Int($0)] }
    // A few labels are searched; more are looked up.
    var labelOf: [ConstraintID: String] = [:]
    if batch.labels.count > 16 {
      for (id, label) in batch.labels { labelOf[id] = label }
    }
    let firstNewBlock = Int32(determined.plan.blockCount)
    for block in 0..<plan.plan.blockCount {
      let newBlock = determined.appendBlock(
        block, of: plan.plan, globalOf: plan.globalOf, rank: plan.ranks[block], stepIDs: stepIDs
      ) { k, written in
        let e = Int(plan.plan.order[k])
        written.append(
          contentsOf: plan.written[Int(plan.writtenStarts[e])..<Int(plan.writtenStarts[e + 1])])
      }
      let newSteps = determined.plan.steps(ofBlock: Int(newBlock))
      for (offset, k) in newSteps.enumerated() {
        let id = determined.ids[k]
        let subject = determined.plan.subjects[k]
        // Its bounds are reduced constraints, reduced again below; with none, it is unbound now.
        if bounds.contains(subject) && bounds.first[Int(subject)] < 0 {
          _ = bounds.unbind(subject)
        }
        setPlace(id, .step(k))
        let e = Int(plan.plan.order[plan.plan.steps(ofBlock: block).lowerBound + offset])
        // A batch's equality takes its label; a step planned again keeps its own.
        if plan.sources[e] < 0 && !batch.labels.isEmpty {
          determined.labels[id] =
            labelOf.isEmpty ? batch.labels.first { $0.0 == id }?.1 : labelOf[id]
        }
      }
      state.reserve(variables: determined.plan.variableCount, blocks: determined.plan.blockCount)
      state.enqueue(newBlock, of: determined)
    }
    determined.orderLateBlocks(from: firstNewBlock)
    if reduced.isFeeding.count < determined.plan.blockCount && !reduced.isFeeding.isEmpty {
      reduced.isFeeding.append(
        contentsOf: repeatElement(
          false, count: determined.plan.blockCount - reduced.isFeeding.count))
    }
    for variable in plan.freed { state.set(variable, 0, readers: determined) }
    // Definitions written over a variable a new block now determines no longer hold, nor do
    // those downstream of a variable whose definition changed or that no block determines now.
    var changed: [Int32] = []
    for (variable, terms) in before {
      guard let k = determined.step(determining: variable), let old = terms,
        definition(ofStep: k), definitions.sameTerms(ofStep: k, as: old)
      else {
        changed.append(variable)
        continue
      }
      unchangedSeeds.append(variable)
    }
    if !unchangedSeeds.isEmpty { offsetsStale = true }
    for block in 0..<plan.plan.blockCount {
      for k in plan.plan.steps(ofBlock: block) {
        let variable = plan.globalOf[Int(plan.plan.subjects[k])]
        if !before.contains(where: { $0.variable == variable }) { changed.append(variable) }
      }
    }
    forgetDefinitions(readingFree: changed)
    // What held a variable a new block determines is written out through it now.
    var taken: [(ConstraintID, Constraint)] = []
    for row in plan.reheld where reduced.rows[row].isLive {
      taken.append((reduced.rows[row].id, takeOut(reduced: row)))
    }
    for (id, constraint) in taken where !addReducing(id, constraint) {
      do throws(SolverError) {
        try addAsWritten(id, constraint)
      } catch {
        preconditionFailure("an optional constraint was refused: \(error)")
      }
    }
  }

  /// The reduced constraints that hold `variable` (its bounds, and the sparse solver's rows
  /// that mention it), or nil when something else holds it too: a constraint as written, or an
  /// edit.
  ///
  /// - Complexity: O(its bounds), and O(terms of the reduced constraints the sparse solver
  ///   holds) when it mentions the variable.
  func reducedHolders(of variable: Int32) -> [Int]? {
    let v = Int(variable)
    var rows: [Int] = []
    if bounds.contains(variable) {
      var slot = bounds.first[v]
      while slot >= 0 {
        let bound = bounds.bounds[Int(slot)]
        guard bound.reduced >= 0 else { return nil }
        rows.append(Int(bound.reduced))
        slot = bounds.next[Int(slot)]
      }
    }
    guard v < inner.core.variableSymbol.count && inner.core.variableSymbol[v] >= 0 else {
      return rows
    }
    guard inner.core.edits[variable] == nil else { return nil }
    // The removals the sparse solver deferred to the end of its batch, and then the reduced
    // rows, are searched from the last, as the latest are the likeliest to mention a variable a
    // batch opens (a hidden view's, written out when it was hidden, whose rows a stack's update
    // just removed), and the search ends once they account for every use the sparse solver
    // counts: no other row can mention the variable then. A search of every row and removal
    // for each variable opened was a third of an unhide's instructions.
    let total = inner.core.variableUses[v]
    var uses: Int32 = 0
    inner.core.pendingRemovals.withUnsafeBufferPointer { removals in
      inner.core.termStore.terms.withUnsafeBufferPointer { terms in
        var removal = removals.count - 1
        while removal >= 0 && uses < total {
          let record = removals[removal]
          for index in Int(record.termStart)..<Int(record.termStart + record.termCount)
          where terms[index].variable.id == variable {
            uses += 1
          }
          removal -= 1
        }
      }
    }
    let firstFound = rows.count
    var row = reduced.rows.count - 1
    while row >= 0 && uses < total {
      defer { row -= 1 }
      let held = reduced.rows[row]
      guard held.isLive && held.boundSlot < 0 && !held.isAside,
        let record = inner.core.records[Int(held.id.rawValue)]
      else { continue }
      var mentions = false
      for index in Int(record.termStart)..<Int(record.termStart + record.termCount)
      where inner.core.termStore.terms[index].variable.id == variable {
        uses += 1
        mentions = true
      }
      if mentions { rows.append(row) }
    }
    guard uses == total else { return nil }
    rows[firstFound...].reverse()
    return rows
  }

  /// Whether the sparse solver mentions `variable` (a row or an edit).
  ///
  /// - Complexity: O(1), but for an edit's lookup.
  func tableauMentions(_ variable: Int32) -> Bool {
    let v = Int(variable)
    if v < inner.core.variableSymbol.count && inner.core.variableSymbol[v] >= 0 { return true }
    return inner.core.edits[variable] != nil
  }

  // MARK: - Reducing a later constraint

  /// Adds optional `constraint` under `id` without promoting anything: each determined
  /// variable it mentions is written out over the variables the determined part reads (as a
  /// build reduces), and the result is a bound when one variable that nothing else holds is
  /// left, else a row of the sparse solver (of its constant alone when none is left). One that
  /// mentions no determined variable is a bound when it is one term over a variable nothing
  /// else holds. False, with nothing done, for a required constraint, one that mentions an
  /// edited or waiting block's variable, or one whose definitions are too long.
  ///
  /// - Complexity: O(``DeterminedDefinitions/cap`` × blocks written out through).
  mutating func addReducing(_ id: ConstraintID, _ constraint: Constraint) -> Bool {
    guard !constraint.priority.isRequired, constraint.priority.isValid else { return false }
    let terms = constraint.expression.terms
    let mentionsDetermined = terms.contains { determined.step(determining: $0.variable.id) != nil }
    var sum = DeterminedDefinitions.Sum()
    sum.constant = constraint.expression.constant
    if mentionsDetermined {
      // A definition's constant is read at the values: the blocks waiting are evaluated first.
      state.propagate(determined)
      for term in terms {
        guard writeOut(term.variable.id, term.coefficient, into: &sum) else {
          return false
        }
      }
      guard sum.variables.count <= DeterminedDefinitions.cap else {
        return false
      }
    } else {
      for term in terms { sum.add(term.variable.id, term.coefficient) }
      // As written, unless it is a bound.
      guard sum.variables.count == 1, terms.count == 1 else { return false }
    }
    let isBound =
      sum.variables.count == 1 && sum.coefficients[0] != 0
      && !tableauMentions(sum.variables[0])
    if !mentionsDetermined {
      guard isBound else { return false }
      bounds.bind(sum.variables[0])
      return addBound(id, constraint)
    }
    let row = reduced.append(
      id, written: terms, constant: constraint.expression.constant,
      offset: sum.constant - constraint.expression.constant)
    if isBound {
      let variable = sum.variables[0]
      bounds.bind(variable)
      let slot = bounds.insert(
        VariableBounds.Bound(
          id: id, variable: variable, coefficient: sum.coefficients[0], constant: sum.constant,
          relation: constraint.relation, priority: constraint.priority, reduced: Int32(row)))
      if let label = constraint.label { bounds.labels[id] = label }
      reduced.rows[row].boundSlot = Int32(slot)
      setPlace(id, .bound(slot))
      narrow(variable)
      return true
    }
    if sum.variables.isEmpty {
      reduced.holdAside(row, constraint.relation, constraint.priority, label: constraint.label)
      setPlace(id, .reduced(row))
      return true
    }
    do throws(SolverError) {
      try unbind(sum.variables.filter(bounds.contains))
      var held = constraint
      held.expression = LinearExpression(
        zip(sum.variables, sum.coefficients).map { Term(Variable(id: $0), $1) },
        constant: sum.constant)
      try inner.add(id, held)
    } catch {
      preconditionFailure("an optional reduced constraint was refused: \(error)")
    }
    setPlace(id, .reduced(row))
    return true
  }

  /// Adds `coefficient` × `variable` to `sum`, a determined variable written out over the
  /// variables no block determines (``definition(ofStep:depth:)``), its constant read at the
  /// values; false when its definition is not written out, or runs through a block waiting to
  /// be settled.
  ///
  /// - Precondition: the values are brought up to date through the plan (the constant of a
  ///   definition is what the values make of it).
  /// - Complexity: O(``DeterminedDefinitions/cap``) once the definitions are known.
  mutating func writeOut(
    _ variable: Int32, _ coefficient: Double, into sum: inout DeterminedDefinitions.Sum
  ) -> Bool {
    guard let k = determined.step(determining: variable) else {
      sum.add(variable, coefficient)
      return true
    }
    guard definition(ofStep: k) else { return false }
    let start = Int(definitions.starts[k])
    let count = Int(definitions.counts[k])
    var constant = state.values[Int(variable)]
    for index in start..<start + count {
      let v = definitions.variables[index], a = definitions.coefficients[index]
      constant -= a * state.values[Int(v)]
      sum.add(v, coefficient * a)
    }
    sum.constant += coefficient * constant
    return sum.variables.count <= 4 * DeterminedDefinitions.cap
  }

  /// Finds step `k`'s definition's terms, over the variables no block determines, once: kept in
  /// ``definitions`` until a block upstream changes (``forgetDefinitions(from:)``). A block of
  /// several equalities is written out whole, every step from one set of solves. False when
  /// the definition has more than ``DeterminedDefinitions/cap`` terms (kept so), runs through a
  /// block waiting to be settled, or is too deep to follow.
  ///
  /// - Complexity: O(terms of the blocks not yet written out × ``DeterminedDefinitions/cap``),
  ///   plus O(*r* · *k*²) for a block of *k* equalities that reads *r* variables; allocates
  ///   nothing once the room kept between calls has grown.
  mutating func definition(ofStep k: Int, depth: Int = 0) -> Bool {
    definitions.grow(to: determined.plan.determinedCount)
    switch definitions.starts[k] {
    case DefinitionCache.notWritten: return false
    case DefinitionCache.unknown: break
    default: return true
    }
    guard depth < 256 else { return false }
    let block = Int(determined.blockOfStep[k])
    let steps = determined.plan.steps(ofBlock: block)
    guard !steps.contains(where: { determined.isRemoved[$0] }) else { return false }
    // The definitions of what the block reads first (they may be written out now): each is
    // needed where the block's variables depend on it.
    for step in steps {
      var index = Int(determined.plan.otherStarts[step])
      while index < Int(determined.plan.otherStarts[step + 1]) {
        if let input = determined.step(determining: determined.plan.otherVariables[index]) {
          _ = definition(ofStep: input, depth: depth + 1)
        }
        index += 1
      }
    }
    // The inputs of a step, in room kept between calls (the walk above is done with it).
    var inputs = definitionInputs
    definitionInputs = []
    defer {
      inputs.removeAll(keepingCapacity: true)
      definitionInputs = inputs
    }
    if steps.count == 1 {
      // Its own terms, each written out.
      let scale = -1 / determined.plan.pivots[k]
      for index in Int(determined.plan.otherStarts[k])..<Int(determined.plan.otherStarts[k + 1]) {
        inputs.append(
          (determined.plan.otherVariables[index], determined.plan.otherCoefficients[index] * scale))
      }
      return storeDefinition(ofStep: k, block: block, inputs: inputs)
    }
    // Solved for, each read variable at 1 and the rest at 0: every step's column at once.
    var probe = definitionProbe
    definitionProbe = DeterminedDefinitions.BlockProbe()
    defer { definitionProbe = probe }
    let plan = determined.plan
    probe.inputs.removeAll(keepingCapacity: true)
    for step in steps {
      for index in Int(plan.otherStarts[step])..<Int(plan.otherStarts[step + 1])
      where !probe.inputs.contains(plan.otherVariables[index]) {
        probe.inputs.append(plan.otherVariables[index])
      }
    }
    guard probe.inputs.count <= 4 * DeterminedDefinitions.cap else {
      definitions.markNotWritten(steps)
      return false
    }
    state.reserve(variables: plan.variableCount, blocks: 0)
    let size = steps.count
    if probe.solution.count < size {
      probe.solution = [Double](repeating: 0, count: size)
    }
    // Column 0 the solution with every input at 0; column 1 + i the change input i makes.
    let width = probe.inputs.count + 1
    probe.columns.removeAll(keepingCapacity: true)
    probe.columns.append(contentsOf: repeatElement(0, count: size * width))
    probe.values.removeAll(keepingCapacity: true)
    for v in probe.inputs {
      probe.values.append(state.values[Int(v)])
      state.values[Int(v)] = 0
    }
    func solve(into probe: inout DeterminedDefinitions.BlockProbe, column: Int) {
      state.values.withUnsafeMutableBufferPointer { values in
        probe.solution.withUnsafeMutableBufferPointer { solution in
          plan.solveBlock(block, values, solution)
        }
      }
      for row in 0..<size {
        probe.columns[row * width + column] =
          column == 0 ? probe.solution[row] : probe.solution[row] - probe.columns[row * width]
      }
    }
    solve(into: &probe, column: 0)
    for i in probe.inputs.indices {
      state.values[Int(probe.inputs[i])] = 1
      solve(into: &probe, column: 1 + i)
      state.values[Int(probe.inputs[i])] = 0
    }
    for (v, value) in zip(probe.inputs, probe.values) { state.values[Int(v)] = value }
    var written = false
    for (row, step) in steps.enumerated() {
      var scale = 1.0
      for i in probe.inputs.indices { scale = max(scale, abs(probe.columns[row * width + 1 + i])) }
      // What solving leaves of an input the variable does not depend on is dropped.
      inputs.removeAll(keepingCapacity: true)
      for i in probe.inputs.indices {
        let coefficient = probe.columns[row * width + 1 + i]
        if abs(coefficient) > 1e-12 * scale { inputs.append((probe.inputs[i], coefficient)) }
      }
      let stored = storeDefinition(ofStep: step, block: block, inputs: inputs)
      if step == k { written = stored }
    }
    return written
  }

  /// Writes out step `k` (of block `block`) as the sum of `inputs` (each a variable and its
  /// coefficient) with each determined one written out in turn, and stores it. False, with the
  /// step marked when an input's is not written out or the sum is too long, or left unknown
  /// when an input's definition is not known.
  mutating func storeDefinition(
    ofStep k: Int, block: Int, inputs: [(Int32, Double)]
  ) -> Bool {
    var sum = definitionSum
    definitionSum = DeterminedDefinitions.Sum()
    defer {
      sum.removeAll()
      definitionSum = sum
    }
    sum.removeAll()
    for (v, a) in inputs {
      guard let step = determined.step(determining: v) else {
        sum.add(v, a)
        continue
      }
      let start = Int(definitions.starts[step])
      guard start >= 0 else {
        if start == DefinitionCache.notWritten {
          definitions.starts[k] = DefinitionCache.notWritten
        }
        return false
      }
      for index in start..<start + Int(definitions.counts[step]) {
        sum.add(definitions.variables[index], a * definitions.coefficients[index])
      }
      guard sum.variables.count <= 4 * DeterminedDefinitions.cap else {
        definitions.starts[k] = DefinitionCache.notWritten
        return false
      }
    }
    guard sum.variables.count <= DeterminedDefinitions.cap else {
      definitions.starts[k] = DefinitionCache.notWritten
      return false
    }
    definitions.store(k, sum)
    // Each block a definition is written out through feeds what is reduced with it; a definition
    // kept is one whose blocks were marked when it was written out (the marks are dropped only
    // with the definitions, ``restoreReducedConstraints()``).
    if reduced.isFeeding.count < determined.plan.blockCount {
      reduced.isFeeding.append(
        contentsOf: repeatElement(
          false, count: determined.plan.blockCount - reduced.isFeeding.count))
    }
    reduced.isFeeding[block] = true
    return true
  }

  /// Forgets the definitions of `blocks`' steps and of every step downstream of them: their
  /// equalities went, or they are leaving the plan. A step whose definition is not known has
  /// none known downstream (each is found from the ones it reads), so the walk stops there.
  ///
  /// - Complexity: O(steps forgotten and the readers of their variables).
  mutating func forgetDefinitions(from blocks: some Sequence<Int32>) {
    guard !definitions.starts.isEmpty else { return }
    var pending = Array(blocks)
    while let block = pending.popLast() {
      var wasKnown = false
      for k in determined.plan.steps(ofBlock: Int(block)) where k < definitions.starts.count {
        if definitions.starts[k] != DefinitionCache.unknown { wasKnown = true }
        definitions.starts[k] = DefinitionCache.unknown
      }
      guard wasKnown else { continue }
      for k in determined.plan.steps(ofBlock: Int(block)) {
        determined.forEachReader(of: determined.plan.subjects[k]) { pending.append($0) }
      }
    }
    definitions.compactIfWasteful(liveSteps: determined.plan.determinedCount)
  }

  /// Forgets the definitions that read `variables` as variables no block determines: a block
  /// now determines them.
  ///
  /// - Complexity: that of ``forgetDefinitions(from:)``.
  mutating func forgetDefinitions(readingFree variables: some Sequence<Int32>) {
    guard !definitions.starts.isEmpty else { return }
    var readers: [Int32] = []
    for variable in variables { determined.forEachReader(of: variable) { readers.append($0) } }
    forgetDefinitions(from: readers)
  }

  // MARK: - Giving back only what changed

  /// The live reduced constraints written out through a block that determines one of `seeds`,
  /// or through a block downstream of one.
  ///
  /// - Complexity: O(readers walked + terms of the live reduced constraints).
  mutating func reducedConstraints(reaching seeds: some Sequence<Int32>) -> [Int] {
    guard reduced.liveCount > 0 else { return [] }
    var marks = scratchMarks
    scratchMarks = ScratchMarks()
    defer {
      marks.clear()
      scratchMarks = marks
    }
    marks.grow(
      variables: max(determined.plan.variableCount, state.values.count),
      blocks: determined.plan.blockCount)
    var pending: [Int32] = []
    for seed in seeds where marks.markVariable(seed) { pending.append(seed) }
    while let variable = pending.popLast() {
      determined.forEachReader(of: variable) { block in
        guard marks.markBlock(block) else { return }
        for k in determined.plan.steps(ofBlock: Int(block)) {
          let subject = determined.plan.subjects[k]
          if marks.markVariable(subject) { pending.append(subject) }
        }
      }
    }
    var rows: [Int] = []
    for row in reduced.rows.indices where reduced.rows[row].isLive {
      if reduced.writtenTerms(row).contains(where: { marks.isMarked(variable: $0.variable.id) }) {
        rows.append(row)
      }
    }
    return rows
  }

  /// Writes reduced constraint `row` out again and, when that gives the terms it is held with
  /// (a view whose stack moved: its bound's constant only), sets the new constant where it is
  /// held. False, with nothing changed, when the terms differ or it cannot be written out.
  ///
  /// - Precondition: the values are brought up to date through the plan.
  /// - Complexity: that of ``writeOut(_:_:into:)`` for its terms.
  mutating func reduceAgainInPlace(_ row: Int) -> Bool {
    let written = reduced.rows[row]
    guard !written.isRequired else { return false }
    var sum = DeterminedDefinitions.Sum()
    sum.constant = written.constant
    for term in reduced.writtenTerms(row) {
      guard writeOut(term.variable.id, term.coefficient, into: &sum) else { return false }
    }
    guard sum.variables.count <= DeterminedDefinitions.cap else {
      return false
    }
    func holds(_ variable: Int32, _ coefficient: Double) -> Bool {
      guard let index = sum.variables.firstIndex(of: variable) else { return false }
      return sum.coefficients[index] == coefficient
    }
    if written.boundSlot >= 0 {
      let slot = Int(written.boundSlot)
      let bound = bounds.bounds[slot]
      guard sum.variables.count == 1, holds(bound.variable, bound.coefficient) else { return false }
      bounds.bounds[slot].constant = sum.constant
      narrow(bound.variable)
    } else if written.isAside {
      guard sum.variables.isEmpty else { return false }
    } else {
      guard let record = inner.core.records[Int(written.id.rawValue)],
        Int(record.termCount) == sum.variables.count
      else { return false }
      for index in Int(record.termStart)..<Int(record.termStart + record.termCount) {
        let term = inner.core.termStore.terms[index]
        guard holds(term.variable.id, term.coefficient) else { return false }
      }
      do throws(SolverError) {
        try inner.setConstant(written.id, sum.constant)
      } catch {
        preconditionFailure("an optional reduced constraint's constant could not change: \(error)")
      }
    }
    reduced.rows[row].offset = sum.constant - written.constant
    return true
  }

  /// Takes reduced constraint `row` out of where it is held (a bound or the sparse solver),
  /// and returns it as written.
  mutating func takeOut(reduced row: Int) -> Constraint {
    let written = reduced.rows[row]
    let relation: Relation
    let priority: Priority
    let label: String?
    if written.boundSlot >= 0 {
      let bound = bounds.bounds[Int(written.boundSlot)]
      (relation, priority, label) = (bound.relation, bound.priority, bounds.labels[written.id])
      bounds.remove(Int(written.boundSlot))
      narrow(bound.variable)
      // A variable a block determines now keeps no empty list of bounds.
      if bounds.first[Int(bound.variable)] < 0
        && determined.step(determining: bound.variable) != nil
      {
        _ = bounds.unbind(bound.variable)
      }
    } else if written.isAside {
      (relation, priority) = (written.relation, written.priority)
      label = reduced.asideLabels.isEmpty ? nil : reduced.asideLabels[written.id]
    } else {
      guard let held = inner.constraint(written.id) else {
        preconditionFailure("reduced constraint \(written.id) is not in the tableau")
      }
      (relation, priority, label) = (held.relation, held.priority, held.label)
      do throws(SolverError) {
        try inner.remove(written.id)
      } catch {
        preconditionFailure("a reduced constraint could not be removed: \(error)")
      }
    }
    reduced.remove(row)
    setPlace(written.id, .notDetermined)
    return Constraint(
      LinearExpression(Array(reduced.writtenTerms(row)), constant: written.constant), relation,
      priority: priority, label: label)
  }

  /// Gives back the reduced constraints written out through the blocks of `seeds`' variables
  /// (or downstream of them), which changed: each is reduced again over the determined part as
  /// it is now where `reducingAgain` (the blocks changed are settled), or given to the sparse
  /// solver as written (the blocks are being promoted). With a required one among them, every
  /// reduced constraint goes back as written (``restoreReducedConstraints()``).
  ///
  /// - Complexity: that of ``reducedConstraints(reaching:)``, plus the reductions.
  mutating func restoreReducedConstraints(
    reaching seeds: [Int32], reducingAgain: Bool
  ) throws(SolverError) {
    let rows = reducedConstraints(reaching: seeds)
    guard !rows.isEmpty else { return }
    if rows.contains(where: { reduced.rows[$0].isRequired }) {
      return try restoreReducedConstraints()
    }
    var taken: [(ConstraintID, Constraint)] = []
    if reducingAgain { state.propagate(determined) }
    for row in rows where !(reducingAgain && reduceAgainInPlace(row)) {
      taken.append((reduced.rows[row].id, takeOut(reduced: row)))
    }
    for (id, constraint) in taken where !(reducingAgain && addReducing(id, constraint)) {
      try addAsWritten(id, constraint)
    }
  }

  /// Adds `constraint` to the sparse solver as written, after promoting the blocks it reaches
  /// and giving it the bounds of the bounded variables it mentions.
  mutating func addAsWritten(_ id: ConstraintID, _ constraint: Constraint) throws(SolverError) {
    let variables = constraint.expression.terms.map(\.variable.id)
    var blocks: [Int32] = []
    for variable in variables {
      if let k = determined.step(determining: variable) { blocks.append(determined.blockOfStep[k]) }
    }
    if !blocks.isEmpty { try promote(determined.closure(of: blocks)) }
    try unbind(variables.filter(bounds.contains))
    try inner.add(id, constraint)
  }
}

/// The definitions a ``PlanSolver`` has written out, by step: each determined variable as a
/// combination of variables no block determines (its constant is read at the values), kept
/// until a block upstream changes.
struct DefinitionCache {
  /// Where each step's terms start (or ``unknown``, ``notWritten``), and how many.
  var starts: [Int32] = []
  var counts: [UInt8] = []
  var variables: [Int32] = []
  var coefficients: [Double] = []

  static var unknown: Int32 { -1 }
  static var notWritten: Int32 { -2 }

  /// Room for `steps` steps, each unknown.
  mutating func grow(to steps: Int) {
    guard starts.count < steps else { return }
    starts.append(contentsOf: repeatElement(Self.unknown, count: steps - starts.count))
    counts.append(contentsOf: repeatElement(0, count: steps - counts.count))
  }

  mutating func store(_ k: Int, _ sum: DeterminedDefinitions.Sum) {
    starts[k] = Int32(variables.count)
    counts[k] = UInt8(sum.variables.count)
    variables.append(contentsOf: sum.variables)
    coefficients.append(contentsOf: sum.coefficients)
  }

  /// Where step `k`'s definition's terms are held, if it is known and written out.
  func terms(ofStep k: Int) -> Range<Int>? {
    guard k < starts.count, starts[k] >= 0 else { return nil }
    let start = Int(starts[k])
    return start..<start + Int(counts[k])
  }

  /// Whether step `k`'s definition (known) has the terms at `terms` (a range
  /// ``terms(ofStep:)`` gave, held until the definitions are next forgotten), in any order.
  func sameTerms(ofStep k: Int, as terms: Range<Int>) -> Bool {
    let start = Int(starts[k])
    guard Int(counts[k]) == terms.count else { return false }
    return terms.allSatisfy { old in
      (start..<start + Int(counts[k])).contains {
        variables[$0] == variables[old] && coefficients[$0] == coefficients[old]
      }
    }
  }

  mutating func markNotWritten(_ steps: Range<Int>) {
    for k in steps { starts[k] = Self.notWritten }
  }

  /// Forgets every definition once the terms held pass what the steps could use several times
  /// over: forgotten definitions leave their terms behind.
  mutating func compactIfWasteful(liveSteps: Int) {
    guard variables.count > 4 * (liveSteps + 256) else { return }
    for k in starts.indices { starts[k] = Self.unknown }
    variables.removeAll(keepingCapacity: true)
    coefficients.removeAll(keepingCapacity: true)
  }

  var bytes: Int {
    starts.capacity * 4 + counts.capacity + variables.capacity * 4 + coefficients.capacity * 8
  }
}

/// The tables a later batch is planned in (``PlanSolver/replan(_:)``), kept between batches for
/// their room: once they have grown to the batches' sizes, planning one allocates nothing.
struct ReplanTables {
  var replaced: [Int32] = []
  var globalOf: [Int32] = []
  var isKnown: [Bool] = []
  var reheld: [Int] = []
  var starts: [Int32] = []
  var variables: [Int32] = []
  var coefficients: [Double] = []
  var constants: [Double] = []
  var ids: [ConstraintID] = []
  var sources: [Int32] = []
  var writtenStarts: [Int32] = []
  var writtenTerms: [Term] = []
  var written: [Term] = []
  var isPlannedEntry: [Bool] = []
  var avoided: [Bool] = []
  var blockOfLocal: [Int32] = []
  var low: [Double] = []
  var high: [Double] = []
  var ranks: [Double] = []
  var freed: [Int32] = []
  /// The batch's plan, and the room it is planned in.
  var plan = EqualityPlan()
  var workspace = EqualityPlan.Workspace()

  /// `table`, emptied with its room kept, leaving an empty array in its place (so that the one
  /// returned is the only reference to its storage).
  ///
  /// - Complexity: O(its count).
  static func take<Element>(_ table: inout [Element]) -> [Element] {
    var taken: [Element] = []
    swap(&taken, &table)
    taken.removeAllKeepingCapacity()
    return taken
  }

  /// Takes back the tables `plan` was given, once it is committed.
  ///
  /// - Complexity: O(1).
  mutating func recycle(_ plan: inout PlanSolver.BatchPlan) {
    swap(&replaced, &plan.replaced)
    swap(&globalOf, &plan.globalOf)
    swap(&reheld, &plan.reheld)
    swap(&ids, &plan.ids)
    swap(&sources, &plan.sources)
    swap(&writtenStarts, &plan.writtenStarts)
    swap(&writtenTerms, &plan.written)
    swap(&isPlannedEntry, &plan.isPlannedEntry)
    swap(&ranks, &plan.ranks)
    swap(&freed, &plan.freed)
    swap(&self.plan, &plan.plan)
  }

  /// Bytes held.
  var bytes: Int {
    (replaced.capacity + globalOf.capacity + starts.capacity + variables.capacity
      + sources.capacity + writtenStarts.capacity + blockOfLocal.capacity + freed.capacity) * 4
      + (reheld.capacity + coefficients.capacity + constants.capacity + low.capacity
        + high.capacity + ranks.capacity) * 8
      + ids.capacity * MemoryLayout<ConstraintID>.stride
      + (writtenTerms.capacity + written.capacity) * MemoryLayout<Term>.stride
      + isKnown.capacity + isPlannedEntry.capacity + avoided.capacity + plan.bytes
      + workspace.bytes
  }
}

/// Marks by variable and by block, and a local number by variable, kept between calls for their
/// room: each call clears only what it set.
struct ScratchMarks {
  private var variableMark: [Bool] = []
  private var blockMark: [Bool] = []
  private var localNumber: [Int32] = []
  private var markedVariables: [Int32] = []
  private var markedBlocks: [Int32] = []
  private var numbered: [Int32] = []

  mutating func grow(variables: Int, blocks: Int) {
    if variableMark.count < variables {
      variableMark.append(contentsOf: repeatElement(false, count: variables - variableMark.count))
      localNumber.append(contentsOf: repeatElement(-1, count: variables - localNumber.count))
    }
    if blockMark.count < blocks {
      blockMark.append(contentsOf: repeatElement(false, count: blocks - blockMark.count))
    }
  }

  /// Marks `variable`; false if it was marked.
  mutating func markVariable(_ variable: Int32) -> Bool {
    if Int(variable) >= variableMark.count { grow(variables: Int(variable) + 1, blocks: 0) }
    guard !variableMark[Int(variable)] else { return false }
    variableMark[Int(variable)] = true
    markedVariables.append(variable)
    return true
  }

  /// Marks `block`; false if it was marked.
  mutating func markBlock(_ block: Int32) -> Bool {
    if Int(block) >= blockMark.count { grow(variables: 0, blocks: Int(block) + 1) }
    guard !blockMark[Int(block)] else { return false }
    blockMark[Int(block)] = true
    markedBlocks.append(block)
    return true
  }

  func isMarked(variable: Int32) -> Bool {
    Int(variable) < variableMark.count && variableMark[Int(variable)]
  }

  func isMarked(block: Int32) -> Bool { Int(block) < blockMark.count && blockMark[Int(block)] }

  func local(of variable: Int32) -> Int32? {
    guard Int(variable) < localNumber.count, localNumber[Int(variable)] >= 0 else { return nil }
    return localNumber[Int(variable)]
  }

  mutating func setLocal(_ number: Int32, of variable: Int32) {
    if Int(variable) >= localNumber.count { grow(variables: Int(variable) + 1, blocks: 0) }
    localNumber[Int(variable)] = number
    numbered.append(variable)
  }

  /// Clears every mark and number set, keeping the room.
  mutating func clear() {
    for v in markedVariables { variableMark[Int(v)] = false }
    for b in markedBlocks { blockMark[Int(b)] = false }
    for v in numbered { localNumber[Int(v)] = -1 }
    markedVariables.removeAll(keepingCapacity: true)
    markedBlocks.removeAll(keepingCapacity: true)
    numbered.removeAll(keepingCapacity: true)
  }

  var bytes: Int {
    variableMark.capacity + blockMark.capacity + localNumber.capacity * 4
      + (markedVariables.capacity + markedBlocks.capacity + numbered.capacity) * 4
  }
}

extension PlanSolver {
  // MARK: - Compacting the plan

  /// Whether the plan holds enough blocks no longer active (replaced by later batches, or
  /// promoted) to be copied without them: more dead steps than live ones, and some dozens.
  var planIsWasteful: Bool {
    let steps = determined.plan.determinedCount
    return determined.appendedSteps > 0 && steps - determined.liveSteps > determined.liveSteps + 64
  }

  /// Copies the determined part without its dead blocks (``DeterminedPart/compacted()``),
  /// renumbering what refers to blocks and steps: the places of the steps' constraints, the
  /// marks of the blocks that feed reduced constraints, and the definitions (forgotten).
  ///
  /// - Precondition: outside a batch, with no block waiting and nothing queued.
  /// - Complexity: O(the plan's active terms + variables + constraints' places).
  mutating func compactPlan() {
    guard batchDepth == 0, determined.pendingBlocks.isEmpty, state.queue.isEmpty,
      suspectBlocks.isEmpty, !restorePending
    else { return }
    let (part, newIndex) = determined.compacted()
    func remapped(_ marks: [Bool]) -> [Bool] {
      guard !marks.isEmpty else { return [] }
      var result = [Bool](repeating: false, count: part.plan.blockCount)
      for (old, new) in newIndex.enumerated() where new >= 0 && old < marks.count && marks[old] {
        result[Int(new)] = true
      }
      return result
    }
    reduced.isFeeding = remapped(reduced.isFeeding)
    reduced.isFeedingRequired = remapped(reduced.isFeedingRequired)
    determined = part
    for k in 0..<determined.plan.determinedCount { setPlace(determined.ids[k], .step(k)) }
    definitions = DefinitionCache()
    state.isQueued = [Bool](repeating: false, count: determined.plan.blockCount)
  }
}

extension PlanSolver {
  /// Whether the reduced constraints' table holds more removed rows than live ones, and some
  /// dozens: later batches append a row for each constraint they reduce.
  var reducedRowsAreWasteful: Bool {
    reduced.rows.count - reduced.liveCount > reduced.liveCount + 64
  }

  /// Copies the reduced constraints without their removed rows, renumbering the places and
  /// bounds that name them.
  ///
  /// - Complexity: O(rows + their terms).
  mutating func compactReducedRows() {
    var packed = ReducedConstraints()
    packed.isFeeding = reduced.isFeeding
    packed.isFeedingRequired = reduced.isFeedingRequired
    for row in reduced.rows.indices where reduced.rows[row].isLive {
      let written = reduced.rows[row]
      let new = packed.append(
        written.id, written: reduced.writtenTerms(row), constant: written.constant,
        offset: written.offset, isRequired: written.isRequired)
      packed.rows[new].boundSlot = written.boundSlot
      if written.boundSlot >= 0 {
        bounds.bounds[Int(written.boundSlot)].reduced = Int32(new)
      } else {
        setPlace(written.id, .reduced(new))
      }
    }
    reduced = packed
  }
}

extension Array where Element: Equatable {
  /// Drops each element equal to the one before it: a sorted array keeps one of each.
  ///
  /// - Complexity: O(*n*), in place.
  mutating func removeDuplicatesInSortedOrder() {
    guard count > 1 else { return }
    var kept = 1
    for index in 1..<count where self[index] != self[kept - 1] {
      self[kept] = self[index]
      kept += 1
    }
    removeLast(count - kept)
  }
}
