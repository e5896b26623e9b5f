/// A required row that finds every one of its variables already defined (sparse only).
///
/// Textbook Cassowary makes such a row feasible with phase one: an artificial variable and
/// pivots, each rewriting the columns it touches (on a form, "the field ends at the root's right
/// margin" after the field's width was defined by its hugging). When one of the row's variables is
/// defined by an *optional* constraint, the new row can take over that definition instead: the
/// variable is defined by the required row, as written, and the optional row becomes a
/// restricted row whose own pair (slack and error, or two errors) takes its subject. One of the
/// pair always has the right sign, so that row is feasible; a restricted row that held the pair
/// and turns negative swaps its own pair (as a long step's passed rows do). No phase one, no
/// artificial variable, and the optimizer then does what it would have done anyway. A required
/// equality tries this first, before its row is expanded at all; an inequality only when it
/// would otherwise need phase one (see ``addRow(for:owner:redefining:)``).
///
/// It runs in two steps. Inside the add's transaction, everything that could stop it is done
/// or checked (a few short rows, cheap to log); after the commit, the step that cannot fail
/// rewrites the objective rows (long ones: a cell for almost every error), as the add's own
/// objective effects are, so that they are never copied into the undo log.
extension Solver {
  /// The restricted row a redefinition left to install after the commit, with its subject.
  struct PendingSubject {
    var row: Int32
    var subject: Int32
  }

  /// What ``redefine(_:softPair:by:)`` did.
  enum Redefinition {
    /// Done; nothing is left for after the commit.
    case done
    /// Done but for `PendingSubject`: ``completeRedefinition(_:)`` installs it after the commit.
    case pending(PendingSubject)
    /// Some row could not be kept feasible; the caller rolls back.
    case failed
  }

  /// The variable of `row` (a new required row, as written) whose definition it can take over:
  /// one an optional constraint defines (the weakest first), on which nothing the row refers to
  /// depends. Returned with that constraint's pair.
  mutating func redefinableVariable(in row: Int32) -> (Int32, TwoSymbols)? {
    guard let (variable, pair) = weakestSoftlyDefinedVariable(in: row),
      markDefinitions(upstreamOf: row, dependingOn: variable) == false
    else { return nil }
    return (variable, pair)
  }

  /// Makes `row` the definition of `variable`, whose definition so far holds `pair`, the pair of
  /// an optional constraint; that row is to become a restricted row with one of the pair as its
  /// subject. Touches no objective row.
  mutating func redefine(
    _ variable: Int32, softPair pair: TwoSymbols, by row: Int32
  ) -> Redefinition {
    let old = basicRow[Int(variable)]
    save(old)
    // The old definition `x = d + Σ` becomes the equation `0 = d + Σ − x`, with no subject.
    tableau.add(-1, for: variable, to: old)
    rowSubject[Int(old)] = RowRole.none
    basicRow[Int(variable)] = RowRole.none
    solve(row, for: variable)
    install(row, subject: variable)  // substitutes the new definition into `old`
    if referencesBasicExternals(old) { expandFully(old) }
    // The expansion may cancel a variable to a rounding residue: such a cell is no coefficient
    // to pivot on, a restricted row must not keep an external, and dropping it would move the
    // optional constraint's equation by the residue times the variable. The add takes the
    // textbook path instead.
    if holdsRoundOffExternal(old) { return .failed }
    if let external = lowestParametricExternal(in: old) {
      // The new definition brought in a variable nothing defines: it takes the old row, which
      // stays a definition (no restricted row may hold an external).
      solve(old, for: external)
      install(old, subject: external)
      return .done
    }
    if tableau.constant(of: old) < 0 { tableau.scale(row: old, by: -1) }
    let first = tableau.coefficient(of: pair.first, in: old)
    let second = tableau.coefficient(of: pair.second, in: old)
    if first >= -pivotTolerance && second >= -pivotTolerance && tableau.constant(of: old) == 0 {
      tableau.scale(row: old, by: -1)
    }
    // A member whose coefficient the substitution cancelled to a residue cannot be the subject:
    // dividing by it would blow the row up. Then the add runs phase one instead.
    let subject: Int32
    if tableau.coefficient(of: pair.first, in: old) < -pivotTolerance {
      subject = pair.first
    } else if tableau.coefficient(of: pair.second, in: old) < -pivotTolerance {
      subject = pair.second
    } else {
      return .failed
    }
    let value = tableau.constant(of: old) / -tableau.coefficient(of: subject, in: old)
    guard rowsStayFeasible(whenBasic: subject, takes: value, from: old) else { return .failed }
    return .pending(PendingSubject(row: old, subject: subject))
  }

