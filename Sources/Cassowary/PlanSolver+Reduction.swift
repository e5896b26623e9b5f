extension PlanSolver {
  // MARK: - Reducing optional constraints at a build

  /// The optional constraints of a build written out over the tableau's variables.
  struct Reduction {
    /// A reduced constraint: its index in the batch, and its terms (in ``terms``) and
    /// constant written out.
    struct Written {
      var index: Int32
      var termStart: Int32
      var termCount: Int32
      var constant: Double
    }

    var entries: [Written] = []
    var terms: [Term] = []
    /// The blocks the reduced constraints were written out through (by block), and those the
    /// required ones were.
    var isFeeding: [Bool] = []
    var isFeedingRequired: [Bool] = []

    /// Where each of a batch's `count` entries is in ``entries``, by entry (-1 for one not
    /// reduced).
    ///
    /// - Complexity: O(`count`).
    func positionsByEntry(count: Int) -> [Int32] {
      var positions = [Int32](repeating: -1, count: count)
      for (position, written) in entries.enumerated() {
        positions[Int(written.index)] = Int32(position)
      }
      return positions
    }
  }

  /// Writes out the constraints of `batch` that may be reduced (`reducible`, by entry: optional
  /// constraints, required inequalities and the required equalities the plan left unmatched)
  /// that mention a variable a block not `reached` determines, so that the block can stay
  /// determined: each such variable is replaced by its definition over the tableau's variables.
  /// One left with no variable (a size preference of a view the equalities fix) is a row of its
  /// constant alone, whose error no value moves. An unmatched equality is reduced only to no
  /// variable: 0 = 0 where the others imply it (a row pinned at both ends that also keeps its
  /// widths equal), which the tableau holds as a redundant row, or 0 = *c*, which it refuses
  /// as the equality as written would be. A constraint whose definitions are not written out (a
  /// long chain), a required one that would come out longer than written, or an equality left
  /// with a variable reaches its blocks instead, which the tableau then takes; as that changes
  /// what the others are written over, the rest are written out again, until none is refused.
  ///
  /// - Complexity: O(*t* × ``DeterminedDefinitions/cap``) a round, for *t* terms of the plan
  ///   and the constraints; a round for each wave of refusals (usually one).
  func reduce(
    _ batch: ConstraintBatch, reducible: [Bool], blocks: PlanBlocks,
    reached isReached: inout [Bool]
  ) -> Reduction {
    var candidates: [Int] = reducible.indices.filter { reducible[$0] }
    guard !candidates.isEmpty else { return Reduction() }
    var sum = DeterminedDefinitions.Sum()
    // The batch's terms through a buffer: slices of the array, one a constraint, retained and
    // released its storage.
    return batch.terms.withUnsafeBufferPointer { terms in
      while true {
        let definitions = DeterminedDefinitions(
          plan: blocks.plan, isTaken: isReached, stepOfVariable: blocks.stepOfVariable,
          blockOfStep: blocks.blockOfStep)
        var result = Reduction()
        var kept: [Int] = []
        var refused: [Int] = []
        for index in candidates {
          let entry = batch.entries[index]
          let run = Int(entry.termStart)..<Int(entry.termStart + entry.termCount)
          // One that mentions no determined variable is given as written, now and later (the
          // blocks the tableau takes only grow).
          guard run.contains(where: { definitions.isDetermined(terms[$0].variable.id) })
          else { continue }
          sum.removeAll()
          sum.constant = entry.constant
          var isWritten = true
          for position in run {
            let term = terms[position]
            guard definitions.add(term.variable.id, term.coefficient, to: &sum) else {
              isWritten = false
              break
            }
          }
          // A required inequality is reduced only where that leaves it no longer than written (or
          // of two terms): one written out longer (a column's tops, each through the row above's
          // bottom) would fill the tableau in where the blocks it reaches cost less, and it
          // decides feasibility there all the same.
          guard
            isWritten && sum.variables.count <= DeterminedDefinitions.cap
              && (!entry.priority.isRequired
                || sum.variables.count <= max(Int(entry.termCount), 2))
              && (entry.relation != .equal || !entry.priority.isRequired || sum.variables.isEmpty)
          else {
            refused.append(index)
            continue
          }
          kept.append(index)
          result.entries.append(
            Reduction.Written(
              index: Int32(index), termStart: Int32(result.terms.count),
              termCount: Int32(sum.variables.count), constant: sum.constant))
          // By index: a zip of the sum's arrays retained and released both.
          for term in sum.variables.indices {
            result.terms.append(Term(Variable(id: sum.variables[term]), sum.coefficients[term]))
          }
        }
        guard !refused.isEmpty else {
          result.isFeeding = [Bool](repeating: false, count: blocks.plan.blockCount)
          // Copied once: passed from the parameter, it was retained for every walk.
          let stop = isReached
          var pending: [Int32] = []
          for written in result.entries {
            let entry = batch.entries[Int(written.index)]
            let variables = terms[
              Int(entry.termStart)..<Int(entry.termStart + entry.termCount)
            ].lazy.map(\.variable.id)
            blocks.reach(variables, &result.isFeeding, stoppingAt: stop, pending: &pending)
            if entry.priority.isRequired {
              if result.isFeedingRequired.isEmpty {
                result.isFeedingRequired = [Bool](repeating: false, count: blocks.plan.blockCount)
              }
              blocks.reach(
                variables, &result.isFeedingRequired, stoppingAt: stop, pending: &pending)
            }
          }
          return result
        }
        for index in refused {
          let entry = batch.entries[index]
          blocks.reach(
            terms[Int(entry.termStart)..<Int(entry.termStart + entry.termCount)].lazy.map(
              \.variable.id), &isReached)
        }
        candidates = kept
      }
    }
  }

  // MARK: - Giving reduced constraints back as written

  /// Gives the sparse solver every reduced constraint back as written, with the blocks that fed
  /// them: what an operation that changes one of those blocks' equalities must do first, as a
  /// row written out through an equality holds only while the equality does.
  ///
  /// - Complexity: O(rows and blocks given back), plus the sparse solver's removes and adds.
  mutating func restoreReducedConstraints() throws(SolverError) {
    // The marks of what feeds a reduction go with the rows, and so do the definitions written
    // out with them (a kept definition is one whose blocks are marked).
    definitions = DefinitionCache()
    guard reduced.liveCount > 0 else {
      reduced = ReducedConstraints()
      return
    }
    let rows = reduced
    reduced = ReducedConstraints()
    var feeding: [Int32] = []
    for block in rows.isFeeding.indices where rows.isFeeding[block] {
      feeding.append(Int32(block))
    }
    // A row waiting to be reduced again may mention a variable a block planned since
    // determines: that block goes too.
    for row in rows.rows where row.isLive {
      for term in rows.terms[Int(row.termStart)..<Int(row.termStart + row.termCount)] {
        if let k = determined.step(determining: term.variable.id) {
          feeding.append(determined.blockOfStep[k])
        }
      }
    }
    var batch = ConstraintBatch()
    batch.terms = rows.terms
    inner.beginBatch()
    defer { inner.endBatch() }
    var narrowed = Set<Int32>()
    for row in rows.rows where row.isLive {
      // Terms and constant as written; the relation, priority and label are the bound's or the
      // sparse solver's.
      let relation: Relation
      let priority: Priority
      if row.boundSlot >= 0 {
        let bound = bounds.bounds[Int(row.boundSlot)]
        (relation, priority) = (bound.relation, bound.priority)
        if let label = bounds.labels[row.id] { batch.labels.append((row.id, label)) }
        bounds.remove(Int(row.boundSlot))
        narrowed.insert(bound.variable)
      } else if row.isAside {
        (relation, priority) = (row.relation, row.priority)
        if let label = rows.asideLabels[row.id] { batch.labels.append((row.id, label)) }
      } else {
        guard let held = inner.constraint(row.id) else {
          preconditionFailure("reduced constraint \(row.id) is not in the tableau")
        }
        (relation, priority) = (held.relation, held.priority)
        if let label = held.label { batch.labels.append((row.id, label)) }
        try inner.remove(row.id)
      }
      batch.entries.append(
        ConstraintBatch.Entry(
          id: row.id, termStart: row.termStart, termCount: row.termCount, constant: row.constant,
          relation: relation, priority: priority))
      setPlace(row.id, .notDetermined)
    }
    try promote(determined.closure(of: feeding))
    try unbind(boundedVariables(mentionedBy: batch))
    try inner.add(batch, leading: [])
    // What stays bounded of the variables that lost bounds.
    for variable in narrowed.sorted() where bounds.contains(variable) { narrow(variable) }
  }

  /// Gives the reduced constraints back as written if an equality they were written out
  /// through went since they were last given back (``restorePending``). Before an operation
  /// that may be refused, inside a batch: a row written out through a removed equality holds
  /// with it, not without, so deciding against the stale rows could take what the constraints
  /// as written refuse.
  ///
  /// The constraints held were satisfiable with the removed equality, so without it too:
  /// adding them back is never refused.
  ///
  /// - Complexity: O(1) unless pending; then ``restoreReducedConstraints()``.
  mutating func restoreStaleReducedConstraints() {
    // The definitions downstream of a block that lost an equality go first.
    if !suspectBlocks.isEmpty {
      forgetDefinitions(from: suspectBlocks)
      suspectBlocks.removeAll()
    }
    defer { unchangedSeeds.removeAll() }
    guard restorePending else { return }
    restorePending = false
    var seeds: [Int32] = []
    swap(&seeds, &restoreSeeds)
    if !unchangedSeeds.isEmpty {
      let unchanged = Set(unchangedSeeds)
      seeds.removeAll { unchanged.contains($0) }
    }
    do throws(SolverError) {
      try restoreReducedConstraints(reaching: seeds, reducingAgain: true)
    } catch {
      preconditionFailure("constraints that held as reduced could not be added again: \(error)")
    }
  }

  /// Sets each reduced constraint's constant to what the equalities it was written out through
  /// make it now, after one of their constants changed: the row as reduced must read, at values
  /// where every equality holds, what the constraint as written reads. (The values hold them:
  /// the plan was just evaluated.) A constant that moved only by rounding is left as it was.
  ///
  /// - Complexity: O(terms of the live reduced constraints), plus the sparse solver's constant
  ///   changes and the narrowing of the bounds that moved.
  mutating func updateReducedConstants() {
    // Every constant is read at the same values first: changing one in the sparse solver
    // moves its values.
    withReducedConstantUpdates { solver, updates in
      solver.collectReducedConstantUpdates(into: &updates)
      solver.applyReducedConstantUpdates(updates)
    }
  }

  /// Runs `body` with the list of reduced constant updates, empty, taken out of the solver
  /// and put back emptied after, to keep its room: a resize moves them all.
  mutating func withReducedConstantUpdates<Result>(
    _ body: (inout PlanSolver, inout [(row: Int, constant: Double)]) -> Result
  ) -> Result {
    var updates: [(row: Int, constant: Double)] = []
    swap(&updates, &reducedConstantUpdates)
    defer {
      updates.removeAll(keepingCapacity: true)
      swap(&updates, &reducedConstantUpdates)
    }
    return body(&self, &updates)
  }

  /// Appends to `updates` each live reduced constraint whose constant, read at the values
  /// now, differs from the one held (beyond rounding), with the new constant.
  ///
  /// - Complexity: O(terms of the live reduced constraints).
  func collectReducedConstantUpdates(into updates: inout [(row: Int, constant: Double)]) {
    for row in reduced.rows.indices where reduced.rows[row].isLive {
      let written = reduced.rows[row]
      // A required row the sparse solver holds is never moved in place (one change at a time
      // could pass through a state none of them allows): a change that would move it gives
      // the rows back as written first. A row held aside is read by nothing.
      guard !written.isAside, !written.isRequired || written.boundSlot >= 0 else { continue }
      var asWritten = written.constant
      for term in reduced.writtenTerms(row) {
        asWritten += term.coefficient * value(of: term.variable)
      }
      let old: Double
      var heldTerms = 0.0
      if written.boundSlot >= 0 {
        let bound = bounds.bounds[Int(written.boundSlot)]
        old = bound.constant
        heldTerms = bound.coefficient * state.values[Int(bound.variable)]
      } else {
        guard let record = inner.core.records[Int(written.id.rawValue)] else {
          preconditionFailure("reduced constraint \(written.id) is not in the tableau")
        }
        old = record.constant
        for index in Int(record.termStart)..<Int(record.termStart + record.termCount) {
          let term = inner.core.termStore.terms[index]
          heldTerms += term.coefficient * inner.value(of: term.variable)
        }
      }
      let constant = asWritten - heldTerms
      if abs(constant - old) > 1e-12 * max(1, abs(constant), abs(old)) {
        updates.append((row, constant))
      }
    }
  }

  /// Sets the reduced constants `updates` gives (from
  /// ``collectReducedConstantUpdates(into:)``): in the bounds, narrowed again, and in the
  /// sparse solver, whose rows are optional.
  ///
  /// - Complexity: O(updates), plus the sparse solver's constant changes.
  mutating func applyReducedConstantUpdates(_ updates: [(row: Int, constant: Double)]) {
    guard !updates.isEmpty else { return }
    inner.beginBatch()
    for (row, constant) in updates {
      let written = reduced.rows[row]
      reduced.rows[row].offset = constant - written.constant
      if written.boundSlot >= 0 {
        let slot = Int(written.boundSlot)
        bounds.bounds[slot].constant = constant
        narrow(bounds.bounds[slot].variable)
      } else {
        do throws(SolverError) {
          try inner.setConstant(written.id, constant)
        } catch {
          preconditionFailure("a reduced constraint's constant could not change: \(error)")
        }
      }
    }
    inner.endBatch()
  }

  /// Runs `body`, an operation; if it is refused while required constraints may be held
  /// reduced, makes it again with every reduced constraint given back as written, so that the
  /// refusal names the constraints as written (with the equalities a reduced one was written
  /// out through). Refused again, the solver is as it was before either.
  ///
  /// The first try's refusal is the right one to make (a reduced constraint holds wherever its
  /// constraint as written does), and leaves the solver as it was; only its conflicts are
  /// named as reduced.
  mutating func refusingAsWritten(
    _ body: (inout PlanSolver) throws(SolverError) -> Void
  ) throws(SolverError) {
    do throws(SolverError) {
      try body(&self)
    } catch {
      guard case .unsatisfiable = error, reduced.mayHoldRequired else { throw error }
      try withReducedConstraintsRestored { solver throws(SolverError) in try body(&solver) }
      settle()
    }
  }

  /// Runs `body` after giving the reduced constraints back as written; if `body` throws, the
  /// solver is as it was.
  mutating func withReducedConstraintsRestored(
    _ body: (inout PlanSolver) throws(SolverError) -> Void
  ) throws(SolverError) {
    try withSnapshot { solver throws(SolverError) in
      try solver.restoreReducedConstraints()
      try body(&solver)
    }
  }
}

