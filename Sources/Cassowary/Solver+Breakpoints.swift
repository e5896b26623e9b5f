import HeapModule

/// The long-step ratio test of the primal simplex: passing breakpoints instead of pivoting at each.
///
/// An optional constraint's slack and error (or its two errors) form a pair whose difference is
/// the constraint's expression. When the entering symbol drives the basic member of a pair to
/// zero, the textbook simplex pivots there, and the next iteration moves on to the partner. On a
/// form whose labels align, all `n` hugging rows share the entering symbol's column, the optimum
/// lies past `n` such breakpoints, and each of those pivots rewrites `n` rows: quadratic. Here the
/// ratio test walks the breakpoints in order and passes each one whose crossing still leaves the
/// move improving (lexicographically: the pair's cost is added at its level); it pivots once, at
/// the first breakpoint it cannot pass, and then swaps each passed pair inside its own row, which
/// touches only that row and the objective (the bound flipping of revised-simplex codes).
extension Solver {
  /// Records that `first` and `second` are the two symbols of one optional constraint at
  /// `priority`.
  mutating func pair(_ first: Int32, _ second: Int32, priority: Float) {
    symbolPartner[Int(first)] = second
    symbolPartner[Int(second)] = first
    symbolLevel[Int(first)] = priority
    symbolLevel[Int(second)] = priority
  }

  /// The row to pivot `entering` into, moving in `direction`, and how far it moves. Rows it
  /// passes on the way are left in `crossedRows` for ``flipCrossedBreakpoints()``.
  ///
  /// In phase one (`minimizingArtificial`) the objective is the artificial variable, which no
  /// pair's swap changes (a partner in its row cannot be swapped), so every breakpoint that can
  /// be passed is, up to the first that cannot: usually the artificial row itself.
  ///
  /// With `mayStayPut`, a step that moves nothing still passes the breakpoints that sit where it
  /// begins (see below).
  mutating func longStepLeavingRow(
    for entering: Int32, direction: Double, minimizingArtificial: Bool = false,
    mayStayPut: Bool = false
  ) -> (row: Int32, ratio: Double)? {
    crossedRows.removeAllKeepingCapacity()
    var breakpoints = scratchBreakpoints
    scratchBreakpoints = []
    defer { scratchBreakpoints = breakpoints }
    breakpoints.removeAllKeepingCapacity()
    appendBreakpoints(of: entering, direction: direction, to: &breakpoints)
    guard var first = breakpoints.first else { return nil }
    for breakpoint in breakpoints.dropFirst() where breakpoint < first { first = breakpoint }
    guard flipPartner(of: first.subject, inRow: first.row) != nil else {
      return (first.row, first.ratio)
    }
    // Usually only a few of a long column's breakpoints are passed: take them from a heap in
    // order rather than sorting them all. The heap keeps its storage between steps.
    var heap = breakpointHeap
    breakpointHeap = Heap()
    defer {
      heap.removeAll { _ in true }
      breakpointHeap = heap
    }
    for breakpoint in breakpoints { heap.insert(breakpoint) }
    // The move's reduced-cost vector, which each passed pair raises at its level. Phase one
    // does not need it.
    var costs = scratchCosts
    scratchCosts = []
    defer { scratchCosts = costs }
    costs.removeAllKeepingCapacity()
    if !minimizingArtificial {
      reducedCost(of: entering, into: &costs)
      for index in costs.indices { costs[index].value *= direction }
    }
    var leaving = first
    while let breakpoint = heap.popMin() {
      leaving = breakpoint
      guard let partner = flipPartner(of: breakpoint.subject, inRow: breakpoint.row) else { break }
      if !minimizingArtificial {
        let units = pairCost(breakpoint.subject, partner)
        addCost(-breakpoint.rate * units, at: symbolLevel[Int(breakpoint.subject)], to: &costs)
        guard leadsNegative(costs) else { break }
      }
      crossedRows.append(breakpoint.row)
    }
    // Every breakpoint passed: the last one is where the step ends.
    if crossedRows.last == leaving.row { crossedRows.removeLast() }
    if leaving.ratio <= valueTolerance {
      // A step that moves nothing (ratio 0) may still pass pairs that sit at their breakpoints
      // together (a form's fields of one intrinsic width): one pivot instead of one per pair.
      // It does not improve the objective, so the caller allows only a few per optimization;
      // then the textbook step, where Bland's rule prevents cycling.
      guard mayStayPut, !crossedRows.isEmpty else {
        crossedRows.removeAllKeepingCapacity()
        return (first.row, first.ratio)
      }
      degenerateLongSteps += 1
    }
    return (leaving.row, leaving.ratio)
  }

  /// How many long steps that move nothing one primal optimization may take.
  var maximumDegenerateLongSteps: Int { 64 }

