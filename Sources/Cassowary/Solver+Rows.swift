extension Solver {
  /// Adds the row of `constraint` to the tableau and returns its tag. Runs inside a transaction;
  /// on a throw the caller rolls back. The caller then adds the constraint's errors to the
  /// objective (``addObjectiveEffects(of:sign:)``), which cannot fail, so an `add` need not log
  /// the long objective rows.
  ///
  /// With `redefining`, a required row that would need phase one may instead take over the
  /// definition of one of its variables that an optional constraint defines
  /// (``redefine(_:softPair:by:)``): `pending` is then what the caller completes after its
  /// commit; nil means that failed, and the caller rolls back and adds the row again without.
  ///
  /// With a `subject` (a variable id), a row that mentions that variable while nothing defines it
  /// becomes its definition, as written (cycles resolved), whatever other variable it mentions:
  /// a build that matched each equality to the variable it determines
  /// (``add(contentsOf:)``) says which. With `acyclic`, the build knows that no definition
  /// depends on that variable, and its cycles are not looked for. With `deferring` (only for
  /// a required inequality), a row whose subject would strand an equality of the build not
  /// added yet (``strands(_:)``) is not added: ``reservedSubject`` names the variable, and
  /// the result is nil.
  mutating func addRow(
    for constraint: BorrowedConstraint, owner: Int32, redefining: Bool = true,
    subject hint: Int32 = -1,
    acyclic: Bool = false, deferring: Bool = false
  ) throws(SolverError) -> (tag: Tag, pending: PendingSubject?)? {
    let (row, tag) = makeRow(for: constraint, owner: owner)
    var asWritten = RowRole.none
    /// A required inequality that may still take a definition over if it would need phase one:
    /// its row as written is made again then, rather than copied up front for every one.
    var mayTakeOver = false
    if keepsDefinitions && hint >= 0 {
      let symbol = variableSymbol[Int(hint)]
      if symbol >= 0 && basicRow[Int(symbol)] < 0 {
        if !acyclic { resolveCycles(in: row, subject: symbol) }
        if abs(tableau.coefficient(of: symbol, in: row)) > pivotTolerance {
          solve(row, for: symbol)
          install(row, subject: symbol)
          return (tag, nil)
        }
      }
    }
    if keepsDefinitions {
      // A new variable (or one nothing defines yet) becomes this row's subject, and the row its
      // definition, as written. When every variable of a required row is already defined:
      // - an equality first tries to take over the definition of one that an optional
      //   constraint defines, as written, with no expansion at all (on a form, "the field ends
      //   at the root's margin" takes over the field's width from its hugging, where expanding
      //   first cost a quarter of the form's build and first solve, to end in the same
      //   takeover). An inequality does not: its own slack is usually its subject one level
      //   down, and a takeover instead made longer rows (a flat layout's trailing margins);
      // - otherwise the row is expanded one level of definitions at a time until a variable
      //   nothing defines turns up (closing a row of equal widths reaches the first width in
      //   two levels), and only when none does is it expanded fully, for the textbook path.
      // An optional row is expanded fully at once: its own pair can always be its subject.
      // A required inequality prefers a variable that no size preference mentions
      // (``lowestParametricExternal(in:avoidingSizePreferences:)``).
      // With `deferring`, a required inequality takes a variable that strands no equality
      // (``subjectStrandingNothing(_:in:)``), or waits.
      let isRequiredInequality = constraint.relation != .equal && constraint.priority.isRequired
      var levels = 0
      while true {
        while var external = lowestParametricExternal(
          in: row, avoidingSizePreferences: isRequiredInequality)
        {
          if deferring {
            // Nil: the caller rolls the transaction back, and the inequality waits.
            guard let chosen = subjectStrandingNothing(external, in: row) else { return nil }
            external = chosen
          }
          resolveCycles(in: row, subject: external)
          if abs(tableau.coefficient(of: external, in: row)) > pivotTolerance {
            if asWritten != RowRole.none { dropRow(asWritten) }
            solve(row, for: external)
            install(row, subject: external)
            return (tag, nil)
          }
        }
        if levels == 0 && redefining && constraint.priority.isRequired {
          if constraint.relation == .equal {
            asWritten = makeRow(subject: RowRole.none)
            tableau.add(row: row, times: 1, to: asWritten)
            if let (variable, pair) = redefinableVariable(in: asWritten) {
              return takeOver(variable, softPair: pair, by: asWritten, dropping: row, tag: tag)
            }
          } else {
            mayTakeOver = true
          }
        }
        guard constraint.priority.isRequired, levels < maximumExpansionLevels,
          expandOneLevel(row)
        else { break }
        if largestCoefficient(in: row) > expansionCoefficientLimit {
          // Expanded a level at a time, a definition reached by paths of different lengths is
          // substituted once per level with each path's share of its coefficient: shares that
          // cancel in the end (+1e9 and -1e9) are carried apart through every level below, and
          // the row keeps their rounding. Expanded fully, each definition is substituted once,
          // with the sum of its shares.
          tableau.clearRow(row)
          writeAsWritten(constraint, tag: tag, to: row)
          break
        }
        levels += 1
      }
      expand(row, downstreamOf: RowRole.none, cancelling: !constraint.priority.isRequired)
      if tableau.constant(of: row) < 0 { tableau.scale(row: row, by: -1) }
    }
    if tableau.constant(of: row) == 0, symbolKind[Int(tag.marker)] == .slack,
      tableau.coefficient(of: tag.marker, in: row) > 0
    {
      // A row that holds with everything at zero may be read either way round: read so that
      // its slack, not its error, can be the subject, the objective gains no cost and needs no
      // pivot to undo it.
      tableau.scale(row: row, by: -1)
    }
    dropRoundOffExternals(in: row)
    var subject = chooseSubject(of: row, tag: tag)
    if deferring && subject >= 0 {
      guard let chosen = subjectStrandingNothing(subject, in: row) else { return nil }
      subject = chosen
    }
    if subject < 0 && holdsOnlyDummies(row) {
      guard abs(tableau.constant(of: row)) <= valueTolerance else {
        throw .unsatisfiable(
          ConstraintID(0), constraint.owned(label: nil), conflicts: requiredOwners(of: row))
      }
      subject = tag.marker  // redundant: the constraint already holds
    }
    if subject < 0 && mayTakeOver {
      asWritten = makeRow(subject: RowRole.none)
      writeAsWritten(constraint, tag: tag, to: asWritten)
    }
    if subject < 0 && asWritten != RowRole.none,
      let (variable, pair) = redefinableVariable(in: asWritten)
    {
      // Phase one would be needed: the row as written takes a definition over instead.
      return takeOver(variable, softPair: pair, by: asWritten, dropping: row, tag: tag)
    }
    if asWritten != RowRole.none { dropRow(asWritten) }
    if subject < 0 {
      try addWithArtificialVariable(row, constraint: constraint)
    } else {
      solve(row, for: subject)
      install(row, subject: subject)
    }
    return (tag, nil)
  }

  /// Drops `row` (the new row, possibly expanded) and makes `asWritten`, the same constraint as
  /// written, the definition of `variable` in place of the optional constraint's whose pair is
  /// `pair` (``redefine(_:softPair:by:)``); returns what ``addRow(for:owner:redefining:)``
  /// returns.
  private mutating func takeOver(
    _ variable: Int32, softPair pair: TwoSymbols, by asWritten: Int32, dropping row: Int32,
    tag: Tag
  ) -> (tag: Tag, pending: PendingSubject?)? {
    dropRow(row)
    switch redefine(variable, softPair: pair, by: asWritten) {
    case .done: return (tag, nil)
    case .pending(let pending): return (tag, pending)
    case .failed: return nil
    }
  }

  /// Builds the row of `constraint` with basic variables substituted out, plus its marker and
  /// error symbols: `0 = expression + μ·marker (+ errors)`, flipped so its constant is ≥ 0.
  mutating func makeRow(for constraint: BorrowedConstraint, owner: Int32) -> (Int32, Tag) {
    let row = makeRow(subject: RowRole.none)
    let expression = constraint.expression
    let sibling = sibling(of: constraint, owner: owner)
    if let sibling {
      // `expression = −(c + μ·marker − μ·other)` by the sibling's own equation: its markers'
      // rows (restricted, so over parametric symbols) are the expression's full expansion.
      let tag = sibling.tag
      tableau.setConstant(expression.constant - sibling.constant, of: row)
      for symbol in tag.symbols where symbol >= 0 {
        let coefficient = symbol == tag.marker ? -tag.markerCoefficient : tag.markerCoefficient
        let basic = basicRow[Int(symbol)]
        if basic >= 0 {
          tableau.add(row: basic, times: coefficient, to: row)
        } else {
          tableau.add(coefficient, for: symbol, to: row)
        }
      }
    } else if !keepsDefinitions {
      writeTerms(of: expression, to: row)
    } else {
      // The symbols first, in the order writing the terms would make them; the row is written
      // with its markers, at once.
      tableau.setConstant(expression.constant, of: row)
      for term in expression.terms where term.coefficient != 0 { _ = symbol(for: term.variable) }
    }
    let required = constraint.priority.isRequired
    let priority = required ? 0 : constraint.priority.rawValue
    var tag: Tag
    switch constraint.relation {
    case .lessThanOrEqual, .greaterThanOrEqual:
      let sign: Double = constraint.relation == .lessThanOrEqual ? 1 : -1
      let slack = makeSymbol(.slack, owner: required ? owner : -1)
      tag = Tag(marker: slack, other: RowRole.none, markerCoefficient: sign, priority: priority)
      if !required { tag.other = makeSymbol(.error) }
    case .equal:
      if required {
        let dummy = makeSymbol(.dummy, owner: owner)
        tag = Tag(marker: dummy, other: RowRole.none, markerCoefficient: 1, priority: 0)
      } else {
        let positive = makeSymbol(.error)
        let negative = makeSymbol(.error)
        tag = Tag(marker: positive, other: negative, markerCoefficient: -1, priority: priority)
      }
    }
    if sibling != nil || !keepsDefinitions {
      // The other symbol's coefficient is always the marker's, negated.
      tableau.add(tag.markerCoefficient, for: tag.marker, to: row)
      if tag.other >= 0 { tableau.add(-tag.markerCoefficient, for: tag.other, to: row) }
    } else {
      writeCells(of: expression, markers: tag, to: row)
    }
    if tag.other >= 0 { pair(tag.marker, tag.other, priority: priority) }
    if tableau.constant(of: row) < 0 { tableau.scale(row: row, by: -1) }
    return (row, tag)
  }

  /// Writes `expression` into the empty `row`: its constant, and its terms over their variables'
  /// symbols (a basic variable's definition instead, where rows are not kept as written).
  mutating func writeTerms(of expression: BorrowedExpression, to row: Int32) {
    tableau.setConstant(expression.constant, of: row)
    for term in expression.terms where term.coefficient != 0 {
      let symbol = self.symbol(for: term.variable)
      let basic = basicRow[Int(symbol)]
      if basic >= 0 && !keepsDefinitions {
        tableau.add(row: basic, times: term.coefficient, to: row)
      } else {
        tableau.add(term.coefficient, for: symbol, to: row)
      }
    }
  }

  /// Writes into the empty `row` the cells of `expression`'s terms, whose variables have
  /// symbols, then those of the markers of `tag`: as adding them one by one would, all at once
  /// when no variable comes twice (``TableauStorage/appendCells(symbols:coefficients:to:)``).
  ///
  /// - Complexity: O(*t*) for *t* terms, O(*t*²) to look for a repeated variable among 16 or
  ///   fewer.
  mutating func writeCells(of expression: BorrowedExpression, markers tag: Tag, to row: Int32) {
    let terms = expression.terms
    let capacity = terms.count + 2
    guard terms.count <= 16 else {
      writeCellsOneByOne(of: expression, markers: tag, to: row)
      return
    }
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: capacity) { symbols in
      withUnsafeTemporaryAllocation(of: Double.self, capacity: capacity) { coefficients in
        var count = 0
        for term in terms where term.coefficient != 0 {
          let symbol = variableSymbol[Int(term.variable.id)]
          for index in 0..<count where symbols[index] == symbol {
            // A variable that comes twice: its cells add up, and may cancel.
            writeCellsOneByOne(of: expression, markers: tag, to: row)
            return
          }
          symbols[count] = symbol
          coefficients[count] = term.coefficient
          count += 1
        }
        symbols[count] = tag.marker
        coefficients[count] = tag.markerCoefficient
        count += 1
        if tag.other >= 0 {
          symbols[count] = tag.other
          coefficients[count] = -tag.markerCoefficient
          count += 1
        }
        tableau.appendCells(
          symbols: UnsafeBufferPointer(rebasing: symbols[..<count]),
          coefficients: UnsafeBufferPointer(rebasing: coefficients[..<count]), to: row)
      }
    }
  }

  /// ``writeCells(of:markers:to:)`` a cell at a time.
  private mutating func writeCellsOneByOne(
    of expression: BorrowedExpression, markers tag: Tag, to row: Int32
  ) {
    for term in expression.terms where term.coefficient != 0 {
      tableau.add(term.coefficient, for: variableSymbol[Int(term.variable.id)], to: row)
    }
    tableau.add(tag.markerCoefficient, for: tag.marker, to: row)
    if tag.other >= 0 { tableau.add(-tag.markerCoefficient, for: tag.other, to: row) }
  }

  /// Writes into the empty `row` the required `constraint`'s row as ``makeRow(for:owner:)``
  /// wrote it, with the marker of `tag`: the same cells in the same order.
  mutating func writeAsWritten(_ constraint: BorrowedConstraint, tag: Tag, to row: Int32) {
    precondition(constraint.priority.isRequired && tag.other < 0, "an optional constraint")
    writeTerms(of: constraint.expression, to: row)
    tableau.add(tag.markerCoefficient, for: tag.marker, to: row)
    if tableau.constant(of: row) < 0 { tableau.scale(row: row, by: -1) }
  }

  /// The tag and constant of the constraint added last, when `constraint` is optional and has
  /// exactly its terms (a view's compression resistance after its content hugging, or an
  /// optional equality after the required inequality it tightens), is not `owner`'s own (whose
  /// row a priority change has just removed) and the sparse tableau keeps definitions as
  /// written.
  ///
  /// Such a row would be expanded fully over every definition its variables reach (on a form,
  /// ten or so); written through the sibling's markers instead, it costs one row's length, and
  /// it is the same row, since a row over parametric symbols only is unique.
  @inline(__always)  // called from a mutating method, a method call copies the whole solver
  func sibling(of constraint: BorrowedConstraint, owner: Int32) -> (tag: Tag, constant: Double)? {
    guard keepsDefinitions, !constraint.priority.isRequired, lastAdded >= 0, lastAdded != owner,
      Int(lastAdded) < records.count
    else { return nil }
    guard let record = records.withUnsafeBufferPointer({ $0[Int(lastAdded)] }),
      termStore.run(
        start: record.termStart, count: record.termCount, equals: constraint.expression.terms)
    else { return nil }
    return (record.tag, record.constant)
  }

  /// Whether `row` holds an external symbol with a coefficient at or below the pivot tolerance.
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func holdsRoundOffExternal(_ row: Int32) -> Bool {
    var found = false
    tableau.forEachCell(of: row) { symbol, coefficient in
      if abs(coefficient) <= pivotTolerance && symbolKind[Int(symbol)] == .external {
        found = true
      }
    }
    return found
  }

  /// Removes from the new `row` the external symbols whose coefficients are below the pivot
  /// tolerance: the residue of cancellations (a variable that the constraint's terms cancel
  /// through definitions), which no subject choice may divide by, and which a restricted row
  /// must not hold (its value would then follow that variable).
  mutating func dropRoundOffExternals(in row: Int32) {
    guard holdsRoundOffExternal(row) else { return }
    collectCells(of: row)
    for cell in scratchCells
    where abs(cell.coefficient) <= pivotTolerance && symbolKind[Int(cell.symbol)] == .external {
      tableau.removeCell(for: cell.symbol, from: row)
    }
  }

  /// The symbol to make basic in a new row: its lowest-id external symbol; else the marker or
  /// the other symbol when it is a slack or error with a negative coefficient; else none (-1).
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func chooseSubject(of row: Int32, tag: Tag) -> Int32 {
    var external = Int32.max
    tableau.forEachCell(of: row) { symbol, coefficient in
      if symbolKind[Int(symbol)] == .external && symbol < external
        && abs(coefficient) > pivotTolerance
      {
        external = symbol
      }
    }
    if external != .max { return external }
    for symbol in tag.symbols where symbol >= 0 {
      let kind = symbolKind[Int(symbol)]
      if (kind == .slack || kind == .error)
        && tableau.coefficient(of: symbol, in: row) < -pivotTolerance
      {
        return symbol
      }
    }
    return Self.freeRestrictedSymbol(in: row, tableau, symbolKind, symbolLevel, rowSubject)
  }

  /// `subject`, or, when it is a variable whose equality, not added yet, it would strand
  /// (``strands(_:)``), one that strands none (``unstrandingSubject(of:insteadOf:)``); nil
  /// when there is none, with the variable in ``reservedSubject``.
  mutating func subjectStrandingNothing(_ subject: Int32, in row: Int32) -> Int32? {
    guard symbolKind[Int(subject)] == .external, strands(symbolVariable[Int(subject)]) else {
      return subject
    }
    let other = unstrandingSubject(of: row, insteadOf: subject)
    guard other != subject else {
      reservedSubject = symbolVariable[Int(subject)]
      return nil
    }
    return other
  }

  /// The subject for a required inequality's `row` in place of `external`, a variable whose
  /// equality, not added yet, it would strand (``strands(_:)``): the row's lowest-id
  /// non-basic external symbol that strands none, else `external`. Never the row's slack: a
  /// restricted row holds no external symbol.
  ///
  /// - Complexity: O(cells of `row`), and the equalities of its external symbols.
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func unstrandingSubject(of row: Int32, insteadOf external: Int32) -> Int32 {
    var lowest = Int32.max
    tableau.forEachCell(of: row) { symbol, coefficient in
      if symbol < lowest && symbolKind[Int(symbol)] == .external && basicRow[Int(symbol)] < 0
        && abs(coefficient) > pivotTolerance && !strands(symbolVariable[Int(symbol)])
      {
        lowest = symbol
      }
    }
    return lowest != .max ? lowest : external
  }

  /// A slack or error of `row` with a negative coefficient that no other restricted row holds
  /// (only definitions and the objective may): made basic, it takes a non-negative value and
  /// moves no other slack or error, so the new row needs no phase one. The lowest priority
  /// level first (a required slack costs nothing), then the lowest id; -1 when there is none.
  ///
  /// Static, with the tables passed in: its caller is inlined into mutating methods, from which
  /// a method call copies the whole solver.
  static func freeRestrictedSymbol(
    in row: Int32, _ tableau: Tableau, _ symbolKind: ManualArray<SymbolKind>,
    _ symbolLevel: ManualArray<Float>, _ rowSubject: ManualArray<Int32>
  ) -> Int32 {
    var best: (level: Float, symbol: Int32)? = nil
    tableau.forEachCell(of: row) { symbol, coefficient in
      let kind = symbolKind[Int(symbol)]
      guard coefficient < -pivotTolerance, kind == .slack || kind == .error else { return }
      let level = symbolLevel[Int(symbol)]
      if let best, (best.level, best.symbol) < (level, symbol) { return }
      if isAloneAmongRestrictedRows(symbol, in: row, tableau, symbolKind, rowSubject) {
        best = (level, symbol)
      }
    }
    return best?.symbol ?? RowRole.none
  }

  /// Whether `row` is the only restricted row (of a slack, error or dummy) holding `symbol`. A
  /// long column counts as not alone, to keep the check cheap.
  static func isAloneAmongRestrictedRows(
    _ symbol: Int32, in row: Int32, _ tableau: Tableau, _ symbolKind: ManualArray<SymbolKind>,
    _ rowSubject: ManualArray<Int32>
  ) -> Bool {
    guard tableau.rowCount(containing: symbol) <= 64 else { return false }
    var alone = true
    tableau.forEachRow(containing: symbol) { other, _ in
      let subject = rowSubject[Int(other)]
      if other != row && subject >= 0 && symbolKind[Int(subject)] != .external { alone = false }
    }
    return alone
  }

  @inline(__always)  // called from mutating methods, a method call copies the solver
  func holdsOnlyDummies(_ row: Int32) -> Bool {
    var onlyDummies = true
    tableau.forEachCell(of: row) { symbol, _ in
      if symbolKind[Int(symbol)] != .dummy { onlyDummies = false }
    }
    return onlyDummies
  }

  /// The required constraints whose markers appear in `row`: the ones its equation combines.
  func requiredOwners(of row: Int32) -> [ConstraintID: Constraint] {
    var owners: [ConstraintID: Constraint] = [:]
    tableau.forEachCell(of: row) { symbol, _ in
      let owner = owner(of: symbol)
      if owner >= 0, let constraint = constraint(ConstraintID(owner)) {
        owners[ConstraintID(owner)] = constraint
      }
    }
    return owners
  }

  /// Phase one: makes the new row feasible through an artificial variable, or throws when the
  /// required constraints cannot all hold.
  mutating func addWithArtificialVariable(
    _ row: Int32, constraint: BorrowedConstraint
  ) throws(SolverError) {
    let artificial = makeSymbol(.slack)
    rowSubject[Int(row)] = artificial
    basicRow[Int(artificial)] = row
    let objective = makeRow(subject: RowRole.artificial)
    tableau.add(row: row, times: 1, to: objective)
    optimizeArtificial(objective)
    let feasible = abs(tableau.constant(of: objective)) <= valueTolerance
    let conflicts = feasible ? [:] : requiredOwners(of: objective)
    dropRow(objective)
    guard feasible else {
      throw .unsatisfiable(ConstraintID(0), constraint.owned(label: nil), conflicts: conflicts)
    }
    let basic = basicRow[Int(artificial)]
    if basic >= 0 {
      // Still basic, at zero: pivot it out (a slack or error first, then an external, then a
      // dummy of a redundant equality), or drop its row if the constraint was redundant.
      if let entering = replacementForArtificial(in: basic) {
        pivot(entering: entering, row: basic)
      } else {
        dropRow(basic)
      }
    }
    purge(artificial)
    releaseSymbol(artificial)
  }

  /// The symbol to pivot into the row of an artificial variable that is still basic at zero: a
  /// slack or error first, then an external, then a dummy; ties to the lowest id.
  @inline(never)
  func replacementForArtificial(in row: Int32) -> Int32? {
    var best: (rank: Int, symbol: Int32)? = nil
    tableau.forEachCell(of: row) { symbol, coefficient in
      guard abs(coefficient) > pivotTolerance else { return }
      let rank: Int
      switch symbolKind[Int(symbol)] {
      case .slack, .error: rank = 0
      case .external: rank = 1
      case .dummy: rank = 2
      case .free: return
      }
      if best == nil || (rank, symbol) < (best!.rank, best!.symbol) { best = (rank, symbol) }
    }
    return best?.symbol
  }

  /// Adds (`sign` 1) or removes (`sign` -1) a constraint's errors in its level's objective row.
  mutating func addObjectiveEffects(of tag: Tag, sign: Double) {
    guard tag.priority > 0 else { return }
    let level = levelRow(for: tag.priority)
    save(level)
    for error in tag.symbols where error >= 0 && symbolKind[Int(error)] == .error {
      let basic = basicRow[Int(error)]
      if basic >= 0 {
        tableau.add(row: basic, times: sign, to: level)
        markCandidates(inRow: basic)
      } else {
        tableau.add(sign, for: error, to: level)
        markCandidate(error)
      }
    }
  }

  /// The objective row of the level at `priority`, made when the level is new.
  mutating func levelRow(for priority: Float) -> Int32 {
    let (index, found) = levelPosition(of: priority)
    if found { return levelOrder[index].row }
    let row = makeRow(subject: RowRole.objective, priority: priority)
    levelOrder.insert(Level(row: row, uses: 0), at: index)
    if journal.isActive { journal.createdLevels.append(priority) }
    return row
  }

  /// Where the level at `priority` is in ``levelOrder`` (sorted highest priority first), or
  /// where it would go, and whether it is there: a binary search over a handful of rows, which
  /// costs less than hashing the priority (an optional constraint's add looks its level up
  /// twice).
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func levelPosition(of priority: Float) -> (index: Int, found: Bool) {
    var low = 0
    var high = levelOrder.count
    while low < high {
      let middle = (low + high) / 2
      if rowPriority[Int(levelOrder[middle].row)] > priority {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return (low, low < levelOrder.count && rowPriority[Int(levelOrder[low].row)] == priority)
  }

  /// Counts one more use of the level at `priority`, which an add's objective effects made.
  mutating func retainLevel(_ priority: Float) {
    guard priority > 0 else { return }
    let (index, found) = levelPosition(of: priority)
    precondition(found, "no objective row at priority \(priority)")
    levelOrder[index].uses += 1
  }

  /// Drops the level at `priority` once no constraint uses it, so the objective shrinks too.
  mutating func releaseLevel(_ priority: Float) {
    guard priority > 0 else { return }
    let (index, found) = levelPosition(of: priority)
    guard found, levelOrder[index].uses > 0 else { return }
    levelOrder[index].uses -= 1
    guard levelOrder[index].uses == 0 else { return }
    dropRow(levelOrder.remove(at: index).row)
    if liveSymbols == 0 && levelOrder.isEmpty && !journal.isActive { releaseSymbolTables() }
  }

  /// Removes a constraint's row and symbols from the tableau.
  mutating func removeRow(_ tag: Tag) {
    addObjectiveEffects(of: tag, sign: -1)
    let marker = tag.marker
    if basicRow[Int(marker)] < 0 {
      if let definition = soleDefinition(holding: marker) {
        // Pivoting the marker into the one row that holds it, its own definition, and dropping
        // that row would change no other row: the definition is dropped, and its subject becomes
        // a parameter. Without first expanding the definition over non-basic symbols, which
        // costs everything upstream of it (a nested stack's depth, for each removal).
        dropRow(definition)
      } else {
        if keepsDefinitions { expandDefinitions(containing: marker) }
        if let leaving = markerLeavingRow(marker) { pivot(entering: marker, row: leaving) }
      }
    }
    if basicRow[Int(marker)] >= 0 { dropRow(basicRow[Int(marker)]) }
    // Exactly, the other symbol's column is proportional to the marker's and is gone with its
    // row; rounding may leave traces, which are removed.
    for symbol in tag.symbols where symbol >= 0 {
      purge(symbol)
      releaseSymbol(symbol)
    }
  }

  /// Expands the definitions that mention `marker` over non-basic symbols only. A definition as
  /// written may mention the marker and, through another definition, cancel it; choosing the
  /// leaving row needs the marker's true column, and a row that is pivoted on must not refer to
  /// definitions that mention the entering marker (that would define it by itself).
  mutating func expandDefinitions(containing marker: Int32) {
    var rows = takeScratch()
    appendDefinitionRows(holding: marker, to: &rows)
    for row in rows where referencesBasicExternals(row) {
      save(row)
      expandFully(row)
    }
    returnScratch(rows)
  }

  /// The row holding `marker` when it is the only one and a definition (its subject external),
  /// as for most constraints that define a variable: no other row holds the marker, so none can
  /// reach it through a definition either, and the true column of the marker is that row alone.
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func soleDefinition(holding marker: Int32) -> Int32? {
    guard keepsDefinitions, tableau.rowCount(containing: marker) == 1 else { return nil }
    var definition: Int32? = nil
    tableau.forEachRow(containing: marker) { row, coefficient in
      let subject = rowSubject[Int(row)]
      if subject >= 0 && symbolKind[Int(subject)] == .external
        && abs(coefficient) > pivotTolerance
      {
        definition = row
      }
    }
    return definition
  }

  /// Appends the rows holding `symbol` that are definitions (rows of external subjects).
  @inline(never)
  func appendDefinitionRows(holding symbol: Int32, to buffer: inout [Int32]) {
    tableau.forEachRow(containing: symbol) { row, _ in
      let subject = rowSubject[Int(row)]
      if subject >= 0, symbolKind[Int(subject)] == .external { buffer.append(row) }
    }
  }

  /// The row to pivot a non-basic marker into before its constraint's row is dropped: a row of
  /// a redundant required equality (its dummy subject is fixed at zero, so it blocks any move);
  /// else the restricted row with the smallest ratio for a negative coefficient, else for a
  /// positive one, else an unrestricted row. Ties go to the lowest subject id, except among
  /// redundant rows, where the highest (usually the newest) wins.
  ///
  /// Why the newest: when many constraints are redundant through one shared constraint (a
  /// form's rows each aligned to the first row), every redundant row holds the shared marker.
  /// Removing it rewrites them all in terms of the chosen row. Choosing the oldest would make the
  /// next row the new hub, and removing rows oldest first would then cost every remaining row
  /// each time (quadratic); choosing the newest leaves the hub where removals in either order
  /// reach it last.
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func markerLeavingRow(_ marker: Int32) -> Int32? {
    var fixed: (subject: Int32, row: Int32)? = nil
    var first: (ratio: Double, subject: Int32, row: Int32)? = nil
    var second: (ratio: Double, subject: Int32, row: Int32)? = nil
    var third: (subject: Int32, row: Int32)? = nil
    tableau.forEachRow(containing: marker) { row, coefficient in
      let subject = rowSubject[Int(row)]
      guard subject >= 0, abs(coefficient) > pivotTolerance else { return }
      if symbolKind[Int(subject)] == .dummy {
        if fixed == nil || subject > fixed!.subject { fixed = (subject, row) }
      } else if symbolKind[Int(subject)] == .external {
        if third == nil || subject < third!.subject { third = (subject, row) }
      } else if coefficient < 0 {
        let ratio = -tableau.constant(of: row) / coefficient
        if first == nil || ratio < first!.ratio
          || (ratio == first!.ratio && subject < first!.subject)
        {
          first = (ratio, subject, row)
        }
      } else {
        let ratio = tableau.constant(of: row) / coefficient
        if second == nil || ratio < second!.ratio
          || (ratio == second!.ratio && subject < second!.subject)
        {
          second = (ratio, subject, row)
        }
      }
    }
    return fixed?.row ?? first?.row ?? second?.row ?? third?.row
  }
}
