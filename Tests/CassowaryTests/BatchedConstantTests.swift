import Cassowary
import PropertyBased
import Testing

/// Constant changes inside a batch, mixed with adds, removals (deferred by the batch) and
/// suggestions, end where a fresh solver of the final system ends, on both solvers, and every
/// value that moved is reported.
@Suite struct BatchedConstantTests {
  enum Operation {
    case add(ConstraintID, Constraint)
    case remove(ConstraintID)
    case suggest(Variable, Double)
    case setConstant(ConstraintID, Double)

    func apply(to solver: inout any LayoutSolver) throws(SolverError) {
      switch self {
      case .add(let id, let constraint): try solver.add(id, constraint)
      case .remove(let id): try solver.remove(id)
      case .suggest(let variable, let value): try solver.suggestValue(variable, value)
      case .setConstant(let id, let constant): try solver.setConstant(id, constant)
      }
    }
  }

  @Test func batchedConstantChangesMatchAFreshSolve() async {
    await propertyCheck(count: propertyCaseCount(200), input: Gen.uint64(in: 0...UInt64.max)) {
      try checkBatchedConstants(seed: $0)
    }
  }

  func checkBatchedConstants(seed: UInt64) throws {
    var generator = SystemGenerator(seed: seed)
    let all = generator.system()
    // The stays (last, one per variable) keep the optimum unique; only the others change.
    var live = Array(all.dropLast(generator.variableCount))
    let stays = Array(all.suffix(generator.variableCount))
    let edit = Variable(0)
    var editValue = 0.0
    var operations: [Operation] = []
    for _ in 0..<Int.random(in: 3...20, using: &generator.random) {
      let optional = live.indices.filter { !live[$0].1.priority.isRequired }
      switch Int.random(in: 0..<10, using: &generator.random) {
      case 0:
        // Something that needs the deferred re-solve first: a new constraint.
        let (id, constraint) = (generator.id(), generator.optionalConstraint())
        live.append((id, constraint))
        operations.append(.add(id, constraint))
      case 1:
        editValue = Double(Int.random(in: -100...100, using: &generator.random))
        let value = editValue
        operations.append(.suggest(edit, value))
      case 2 where !live.isEmpty:
        let (id, _) = live.remove(at: Int.random(in: 0..<live.count, using: &generator.random))
        operations.append(.remove(id))
      default:
        guard let index = optional.randomElement(using: &generator.random) else { continue }
        let constant = Double(Int.random(in: -80...80, using: &generator.random))
        live[index].1.expression.constant = constant
        let id = live[index].0
        operations.append(.setConstant(id, constant))
      }
    }

    let variables = generator.variableCount
    for kind in SolverStrategy.exact {
      var solver: any LayoutSolver = kind.makeSolver()
      for (id, constraint) in all { try solver.add(id, constraint) }
      try solver.addEditVariable(edit, priority: 600)
      try solver.suggestValue(edit, 0)
      var reported = [Double](repeating: 0, count: variables)
      solver.forEachChangedValue { reported[Int($0.id)] = $1 }
      solver.beginBatch()
      for operation in operations { try operation.apply(to: &solver) }
      solver.endBatch()
      solver.forEachChangedValue { reported[Int($0.id)] = $1 }

      var fresh = SparseSolver()
      for (id, constraint) in live + stays { try fresh.add(id, constraint) }
      try fresh.addEditVariable(edit, priority: 600)
      try fresh.suggestValue(edit, editValue)
      expectSameValues(solver, fresh, variables: variables, seed: seed, "\(kind) batched/fresh")
      for index in 0..<variables {
        #expect(
          abs(reported[index] - solver.value(of: Variable(index))) <= 1e-9,
          "seed \(seed): \(kind): v\(index) moved without being reported")
      }
    }
  }
}
