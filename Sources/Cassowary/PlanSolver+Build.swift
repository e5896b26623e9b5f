extension PlanSolver {
  // MARK: - A first build

  /// Builds an empty solver from `batch`: plans its required equalities, gives the sparse solver
  /// the rest (optional constraints reduced where they can be, the others with the planned blocks
  /// they reach), and keeps the other blocks as the determined part.
  /// False, with nothing done, when the batch must go to the sparse solver as it is: it holds an
  /// invalid constraint or an id twice (refused where one by one would refuse them), or a block
  /// of its equalities is singular.
  ///
  /// - Throws: what adding the batch one by one would throw; the constraints before the refused
  ///   one are added and the rest are not.
  /// - Complexity: O(*t*) for *t* terms, plus the matching's searches and O(*k*³) a block of *k*,
  ///   plus the sparse solver's build of the rest.
  mutating func buildPlanned(_ batch: ConstraintBatch, leading: [Int]) throws(SolverError) -> Bool {
    // A first pass checks the batch and sizes the tables.
    var largestVariable: Int32 = -1
    var largestID: Int32 = -1
    var equalityCount = 0
    var equalityTerms = 0
    for entry in batch.entries {
      guard entry.priority.isValid, entry.constant.isFinite else { return false }
      largestID = max(largestID, entry.id.rawValue)
      let isEquality = entry.relation == .equal && entry.priority.isRequired
      if isEquality {
        equalityCount += 1
        equalityTerms += Int(entry.termCount)
      }
      for index in Int(entry.termStart)..<Int(entry.termStart + entry.termCount) {
        let term = batch.terms[index]
        guard term.coefficient.isFinite else { return false }
        largestVariable = max(largestVariable, term.variable.id)
      }
    }
    for (variable, _) in inner.core.edits { largestVariable = max(largestVariable, variable) }
    let variableCount = Int(largestVariable) + 1
    var seen = [Bool](repeating: false, count: Int(largestID) + 1)
    for entry in batch.entries {
      guard !seen[Int(entry.id.rawValue)] else { return false }
      seen[Int(entry.id.rawValue)] = true
    }

    // The required equalities' incidence (a variable once an equality, its coefficients summed,
    // dropped where they cancel), and the variables everything else mentions.
    var avoided = [Bool](repeating: false, count: variableCount)
    for (variable, _) in inner.core.edits { avoided[Int(variable)] = true }
    // What the tableau must hold as written (the edits) reaches the blocks of the variables it
    // mentions; optional constraints, required inequalities and the equalities left unmatched
    // are reduced where they can be (``reduce(_:reducible:blocks:reached:)``). A constant for
    // the filter below to capture: a captured `var` is boxed, and each read of the box checked
    // for exclusive access at run time.
    let isSeed = avoided
    var isReducible = [Bool](repeating: false, count: batch.count)
    // Written in place through the tables' buffers, each sized first (the terms before a
    // variable's are summed, then trimmed): appended one by one, every write checked the
    // storage's uniqueness again.
    var starts = [Int32](repeating: 0, count: equalityCount + 1)
    var variables = [Int32](repeating: 0, count: equalityTerms)
    var coefficients = [Double](repeating: 0, count: equalityTerms)
    var constants = [Double](repeating: 0, count: equalityCount)
    var equalityEntries = [Int32](repeating: 0, count: equalityCount)
    var termEnd = 0
    batch.entries.withUnsafeBufferPointer { entries in
      batch.terms.withUnsafeBufferPointer { terms in
        isReducible.withUnsafeMutableBufferPointer { isReducible in
          avoided.withUnsafeMutableBufferPointer { avoided in
            variables.withUnsafeMutableBufferPointer { variables in
              coefficients.withUnsafeMutableBufferPointer { coefficients in
                var e = 0
                for index in entries.indices {
                  let entry = entries[index]
                  let run = Int(entry.termStart)..<Int(entry.termStart + entry.termCount)
                  guard entry.relation == .equal && entry.priority.isRequired else {
                    isReducible[index] = true
                    for position in run { avoided[Int(terms[position].variable.id)] = true }
                    continue
                  }
                  let first = termEnd
                  for position in run {
                    let term = terms[position]
                    var earlier = first
                    while earlier < termEnd && variables[earlier] != term.variable.id {
                      earlier += 1
                    }
                    if earlier < termEnd {
                      coefficients[earlier] += term.coefficient
                    } else {
                      variables[termEnd] = term.variable.id
                      coefficients[termEnd] = term.coefficient
                      termEnd += 1
                    }
                  }
                  // A variable whose terms cancel is dropped, the others kept in order.
                  var kept = first
                  for position in first..<termEnd where coefficients[position] != 0 {
                    variables[kept] = variables[position]
                    coefficients[kept] = coefficients[position]
                    kept += 1
                  }
                  termEnd = kept
                  starts[e + 1] = Int32(termEnd)
                  constants[e] = entry.constant
                  equalityEntries[e] = Int32(index)
                  e += 1
                }
              }
            }
          }
        }
      }
    }
    if termEnd < variables.count {
      variables.removeLast(variables.count - termEnd)
      coefficients.removeLast(coefficients.count - termEnd)
    }
    let incidence = EqualityPlan.Incidence(
      starts: starts, variables: variables, coefficients: coefficients,
      isKnown: [Bool](repeating: false, count: variableCount))
    let plan: EqualityPlan
    do throws(EqualityPlanError) {
      plan = try EqualityPlan(incidence, avoiding: avoided, constants: constants)
    } catch {
      return false
    }

    // The blocks the rest reaches: those that determine a variable it mentions (or an
    // unmatched equality does), and the blocks they need.
    var stepOfVariable = [Int32](repeating: -1, count: variableCount)
    var blockOfStep = [Int32](repeating: 0, count: plan.determinedCount)
    stepOfVariable.withUnsafeMutableBufferPointer { stepOfVariable in
      blockOfStep.withUnsafeMutableBufferPointer { blockOfStep in
        for block in 0..<plan.blockCount {
          for k in plan.steps(ofBlock: block) {
            blockOfStep[k] = Int32(block)
            stepOfVariable[Int(plan.subjects[k])] = Int32(k)
          }
        }
      }
    }
    // An equality left unmatched is reduced like an inequality: one the planned equalities
    // imply (a row pinned at both ends that also keeps its widths equal) writes out to 0 = 0,
    // and the tableau holds it as a redundant row without the blocks it reads; one that writes
    // out to anything else reaches its blocks (``reduce(_:reducible:blocks:reached:)``).
    for e in plan.unmatchedEqualities { isReducible[Int(equalityEntries[e])] = true }
    let blocks = PlanBlocks(plan: plan, stepOfVariable: stepOfVariable, blockOfStep: blockOfStep)
    var isReached = [Bool](repeating: false, count: plan.blockCount)
    blocks.reach((0..<Int32(variableCount)).lazy.filter { isSeed[Int($0)] }, &isReached)

    // The batch's entries that the determined part keeps, by step.
    let ids = [ConstraintID](unsafeUninitializedCapacity: plan.determinedCount) { ids, count in
      for k in 0..<plan.determinedCount {
        ids.initializeElement(
          at: k, to: batch.entries[Int(equalityEntries[Int(plan.order[k])])].id)
      }
      count = plan.determinedCount
    }
    let termRuns = [(start: Int32, count: Int32)](
      unsafeUninitializedCapacity: plan.determinedCount
    ) { runs, count in
      for k in 0..<plan.determinedCount {
        let entry = batch.entries[Int(equalityEntries[Int(plan.order[k])])]
        runs.initializeElement(at: k, to: (entry.termStart, entry.termCount))
      }
      count = plan.determinedCount
    }
    let reduction = reduce(batch, reducible: isReducible, blocks: blocks, reached: &isReached)
    var isDetermined = [Bool](repeating: false, count: batch.count)
    isDetermined.withUnsafeMutableBufferPointer { isDetermined in
      for k in 0..<plan.determinedCount where !isReached[Int(blockOfStep[k])] {
        isDetermined[Int(equalityEntries[Int(plan.order[k])])] = true
      }
    }
    let reducedOf = reduction.positionsByEntry(count: batch.count)
    let (isBound, boundedVariables) = boundEntries(
      of: batch, determined: isDetermined, reduction: reduction, reducedOf: reducedOf,
      variableCount: variableCount)
    // Required bounds that leave a variable no value: refused as the sparse solver refuses,
    // one by one, from the constraints as written.
    if !Self.requiredBoundsHold(
      batch, isBound: isBound, reduction: reduction, reducedOf: reducedOf)
    {
      try addToTableau(batch, leading: leading)
      return true
    }

    // Optional constraints written out to no variable are held aside: no value moves their
    // error.
    var isAside = [Bool](repeating: false, count: batch.count)
    for written in reduction.entries where written.termCount == 0 {
      isAside[Int(written.index)] = !batch.entries[Int(written.index)].priority.isRequired
    }
    // The sparse solver's batch: the entries neither determined, bounds nor aside, in the order
    // given, each over its terms as written or as reduced. Only their terms are copied: the
    // batch's are held until the build returns, and on a planned layout most are determined.
    var rest = ConstraintBatch()
    var newIndex = [Int32](repeating: -1, count: batch.count)
    var restCount = 0
    var restTermCount = 0
    for (index, entry) in batch.entries.enumerated()
    where !isDetermined[index] && !isBound[index] && !isAside[index] {
      newIndex[index] = Int32(restCount)
      restCount += 1
      let reduced = reducedOf[index]
      restTermCount += Int(
        reduced < 0 ? entry.termCount : reduction.entries[Int(reduced)].termCount)
    }
    rest.entries.reserveCapacity(restCount)
    rest.terms.reserveCapacity(restTermCount)
    batch.terms.withUnsafeBufferPointer { written in
      reduction.terms.withUnsafeBufferPointer { reducedTerms in
        for (index, entry) in batch.entries.enumerated() where newIndex[index] >= 0 {
          var moved = entry
          moved.termStart = Int32(rest.terms.count)
          var source = UnsafeBufferPointer(
            rebasing: written[Int(entry.termStart)..<Int(entry.termStart + entry.termCount)])
          if reducedOf[index] >= 0 {
            let reduced = reduction.entries[Int(reducedOf[index])]
            moved.termCount = reduced.termCount
            moved.constant = reduced.constant
            source = UnsafeBufferPointer(
              rebasing: reducedTerms[
                Int(reduced.termStart)..<Int(reduced.termStart + reduced.termCount)])
          }
          rest.terms.append(contentsOf: source)
          rest.entries.append(moved)
        }
      }
    }
    var determinedLabels: [ConstraintID: String] = [:]
    var boundLabels: [ConstraintID: String] = [:]
    var asideLabels: [ConstraintID: String] = [:]
    if !batch.labels.isEmpty {
      // 1 for a determined step, 2 for a bound, 3 for a row held aside.
      var placeOfID = [UInt8](repeating: 0, count: Int(largestID) + 1)
      for (index, entry) in batch.entries.enumerated() {
        if isDetermined[index] { placeOfID[Int(entry.id.rawValue)] = 1 }
        if isBound[index] { placeOfID[Int(entry.id.rawValue)] = 2 }
        if isAside[index] { placeOfID[Int(entry.id.rawValue)] = 3 }
      }
      for (id, label) in batch.labels {
        switch Int(id.rawValue) < placeOfID.count ? placeOfID[Int(id.rawValue)] : 0 {
        case 1: determinedLabels[id] = label
        case 2: boundLabels[id] = label
        case 3: asideLabels[id] = label
        default: rest.labels.append((id, label))
        }
      }
    }
    let restLeading = leading.compactMap { index in
      index >= 0 && index < batch.count && newIndex[index] >= 0 ? Int(newIndex[index]) : nil
    }

    do throws(SolverError) {
      try inner.add(rest, leading: restLeading)
    } catch {
      // One by one, the refused constraint is the first whose prefix cannot hold; a determined
      // equality never decides that (its variable is fixed by it alone), but which of the
      // rest come before it depends on the batch's order: the sparse solver adds the batch
      // as given, and the solver is the sparse solver's alone.
      inner = SparseSolver()
      try addToTableau(batch, leading: leading)
      return true
    }
    determined = DeterminedPart(
      plan: plan, isActive: isReached.map { !$0 }, ids: ids, terms: batch.terms,
      termRuns: termRuns, labels: determinedLabels)
    places.reserveCapacity(Int(largestID) + 1)
    for k in 0..<plan.determinedCount where determined.isActive[Int(blockOfStep[k])] {
      setPlace(ids[k], .step(k))
    }
    if !boundedVariables.isEmpty {
      bounds.reserve(
        variables: Int(boundedVariables.max()!) + 1, bounds: isBound.lazy.filter { $0 }.count)
      for variable in boundedVariables { bounds.bind(variable) }
      bounds.labels = boundLabels
    }
    if !reduction.entries.isEmpty {
      var rows = ReducedConstraints()
      rows.rows.reserveCapacity(reduction.entries.count)
      rows.terms.reserveCapacity(
        reduction.entries.reduce(0) { $0 + Int(batch.entries[Int($1.index)].termCount) })
      for written in reduction.entries {
        let entry = batch.entries[Int(written.index)]
        // Through a buffer: a slice of the batch's terms retained and released their storage.
        let row = batch.terms.withUnsafeBufferPointer { terms in
          rows.append(
            entry.id,
            written: UnsafeBufferPointer(
              rebasing: terms[Int(entry.termStart)..<Int(entry.termStart + entry.termCount)]),
            constant: entry.constant, offset: written.constant - entry.constant,
            isRequired: entry.priority.isRequired)
        }
        if isBound[Int(written.index)] {
          let term = reduction.terms[Int(written.termStart)]
          let slot = bounds.insert(
            VariableBounds.Bound(
              id: entry.id, variable: term.variable.id, coefficient: term.coefficient,
              constant: written.constant, relation: entry.relation, priority: entry.priority,
              reduced: Int32(row)))
          rows.rows[row].boundSlot = Int32(slot)
          setPlace(entry.id, .bound(slot))
        } else {
          if isAside[Int(written.index)] {
            rows.holdAside(row, entry.relation, entry.priority, label: asideLabels[entry.id])
          }
          setPlace(entry.id, .reduced(row))
        }
      }
      rows.isFeeding = reduction.isFeeding
      rows.isFeedingRequired = reduction.isFeedingRequired
      reduced = rows
    }
    for (index, entry) in batch.entries.enumerated() where isBound[index] {
      guard entry.termCount == 1 && step(of: entry.id) == nil && boundSlot(of: entry.id) == nil
      else { continue }
      // As written (a reduced one is placed above).
      let term = batch.terms[Int(entry.termStart)]
      let slot = bounds.insert(
        VariableBounds.Bound(
          id: entry.id, variable: term.variable.id, coefficient: term.coefficient,
          constant: entry.constant, relation: entry.relation, priority: entry.priority))
      setPlace(entry.id, .bound(slot))
    }
    state.reserve(variables: variableCount, blocks: plan.blockCount)
    for variable in boundedVariables { narrow(variable) }
    needsEvaluation = true
    settle()
    return true
  }

  /// The entries of a build's `batch` that are bounds, and the variables they bound: free
  /// variables that, of what goes to the sparse solver, only optional constraints and required
  /// inequalities of one term mention (as written, or reduced to one term), and no edit:
  /// solved in closed form, out of the tableau. `reducedOf` is where each entry's reduction is
  /// (``Reduction/positionsByEntry(count:)``).
  ///
  /// - Complexity: O(terms of the batch and of the reduction).
  func boundEntries(
    of batch: ConstraintBatch, determined isDetermined: [Bool], reduction: Reduction,
    reducedOf: [Int32], variableCount: Int
  ) -> (isBound: [Bool], variables: [Int32]) {
    func term(_ index: Int) -> Term? {
      let entry = batch.entries[index]
      guard !entry.priority.isRequired || entry.relation != .equal else { return nil }
      if reducedOf[index] >= 0 {
        let written = reduction.entries[Int(reducedOf[index])]
        guard written.termCount == 1 else { return nil }
        return reduction.terms[Int(written.termStart)]
      }
      guard entry.termCount == 1 else { return nil }
      return batch.terms[Int(entry.termStart)]
    }
    var isBoundable = [Bool](repeating: true, count: variableCount)
    for (variable, _) in inner.core.edits { isBoundable[Int(variable)] = false }
    for (index, entry) in batch.entries.enumerated() where !isDetermined[index] {
      if let term = term(index), term.coefficient != 0 { continue }
      if reducedOf[index] >= 0 {
        let written = reduction.entries[Int(reducedOf[index])]
        for position in Int(written.termStart)..<Int(written.termStart + written.termCount) {
          isBoundable[Int(reduction.terms[position].variable.id)] = false
        }
      } else {
        for position in Int(entry.termStart)..<Int(entry.termStart + entry.termCount) {
          isBoundable[Int(batch.terms[position].variable.id)] = false
        }
      }
    }
    var isBound = [Bool](repeating: false, count: batch.count)
    var isBounded = [Bool](repeating: false, count: variableCount)
    var variables: [Int32] = []
    for index in batch.entries.indices where !isDetermined[index] {
      guard let term = term(index), term.coefficient != 0, isBoundable[Int(term.variable.id)]
      else { continue }
      isBound[index] = true
      if !isBounded[Int(term.variable.id)] {
        isBounded[Int(term.variable.id)] = true
        variables.append(term.variable.id)
      }
    }
    return (isBound, variables)
  }

  /// Whether the required bounds among `batch`'s entries (`isBound`, as written or as
  /// `reduction` wrote them, where `reducedOf` says) leave each variable a value.
  ///
  /// - Complexity: O(entries).
  static func requiredBoundsHold(
    _ batch: ConstraintBatch, isBound: [Bool], reduction: Reduction, reducedOf: [Int32]
  ) -> Bool {
    var interval: [Int32: (low: Double, high: Double)] = [:]
    for (index, entry) in batch.entries.enumerated()
    where isBound[index] && entry.priority.isRequired {
      // Its one term and constant as reduced, or as written.
      let (term, constant) =
        reducedOf[index] >= 0
        ? (
          reduction.terms[Int(reduction.entries[Int(reducedOf[index])].termStart)],
          reduction.entries[Int(reducedOf[index])].constant
        )
        : (batch.terms[Int(entry.termStart)], entry.constant)
      var (low, high) = interval[term.variable.id] ?? (-.infinity, .infinity)
      VariableBounds.narrow(
        &low, &high, coefficient: term.coefficient, constant: constant, relation: entry.relation)
      interval[term.variable.id] = (low, high)
    }
    return interval.values.allSatisfy { VariableBounds.isFeasible($0.low, $0.high) }
  }

  // MARK: - Adding to the tableau

  /// Adds `batch` to the sparse solver, after promoting the determined blocks it reaches; as one
  /// by one, a refused constraint leaves those before it added.
  mutating func addToTableau(_ batch: ConstraintBatch, leading: [Int]) throws(SolverError) {
    // An id the determined part holds is refused where one by one would refuse it.
    var end = batch.count
    for (index, entry) in batch.entries.enumerated() where step(of: entry.id) != nil {
      end = index
      break
    }
    var reached: [Int32] = []
    for entry in batch.entries[..<end] {
      for index in Int(entry.termStart)..<Int(entry.termStart + entry.termCount) {
        if let k = determined.step(determining: batch.terms[index].variable.id) {
          reached.append(determined.blockOfStep[k])
        }
      }
    }
    if !reached.isEmpty {
      try promote(determined.closure(of: reached))
    }
    var head = batch
    if end < batch.count { head.entries.removeSubrange(end...) }
    try unbind(boundedVariables(mentionedBy: head))
    defer { settle() }
    try inner.add(head, leading: end < batch.count ? leading.filter { $0 < end } : leading)
    if end < batch.count {
      let refused = batch[end]
      try Self.validate(refused)
      throw .duplicateConstraint(batch.id(at: end), constraint(batch.id(at: end))!)
    }
  }

  // MARK: - Promotion

  /// Runs `body` after promoting the determined blocks that fix any of `variables`; if `body`
  /// throws, the promotion is undone.
  mutating func withPromotion<Variables: Sequence<Int32>>(
    of variables: Variables, _ body: (inout PlanSolver) throws(SolverError) -> Void
  ) throws(SolverError) {
    var blocks: [Int32] = []
    for variable in variables {
      if let k = determined.step(determining: variable) {
        blocks.append(determined.blockOfStep[k])
      }
    }
    guard !blocks.isEmpty else { return try body(&self) }
    try withPromotion(ofBlocks: blocks, body)
  }

  /// Runs `body` after promoting `blocks` and the blocks they need to the sparse solver; if
  /// promoting or `body` throws, the promoted equalities leave the sparse solver and their
  /// blocks are determined again, so the solver is as it was.
  ///
  /// - Complexity: O(terms promoted) and the sparse solver's adds (and removes, on the way
  ///   back).
  mutating func withPromotion(
    ofBlocks blocks: [Int32], _ body: (inout PlanSolver) throws(SolverError) -> Void
  ) throws(SolverError) {
    let closure = determined.closure(of: blocks)
    if reduced.feedsAny(closure) || !boundedVariables(mentionedByBlocks: closure).isEmpty {
      // Reduced constraints or bounds go to the sparse solver too: undone by a copy.
      return try withSnapshot { solver throws(SolverError) in
        try solver.promote(closure)
        try body(&solver)
      }
    }
    let promotedBefore = promotedVariables.count
    do throws(SolverError) {
      try promote(closure)
      try body(&self)
    } catch {
      demote(closure, promotedBefore: promotedBefore)
      throw error
    }
  }

  /// Moves `closure` (blocks in plan order, each with the blocks it needs) from the determined
  /// part to the sparse solver.
  mutating func promote(_ closure: [Int32]) throws(SolverError) {
    guard !closure.isEmpty else { return }
    forgetDefinitions(from: closure)
    var closure = closure
    if reduced.feedsAny(closure) {
      // The rows written out through these blocks go back as written first, with the blocks
      // that fed them: what is left of the closure is still determined.
      var seeds: [Int32] = []
      for block in closure {
        for k in determined.plan.steps(ofBlock: Int(block)) {
          seeds.append(determined.plan.subjects[k])
        }
      }
      try restoreReducedConstraints(reaching: seeds, reducingAgain: false)
      closure.removeAll { !determined.isActive[Int($0)] }
      guard !closure.isEmpty else { return }
    }
    var batch = ConstraintBatch()
    var termCount = 0
    for block in closure {
      for k in determined.plan.steps(ofBlock: Int(block)) where !determined.isRemoved[k] {
        termCount += determined.writtenTermCount(ofStep: k)
      }
    }
    batch.terms.reserveCapacity(termCount)
    for block in closure {
      for k in determined.plan.steps(ofBlock: Int(block)) where !determined.isRemoved[k] {
        let id = determined.ids[k]
        let start = Int32(batch.terms.count)
        determined.appendWrittenTerms(ofStep: k, to: &batch.terms)
        batch.entries.append(
          ConstraintBatch.Entry(
            id: id, termStart: start, termCount: Int32(batch.terms.count) - start,
            constant: determined.plan.constants[k], relation: .equal, priority: .required))
        if let label = determined.labels[id] { batch.labels.append((id, label)) }
      }
    }
    try unbind(boundedVariables(mentionedBy: batch))
    try inner.add(batch, leading: [])
    for block in closure {
      for k in determined.plan.steps(ofBlock: Int(block)) {
        // A removed step's variable is read from the sparse solver too: the block's other
        // equalities hold it there, or nothing does.
        promotedVariables.append(determined.plan.subjects[k])
        guard !determined.isRemoved[k] else { continue }
        determined.labels[determined.ids[k]] = nil
        setPlace(determined.ids[k], .notDetermined)
      }
      determined.deactivate(Int(block))
    }
  }

  /// Undoes ``promote(_:)`` of `closure` after an operation was refused: the equalities the
  /// sparse solver took leave it, and their blocks are determined again, with the values they
  /// had (nothing read them from the sparse solver in between).
  mutating func demote(_ closure: [Int32], promotedBefore: Int) {
    for block in closure.reversed() where !determined.isActive[Int(block)] {
      for k in determined.plan.steps(ofBlock: Int(block)) where !determined.isRemoved[k] {
        let id = determined.ids[k]
        guard inner.contains(id) else { continue }
        if let label = inner.core.labels[id.rawValue] { determined.labels[id] = label }
        do throws(SolverError) {
          try inner.remove(id)
        } catch {
          preconditionFailure("a promoted equality could not be removed: \(error)")
        }
        setPlace(id, .step(k))
      }
      determined.activate(Int(block))
    }
    promotedVariables.removeSubrange(promotedBefore...)
  }

  // MARK: - Solving from scratch

  public mutating func solveFromScratch() throws(SolverError) {
    try rebuild(renumbering: nil)
  }

  public mutating func solveFromScratch(renumbering newIDs: [Int32]) throws(SolverError) {
    try rebuild(renumbering: newIDs)
  }

  /// Plans the whole system again, from its constraints and edits (and `added`'s constraints,
  /// which must be valid and new, with ids the solver does not hold); unchanged if it throws.
  mutating func rebuild(
    renumbering newIDs: [Int32]?, adding added: ConstraintBatch? = nil
  ) throws(SolverError) {
    // What a batch removed is gathered as it is now: a removed equality's place is cleared at
    // once, and the sparse solver's records too. A rebuild asked for settles first, so that
    // what it plans is the system's own state.
    if added == nil { settleRemovals() }
    // Every constraint, in id order, over one term array: the sparse solver's records over its
    // store, then the written constraints' terms, then each bound's and determined step's as
    // they come.
    var batch = ConstraintBatch()
    batch.terms = inner.core.termStore.terms
    var termCount = batch.terms.count + reduced.terms.count + bounds.bounds.count
    for place in places {
      if let k = place.step { termCount += determined.writtenTermCount(ofStep: k) }
    }
    batch.terms.reserveCapacity(termCount)
    var entries: [ConstraintBatch.Entry] = []
    let writtenOffset = Int32(batch.terms.count)
    batch.terms.append(contentsOf: reduced.terms)
    // Reduced constraint `row`, the constraint `index`, as written: not as it is held.
    func asWritten(
      _ index: Int, row: Int, _ relation: Relation, _ priority: Priority
    ) -> ConstraintBatch.Entry {
      let written = reduced.rows[row]
      return ConstraintBatch.Entry(
        id: ConstraintID(Int32(index)), termStart: writtenOffset + written.termStart,
        termCount: written.termCount, constant: written.constant, relation: relation,
        priority: priority)
    }
    for (index, record) in inner.core.records.enumerated() {
      guard let record else { continue }
      if let row = reducedConstraint(of: ConstraintID(Int32(index))) {
        entries.append(asWritten(index, row: row, record.relation, record.priority))
        continue
      }
      entries.append(
        ConstraintBatch.Entry(
          id: ConstraintID(Int32(index)), termStart: record.termStart,
          termCount: record.termCount, constant: record.constant, relation: record.relation,
          priority: record.priority))
    }
    for index in places.indices {
      if let slot = places[index].bound {
        let bound = bounds.bounds[slot]
        if bound.reduced >= 0 {
          entries.append(asWritten(index, row: Int(bound.reduced), bound.relation, bound.priority))
          continue
        }
        entries.append(
          ConstraintBatch.Entry(
            id: ConstraintID(Int32(index)), termStart: Int32(batch.terms.count), termCount: 1,
            constant: bound.constant, relation: bound.relation, priority: bound.priority))
        batch.terms.append(Term(Variable(id: bound.variable), bound.coefficient))
        continue
      }
      if let row = places[index].reducedConstraint, reduced.rows[row].isAside {
        let written = reduced.rows[row]
        entries.append(asWritten(index, row: row, written.relation, written.priority))
        continue
      }
      guard let k = places[index].step else { continue }
      let start = Int32(batch.terms.count)
      determined.appendWrittenTerms(ofStep: k, to: &batch.terms)
      entries.append(
        ConstraintBatch.Entry(
          id: ConstraintID(Int32(index)), termStart: start,
          termCount: Int32(batch.terms.count) - start,
          constant: determined.plan.constants[k], relation: .equal, priority: .required))
    }
    var labels = inner.core.labels.map { (ConstraintID($0.key), $0.value) }
    labels += determined.labels.map { ($0.key, $0.value) }
    labels += bounds.labels.map { ($0.key, $0.value) }
    labels += reduced.asideLabels.map { ($0.key, $0.value) }
    if let added {
      let offset = Int32(batch.terms.count)
      batch.terms.append(contentsOf: added.terms)
      for var entry in added.entries {
        entry.termStart += offset
        entries.append(entry)
      }
      labels += added.labels
    }
    if let newIDs {
      func renumbered(_ id: ConstraintID) -> ConstraintID {
        let index = Int(id.rawValue)
        precondition(
          index < newIDs.count && newIDs[index] >= 0, "constraint \(index) has no new id")
        return ConstraintID(newIDs[index])
      }
      for index in entries.indices { entries[index].id = renumbered(entries[index].id) }
      labels = labels.map { (renumbered($0.0), $0.1) }
    }
    batch.entries = entries
    batch.labels = labels.sorted { $0.0 < $1.0 }
    // A rebuild asked for takes the constraints in an order that depends on what they say, not
    // on their ids or history, as the sparse solver's rebuild: the plan's matching (and so what
    // is determined, what the tableau holds and the memory both take) is then a function of the
    // constraints alone. One that adds a batch keeps the order held, then the batch, as a build
    // does: the sort would cost it a twentieth of a size-class switch.
    if added == nil { Solver<SparseTableau>.sortCanonically(&batch) }

    var fresh = PlanSolver()
    let edits = inner.core.edits.sorted { $0.key < $1.key }
    for (variable, edit) in edits {
      try fresh.inner.addEditVariable(Variable(id: variable), priority: edit.priority)
    }
    try fresh.add(batch, leading: [])
    for (variable, edit) in edits {
      try fresh.suggestValue(Variable(id: variable), edit.value)
    }
    // Its inner tableau is checked early, as a sparse solver's rebuilt one is.
    fresh.inner.core.driftHeadroom = Solver<SparseTableau>.rebuiltDriftHeadroom
    fresh.synchronize()
    // The client hears of what differs from what it was told. Variables past the last one told
    // something other than 0, and past those the new system holds, need no entries.
    var reportedCount = state.reported.count
    while reportedCount > 0 && state.reported[reportedCount - 1] == 0 { reportedCount -= 1 }
    let count = max(reportedCount, fresh.state.values.count)
    var reported = Array(state.reported.prefix(reportedCount))
    reported.append(contentsOf: repeatElement(0, count: count - reportedCount))
    fresh.state.reserve(variables: count, blocks: 0)
    fresh.state.reported = reported
    for index in 0..<count where fresh.value(of: Variable(id: Int32(index))) != reported[index] {
      fresh.state.markDirty(Int32(index))
    }
    fresh.batchDepth = batchDepth
    for _ in 0..<batchDepth { fresh.inner.beginBatch() }
    self = fresh
  }
}
