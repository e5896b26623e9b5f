extension Solver {
  /// The constraints whose equations the tableau no longer implies, for tests and debugging.
  ///
  /// Each constraint entered the tableau as `0 = expression + its marker and error terms`.
  /// Substituting every basic symbol by its row, recursively, must turn that equation into an
  /// identity over the parametric symbols; a constraint for which it does not is listed, with
  /// what is left over. A restricted or objective row that holds an external symbol, and a
  /// restricted row whose value is negative, are listed too, and so are definitions that refer
  /// to themselves through others (then alone, since expanding them would not end). Costs the
  /// size of the expansions: use it on small systems.
  public func structuralDefects(tolerance: Double = 1e-7) -> [String] {
    if let cycle = definitionCycle() { return ["definitions form a cycle through s\(cycle)"] }
    var defects: [String] = []
    func check(_ name: String, _ expression: LinearExpression, _ tag: Tag, _ relation: Relation) {
      var terms: [Int32: Double] = [:]
      var constant = expression.constant
      // The magnitudes the leftover constant was computed from: round-off is relative to them,
      // as in the soak's scaled residual.
      var magnitude = abs(expression.constant)
      for term in expression.terms {
        let symbol = variableSymbol[Int(term.variable.id)]
        guard symbol >= 0 else {
          defects.append("\(name): \(term.variable) has no symbol")
          return
        }
        terms[symbol, default: 0] += term.coefficient
      }
      terms[tag.marker, default: 0] += tag.markerCoefficient
      if tag.other >= 0 { terms[tag.other, default: 0] += tag.otherCoefficient(for: relation) }
      var pending = Array(terms.keys)
      while let symbol = pending.popLast() {
        guard let coefficient = terms[symbol], coefficient != 0 else { continue }
        let row = basicRow[Int(symbol)]
        guard row >= 0 else { continue }
        terms[symbol] = nil
        constant += coefficient * tableau.constant(of: row)
        magnitude += abs(coefficient * tableau.constant(of: row))
        tableau.forEachCell(of: row) { inner, value in
          terms[inner, default: 0] += coefficient * value
          pending.append(inner)
        }
      }
      let scale = 1 + magnitude
      let left = terms.filter { abs($0.value) > tolerance * scale }
      if abs(constant) > tolerance * scale || !left.isEmpty {
        let parts = left.sorted { $0.key < $1.key }.map { "\($0.value)·s\($0.key)" }
        defects.append(
          "\(name): leaves \(constant) + \(parts.joined(separator: " + "))")
      }
    }
    // Only definitions may hold an external symbol: a restricted or objective row holding one
    // would change (and could turn negative) when the external becomes basic.
    for row in rowSubject.indices {
      let subject = rowSubject[row]
      guard subject != RowRole.released,
        subject < 0 || symbolKind[Int(subject)] != .external
      else { continue }
      tableau.forEachCell(of: Int32(row)) { symbol, _ in
        if symbolKind[Int(symbol)] == .external {
          defects.append("row \(row) (subject \(subject)) holds external symbol s\(symbol)")
        }
      }
      if subject >= 0 && tableau.constant(of: Int32(row)) < -valueTolerance {
        defects.append(
          "row \(row) of s\(subject) is infeasible: \(tableau.constant(of: Int32(row)))")
      }
    }
    for (index, record) in records.enumerated() {
      guard let record else { continue }
      let constraint = Self.constraint(
        of: record, id: Int32(index), terms: termStore, labels: labels)
      check("c\(index) \(constraint)", constraint.expression, record.tag, record.relation)
    }
    for (variable, edit) in edits.sorted(by: { $0.key < $1.key }) {
      check(
        "edit v\(variable)",
        LinearExpression([Term(Variable(id: variable))], constant: -edit.value),
        edit.tag, .equal)
    }
    // Each level's objective row must be the sum of the errors at its priority, expanded: its
    // costs, that is (its constant, the level's error, is not kept up to date by every path and
    // decides nothing).
    for level in levelOrder {
      let priority = rowPriority[Int(level.row)]
      var terms: [Int32: Double] = [:]
      tableau.forEachCell(of: level.row) { symbol, value in terms[symbol, default: 0] -= value }
      func addErrors(of tag: Tag) {
        guard tag.priority == priority else { return }
        for error in tag.symbols where error >= 0 && symbolKind[Int(error)] == .error {
          let row = basicRow[Int(error)]
          if row < 0 {
            terms[error, default: 0] += 1
            continue
          }
          tableau.forEachCell(of: row) { symbol, value in terms[symbol, default: 0] += value }
        }
      }
      for record in records { if let record { addErrors(of: record.tag) } }
      // Removals a batch deferred are still in the tableau.
      for record in pendingRemovals { addErrors(of: record.tag) }
      for edit in edits.values { addErrors(of: edit.tag) }
      let left = terms.filter { abs($0.value) > tolerance }
      if !left.isEmpty {
        let parts = left.sorted { $0.key < $1.key }.map { "\($0.value)·s\($0.key)" }
        defects.append(
          "objective at \(priority): its costs differ from its errors' by "
            + parts.joined(separator: " + "))
      }
    }
    appendStaleValues(to: &defects, tolerance: tolerance)
    appendImprovingSymbols(to: &defects)
    return defects
  }

  /// Lists the non-basic symbols that could still improve the objective outside a batch: a
  /// reduced cost that leads with a negative entry (or, for an external symbol, any entry)
  /// beyond the cost tolerance. The optimization only looks at the symbols it marked as
  /// candidates; one missing from the marks would leave the solution not optimal.
  private func appendImprovingSymbols(to defects: inout [String]) {
    guard batchDepth == 0, !needsOptimize else { return }
    for symbol in symbolKind.indices {
      let kind = symbolKind[symbol]
      guard kind != .dummy, kind != .free, basicRow[symbol] < 0 else { continue }
      let (priority, cost) = leadingCost(of: Int32(symbol))
      if cost < -costTolerance || (kind == .external && cost > costTolerance) {
        defects.append(
          "s\(symbol) (\(kind)) is not basic and its reduced cost leads with \(cost) at "
            + "priority \(priority): the objective can still improve")
      }
    }
  }

  /// Lists the variables whose cached values (sparse only) are marked current but differ from
  /// their definitions evaluated afresh, and parameters marked as needing evaluation: either
  /// would let a later read return an old value.
  private func appendStaleValues(to defects: inout [String], tolerance: Double) {
    guard keepsDefinitions else { return }
    var exact: [Int32: Double] = [:]
    func value(of symbol: Int32) -> Double {
      if let known = exact[symbol] { return known }
      let row = basicRow[Int(symbol)]
      guard row >= 0 else { return 0 }
      var sum = tableau.constant(of: row)
      tableau.forEachCell(of: row) { inner, coefficient in
        if symbolKind[Int(inner)] == .external && basicRow[Int(inner)] >= 0 {
          sum += coefficient * value(of: inner)
        }
      }
      exact[symbol] = sum
      return sum
    }
    for variable in variableSymbol.indices {
      let symbol = variableSymbol[variable]
      guard symbol >= 0 else { continue }
      if basicRow[Int(symbol)] < 0 {
        if needsEvaluation[variable] {
          defects.append("v\(variable) is a parameter marked as needing evaluation")
        }
        continue
      }
      guard !needsEvaluation[variable] else { continue }
      let fresh = value(of: symbol)
      if abs(cachedValue[variable] - fresh) > tolerance * (1 + abs(fresh)) {
        defects.append(
          "v\(variable) caches \(cachedValue[variable]), its definitions give \(fresh)")
      }
    }
  }
}

