import Cassowary
import Foundation
import Scenes
import Testing

/// A new required row expanded a level of definitions at a time carried shares of a coefficient
/// that cancel (+1e9 and -1e9) apart, and their rounding made a satisfiable constraint look false
/// on its own. The fixture is the soak's system cut down to where it still failed.
@Suite struct ExpansionCancellationTests {
  static func file() throws -> ConstraintFile {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/expansion-cancellation.constraints").path
    return try ConstraintFile(parsing: String(contentsOfFile: path, encoding: .utf8), file: path)
  }

  static func constraints() throws -> [Constraint] {
    try file().statements.compactMap {
      if case .constraint(let constraint, _) = $0 { constraint } else { nil }
    }
  }

  /// Every required constraint holds at `values`, relative to the magnitudes involved.
  static func requiredConstraintsHold(_ value: (Variable) -> Double) throws -> Bool {
    try constraints().allSatisfy { constraint in
      guard constraint.priority.isRequired else { return true }
      var residual = constraint.expression.constant
      var scale = 1 + abs(residual)
      for term in constraint.expression.terms {
        residual += term.coefficient * value(term.variable)
        scale += abs(term.coefficient * value(term.variable))
      }
      switch constraint.relation {
      case .equal: return abs(residual) <= 1e-9 * scale
      case .lessThanOrEqual: return residual <= 1e-9 * scale
      case .greaterThanOrEqual: return residual >= -1e-9 * scale
      }
    }
  }

  @Test func theSystemSolvesInOneBatch() throws {
    var solver = SparseSolver()
    _ = try Self.file().solve(with: &solver, file: "expansion-cancellation.constraints")
    #expect(try Self.requiredConstraintsHold(solver.value(of:)))
  }

  @Test func theSystemSolvesOneConstraintAtATime() throws {
    var solver = SparseSolver()
    for (index, constraint) in try Self.constraints().enumerated() {
      try solver.add(ConstraintID(Int32(index)), constraint)
    }
    #expect(try Self.requiredConstraintsHold(solver.value(of:)))
  }
}
