import Cassowary

/// What `bench solve` does with a file's text, as a function: the solution (or the error) and
/// the spec's exit status (0 solved, 1 unsatisfiable, 2 malformed).
public struct SolveResult: Sendable {
  /// The solution lines, for standard output.
  public var output: String
  /// The error line, for standard error.
  public var error: String
  /// The exit status.
  public var status: Int32
}

extension ConstraintFile {
  /// Parses and solves `text` (the contents of `file`) with the `sparse` or `dense` solver.
  public static func solve(text: String, file: String, dense: Bool) -> SolveResult {
    let system: ConstraintFile
    do throws(ConstraintFileError) {
      system = try ConstraintFile(parsing: text, file: file)
    } catch {
      return SolveResult(output: "", error: error.description, status: 2)
    }
    do {
      let values: [Double]
      if dense {
        var solver = DenseSolver()
        values = try system.solve(with: &solver, file: file)
      } else {
        var solver = SparseSolver()
        values = try system.solve(with: &solver, file: file)
      }
      return SolveResult(output: system.solutionText(values), error: "", status: 0)
    } catch let error as UnsatisfiableFileError {
      return SolveResult(output: "", error: error.description, status: 1)
    } catch {
      return SolveResult(output: "", error: "\(file): error: \(error)", status: 1)
    }
  }
}