  /// After the pivot of a long step: in each passed row, the basic member of the pair is now
  /// negative (or, after a step that moved nothing, still zero); its partner, which appears
  /// nowhere else, takes its place.
  mutating func flipCrossedBreakpoints() {
    var rows = crossedRows
    crossedRows = []
    defer { crossedRows = rows }
    for row in rows { _ = swapPairIfNegative(inRow: row, orZero: true) }
    rows.removeAllKeepingCapacity()
  }

  /// If `row` is negative (or, with `orZero`, at zero) and its subject has a
  /// ``flipPartner(of:inRow:)``, swaps the two in `row` (the partner becomes basic and
  /// non-negative), touching only that row and the objective. Returns whether it did.
  mutating func swapPairIfNegative(inRow row: Int32, orZero: Bool = false) -> Bool {
    let constant = tableau.constant(of: row)
    guard constant < -valueTolerance || (orZero && constant <= valueTolerance) else {
      return false
    }
    let subject = rowSubject[Int(row)]
    guard subject >= 0, let partner = flipPartner(of: subject, inRow: row) else { return false }
    pivot(entering: partner, row: row)
    breakpointsPassed += 1
    return true
  }

  /// Appends the rows that block `entering` moving in `direction`: restricted rows whose subject
  /// decreases, and rows of dummies, which block at once.
  @inline(never)
  func appendBreakpoints(of entering: Int32, direction: Double, to buffer: inout [Breakpoint]) {
    tableau.forEachRow(containing: entering) { row, coefficient in
      let subject = rowSubject[Int(row)]
      guard subject >= 0, symbolKind[Int(subject)] != .external else { return }
      let rate = coefficient * direction
      guard abs(rate) > pivotTolerance else { return }
      if symbolKind[Int(subject)] == .dummy {
        buffer.append(Breakpoint(ratio: 0, subject: subject, row: row, rate: rate))
      } else if rate < 0 {
        // A constant within the tolerance below zero is zero: the step cannot go backwards.
        let ratio = max(0, tableau.constant(of: row)) / -rate
        buffer.append(Breakpoint(ratio: ratio, subject: subject, row: row, rate: rate))
      }
    }
  }

  /// The partner that can take the place of `subject` in its row `row`: the other symbol of the
  /// subject's optional constraint, non-basic, with coefficient 1 in the row and in no other row
  /// but the objective's, so that swapping the two touches nothing else.
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func flipPartner(of subject: Int32, inRow row: Int32) -> Int32? {
    let kind = symbolKind[Int(subject)]
    guard kind == .slack || kind == .error else { return nil }
    let partner = symbolPartner[Int(subject)]
    guard partner >= 0, basicRow[Int(partner)] < 0 else { return nil }
    guard abs(tableau.coefficient(of: partner, in: row) - 1) <= 1e-9 else { return nil }
    var alone = true
    tableau.forEachRow(containing: partner) { other, _ in
      if other != row && rowSubject[Int(other)] != RowRole.objective { alone = false }
    }
    return alone ? partner : nil
  }

  /// The objective weight of a pair at its level: one per error (a slack costs nothing).
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func pairCost(_ first: Int32, _ second: Int32) -> Double {
    (symbolKind[Int(first)] == .error ? 1 : 0) + (symbolKind[Int(second)] == .error ? 1 : 0)
  }

  /// Adds `amount` to the entry at `priority` of a cost vector ordered from the highest priority.
  func addCost(_ amount: Double, at priority: Float, to costs: inout [LevelCost]) {
    var index = 0
    while index < costs.count && costs[index].priority > priority { index += 1 }
    if index < costs.count && costs[index].priority == priority {
      costs[index].value = prunedSum(costs[index].value, amount)
    } else {
      costs.insert(LevelCost(priority: priority, value: amount), at: index)
    }
  }

  /// Whether the first non-zero entry of a cost vector is negative: moving still improves.
  func leadsNegative(_ costs: [LevelCost]) -> Bool {
    for cost in costs where abs(cost.value) > costTolerance { return cost.value < 0 }
    return false
  }
}

/// A row that blocks the entering symbol: where its subject reaches zero. Ordered as the ratio
/// test takes them: the smaller ratio, then the lower subject id (a subject has one row).
struct Breakpoint: Comparable {
  /// How far the entering symbol moves before the subject reaches zero.
  var ratio: Double
  var subject: Int32
  var row: Int32
  /// The subject's change per unit move of the entering symbol (negative).
  var rate: Double

  static func < (lhs: Breakpoint, rhs: Breakpoint) -> Bool {
    lhs.ratio < rhs.ratio || (lhs.ratio == rhs.ratio && lhs.subject < rhs.subject)
  }

  static func == (lhs: Breakpoint, rhs: Breakpoint) -> Bool {
    lhs.ratio == rhs.ratio && lhs.subject == rhs.subject
  }
}
