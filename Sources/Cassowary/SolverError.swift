/// Why a solver refused an operation. The solver is left exactly as it was before the call.
public enum SolverError: Error, Equatable, Sendable {
  /// A required constraint cannot hold together with the required constraints in `conflicts`.
  case unsatisfiable(ConstraintID, Constraint, conflicts: [ConstraintID: Constraint])
  /// A constraint with this id is already in the solver.
  case duplicateConstraint(ConstraintID, Constraint)
  /// No constraint with this id is in the solver.
  case unknownConstraint(ConstraintID)
  /// The variable is already an edit variable.
  case duplicateEditVariable(Variable)
  /// The variable is not an edit variable.
  case unknownEditVariable(Variable)
  /// Edit variables must be optional: a required suggestion could not be broken.
  case requiredEditVariable(Variable)
  /// A priority outside (0, 1000].
  case invalidPriority(Priority)
  /// A coefficient, constant or suggested value that is infinite or NaN.
  case nonFinite(String)
  /// The dense baseline would need a tableau larger than its memory budget: `rows` × `columns`,
  /// `bytes` at once with the matrix it grows from (which is copied into the new one).
  case memoryBudgetExceeded(rows: Int, columns: Int, bytes: Int, budget: Int)
  /// A solver behind the protocol (kiwi) failed inside, for a reason of its own (`message`):
  /// unlike the other errors, its state is no longer known to be what it was.
  case failed(String)

  /// Whether the error says nothing about the constraints but that the solver cannot go on
  /// (its memory budget, an internal failure): the caller stops using it.
  public var isRefusal: Bool {
    switch self {
    case .memoryBudgetExceeded, .failed: true
    default: false
    }
  }
}

extension SolverError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .unsatisfiable(let id, let constraint, let conflicts):
      let others = conflicts.sorted { $0.key < $1.key }
        .map { "\n  \($0.key): \($0.value)" }.joined()
      return "unable to satisfy required constraint \(id): \(constraint); it conflicts with"
        + (others.isEmpty ? " the required constraints already added" : ":\(others)")
    case .duplicateConstraint(let id, let constraint):
      return "constraint \(id) is already in the solver: \(constraint)"
    case .unknownConstraint(let id):
      return "constraint \(id) is not in the solver"
    case .duplicateEditVariable(let variable):
      return "\(variable) is already an edit variable"
    case .unknownEditVariable(let variable):
      return "\(variable) is not an edit variable"
    case .requiredEditVariable(let variable):
      return "edit variable \(variable) cannot be required (priority 1000); use at most 999"
    case .invalidPriority(let priority):
      return "priority \(priority.rawValue) is illegal: priorities must be greater than 0 "
        + "and less than or equal to 1000"
    case .nonFinite(let what):
      return "\(what) is not finite"
    case .memoryBudgetExceeded(let rows, let columns, let bytes, let budget):
      return "the dense tableau would need \(rows) rows × \(columns) columns, \(bytes) bytes at "
        + "once with the matrix it grows from, over its memory budget of \(budget) bytes"
    case .failed(let message):
      return "the solver failed: \(message)"
    }
  }
}