extension Solver {
  /// A basic external symbol whose definition refers back to it through other definitions, if
  /// there is one: a depth-first walk over the definitions, each visited once.
  ///
  /// - Complexity: O(cells of the definitions).
  func definitionCycle() -> Int32? {
    // 0 unvisited, 1 on the walk's path, 2 done.
    var state = [UInt8](repeating: 0, count: symbolKind.count)
    for start in symbolKind.indices where isBasicExternal(Int32(start)) && state[start] == 0 {
      var path: [(symbol: Int32, cells: [Int32], next: Int)] = []
      func enter(_ symbol: Int32) {
        state[Int(symbol)] = 1
        var cells: [Int32] = []
        appendBasicExternals(of: basicRow[Int(symbol)], to: &cells)
        path.append((symbol, cells, 0))
      }
      enter(Int32(start))
      while !path.isEmpty {
        let top = path.count - 1
        guard path[top].next < path[top].cells.count else {
          state[Int(path[top].symbol)] = 2
          path.removeLast()
          continue
        }
        let inner = path[top].cells[path[top].next]
        path[top].next += 1
        switch state[Int(inner)] {
        case 1: return inner
        case 0: enter(inner)
        default: break
        }
      }
    }
    return nil
  }
}

extension SparseSolver {
  /// The constraints whose equations the tableau no longer implies (empty when it is sound):
  /// a consistency check for tests and debugging, costly on large systems.
  public func structuralDefects(tolerance: Double = 1e-7) -> [String] {
    core.structuralDefects(tolerance: tolerance)
  }
}

extension DenseSolver {
  /// The constraints whose equations the tableau no longer implies (empty when it is sound):
  /// a consistency check for tests and debugging, costly on large systems.
  public func structuralDefects(tolerance: Double = 1e-7) -> [String] {
    core.structuralDefects(tolerance: tolerance)
  }
}
