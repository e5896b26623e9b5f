import Cassowary

/// An independent oracle for the property tests: a textbook two-phase dense simplex (Bland's
/// rule) on `minimize c·y, A y (≤ = ≥) b, y ≥ 0`, and on top of it the lexicographic optimum
/// of a constraint system, level by level. It shares no code with the solvers under test.
struct ReferenceLP {
  enum Sense { case lessOrEqual, equal, greaterOrEqual }
  struct Row {
    var coefficients: [Double]
    var sense: Sense
    var bound: Double
  }

  var columns: Int
  var rows: [Row] = []

  /// The minimum of `cost · y`, or nil when the rows are infeasible.
  func minimize(_ cost: [Double]) -> Double? {
    let tolerance = 1e-9
    // Columns: originals, then one slack or surplus per inequality, then one artificial per row.
    let m = rows.count
    let inequalityCount = rows.filter { $0.sense != .equal }.count
    let width = columns + inequalityCount + m + 1  // + right-hand side
    var table = [[Double]](repeating: [Double](repeating: 0, count: width), count: m)
    var basis = [Int](repeating: 0, count: m)
    var slackColumn = columns
    for (i, row) in rows.enumerated() {
      var coefficients = row.coefficients
      var bound = row.bound
      var sense = row.sense
      if bound < 0 {
        coefficients = coefficients.map { -$0 }
        bound = -bound
        sense =
          sense == .lessOrEqual ? .greaterOrEqual : sense == .greaterOrEqual ? .lessOrEqual : .equal
      }
      for j in 0..<columns { table[i][j] = coefficients[j] }
      if sense == .lessOrEqual { table[i][slackColumn] = 1 }
      if sense == .greaterOrEqual { table[i][slackColumn] = -1 }
      if sense != .equal { slackColumn += 1 }
      let artificial = columns + inequalityCount + i
      table[i][artificial] = 1
      table[i][width - 1] = bound
      basis[i] = artificial
    }
    let firstArtificial = columns + inequalityCount

    func pivot(_ row: Int, _ column: Int) {
      let factor = table[row][column]
      for j in 0..<width { table[row][j] /= factor }
      for i in 0..<m where i != row && table[i][column] != 0 {
        let multiple = table[i][column]
        for j in 0..<width { table[i][j] -= multiple * table[row][j] }
      }
      basis[row] = column
    }

    /// Minimizes `objective` over the columns in `allowed`; false when unbounded.
    func run(_ objective: [Double], allowed: Int) -> Bool {
      while true {
        var entering = -1
        for j in 0..<allowed {
          var reduced = objective[j]
          for i in 0..<m { reduced -= objective[basis[i]] * table[i][j] }
          if reduced < -tolerance && !basis.contains(j) {
            entering = j
            break
          }
        }
        if entering < 0 { return true }
        var leaving = -1
        var best = Double.infinity
        for i in 0..<m where table[i][entering] > tolerance {
          let ratio = table[i][width - 1] / table[i][entering]
          let tie = leaving >= 0 && abs(ratio - best) <= tolerance && basis[i] < basis[leaving]
          if ratio < best - tolerance || tie {
            best = ratio
            leaving = i
          }
        }
        if leaving < 0 { return false }
        pivot(leaving, entering)
      }
    }

    var phaseOne = [Double](repeating: 0, count: width - 1)
    for j in firstArtificial..<(width - 1) { phaseOne[j] = 1 }
    _ = run(phaseOne, allowed: width - 1)
    let infeasibility = (0..<m).reduce(0.0) { $0 + phaseOne[basis[$1]] * table[$1][width - 1] }
    if infeasibility > 1e-6 { return nil }
    // Drive artificials out of the basis where possible.
    for i in 0..<m where basis[i] >= firstArtificial {
      if let column = (0..<firstArtificial).first(where: { abs(table[i][$0]) > tolerance }) {
        pivot(i, column)
      }
    }
    var phaseTwo = [Double](repeating: 0, count: width - 1)
    for j in 0..<columns { phaseTwo[j] = cost[j] }
    guard run(phaseTwo, allowed: firstArtificial) else { return -.infinity }
    return (0..<m).reduce(0.0) { $0 + phaseTwo[basis[$1]] * table[$1][width - 1] }
  }
}

/// A constraint system as the property tests generate it, solved by ``ReferenceLP``.
struct RandomSystem {
  var variableCount: Int
  var constraints: [(ConstraintID, Constraint)]

  /// The violation of `constraint` at `values` (0 when it holds).
  static func violation(of constraint: Constraint, at value: (Variable) -> Double) -> Double {
    let residual = constraint.expression.evaluate(value)
    switch constraint.relation {
    case .equal: return abs(residual)
    case .lessThanOrEqual: return max(0, residual)
    case .greaterThanOrEqual: return max(0, -residual)
    }
  }

  /// The optional priority levels, highest first.
  var levels: [Priority] {
    Set(constraints.map(\.1.priority).filter { !$0.isRequired }).sorted(by: >)
  }

  /// The total violation at each level (highest first) at `values`.
  func errorSums(at value: (Variable) -> Double) -> [Double] {
    levels.map { level in
      constraints.filter { $0.1.priority == level }
        .reduce(0.0) { $0 + Self.violation(of: $1.1, at: value) }
    }
  }

  /// The smallest error sum at each level, given that every higher level keeps the sum in
  /// `achieved` (the answer being checked) — or, without `achieved`, its own optimum. Nil when
  /// the required constraints (with those bounds) are infeasible.
  func optimalErrorSums(given achieved: [Double]? = nil) -> [Double]? {
    // Columns: x⁺ and x⁻ per variable, then e⁺ and e⁻ per optional constraint.
    let optional = constraints.map { !$0.1.priority.isRequired }
    let errorColumn = optional.indices.reduce(into: [Int: Int]()) { map, index in
      if optional[index] { map[index] = 2 * variableCount + 2 * map.count }
    }
    var lp = ReferenceLP(columns: 2 * variableCount + 2 * errorColumn.count)
    for (index, (_, constraint)) in constraints.enumerated() {
      var row = [Double](repeating: 0, count: lp.columns)
      for term in constraint.expression.terms {
        row[2 * Int(term.variable.id)] += term.coefficient
        row[2 * Int(term.variable.id) + 1] -= term.coefficient
      }
      if let column = errorColumn[index] {
        row[column] = -1  // expression − e⁺ + e⁻ (relation) 0
        row[column + 1] = 1
      }
      let sense: ReferenceLP.Sense =
        switch constraint.relation {
        case .equal: .equal
        case .lessThanOrEqual: .lessOrEqual
        case .greaterThanOrEqual: .greaterOrEqual
        }
      lp.rows.append(.init(coefficients: row, sense: sense, bound: -constraint.expression.constant))
    }
    var sums: [Double] = []
    for (index, level) in levels.enumerated() {
      var cost = [Double](repeating: 0, count: lp.columns)
      for (index, column) in errorColumn where constraints[index].1.priority == level {
        cost[column] = 1
        cost[column + 1] = 1
      }
      guard let optimum = lp.minimize(cost) else { return nil }
      sums.append(optimum)
      let bound = achieved?[index] ?? optimum
      lp.rows.append(
        .init(coefficients: cost, sense: .lessOrEqual, bound: bound + 1e-8 * max(1, abs(bound))))
    }
    return sums
  }
}