  /// The step of a redefinition that cannot fail, run after the add's commit: makes the pair's
  /// member basic in its row, and swaps the pair of each row it turns negative.
  mutating func completeRedefinition(_ pending: PendingSubject) {
    let infeasibleBefore = infeasible.count
    solve(pending.row, for: pending.subject)
    install(pending.row, subject: pending.subject)
    while infeasible.count > infeasibleBefore {
      let symbol = infeasible.removeLast()
      let basic = basicRow[Int(symbol)]
      guard basic >= 0, tableau.constant(of: basic) < -valueTolerance else { continue }
      let swapped = swapPairIfNegative(inRow: basic)
      precondition(swapped, "row \(basic) cannot swap its pair: the feasibility check missed it")
    }
  }

  /// Whether, once `symbol` is made basic in `row` with value `value` and substituted
  /// everywhere, every restricted row it turns negative can swap its own pair back to
  /// feasibility (``flipPartner(of:inRow:)``, with a partner that `row` does not bring in).
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func rowsStayFeasible(whenBasic symbol: Int32, takes value: Double, from row: Int32) -> Bool {
    var feasible = true
    tableau.forEachRow(containing: symbol) { other, coefficient in
      let subject = rowSubject[Int(other)]
      guard feasible, other != row, subject >= 0, symbolKind[Int(subject)] != .external else {
        return
      }
      guard tableau.constant(of: other) + coefficient * value < -valueTolerance else { return }
      guard let partner = flipPartner(of: subject, inRow: other),
        tableau.coefficient(of: partner, in: row) == 0
      else {
        feasible = false
        return
      }
    }
    return feasible
  }

  /// The basic external of `row` whose definition holds both symbols of an optional
  /// constraint's pair, with that pair: the lowest priority level first, then the lowest id.
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func weakestSoftlyDefinedVariable(in row: Int32) -> (Int32, TwoSymbols)? {
    var best: (level: Float, variable: Int32, pair: TwoSymbols)? = nil
    tableau.forEachCell(of: row) { symbol, _ in
      guard isBasicExternal(symbol), let pair = softPair(inDefinition: basicRow[Int(symbol)])
      else { return }
      let level = symbolLevel[Int(pair.first)]
      if let best, (best.level, best.variable) <= (level, symbol) { return }
      best = (level, symbol, pair)
    }
    return best.map { ($0.variable, $0.pair) }
  }

  /// A pair of an optional constraint (slack and error, or two errors) with both symbols in
  /// `definition`: the lowest priority level first, then the lowest id.
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func softPair(inDefinition definition: Int32) -> TwoSymbols? {
    var best: (level: Float, first: Int32)? = nil
    tableau.forEachCell(of: definition) { symbol, _ in
      let kind = symbolKind[Int(symbol)]
      guard kind == .slack || kind == .error else { return }
      let partner = symbolPartner[Int(symbol)]
      guard partner > symbol, tableau.coefficient(of: partner, in: definition) != 0 else {
        return
      }
      let level = symbolLevel[Int(symbol)]
      if let best, (best.level, best.first) <= (level, symbol) { return }
      best = (level, symbol)
    }
    return best.map { TwoSymbols(first: $0.first, second: symbolPartner[Int($0.first)]) }
  }
}
