/// Each variable an ``EqualityPlan`` determines, written out over the variables a tableau
/// holds, for a ``PlanSolver``'s build to substitute into the optional constraints that mention
/// it (``ReducedConstraints``).
///
/// A variable no active step determines (free, or of a block the tableau takes) is read as
/// itself. A block of one equality that stays determined is that equality solved for its
/// variable, with every variable it reads written out in turn, in plan order. A block of
/// several equalities (a row of equal spaces, which closes a loop) is its solution as a
/// combination of the variables it reads, found by solving it once with all of them at 0 and
/// once more for each, at 1; those are then written out in turn. A definition of more than
/// ``cap`` terms is not written out: a chain that sums as it goes (each row's top from the row
/// above) grows by a term a step, and a constraint that reached it would be as long.
struct DeterminedDefinitions {
  /// The most terms a definition (or a reduced constraint) may have.
  static let cap = 8

  /// Each step's definition: `variables[starts[k]..<starts[k] + counts[k]]` with
  /// `coefficients`, plus `constants[k]`; a count of -1 for a step not written out.
  private var starts: [Int32] = []
  private var counts: [Int32] = []
  private var constants: [Double] = []
  private var variables: [Int32] = []
  private var coefficients: [Double] = []
  /// The step of each variable that an active block determines, else -1.
  private let stepOfVariable: [Int32]

  /// A substitution in progress: its terms and constant.
  struct Sum {
    var variables: [Int32] = []
    var coefficients: [Double] = []
    var constant = 0.0

    /// Adds `coefficient` × `variable`, dropping the term where it cancels.
    mutating func add(_ variable: Int32, _ coefficient: Double) {
      if let index = variables.firstIndex(of: variable) {
        let sum = prunedSum(coefficients[index], coefficient)
        if sum == 0 {
          variables.swapAt(index, variables.count - 1)
          coefficients.swapAt(index, coefficients.count - 1)
          variables.removeLast()
          coefficients.removeLast()
        } else {
          coefficients[index] = sum
        }
      } else if coefficient != 0 {
        variables.append(variable)
        coefficients.append(coefficient)
      }
    }

    /// Empties the sum, keeping its room. A sum mostly holds up to
    /// ``DeterminedDefinitions/cap`` terms, which come off the end.
    mutating func removeAll() {
      variables.removeAllKeepingCapacity(offTheEndUpTo: DeterminedDefinitions.cap)
      coefficients.removeAllKeepingCapacity(offTheEndUpTo: DeterminedDefinitions.cap)
      constant = 0
    }
  }

  /// The definitions of `plan`'s steps, where `isTaken` marks the blocks the tableau takes and
  /// `stepOfVariable` names each variable's step (-1 for none).
  ///
  /// - Complexity: O(*t* × ``cap``) for *t* terms of the plan's equalities, plus O(*r* · *k*²)
  ///   for a block of *k* equalities that reads *r* variables.
  init(plan: EqualityPlan, isTaken: [Bool], stepOfVariable: [Int32], blockOfStep: [Int32]) {
    let stepCount = plan.determinedCount
    var stepOfVariable = stepOfVariable
    for block in 0..<plan.blockCount where isTaken[block] {
      for k in plan.steps(ofBlock: block) { stepOfVariable[Int(plan.subjects[k])] = -1 }
    }
    self.stepOfVariable = stepOfVariable
    starts = [Int32](repeating: 0, count: stepCount)
    counts = [Int32](repeating: -1, count: stepCount)
    constants = [Double](repeating: 0, count: stepCount)
    var sum = Sum()
    var probe = BlockProbe()
    for block in 0..<plan.blockCount where !isTaken[block] {
      let steps = plan.steps(ofBlock: block)
      guard steps.count == 1 else {
        writeOut(block: block, of: plan, probe: &probe, sum: &sum)
        continue
      }
      let k = steps.lowerBound
      sum.removeAll()
      let scale = -1 / plan.pivots[k]
      sum.constant = plan.constants[k] * scale
      var isWritten = true
      for index in Int(plan.otherStarts[k])..<Int(plan.otherStarts[k + 1]) {
        guard
          add(plan.otherVariables[index], plan.otherCoefficients[index] * scale, to: &sum),
          sum.variables.count <= 4 * Self.cap
        else {
          isWritten = false
          break
        }
      }
      guard isWritten && sum.variables.count <= Self.cap else { continue }
      store(sum, asStep: k)
    }
  }

