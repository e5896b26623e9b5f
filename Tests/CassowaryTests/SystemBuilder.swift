import Cassowary

/// Builds a system by name, numbering variables and constraints as it goes.
struct SystemBuilder {
  var variables = VariableTable()
  var nextConstraint: Int32 = 0

  mutating func variable(_ name: String) -> Variable { variables.make(name) }

  mutating func nextID() -> ConstraintID {
    defer { nextConstraint += 1 }
    return ConstraintID(nextConstraint)
  }
}

extension LayoutSolver {
  /// Adds `constraints` under ids from `ids`.
  @discardableResult
  mutating func add(
    _ constraints: [Constraint], ids: inout SystemBuilder
  ) throws(SolverError) -> [ConstraintID] {
    var added: [ConstraintID] = []
    for constraint in constraints {
      let id = ids.nextID()
      try add(id, constraint)
      added.append(id)
    }
    return added
  }

  /// A snapshot of everything observable: values of the given variables and the tableau dump.
  func snapshot(_ variables: [Variable]) -> String {
    let values = variables.map { "\($0)=\(value(of: $0))" }.joined(separator: " ")
    let dump: String
    if let sparse = self as? SparseSolver {
      dump = sparse.tableauDescription
    } else if let plan = self as? PlanSolver {
      dump = plan.tableauDescription
    } else if let dense = self as? DenseSolver {
      dump = dense.tableauDescription
    } else {
      dump = ""
    }
    // Capacities are not state: scratch buffers may grow during a refused operation.
    var counts = statistics
    counts.tableauBytes = 0
    counts.bookkeepingBytes = 0
    return values + "\n" + dump + "\n\(counts)"
  }
}
