extension Solver {
  // MARK: - Building from many constraints at once

  /// The fewest constraints for which ``add(contentsOf:)`` plans its rows' subjects; fewer are
  /// added one by one as they come.
  static var plannedBuildMinimum: Int { 64 }

  /// Adds `constraints` as adding them one by one in order would, and leaves the solver in an
  /// equivalent state (the same constraints, the same optimum), choosing each required
  /// equality's subject from the whole batch.
  ///
  /// One by one, a row's subject is the first variable it mentions that nothing defines yet,
  /// which is blind to what comes after: an equality that closes a chain (a stack's last item
  /// ending at the stack's edge, a row of equal spacers) finds every variable defined already,
  /// by the rows before it and by the items' own size constraints, and is expanded through
  /// the chain. Given at least ``plannedBuildMinimum`` constraints, and at least as many as the
  /// solver holds, the sparse solver first matches each required equality of the batch to a
  /// variable it determines (``EqualityPlan/Incidence/maximumMatching(avoiding:)``),
  /// among the variables the tableau does not mention yet, leaving free where it can those that
  /// inequalities and optional constraints mention; it then adds the constraints in the order
  /// given, each equality as the definition of its variable while nothing defines that yet. The
  /// closing equality defines the item's width, and the size constraints that come later find
  /// it defined, one level deep. On a solver that held nothing, a required inequality that
  /// comes before the equalities matched to its variables, and would leave one of them nothing
  /// to define (``strands(_:)``), waits until they are added; on any solver, so does a size
  /// preference that comes before the equalities its row would reach
  /// (``sizePreferenceMatchedLater(_:after:)``). The optimum is the same; where several are
  /// equally good, the solver may settle on another of them.
  ///
  /// On a solver that held nothing, the equalities at `leading` (indices into `constraints`, in
  /// increasing order; any other entry is passed over) that the plan matched to a variable are
  /// added before the rest, each as its variable's definition. A root's width, added last as a
  /// layout adds it, is otherwise defined by the chain of the first size preference whose row
  /// reaches it: every later row that refers to it carries that chain's symbols (ten or so),
  /// and the root's equality then takes the definition over, rewriting each of them. Added
  /// first, it is a constant to every row. Whether a refused constraint is refused does not
  /// depend on the order, and its conflicts are found one by one, in the order given (below).
  ///
  /// - Throws: what ``add(_:_:)`` throws for the first constraint it refuses, naming it; the
  ///   constraints before it are added and the rest are not, as one by one. On a solver that
  ///   has held nothing (a first build, a rebuild) the conflicts named are exactly those of the
  ///   one-by-one path; on one that holds constraints they are required constraints that
  ///   cannot hold with it too, not necessarily the same ones.
  /// - Complexity: the matching is O(*t*) for *t* terms of the required equalities, plus its
  ///   augmenting-path searches; the adds cost what they cost one by one, less the expansions
  ///   the subjects avoid.
  public mutating func add(
    contentsOf constraints: [(ConstraintID, Constraint)], leading: [Int] = []
  ) throws(SolverError) {
    prepareToChange()
    applyRemovals()
    guard plansBuild(of: constraints.count) else {
      for (id, constraint) in constraints { try add(id, constraint) }
      return
    }
    try add(ConstraintBatch(constraints), leading: leading)
  }

  /// Whether a batch of `count` constraints is planned as a whole (``add(contentsOf:leading:)``)
  /// rather than added one by one: on the sparse solver, given at least
  /// ``plannedBuildMinimum`` constraints and at least as many as the solver holds.
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func plansBuild(of count: Int) -> Bool {
    keepsDefinitions && count >= max(Self.plannedBuildMinimum, constraintCount)
  }

  /// ``add(contentsOf:leading:)`` for constraints laid out as a batch already (a client's
  /// written term by term, or a rebuild's over its own term store): the build borrows the
  /// batch's terms, and copies each constraint's into the solver's store as it adds it.
  public mutating func add(_ batch: ConstraintBatch, leading: [Int] = []) throws(SolverError) {
    prepareToChange()
    applyRemovals()
    // The labels first, so that errors name the constraints by them; taken back from those
    // left out.
    installLabels(of: batch)
    do throws(SolverError) {
      try batch.terms.withUnsafeBufferPointer { terms throws(SolverError) in
        guard plansBuild(of: batch.count), let plan = plannedSubjects(of: batch, terms: terms)
        else {
          try addOneByOne(batch, terms: terms)
          return
        }
        try addPlanned(batch, terms: terms, plan: plan, leading: leading)
      }
    } catch {
      dropLabels(ofAbsent: batch)
      throw error
    }
  }