  /// Room to solve blocks for their definitions: every variable's value (0 but for the one a
  /// probe sets), and a block's solution.
  struct BlockProbe {
    var values: [Double] = []
    var solution: [Double] = []
    var inputs: [Int32] = []
    /// Each step's constant, then its coefficient of each input, by step.
    var columns: [Double] = []

    /// Bytes held.
    var bytes: Int {
      (values.capacity + solution.capacity + columns.capacity) * 8 + inputs.capacity * 4
    }
  }

  /// Writes out the definitions of block `block`, of several equalities: each of its variables
  /// as a combination of the variables the block reads, each of those written out in turn.
  /// A variable whose definition is not written out is left so.
  ///
  /// - Complexity: O(*r* · *k*²) for *r* variables read and *k* equalities.
  private mutating func writeOut(
    block: Int, of plan: EqualityPlan, probe: inout BlockProbe, sum: inout Sum
  ) {
    let steps = plan.steps(ofBlock: block)
    let size = steps.count
    probe.inputs.removeAllKeepingCapacity()
    for k in steps {
      for index in Int(plan.otherStarts[k])..<Int(plan.otherStarts[k + 1]) {
        let variable = plan.otherVariables[index]
        if !probe.inputs.contains(variable) { probe.inputs.append(variable) }
      }
    }
    guard probe.inputs.count <= 4 * Self.cap else { return }
    if probe.values.count < plan.variableCount {
      probe.values = [Double](repeating: 0, count: plan.variableCount)
    }
    if probe.solution.count < size { probe.solution = [Double](repeating: 0, count: size) }
    func solve(into probe: inout BlockProbe) {
      probe.values.withUnsafeMutableBufferPointer { values in
        probe.solution.withUnsafeMutableBufferPointer { solution in
          plan.solveBlock(block, values, solution)
        }
      }
    }
    // Column 0 the constants (every input at 0); column 1 + i the coefficients of input i.
    let width = probe.inputs.count + 1
    probe.columns.removeAll(keepingCapacity: true)
    probe.columns.append(contentsOf: repeatElement(0, count: size * width))
    solve(into: &probe)
    for row in 0..<size { probe.columns[row * width] = probe.solution[row] }
    for (i, variable) in probe.inputs.enumerated() {
      probe.values[Int(variable)] = 1
      solve(into: &probe)
      probe.values[Int(variable)] = 0
      for row in 0..<size {
        probe.columns[row * width + 1 + i] = probe.solution[row] - probe.columns[row * width]
      }
    }
    for (row, k) in steps.enumerated() {
      sum.removeAll()
      sum.constant = probe.columns[row * width]
      var scale = 1.0
      for i in 0..<probe.inputs.count {
        scale = max(scale, abs(probe.columns[row * width + 1 + i]))
      }
      var isWritten = true
      for (i, variable) in probe.inputs.enumerated() {
        let coefficient = probe.columns[row * width + 1 + i]
        // What solving leaves of an input the variable does not depend on.
        guard abs(coefficient) > 1e-12 * scale else { continue }
        guard add(variable, coefficient, to: &sum), sum.variables.count <= 4 * Self.cap else {
          isWritten = false
          break
        }
      }
      guard isWritten && sum.variables.count <= Self.cap else { continue }
      store(sum, asStep: k)
    }
  }

  /// Keeps `sum` as step `k`'s definition.
  ///
  /// - Complexity: O(terms of `sum`).
  @inline(__always)
  private mutating func store(_ sum: Sum, asStep k: Int) {
    starts[k] = Int32(variables.count)
    counts[k] = Int32(sum.variables.count)
    constants[k] = sum.constant
    // One at a time: appending the sum's arrays whole retained and released both for every
    // step.
    for term in sum.variables.indices {
      variables.append(sum.variables[term])
      coefficients.append(sum.coefficients[term])
    }
  }

  /// Whether `variable` is one an active step determines.
  func isDetermined(_ variable: Int32) -> Bool {
    Int(variable) < stepOfVariable.count && stepOfVariable[Int(variable)] >= 0
  }

  /// Adds `coefficient` × `variable`'s definition to `sum`; false if it is not written out.
  ///
  /// - Complexity: O(``cap``²).
  func add(_ variable: Int32, _ coefficient: Double, to sum: inout Sum) -> Bool {
    guard isDetermined(variable) else {
      sum.add(variable, coefficient)
      return true
    }
    let k = Int(stepOfVariable[Int(variable)])
    guard counts[k] >= 0 else { return false }
    sum.constant += coefficient * constants[k]
    for index in Int(starts[k])..<Int(starts[k] + counts[k]) {
      sum.add(variables[index], coefficient * coefficients[index])
    }
    return true
  }
}
