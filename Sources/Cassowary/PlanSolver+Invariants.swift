extension PlanSolver {
  /// What must hold between operations (outside a batch), in words; empty when all holds:
  /// - a determined variable is mentioned by nothing in the sparse solver (no row, no edit), so
  ///   the split loses nothing;
  /// - each constraint is in one place: a determined step is where ``places`` says, and in no
  ///   other table;
  /// - every determined equality holds at the values, and every other variable reads what the
  ///   sparse solver says;
  /// - no block waits for evaluation;
  /// - a bound is where ``places`` says, over a bounded variable that nothing in the sparse
  ///   solver mentions, whose required bounds leave it a value, and that reads the optimum of
  ///   its bounds;
  /// - a reduced constraint is where ``places`` says, the blocks it was written out through are
  ///   determined, and it reads as the constraint as written does.
  ///
  /// - Complexity: O(constraints + terms + variables); for tests and debugging.
  public func invariantViolations() -> [String] {
    var problems: [String] = []
    let plan = determined.plan
    var mentioned = Set<Int32>()
    for record in inner.core.records {
      guard let record else { continue }
      // A variable whose coefficients in a constraint cancel is not mentioned by it.
      var sums: [Int32: Double] = [:]
      for index in Int(record.termStart)..<Int(record.termStart + record.termCount) {
        let term = inner.core.termStore.terms[index]
        sums[term.variable.id, default: 0] += term.coefficient
      }
      for (variable, sum) in sums where sum != 0 { mentioned.insert(variable) }
    }
    for variable in inner.core.edits.keys { mentioned.insert(variable) }
    var activeSteps = 0
    for block in 0..<plan.blockCount where determined.isActive[block] {
      for k in plan.steps(ofBlock: block) where !determined.isRemoved[k] {
        activeSteps += 1
        let subject = plan.subjects[k]
        let id = determined.ids[k]
        if mentioned.contains(subject) {
          problems.append("v\(subject), determined by \(id), is mentioned by the tableau")
        }
        if step(of: id) != k { problems.append("\(id) is step \(k) but placed elsewhere") }
        if inner.contains(id) { problems.append("\(id) is both determined and in the tableau") }
        if determined.step(determining: subject) != k {
          problems.append("v\(subject) does not name its step \(k)")
        }
        let residual = determined.constraint(ofStep: k).expression.evaluate {
          state.values[Int($0.id)]
        }
        let scale = max(1, abs(plan.constants[k]))
        if !(abs(residual) <= 1e-7 * scale) {
          problems.append("\(id) is off by \(residual) at the values")
        }
      }
    }
    if activeSteps != determined.liveSteps {
      problems.append("\(activeSteps) live steps, counted \(determined.liveSteps)")
    }
    for (index, place) in places.enumerated() {
      if let k = place.step, k >= determined.ids.count || determined.ids[k].rawValue != index {
        problems.append("c\(index) is placed at step \(k), which is another constraint's")
      }
    }
    for (row, written) in reduced.rows.enumerated() where written.isLive {
      let id = written.id
      if written.boundSlot < 0 && reducedConstraint(of: id) != row {
        problems.append("\(id) is reduced constraint \(row) but placed elsewhere")
      }
      let held: Constraint?
      if written.boundSlot >= 0 {
        if boundSlot(of: id) != Int(written.boundSlot) {
          problems.append("reduced \(id) is bound \(written.boundSlot) but placed elsewhere")
        }
        let bound = bounds.bounds[Int(written.boundSlot)]
        held = Constraint(
          LinearExpression(
            [Term(Variable(id: bound.variable), bound.coefficient)], constant: bound.constant),
          bound.relation)
      } else if written.isAside {
        if inner.contains(id) { problems.append("\(id) is held aside and in the tableau") }
        if written.priority.isRequired || written.isRequired {
          problems.append("\(id) is held aside but required")
        }
        // Its error is the same at every value: no value reads it.
        held = nil
      } else if let inTableau = inner.constraint(id) {
        held = inTableau
      } else {
        problems.append("reduced \(id) is not in the tableau")
        continue
      }
      for term in reduced.writtenTerms(row) {
        guard let k = determined.step(determining: term.variable.id) else { continue }
        if !reduced.isFeeding[Int(determined.blockOfStep[k])] {
          problems.append("\(id) mentions v\(term.variable.id), whose block is not marked feeding")
        }
      }
      // Where the equalities hold, the row as held and as written are the same function.
      guard batchDepth == 0, let held else { continue }
      let asWritten = LinearExpression(
        Array(reduced.writtenTerms(row)), constant: written.constant)
      let a = asWritten.evaluate { value(of: $0) }
      let b = held.expression.evaluate { value(of: $0) }
      if !(abs(a - b) <= 1e-7 * max(1, abs(a), abs(b))) {
        problems.append("\(id) reads \(a) as written and \(b) as held")
      }
    }
    let aside = reduced.rows.lazy.filter { $0.isLive && $0.isAside }.count
    if aside != reduced.asideCount {
      problems.append("\(aside) rows held aside, counted \(reduced.asideCount)")
    }
    var liveBounds = 0
    for (index, place) in places.enumerated() {
      guard let slot = place.bound else { continue }
      liveBounds += 1
      let bound = bounds.bounds[slot]
      if bound.id.rawValue != Int32(index) {
        problems.append("c\(index) is placed at bound \(slot), which is another constraint's")
      }
      if !bounds.contains(bound.variable) {
        problems.append("c\(index) bounds v\(bound.variable), which is not bounded")
      }
      if inner.contains(bound.id) {
        problems.append("c\(index) is both a bound and in the tableau")
      }
    }
    if liveBounds != bounds.liveCount {
      problems.append("\(liveBounds) bounds placed, counted \(bounds.liveCount)")
    }
    for variable in bounds.isBounded.indices where bounds.isBounded[variable] {
      if mentioned.contains(Int32(variable)) {
        problems.append("v\(variable) is bounded but mentioned by the tableau")
      }
      if determined.step(determining: Int32(variable)) != nil {
        problems.append("v\(variable) is both bounded and determined")
      }
      if !bounds.requiredBoundsHold(for: Int32(variable)) {
        problems.append("v\(variable)'s required bounds leave it no value")
      }
      var scratch: [VariableBounds.Key] = []
      let optimum = bounds.optimum(of: Int32(variable), scratch: &scratch)
      if batchDepth == 0 && optimum.bitPattern != state.values[variable].bitPattern {
        problems.append("v\(variable) reads \(state.values[variable]), its bounds say \(optimum)")
      }
    }
    if batchDepth == 0 {
      for index in state.values.indices
      where determined.step(determining: Int32(index)) == nil && !bounds.contains(Int32(index)) {
        let expected = inner.value(of: Variable(index))
        if expected != state.values[index] && !(expected.isNaN && state.values[index].isNaN) {
          problems.append("v\(index) reads \(state.values[index]), the tableau says \(expected)")
        }
      }
      if !state.queue.isEmpty || needsEvaluation || !promotedVariables.isEmpty
        || !bounds.stale.isEmpty
        || !determined.pendingBlocks.isEmpty
      {
        problems.append("values are not up to date outside a batch")
      }
    }
    return problems
  }
}
