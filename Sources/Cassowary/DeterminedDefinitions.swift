/// Each variable an ``EqualityPlan`` determines, written out over the variables a tableau
/// holds, for a ``PlanSolver``'s build to substitute into the optional constraints that mention
/// it (``ReducedConstraints``).
///
/// A variable no active step determines (free, or of a block the tableau takes) is read as
/// itself. A block of one equality that stays determined is that equality solved for its
/// variable, with every variable it reads written out in turn, in plan order. A block of
/// several equalities is not written out, nor is a definition of more than ``cap`` terms: a
/// chain that sums as it goes (each row's top from the row above) grows by a term a step, and
/// a constraint that reached it would be as long.
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

    mutating func removeAll() {
      variables.removeAll(keepingCapacity: true)
      coefficients.removeAll(keepingCapacity: true)
      constant = 0
    }
  }

  /// The definitions of `plan`'s steps, where `isTaken` marks the blocks the tableau takes and
  /// `stepOfVariable` names each variable's step (-1 for none).
  ///
  /// - Complexity: O(*t* × ``cap``) for *t* terms of the plan's equalities.
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
    for block in 0..<plan.blockCount where !isTaken[block] {
      let steps = plan.steps(ofBlock: block)
      guard steps.count == 1 else { continue }
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
      starts[k] = Int32(variables.count)
      counts[k] = Int32(sum.variables.count)
      constants[k] = sum.constant
      variables.append(contentsOf: sum.variables)
      coefficients.append(contentsOf: sum.coefficients)
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
