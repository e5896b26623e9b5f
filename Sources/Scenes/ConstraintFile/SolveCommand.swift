import Cassowary

/// What `bench solve` does with a file's text, as a function: the solution (or the error) and
/// the exit status: the spec's 0 solved, 1 unsatisfiable, 2 malformed, and 3 when the solver
/// refuses the file for a resource limit (the dense tableau's memory budget), which says
/// nothing about the file.
public struct SolveResult: Sendable {
  /// The solution lines, for standard output.
  public var output: String
  /// The error line, for standard error.
  public var error: String
  /// The exit status.
  public var status: Int32
}

extension ConstraintFile {
  /// Parses and solves `text` (the contents of `file`) with a solver of `strategy` (the dense
  /// one within `denseMemoryBudget` bytes).
  ///
  /// - Precondition: `strategy.isAvailable`.
  public static func solve(
    text: String, file: String, solver strategy: SolverStrategy = .default,
    denseMemoryBudget: Int = DenseTableau.defaultMemoryBudget
  ) -> SolveResult {
    solving(text: text, file: file) { system in
      // Our own solvers concrete (specialized), any other behind the protocol.
      if strategy == .plan {
        var solver = PlanSolver()
        return try system.solve(with: &solver, file: file)
      } else if strategy == .sparse {
        var solver = SparseSolver()
        return try system.solve(with: &solver, file: file)
      } else if strategy == .dense {
        try system.checkDenseBudget(denseMemoryBudget, file: file)
        var solver = DenseSolver(memoryBudget: denseMemoryBudget)
        return try system.solve(with: &solver, file: file)
      } else {
        var solver = strategy.makeSolver()
        return try system.solve(with: &solver, file: file)
      }
    }
  }

  /// What `bench solve` reports for `text` (the contents of `file`) solved by `solve`: the
  /// solution, or the error and its status (2 malformed or overflowing, 1 unsatisfiable or a
  /// solver's failure, 3 a refusal that says nothing about the file).
  static func solving(
    text: String, file: String, _ solve: (ConstraintFile) throws -> [Double]
  ) -> SolveResult {
    let system: ConstraintFile
    do throws(ConstraintFileError) {
      system = try ConstraintFile(parsing: text, file: file)
    } catch {
      return SolveResult(output: "", error: error.description, status: 2)
    }
    do {
      let values = try solve(system)
      if let index = values.firstIndex(where: { !$0.isFinite }) {
        return SolveResult(
          output: "",
          error: system.overflowMessage(variable: index, value: values[index], file: file),
          status: 2)
      }
      return SolveResult(output: system.solutionText(values), error: "", status: 0)
    } catch let error as UnsatisfiableFileError {
      return SolveResult(output: "", error: error.description, status: 1)
    } catch let error as FileRefusal {
      return SolveResult(output: "", error: error.description, status: 3)
    } catch let error as SolverError {
      return SolveResult(
        output: "", error: "\(file): error: \(error)", status: error.isRefusal ? 3 : 1)
    } catch {
      return SolveResult(output: "", error: "\(file): error: \(error)", status: 1)
    }
  }
}

/// A file a way of solving cannot take, for a reason that says nothing about whether it is
/// satisfiable (`bench solve` status 3); `description` is the whole error line.
struct FileRefusal: Error, CustomStringConvertible {
  var description: String
}

extension ConstraintFile {
  /// The least a tableau of this system holds: a row for every constraint with a variable and
  /// for every edit, a column for every variable (slack, error and marker columns come on top).
  ///
  /// - Complexity: O(statements).
  public var minimumTableauShape: (rows: Int, columns: Int) {
    var rows = 0
    for statement in statements {
      switch statement {
      case .edit: rows += 1
      case .constraint(let constraint, _): if !constraint.expression.terms.isEmpty { rows += 1 }
      }
    }
    return (rows, variables.count)
  }

  /// Refuses the system before any work when even its ``minimumTableauShape`` passes a dense
  /// tableau's `budget` (the estimate the harness skips a dense group by): otherwise the
  /// solver would add rows for minutes before finding out.
  func checkDenseBudget(_ budget: Int, file: String) throws(FileRefusal) {
    let shape = minimumTableauShape
    let bytes = DenseTableau.bytesNeeded(rows: shape.rows, columns: shape.columns)
    guard bytes > budget else { return }
    throw FileRefusal(
      description: "\(file): error: the dense tableau would need at least \(shape.rows) rows × "
        + "\(shape.columns) columns (\(bytes >> 20) MiB), over its memory budget of "
        + "\(budget >> 20) MiB; refused before solving")
  }

  /// The error for a solution that overflows: the variable, its value, and the first constraint
  /// that mentions it (its line), whose magnitudes the file must bring within range.
  func overflowMessage(variable index: Int, value: Double, file: String) -> String {
    let name = variables.names[index]
    var line = 1
    for statement in statements {
      guard case .constraint(let constraint, let at) = statement,
        constraint.expression.terms.contains(where: { Int($0.variable.id) == index })
      else { continue }
      line = at
      break
    }
    return "\(file):\(line):1: error: the solution overflows: \(name) = \(value) (the "
      + "constraints' constants and coefficients are too large for double precision)"
  }
}