  /// Puts the labels of `batch` in the solver's table, for the constraints it does not hold
  /// (the first of any id the batch repeats).
  private mutating func installLabels(of batch: ConstraintBatch) {
    for (id, label) in batch.labels where !contains(id) && labels[id.rawValue] == nil {
      labels[id.rawValue] = label
    }
  }

  /// Takes out of the table the labels of `batch` whose constraints the solver does not hold.
  private mutating func dropLabels(ofAbsent batch: ConstraintBatch) {
    for (id, _) in batch.labels where !contains(id) { labels[id.rawValue] = nil }
  }

  /// Adds the constraints of `batch`, whose terms are `terms`, one by one, in order.
  private mutating func addOneByOne(
    _ batch: ConstraintBatch, terms: UnsafeBufferPointer<Term>
  ) throws(SolverError) {
    for index in 0..<batch.count {
      try add(batch.id(at: index), batch.constraint(index, in: terms), subject: -1)
    }
  }

  /// The planned build of ``add(contentsOf:leading:)``, whose `plan` is
  /// ``plannedSubjects(of:terms:)``'s.
  private mutating func addPlanned(
    _ batch: ConstraintBatch, terms: UnsafeBufferPointer<Term>, plan: BuildPlan, leading: [Int]
  ) throws(SolverError) {
    var plan = plan
    let isPristine =
      constraintCount == 0 && liveSymbols == 0 && pivotCount == 0 && substitutedRows == 0
      && refactorizations == 0
    do throws(SolverError) {
      beginBatch()
      defer {
        closeBatch()
        if isPristine && batchDepth == 0 && !needsRefactorization {
          // A tableau just built from nothing counts as checked, as one just rebuilt does
          // (``refactorIfWorn()``): the pivots of its first optimization do not call for a
          // drift check over every constraint.
          workSinceDriftCheck = 0
          pivotsAtDriftCheck = pivotCount
        } else {
          refactorIfWorn()
        }
      }
      // The variables' tables and the records at the size the batch grows them to, at once.
      growVariables(to: plan.variableCount)
      if isPristine {
        // The symbols' and rows' tables too: growing by doubling copied each of them about once
        // more. With an eighth to spare, as a trim leaves them (``trimExcess()``), so that the
        // next operations do not grow them again at once.
        let symbols = plan.variableCount + plan.markerCount
        let rows = batch.count + 16  // and the objective rows
        reserveTables(symbols: symbols + symbols / 8, rows: rows + rows / 8)
      }
      records.reserveCapacity(plan.recordCount)
      termStore.reserveForFirstBuild(batch.entries.reduce(0) { $0 + Int($1.termCount) })
      // The batch's size preferences count from its start: a layout adds them after the
      // inequalities between the views they size.
      swap(&plannedSizePreferences, &plan.sizePreferences)
      defer { plannedSizePreferences = [] }
      swap(&plannedOwners, &plan.owners)
      plannedBatch = batch
      plannedTerms = terms
      defer {
        plannedOwners = []
        plannedBatch = ConstraintBatch()
        plannedTerms = UnsafeBufferPointer(start: nil, count: 0)
      }
      var run = PlannedRun(isPristine: isPristine)
      // The leading equalities added first, and which of them, in order (the loop skips them).
      var hoisted: [Int] = []
      if isPristine {
        // A hint: an index out of range, or not above the one before, is passed over.
        for index in leading where index >= 0 && index < batch.count {
          let id = batch.id(at: index)
          let constraint = batch.constraint(index, in: terms)
          let subject = plan.subjects[index]
          guard subject >= 0, hoisted.last ?? -1 < index,
            try addFreshDefinition(id, constraint, of: subject)
          else { continue }
          plannedOwners[Int(subject)] = -1
          hoisted.append(index)
        }
      }
      var nextHoisted = 0
      // Required inequalities waiting for the equalities matched to their variables, in the
      // batch's order: each the index of the last such equality, shifted 32 bits left, plus
      // its own index (plain integers: a debug build's runtime allocates metadata for an array
      // of any other type the first time one is made, counted as memory the run kept). Only
      // on a solver that held nothing, whose refusal is found again one by one (below).
      // Size preferences wait too, on any solver (``sizePreferenceMatchedLater(_:after:)``):
      // optional constraints never decide whether a required one can hold.
      var deferred: [Int] = []
      var waiting: [Int] = []
      var earliestAfter = Int.max
      /// The constraint being added when an add throws.
      var adding = 0
      do throws(SolverError) {
        for index in 0..<batch.count {
          if nextHoisted < hoisted.count && hoisted[nextHoisted] == index {
            nextHoisted += 1
            continue
          }
          let constraint = batch.constraint(index, in: terms)
          let after =
            constraint.priority.isRequired
            ? (isPristine ? matchedLater(constraint, after: index) : nil)
            : sizePreferenceMatchedLater(constraint, after: index)
          if let after {
            deferred.append(after << 32 | index)
            earliestAfter = min(earliestAfter, after)
            continue
          }
          // Not deferring, it adds the constraint.
          adding = index
          _ = try addPlanned(
            index, of: batch, terms: terms, plan: &plan, run: &run, deferring: false)
          guard index >= earliestAfter else { continue }
          // Every equality up to this one is added: the inequalities waiting for them follow,
          // each waiting again for a later one if it must.
          swap(&waiting, &deferred)
          earliestAfter = Int.max
          for entry in waiting {
            var after = entry >> 32
            let waiter = entry & 0xFFFF_FFFF
            if after <= index {
              guard batch.entries[waiter].priority.isRequired else {
                // A size preference cannot be refused: it is added, and waits no more.
                _ = try addPlanned(
                  waiter, of: batch, terms: terms, plan: &plan, run: &run, deferring: false)
                continue
              }
              guard
                let later = try addPlanned(
                  waiter, of: batch, terms: terms, plan: &plan, run: &run, deferring: true)
              else { continue }
              after = later
            }
            deferred.append(after << 32 | waiter)
            earliestAfter = min(earliestAfter, after)
          }
          waiting.removeAll(keepingCapacity: true)
        }
      } catch {
        // A solver that held constraints is given the size preferences before the refused
        // constraint that were still waiting (they cannot be refused), so that it holds every
        // constraint before the refused one, as one by one. (A pristine one is rebuilt one by
        // one below.) Only size preferences wait on such a solver.
        if !isPristine {
          for waiter in (deferred + waiting).map({ $0 & 0xFFFF_FFFF }).sorted()
          where waiter < adding {
            _ = try? add(batch.id(at: waiter), batch.constraint(waiter, in: terms), subject: -1)
          }
        }
        throw error
      }
    } catch {
      // Each add is a transaction, so the solver holds the constraints before the refused one,
      // and the same one is refused as one by one: whether a prefix of the batch can hold is a
      // property of the constraints. The conflicts named depend on which rows the tableau
      // combines: a solver that held nothing is reset and built again one by one, for exactly
      // the one-by-one refusal; one that held constraints would have to be copied first (its
      // whole tableau, on every planned batch), so its refusal names conflicts of its own.
      guard isPristine else { throw error }
      let depth = batchDepth
      reset()
      batchDepth = depth
      installLabels(of: batch)
      try addOneByOne(batch, terms: terms)
    }
  }

