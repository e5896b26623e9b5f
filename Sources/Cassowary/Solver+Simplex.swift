extension Solver {
  /// Exchanges `entering` (non-basic) with the subject of `row` (basic).
  mutating func pivot(entering: Int32, row: Int32) {
    save(row)
    let leaving = rowSubject[Int(row)]
    // `leaving = c + Σ` becomes `0 = c + Σ − leaving`, then is solved for `entering`.
    tableau.add(-1, for: leaving, to: row)
    solve(row, for: entering)
    basicRow[Int(leaving)] = RowRole.none
    if symbolKind[Int(leaving)] == .error { markCandidate(leaving) }
    install(row, subject: entering)
    // Only now: while the row still named it as its subject, marking what depends on the
    // leaving variable would have flagged the variable itself, a parameter, through its own row.
    markValueDirty(symbol: leaving)
    pivotCount += 1
    let subject = rowSubject[Int(row)]
    noteConstantChanged(row: row, subject: subject)
  }

  /// Primal simplex on the lexicographic objective: while some non-basic symbol's reduced-cost
  /// vector leads with a negative entry, pivot it in (the lowest such id: Bland's rule).
  ///
  /// The ratio test takes long steps past the breakpoints of optional constraints (see
  /// ``longStepLeavingRow(for:direction:minimizingArtificial:mayStayPut:)``).
  mutating func optimize() {
    let degenerateBefore = degenerateLongSteps
    let pivotsBefore = pivotCount
    while let (entering, direction) = nextEnteringSymbol() {
      guard pivotCount - pivotsBefore < primalPivotLimit else {
        // Round-off has made the lowest-id rule cycle: the tableau is feasible, and the
        // operation's rebuild (see `refactorIfWorn`) finds the optimum afresh.
        needsRefactorization = true
        break
      }
      let mayStayPut = degenerateLongSteps - degenerateBefore < maximumDegenerateLongSteps
      guard
        let (row, _) = longStepLeavingRow(
          for: entering, direction: direction, mayStayPut: mayStayPut)
      else {
        // Every row that could stop the move holds `entering` below the pivot tolerance: its
        // column is round-off, and so is the cost that made it look improving, which a
        // consistent tableau bounds (every level is a sum of non-negative errors). It is not
        // moved. A cost of any size with nothing to stop it is a corrupt tableau.
        let cost = leadingCost(of: entering).cost
        guard abs(cost) < noiseCostLimit else {
          fatalError(
            "the objective is unbounded along s\(entering) (cost \(cost)): the tableau is corrupt")
        }
        continue
      }
      pivot(entering: entering, row: row)
      flipCrossedBreakpoints()
    }
    tableau.compactIfWasteful()
  }

  /// The lowest-id candidate whose reduced cost leads with a negative entry (or, for an
  /// unrestricted external symbol, a non-zero one), with the direction it should move.
  mutating func nextEnteringSymbol() -> (Int32, Double)? {
    while let symbol = storage.contents.pointee.candidates.popMin() {
      let kind = symbolKind[Int(symbol)]
      guard kind != .dummy, kind != .free, basicRow[Int(symbol)] < 0 else { continue }
      let cost = leadingCost(of: symbol).cost
      if cost < -costTolerance { return (symbol, 1) }
      if cost > costTolerance && kind == .external { return (symbol, -1) }
    }
    return nil
  }

  /// The entry of `symbol`'s reduced-cost vector at the highest priority where it is not zero.
  ///
  /// Looks the symbol up in each objective row (a few, and found without scanning) rather than
  /// scanning its column, which for a shared symbol (the root's size) holds thousands of rows;
  /// but when there are more levels than rows in the column (a layout with hundreds of
  /// priorities, and an error that sits in a couple of rows), the column is scanned instead.
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func leadingCost(of symbol: Int32) -> (priority: Float, cost: Double) {
    if Tableau.indexesColumns && tableau.rowCount(containing: symbol) < levelOrder.count {
      var leading: (priority: Float, cost: Double) = (-1, 0)
      tableau.forEachRow(containing: symbol) { row, cost in
        guard rowSubject[Int(row)] == RowRole.objective, abs(cost) > costTolerance else { return }
        let priority = rowPriority[Int(row)]
        if priority > leading.priority { leading = (priority, cost) }
      }
      return leading
    }
    for level in levelOrder {
      let cost = tableau.coefficient(of: symbol, in: level.row)
      if abs(cost) > costTolerance { return (rowPriority[Int(level.row)], cost) }
    }
    return (-1, 0)
  }

  /// Phase one: minimizes the artificial objective `row` (a scalar row).
  ///
  /// Of the symbols that reduce it, the one cheapest to move in the real objective enters (its
  /// reduced cost leads at the lowest priority, or is zero): a new constraint is then satisfied by
  /// what it should bend (a field's hugging) rather than by what it should not (the root's size),
  /// and phase one does not undo the optimum built so far. After a run of degenerate pivots the
  /// lowest id enters instead (Bland's rule), so phase one always terminates.
  mutating func optimizeArtificial(_ objective: Int32) {
    var degenerateRun = 0
    while true {
      collectCells(of: objective)
      var entering = Int32.max
      var enteringPriority = Float.infinity
      var direction = 1.0
      let bland = degenerateRun >= 50
      for cell in scratchCells {
        let kind = symbolKind[Int(cell.symbol)]
        let improves =
          kind == .external
          ? abs(cell.coefficient) > pivotTolerance
          : cell.coefficient < -pivotTolerance
        guard improves && kind != .dummy else { continue }
        let priority = bland ? 0 : leadingCost(of: cell.symbol).priority
        if priority < enteringPriority || (priority == enteringPriority && cell.symbol < entering) {
          entering = cell.symbol
          enteringPriority = priority
          direction = cell.coefficient < 0 ? 1 : -1
        }
      }
      guard entering != .max,
        let (row, ratio) = longStepLeavingRow(
          for: entering, direction: direction, minimizingArtificial: true)
      else { return }
      degenerateRun = ratio <= valueTolerance ? degenerateRun + 1 : 0
      pivot(entering: entering, row: row)
      flipCrossedBreakpoints()
    }
  }

  /// Dual simplex: restores feasibility after constants changed, keeping optimality. Returns
  /// the row that cannot be made feasible (required constraints conflict), or nil.
  ///
  /// Rows leave most recently made infeasible first. Degenerate dual pivots can cycle, so after
  /// as many pivots as there are rows the lowest infeasible subject id leaves instead (Bland's
  /// rule, with the entering ties already going to the lowest id), which terminates.
  ///
  /// A row that would take a pivot on a long column (an entering symbol in more than
  /// ``shortColumn`` rows), and whose subject is one member of an optional constraint's pair
  /// with the partner in no other row, is set aside instead. When every other row is feasible,
  /// each pair set aside is swapped inside its row (the partner takes the negative value's
  /// place), which touches that row and the objective only, and the primal simplex restores
  /// optimality with long steps. A resize that moves a form's shared width past hundreds of
  /// labels' breakpoints makes the textbook dual pivot once per label, each pivot rewriting the
  /// whole shared column; this way it is one swap per label and a few long primal steps.
  mutating func dualOptimize() -> Int32? {
    var pivots = 0
    var setAside = takeScratch()
    defer { returnScratch(setAside) }
    while let leaving = nextLeavingSymbol(bland: pivots > rowSubject.count) {
      // The list may hold symbols that were released and reused since (as an external, whose
      // definition's constant may well be negative): only a restricted subject can leave.
      guard isRestricted(leaving) else { continue }
      let row = basicRow[Int(leaving)]
      guard row >= 0, tableau.constant(of: row) < -valueTolerance else { continue }
      guard let entering = dualEnteringSymbol(row) else {
        infeasible.removeAllKeepingCapacity()
        return row
      }
      if tableau.rowCount(containing: entering) > shortColumn
        && flipPartner(of: leaving, inRow: row) != nil
      {
        setAside.append(leaving)
        continue
      }
      pivot(entering: entering, row: row)
      pivots += 1
    }
    // Only the rows set aside can still be infeasible; a dual pivot elsewhere cannot have put
    // their partners in another row (a pivot row holding a partner would be theirs).
    var swapped = false
    for leaving in setAside where basicRow[Int(leaving)] >= 0 {
      if swapPairIfNegative(inRow: basicRow[Int(leaving)]) { swapped = true }
    }
    if swapped { optimizeUnlessBatching() }
    return nil
  }

  /// How many rows a dual pivot's entering column may hold and still count as short.
  var shortColumn: Int { 32 }

  /// Whether `symbol` is a slack, error or dummy: a symbol the simplex keeps non-negative.
  @inline(__always)
  func isRestricted(_ symbol: Int32) -> Bool {
    switch symbolKind[Int(symbol)] {
    case .slack, .error, .dummy: true
    case .external, .free: false
    }
  }

  /// The next symbol to leave in the dual simplex: the last one made infeasible, or with `bland`,
  /// the lowest id among those still infeasible.
  mutating func nextLeavingSymbol(bland: Bool) -> Int32? {
    guard bland else { return infeasible.popLast() }
    var lowest = -1
    var index = 0
    while index < infeasible.count {
      let symbol = infeasible[index]
      let row = basicRow[Int(symbol)]
      if !isRestricted(symbol) || row < 0 || tableau.constant(of: row) >= -valueTolerance {
        infeasible.swapAt(index, infeasible.count - 1)
        infeasible.removeLast()
        continue
      }
      if lowest < 0 || symbol < infeasible[lowest] { lowest = index }
      index += 1
    }
    guard lowest >= 0 else { return nil }
    return infeasible.remove(at: lowest)
  }

  /// The dual ratio test: among the row's symbols with a positive coefficient, the one whose
  /// reduced-cost vector divided by that coefficient is lexicographically smallest.
  mutating func dualEnteringSymbol(_ row: Int32) -> Int32? {
    var best = bestCosts
    var current = scratchCosts
    bestCosts = []
    scratchCosts = []
    defer {
      bestCosts = best
      scratchCosts = current
    }
    collectCells(of: row)
    var entering: Int32 = -1
    var enteringCoefficient = 0.0
    for cell in scratchCells where cell.coefficient > pivotTolerance {
      let kind = symbolKind[Int(cell.symbol)]
      guard kind != .dummy, kind != .free else { continue }
      reducedCost(of: cell.symbol, into: &current)
      if entering < 0
        || compareRatios(current, cell.coefficient, best, enteringCoefficient)
          .isLess(orTieWith: cell.symbol < entering)
      {
        swap(&best, &current)
        entering = cell.symbol
        enteringCoefficient = cell.coefficient
      }
    }
    return entering < 0 ? nil : entering
  }

  /// `symbol`'s reduced-cost vector, highest priority first.
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func reducedCost(of symbol: Int32, into costs: inout [LevelCost]) {
    costs.removeAllKeepingCapacity()
    if Tableau.indexesColumns && tableau.rowCount(containing: symbol) > levelOrder.count {
      // A shared symbol (a form's common width) is in thousands of rows: look it up in each
      // objective row instead (a few, indexed), which lists the levels highest first as well.
      for level in levelOrder {
        let cost = tableau.coefficient(of: symbol, in: level.row)
        if cost != 0 {
          costs.append(LevelCost(priority: rowPriority[Int(level.row)], value: cost))
        }
      }
      return
    }
    tableau.forEachRow(containing: symbol) { row, coefficient in
      if rowSubject[Int(row)] == RowRole.objective {
        costs.append(LevelCost(priority: rowPriority[Int(row)], value: coefficient))
      }
    }
    if costs.count > 1 { costs.sort { $0.priority > $1.priority } }
  }

  /// Compares `a / aScale` with `b / bScale`, level by level from the highest priority.
  func compareRatios(
    _ a: [LevelCost], _ aScale: Double, _ b: [LevelCost], _ bScale: Double
  ) -> Ordering {
    var i = 0
    var j = 0
    while i < a.count || j < b.count {
      let priority = max(i < a.count ? a[i].priority : -1, j < b.count ? b[j].priority : -1)
      var x = 0.0
      var y = 0.0
      if i < a.count && a[i].priority == priority {
        x = a[i].value / aScale
        i += 1
      }
      if j < b.count && b[j].priority == priority {
        y = b[j].value / bScale
        j += 1
      }
      if !isNearZero(x - y, relativeTo: max(abs(x), abs(y))) { return x < y ? .less : .greater }
    }
    return .equal
  }
}

/// The outcome of a three-way comparison.
enum Ordering {
  case less, equal, greater

  /// Whether this is `.less`, or `.equal` and the tie-break says so.
  func isLess(orTieWith tieBreak: Bool) -> Bool {
    self == .less || (self == .equal && tieBreak)
  }
}
