/// Refactorization: rebuilding the tableau from the constraints once round-off has worn it.
///
/// Every pivot and substitution rounds, and an incremental solver never starts over: over
/// thousands of operations the rows drift from the equations they stand for (coefficients that
/// should read 21 read 20.9999999999872), the drift feeds on itself through later pivots, and
/// the values, which are sums of row constants in the thousands, end up visibly wrong. Simplex
/// codes answer this by refactorizing the basis from the original data every so often; here the
/// original data are the constraint records, so the tableau is rebuilt from them (``rebuild()``).
///
/// The rebuild is triggered by measurement, not by a clock alone. After every outermost operation
/// the solver counts its work (operations and pivots); once that passes an interval proportional to
/// the tableau's size (shorter while the last check found the residual near the threshold, and
/// after a rebuild), it evaluates every constraint's equation at the current values
/// (``largestScaledResidual()``, a pass over the constraints' terms, so the check costs O(1)
/// amortized per unit of work) and rebuilds only when some equation is off by more than
/// ``refactorizationThreshold`` of the magnitudes it was computed from: orders of magnitude below
/// what a client could see, and far above a fresh tableau's round-off. A primal simplex that runs
/// past its pivot limit without reaching the optimum (round-off can make Bland's rule cycle) stops,
/// still feasible, and the operation ends with a rebuild as well.
///
/// Fill-in is measured at the same checks: once the sparse rows hold more than twice the cells
/// the last build left for as many constraints (``isFilledIn``), the tableau is rebuilt too.
/// Edits fill rows in (a pivot's row is added into every row holding its subject), and a
/// tableau that only grows makes every later operation slower and holds memory that a fresh
/// build would not; the doubling makes the rebuilds' cost O(1) amortized, as a growing array's
/// copies are. A rebuild trims every table to its contents.
///
/// A rebuild reaches an optimum of the same constraints: where the optimum is unique, the same
/// values; where several are equally good, possibly another of them, as a full solve would. It
/// is deterministic, so a run replays exactly.
extension Solver {
  /// A scaled residual above this means the tableau has drifted from its equations.
  var refactorizationThreshold: Double { 1e-10 }

  /// How much work (operations and pivots) may pass between two drift checks: proportional to
  /// the tableau, so that the check's pass over the constraints (a few terms each, against
  /// pivots that each rewrite rows) stays O(1) amortized; an eighth of the rows, because a
  /// tableau with long rows of fractional coefficients (a proportional stack's) can drift from
  /// 1e-10 to 1e-6 in a few hundred operations.
  ///
  /// Scaled by the headroom the last check found (``driftHeadroom``): checked after as few as
  /// 8 units of work when the residual came close to the threshold, and after a sixteenth of
  /// the interval when the tableau was just rebuilt and nothing has measured it yet. Pivots on
  /// an ill-conditioned basis (long elimination chains) leave a fresh tableau at 1e-11 where a
  /// well-conditioned one is near 1e-15, and a single new constant on it can multiply the
  /// residual a hundredfold.
  var driftCheckInterval: Int {
    max(8, max(64, rowSubject.count / 8) * driftHeadroom / Self.fullDriftHeadroom)
  }

  /// The headroom, in binary orders of magnitude below ``refactorizationThreshold``, from which
  /// on the check interval is not shortened (2^16, about five decimal orders).
  static var fullDriftHeadroom: Int { 16 }

  /// The headroom a rebuilt tableau is given until its first check: a sixteenth of the
  /// interval, 8 units of work on a small tableau, where an ill-conditioned rebuild was seen to
  /// drift past the threshold within 20 pivots. Not none: a client that solves from scratch
  /// every few operations (the full mode's phases) would pay a check, a pass over every
  /// constraint, after each rebuild.
  static var rebuiltDriftHeadroom: Int { 1 }

  /// Called at the end of every outermost successful operation: counts it, and past the check
  /// interval (or after a primal simplex stopped at its pivot limit) measures the drift and
  /// rebuilds the tableau if it is worn. A batch counts as one operation plus its pivots:
  /// pivots are what multiply round-off, while a new constant adds a rounding's worth, and a
  /// size-class switch's thousands of operations would otherwise each count.
  mutating func refactorIfWorn() {
    guard batchDepth == 0 else { return }
    workSinceDriftCheck += 1
    guard
      needsRefactorization
        || workSinceDriftCheck + pivotCount - pivotsAtDriftCheck >= driftCheckInterval
    else { return }
    workSinceDriftCheck = 0
    pivotsAtDriftCheck = pivotCount
    if !needsRefactorization && !isFilledIn {
      let residual = largestScaledResidual()
      if residual <= refactorizationThreshold {
        driftHeadroom =
          residual > 0
          ? min(Self.fullDriftHeadroom, (refactorizationThreshold / residual).exponent)
          : Self.fullDriftHeadroom
        return
      }
    }
    needsRefactorization = false
    // A rebuild that fails (a dense tableau over its memory budget) leaves the solver as it was.
    do throws(SolverError) {
      try rebuild()
      refactorizations += 1
    } catch {}
    workSinceDriftCheck = 0
    pivotsAtDriftCheck = pivotCount
  }