  /// Adds the required equality `constraint` as the definition of the variable with id
  /// `variable`, when nothing in the tableau mentions that variable yet (the usual case in a
  /// planned build, whose equalities come in the order written): its row, solved for the
  /// variable, written at once, and none of the rest of an add. It cannot fail, so it needs no
  /// transaction; no row refers to the variable, so no definition can form a cycle through it,
  /// nothing lies downstream of it to mark, and no row needs it substituted. Returns false,
  /// having changed nothing, when that does not hold (or a variable comes twice in the
  /// constraint); the caller then adds it as usual.
  ///
  /// The row holds what ``add(_:_:)`` would leave, bit for bit and in the same order: the
  /// terms and the constraint's marker scaled by `-1 / a` (`a` the variable's coefficient),
  /// the marker in the variable's place.
  ///
  /// - Precondition: `constraint` is a valid required equality (``plannedSubjects(of:)``
  ///   checked), and the variables' tables hold `variable`.
  /// - Complexity: O(terms of `constraint`²), for a handful of terms.
  private mutating func addFreshDefinition(
    _ id: ConstraintID, _ constraint: BorrowedConstraint, of variable: Int32
  ) throws(SolverError) -> Bool {
    guard !tableauMentions(variable) else { return false }
    let terms = constraint.expression.terms
    var coefficient = 0.0
    for (index, term) in terms.enumerated() {
      for other in terms[(index + 1)...] where other.variable == term.variable { return false }
      if term.variable.id == variable { coefficient = term.coefficient }
    }
    guard abs(coefficient) > pivotTolerance, tag(of: id) == nil else { return false }
    // A symbol a term at most, and the marker.
    try tableau.reserve(rows: 0, symbols: symbolKind.count + terms.count + 1)
    let row = makeRow(subject: RowRole.none)
    let dummy = makeSymbol(.dummy, owner: id.rawValue)
    let factor = -1 / coefficient
    tableau.setConstant(constraint.expression.constant * factor, of: row)
    // The symbols in the order of the terms, then the row at once (its variables are distinct):
    // the marker in the variable's place.
    for term in terms where term.coefficient != 0 { _ = symbol(for: term.variable) }
    let subject = variableSymbol[Int(variable)]
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: terms.count) { symbols in
      withUnsafeTemporaryAllocation(of: Double.self, capacity: terms.count) { coefficients in
        var count = 0
        for term in terms where term.coefficient != 0 {
          let isSubject = term.variable.id == variable
          let value = isSubject ? factor : term.coefficient * factor
          guard value != 0 else { continue }  // as adding a cell of zero would write none
          symbols[count] = isSubject ? dummy : variableSymbol[Int(term.variable.id)]
          coefficients[count] = value
          count += 1
        }
        tableau.appendCells(
          symbols: UnsafeBufferPointer(rebasing: symbols[..<count]),
          coefficients: UnsafeBufferPointer(rebasing: coefficients[..<count]), to: row)
      }
    }
    rowSubject[Int(row)] = subject
    basicRow[Int(subject)] = row
    markValueDirty(symbol: subject, downstream: false)
    recordAdded(
      id, constraint,
      tag: Tag(marker: dummy, other: RowRole.none, markerCoefficient: 1, priority: 0))
    needsOptimize = true
    return true
  }

  /// Adds the size preference `constraint` (an inequality on one variable,
  /// ``isSizePreference(_:)``) as ``add(_:_:)`` would, when its row's subject follows from its
  /// shape, without the usual add's searches for one, its transaction and its checks. Returns
  /// false, having changed nothing, otherwise; the caller then adds it as usual.
  ///
  /// The two shapes are a view's content hugging and compression resistance, added one after
  /// the other (four of them a label or a text field):
  /// - the first on a variable that nothing defines: its row (the variable, its slack and its
  ///   error) becomes the variable's definition, as the usual path's lowest parametric external
  ///   makes it (the row refers to no definition, so no cycle can pass through it);
  /// - the second, written through the first one's markers (``sibling(of:owner:)``) while
  ///   neither is basic: its row holds only the two constraints' slacks and errors, and its
  ///   subject is the one of its own two with a negative coefficient (the usual path's
  ///   ``chooseSubject(of:tag:)``), fresh, so installing it rewrites no other row.
  ///
  /// Either is written by the usual path's own steps (``makeRow(for:owner:)``,
  /// ``solve(_:for:)``, ``install(_:subject:)``), so the tableau holds the same cells, bit for
  /// bit. An optional constraint cannot be refused, so no transaction is needed.
  ///
  /// - Precondition: `constraint` is valid (``plannedSubjects(of:)`` checked) and the variables'
  ///   tables hold its variable.
  /// - Complexity: O(1), plus what installing the first shape's definition costs: the rows
  ///   that refer to its variable.
  private mutating func addSizePreference(
    _ id: ConstraintID, _ constraint: BorrowedConstraint
  ) throws(SolverError) -> Bool {
    // The cheap checks first: a layout's size preferences often take the usual path (a
    // variable that an equality defines), and the checks are then all they cost.
    let term = constraint.expression.terms[0]
    guard constraint.relation != .equal, abs(term.coefficient) > pivotTolerance else {
      return false
    }
    let existing = variableSymbol[Int(term.variable.id)]
    let isDefined = existing >= 0 && basicRow[Int(existing)] >= 0
    if isDefined {
      // Only the second shape can apply: the constraint added last is read for its markers
      // before its terms are compared.
      guard lastAdded >= 0, let last = tag(of: ConstraintID(lastAdded)), hasParametricPair(last)
      else { return false }
    }
    let sibling = self.sibling(of: constraint, owner: id.rawValue)
    if let sibling {
      guard hasParametricPair(sibling.tag) else { return false }
    } else {
      guard !isDefined else { return false }
    }
    guard !contains(id) else { return false }
    settleDeferredConstants()
    // The variable's symbol, if new, and the constraint's two markers (the variables' tables
    // hold the batch's variables already).
    try tableau.reserve(rows: 0, symbols: symbolKind.count + 3)
    let (row, tag) = makeRow(for: constraint, owner: id.rawValue)
    let subject: Int32
    if sibling == nil {
      subject = variableSymbol[Int(term.variable.id)]
      // The usual add's cycle check, which finds nothing upstream of a row that refers to no
      // definition; it also leaves the marks grown as the usual path does, or a batch's trim
      // would give them back and the next operation grow them again.
      resolveCycles(in: row, subject: subject)
    } else {
      if tableau.constant(of: row) == 0, symbolKind[Int(tag.marker)] == .slack,
        tableau.coefficient(of: tag.marker, in: row) > 0
      {
        tableau.scale(row: row, by: -1)  // as the usual path reads a row that holds at zero
      }
      // The marker and the error have opposite coefficients of magnitude 1: one is negative.
      subject =
        tableau.coefficient(of: tag.marker, in: row) < -pivotTolerance ? tag.marker : tag.other
    }
    solve(row, for: subject)
    install(row, subject: subject)
    addObjectiveEffects(of: tag, sign: 1)
    recordAdded(id, constraint, tag: tag)
    needsOptimize = true
    tableau.compactIfWasteful()
    return true
  }

  /// Whether `tag` is an optional constraint's pair, neither of them basic.
  @inline(__always)  // called from mutating methods, a method call copies the solver
  private func hasParametricPair(_ tag: Tag) -> Bool {
    tag.other >= 0 && basicRow[Int(tag.marker)] < 0 && basicRow[Int(tag.other)] < 0
  }

  /// Whether a row of the tableau mentions the variable with id `variable`, or defines it.
  @inline(__always)  // called from mutating methods, a method call copies the solver
  private func tableauMentions(_ variable: Int32) -> Bool {
    guard Int(variable) < variableSymbol.count else { return false }
    let symbol = variableSymbol[Int(variable)]
    return symbol >= 0 && (basicRow[Int(symbol)] >= 0 || tableau.rowCount(containing: symbol) > 0)
  }

  /// Whether the variable with id `variable` is defined by the row of constraint `id`, with
  /// its marker: the matched subject it was given.
  @inline(__always)  // called from mutating methods, a method call copies the solver
  private func defines(_ variable: Int32, by id: ConstraintID) -> Bool {
    let symbol = variableSymbol[Int(variable)]
    guard symbol >= 0, let tag = tag(of: id) else { return false }
    let row = basicRow[Int(symbol)]
    return row >= 0 && tableau.coefficient(of: tag.marker, in: row) != 0
  }

  /// Where a planned build stands (``add(contentsOf:)``).
  private struct PlannedRun {
    /// Whether every definition so far is a matched equality's, as written (or expanded
    /// within its own chain): then a matched equality alone in its block of the plan cannot
    /// close a cycle of definitions, since every such cycle is one of the plan's blocks, and
    /// its subject's cycles need not be looked for. The first row that defines anything else
    /// (an unmatched equality, an inequality or optional row defining a free variable) ends it.
    var onlyMatchedDefinitions: Bool
    /// How many matched equalities found their variable in other rows already. The blocks
    /// cost a pass over the batch: they are looked for once enough matched equalities would
    /// have walked the definitions upstream of them, for a batch whose equalities mostly
    /// define fresh variables (a chain, a stack) barely walks.
    var walks = 0

    /// A run on a solver that held nothing when the batch began (`isPristine`), or not.
    init(isPristine: Bool) { onlyMatchedDefinitions = isPristine }
  }

  /// Adds constraint `index` of a planned build's `constraints`. With `deferring` (a required
  /// inequality that waited for the equalities of its variables), one whose only subject
  /// would strand an equality not added yet (``strands(_:)``) is not added: the solver is
  /// left as it was, and the index of that equality is returned.
  private mutating func addPlanned(
    _ index: Int, of batch: ConstraintBatch, terms: UnsafeBufferPointer<Term>,
    plan: inout BuildPlan, run: inout PlannedRun, deferring: Bool
  ) throws(SolverError) -> Int? {
    let id = batch.id(at: index)
    let constraint = batch.constraint(index, in: terms)
    let subject = plan.subjects[index]
    if subject >= 0, try addFreshDefinition(id, constraint, of: subject) {
      plannedOwners[Int(subject)] = -1
      return nil
    }
    if subject < 0, Self.isSizePreference(constraint), try addSizePreference(id, constraint) {
      // A row that is not a matched equality's ends the run, as on the usual path.
      run.onlyMatchedDefinitions = false
      return nil
    }
    var acyclic = false
    if run.onlyMatchedDefinitions && subject >= 0 {
      if tableauMentions(subject) { run.walks += 1 }
      acyclic = run.walks > Self.plannedBuildMinimum && plan.isAlone(index)
    }
    let reserved = try add(
      id, constraint, subject: subject, acyclic: acyclic, deferring: deferring)
    if reserved >= 0 { return Int(plannedOwners[Int(reserved)]) }
    if run.onlyMatchedDefinitions {
      run.onlyMatchedDefinitions = subject >= 0 && defines(subject, by: id)
    }
    if subject >= 0 { plannedOwners[Int(subject)] = -1 }
    return nil
  }

  /// The index of the last equality after `index` that the plan matched to a variable of
  /// `constraint`, when `constraint` is a required inequality and every variable of it that
  /// the solver does not define is matched to an equality after it that would be stranded
  /// without it (``strands(_:)``); else nil. Such an inequality waits for those equalities.
  ///
  /// In a row of equal spacers sorted as a rebuild sorts them, `short.left >= margins.left`
  /// comes before `short.left == spacer0.left + spacer0.width`; defining `short.left`, it
  /// would leave that equality to define `spacer0.width`, and the row's closing equality
  /// `spacer0.width == spacer2.width` nothing: phase one, through the root's columns.
  ///
  /// - Complexity: O(terms of `constraint` × terms of their equalities).
  @inline(__always)  // called from mutating methods, a method call copies the solver
  private func matchedLater(_ constraint: BorrowedConstraint, after index: Int) -> Int? {
    guard constraint.relation != .equal && constraint.priority.isRequired else { return nil }
    var last = -1
    for term in constraint.expression.terms {
      let variable = term.variable.id
      guard isUndefined(variable) else { continue }
      let owner = Int(plannedOwners[Int(variable)])
      guard owner > index, strands(variable) else { return nil }
      last = max(last, owner)
    }
    return last >= 0 ? last : nil
  }

  /// For a size preference (``isSizePreference(_:)``) whose variable nothing defines yet and
  /// the plan matched to a later equality: the index of the last equality after `index` that
  /// the plan matched to a variable the preference's row would reach once those equalities
  /// define them (the variable's equality, the equalities of the variables that one leaves
  /// undefined, and so on, up to ``sizePreferenceLookahead`` equalities deep); else nil. The
  /// preference waits for those equalities.
  ///
  /// Added first, a view's size preference takes the view's width as its subject, and the
  /// equality matched to that width finds it defined. Added right after that equality, it is
  /// expanded through it and takes the next variable nothing defines yet, matched to a later
  /// equality: on a form whose size preferences come first (`label.width`, then the field's
  /// left edge, then its width), every row's `field.width == first.width` then needed phase
  /// one, pivoting through the rows above it: a build quadratic in the rows. A size
  /// preference never decides whether a required constraint can hold, so its waiting changes
  /// no refusal.
  ///
  /// - Complexity: O(terms of the equalities visited), at most ``sizePreferenceLookahead``
  ///   levels of a layout's few terms.
  private mutating func sizePreferenceMatchedLater(
    _ constraint: BorrowedConstraint, after index: Int
  ) -> Int? {
    guard Self.isSizePreference(constraint) else { return nil }
    let first = constraint.expression.terms[0].variable.id
    guard isUndefined(first), Int(plannedOwners[Int(first)]) > index else { return nil }
    var last = index
    var level = takeScratch()
    var next = takeScratch()
    defer {
      returnScratch(level)
      returnScratch(next)
    }
    level.append(first)
    for _ in 0..<Self.sizePreferenceLookahead where !level.isEmpty {
      next.removeAll(keepingCapacity: true)
      for variable in level {
        let owner = Int(plannedOwners[Int(variable)])
        guard owner > index else { continue }
        last = max(last, owner)
        for term in plannedBatch.constraint(owner, in: plannedTerms).expression.terms
        where term.variable.id != variable && isUndefined(term.variable.id)
          && Int(plannedOwners[Int(term.variable.id)]) > index && next.count < 16
        {
          next.append(term.variable.id)
        }
      }
      swap(&level, &next)
    }
    return last
  }

  /// How many equalities deep ``sizePreferenceMatchedLater(_:after:)`` looks: a form's label
  /// width reaches the field's left edge, then the field's width, through three equalities.
  static var sizePreferenceLookahead: Int { 4 }

  /// Whether nothing defines the variable with id `variable`.
  @inline(__always)
  private func isUndefined(_ variable: Int32) -> Bool {
    let symbol = variableSymbol[Int(variable)]
    return symbol < 0 || basicRow[Int(symbol)] < 0
  }

  /// What ``plannedSubjects(of:)`` finds in a batch.
  private struct BuildPlan {
    /// The variable each constraint should define, by index (-1 for the usual choice).
    var subjects: [Int32]
    /// How many constraints the batch begins with that are matched equalities.
    var leadingRun: Int
    /// The required equalities' terms, their matching, and the constraint each is.
    var incidence: EqualityPlan.Incidence
    var matching: EqualityPlan.Matching
    var equalityIndices: [Int]
    /// One more than the largest variable id the batch mentions.
    var variableCount: Int
    /// One more than the largest constraint id in the batch.
    var recordCount: Int
    /// How many symbols the batch's constraints add besides their variables: a marker for
    /// a required constraint, two for an optional one.
    var markerCount: Int
    /// Which variables a size preference of the batch mentions, by id.
    var sizePreferences: [Bool]
    /// The constraint each variable is matched to, by id (-1 for none).
    var owners: [Int32]
    /// Whether each constraint of ``leadingRun`` is alone in its block of the plan (no other
    /// equality needs it, directly or not, while it needs them): found on first use.
    var alone: [Bool]? = nil

    /// Whether constraint `index`, of the leading run, is alone in its block.
    ///
    /// - Complexity: O(*t*) for the batch's equalities' terms on the first call, then O(1).
    mutating func isAlone(_ index: Int) -> Bool {
      guard index < leadingRun else { return false }
      if let alone { return alone[index] }
      var found = [Bool](repeating: false, count: leadingRun)
      let blocks = incidence.blocks(of: matching)
      for block in 0..<(blocks.starts.count - 1)
      where blocks.starts[block + 1] - blocks.starts[block] == 1 {
        let member = equalityIndices[Int(blocks.members[Int(blocks.starts[block])])]
        if member < leadingRun { found[member] = true }
      }
      alone = found
      return found[index]
    }
  }

  /// The variable each of `constraints` should define, by index (-1 for the usual choice), and
  /// the room the batch needs. Nil when the constraints must be added one by one to be refused
  /// where they should (an invalid one, an id used twice).
  ///
  /// - Complexity: O(*t*) for *t* terms, plus the matching's searches.
  private func plannedSubjects(
    of batch: ConstraintBatch, terms: UnsafeBufferPointer<Term>
  ) -> BuildPlan? {
    // A first pass checks the batch and sizes the tables: the largest id and variable, the
    // required equalities' terms.
    var largestID: Int32 = -1
    var largestVariable: Int32 = -1
    var equalityTerms = 0
    var equalityCount = 0
    var markerCount = 0
    for index in 0..<batch.count {
      let id = batch.id(at: index)
      let constraint = batch.constraint(index, in: terms)
      guard (try? validate(constraint, id: id)) != nil else { return nil }
      largestID = max(largestID, id.rawValue)
      markerCount += constraint.priority.isRequired ? 1 : 2
      let isEquality = constraint.relation == .equal && constraint.priority.isRequired
      if isEquality { equalityCount += 1 }
      for term in constraint.expression.terms {
        largestVariable = max(largestVariable, term.variable.id)
        if isEquality { equalityTerms += 1 }
      }
    }
    let variableCount = Int(largestVariable) + 1
    var seen = [Bool](repeating: false, count: Int(largestID) + 1)
    var avoided = [Bool](repeating: false, count: variableCount)
    var sizePreferences = [Bool](repeating: false, count: variableCount)
    var known = [Bool](repeating: false, count: variableCount)
    for id in 0..<min(variableCount, variableSymbol.count) {
      // The plan matches only variables new to the tableau: defining one that its rows
      // mention already would mark and may expand every definition downstream of it, and
      // one it defines cannot be defined again.
      if tableauMentions(Int32(id)) { known[id] = true }
    }
    // The second pass writes the equalities' incidence (a variable once an equality, its
    // coefficients summed, dropped where they cancel: `EqualityPlan.Incidence.init`'s rule,
    // written here over the batch's own arrays, where a shared call measured 130
    // instructions an equality more) and the variables the others mention.
    var starts: [Int32] = [0]
    var variables: [Int32] = []
    var coefficients: [Double] = []
    var equalityIndices: [Int] = []
    starts.reserveCapacity(equalityCount + 1)
    variables.reserveCapacity(equalityTerms)
    coefficients.reserveCapacity(equalityTerms)
    equalityIndices.reserveCapacity(equalityCount)
    for index in 0..<batch.count {
      let id = Int(batch.id(at: index).rawValue)
      guard !seen[id] else { return nil }
      seen[id] = true
      let constraint = batch.constraint(index, in: terms)
      if Self.isSizePreference(constraint) {
        sizePreferences[Int(constraint.expression.terms[0].variable.id)] = true
      }
      guard constraint.relation == .equal && constraint.priority.isRequired else {
        for term in constraint.expression.terms { avoided[Int(term.variable.id)] = true }
        continue
      }
      let first = variables.count
      for term in constraint.expression.terms {
        let variable = term.variable.id
        if let earlier = variables[first...].firstIndex(of: variable) {
          coefficients[earlier] += term.coefficient
        } else {
          variables.append(variable)
          coefficients.append(term.coefficient)
        }
      }
      var end = variables.count
      var position = first
      while position < end {
        if coefficients[position] == 0 {
          end -= 1
          variables.remove(at: position)
          coefficients.remove(at: position)
        } else {
          position += 1
        }
      }
      starts.append(Int32(end))
      equalityIndices.append(index)
    }
    let incidence = EqualityPlan.Incidence(
      starts: starts, variables: variables, coefficients: coefficients, isKnown: known)
    let matching = incidence.maximumMatching(avoiding: avoided)
    var subjects = [Int32](repeating: -1, count: batch.count)
    var owners = [Int32](repeating: -1, count: variableCount)
    for (equality, index) in equalityIndices.enumerated() {
      let variable = matching.subject[equality]
      subjects[index] = variable
      if variable >= 0 { owners[Int(variable)] = Int32(index) }
    }
    // Only the batch's leading run of matched equalities can skip its cycle checks (see
    // `add(contentsOf:)`).
    var run = 0
    while run < equalityIndices.count && equalityIndices[run] == run && subjects[run] >= 0 {
      run += 1
    }
    return BuildPlan(
      subjects: subjects, leadingRun: run, incidence: incidence, matching: matching,
      equalityIndices: equalityIndices, variableCount: variableCount, recordCount: seen.count,
      markerCount: markerCount, sizePreferences: sizePreferences, owners: owners)
  }
}