/// The blocks of a plan being built and what each needs: the graph a build walks to find
/// the blocks a constraint reaches.
struct PlanBlocks {
  let plan: EqualityPlan
  /// The step that determines each variable (-1 for none), and each step's block.
  let stepOfVariable: [Int32]
  let blockOfStep: [Int32]

  /// Marks in `marks` the blocks that determine `variables`, and the blocks they need,
  /// directly or not.
  ///
  /// - Complexity: O(`variables` + terms of the blocks newly marked).
  func reach(_ variables: some Sequence<Int32>, _ marks: inout [Bool]) {
    var pending: [Int32] = []
    reach(variables, &marks, stoppingAt: [], pending: &pending)
  }

  /// Marks in `marks` the blocks that determine `variables`, and the blocks they need,
  /// directly or not; a block `stop` marks is neither marked nor walked through (an empty
  /// `stop` marks none). `pending` is room for the walk, left empty: a build reaches from
  /// each of its reduced constraints, and a list of its own each time allocated for each.
  ///
  /// - Complexity: O(`variables` + terms of the blocks newly marked).
  func reach(
    _ variables: some Sequence<Int32>, _ marks: inout [Bool], stoppingAt stop: [Bool],
    pending: inout [Int32]
  ) {
    let stops = !stop.isEmpty
    for variable in variables {
      let step = stepOfVariable[Int(variable)]
      guard step >= 0 else { continue }
      let start = blockOfStep[Int(step)]
      guard !marks[Int(start)] && !(stops && stop[Int(start)]) else { continue }
      marks[Int(start)] = true
      pending.append(start)
    }
    while let block = pending.popLast() {
      for k in plan.steps(ofBlock: Int(block)) {
        for index in Int(plan.otherStarts[k])..<Int(plan.otherStarts[k + 1]) {
          let step = stepOfVariable[Int(plan.otherVariables[index])]
          guard step >= 0 else { continue }
          let needed = Int(blockOfStep[Int(step)])
          if !marks[needed] && !(stops && stop[needed]) {
            marks[needed] = true
            pending.append(Int32(needed))
          }
        }
      }
    }
  }
}