  /// Whether the rows have filled in past twice what the last build left for as many
  /// constraints (and past a floor, so that small systems are left alone): then a rebuild
  /// gives back the memory and the time every later pivot would spend on the extra cells.
  /// Sparse rows only: a dense row costs the same whatever it holds.
  var isFilledIn: Bool {
    guard Tableau.indexesColumns else { return false }
    let expected =
      constraintsAfterBuild > 0
      ? cellsAfterBuild * max(1, constraintCount) / constraintsAfterBuild : 0
    return tableau.totalCells > 2 * max(expected, 4096)
  }

  /// Records the tableau's size after a build, for ``isFilledIn``.
  mutating func noteBuilt() {
    cellsAfterBuild = tableau.totalCells
    constraintsAfterBuild = constraintCount
  }

  /// The largest scaled residual of the constraints' equations (and the edit variables') at the
  /// current values: |expression + marker terms| / (1 + |constant| + Σ |coefficient × value|),
  /// the rounding rule of the soak's checks. Zero for a tableau that implies its equations
  /// exactly.
  ///
  /// - Complexity: O(terms of every constraint), plus evaluating the variables not yet cached.
  mutating func largestScaledResidual() -> Double {
    var largest = 0.0
    for index in records.indices {
      guard let record = records[index] else { continue }
      let residual = scaledResidual(
        of: record.termStart, count: record.termCount, constant: record.constant,
        relation: record.relation, tag: record.tag, editValue: nil)
      largest = max(largest, residual)
    }
    for (variable, edit) in edits {
      let residual = scaledResidual(
        of: 0, count: 0, constant: 0, relation: .equal, tag: edit.tag,
        editValue: (variable, edit.value))
      largest = max(largest, residual)
    }
    return largest
  }

  /// The scaled residual of one equation, `0 = expression + μ·marker ± other`, whose
  /// expression is the `count` terms at `start` of the term store plus `constant` (an edit's
  /// is `variable − value`, given as `editValue`).
  private mutating func scaledResidual(
    of start: Int32, count: Int32, constant: Double, relation: Relation, tag: Tag,
    editValue: (variable: Int32, value: Double)?
  ) -> Double {
    var sum = constant
    var scale = 1 + abs(constant)
    for offset in 0..<count {
      let term = termStore[start + offset]
      let product = term.coefficient * variableValue(term.variable.id)
      sum += product
      scale += abs(product)
    }
    if let (variable, value) = editValue {
      let current = variableValue(variable)
      sum += current - value
      scale += abs(current) + abs(value)
    }
    let marker = tag.markerCoefficient * symbolValue(tag.marker)
    sum += marker
    scale += abs(marker)
    if tag.other >= 0 {
      let other = tag.otherCoefficient(for: relation) * symbolValue(tag.other)
      sum += other
      scale += abs(other)
    }
    return abs(sum) / scale
  }

  /// The current value of the client's variable `id` (0 when no constraint mentions it).
  private mutating func variableValue(_ id: Int32) -> Double {
    guard Int(id) < variableSymbol.count else { return 0 }
    let symbol = variableSymbol[Int(id)]
    guard symbol >= 0, basicRow[Int(symbol)] >= 0 else { return 0 }
    return keepsDefinitions ? evaluate(variable: id) : tableau.constant(of: basicRow[Int(symbol)])
  }

  /// The current value of a slack, error or dummy: its row's constant (such rows are over
  /// parametric symbols), or 0 when it is not basic.
  private func symbolValue(_ symbol: Int32) -> Double {
    let row = basicRow[Int(symbol)]
    return row >= 0 ? tableau.constant(of: row) : 0
  }

  /// How many pivots one primal optimization may take before it stops, feasible but perhaps not
  /// optimal, and leaves the rest to a rebuild: far more than any optimization that converges
  /// takes, so that it only ends one that cycles.
  var primalPivotLimit: Int { 10_000 + 50 * rowSubject.count }
}
