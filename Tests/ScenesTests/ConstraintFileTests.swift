import Cassowary
import Scenes
import Testing

@Suite("The .constraints format")
struct ConstraintFileTests {
  @Test("The spec's example solves to its documented solution")
  func specExample() {
    let text = """
      # Simple Label and Text Field, root 375 wide, margins 16
      edit root.width = 375 @999
      label.left == 16                              # Name Label.Leading = Superview.LeadingMargin
      field.left + field.width == root.width - 16   # Name Text Field.Trailing = Superview.TrailingMargin
      field.left == label.left + label.width + 8    # Name Text Field.Leading = Name Label.Trailing + Standard
      label.width >= 80 @750                        # label compression resistance
      label.width <= 80 @251                        # label content hugging
      field.width >= 97 @750                        # field compression resistance
      field.width <= 97 @250                        # field content hugging
      """
    // Every strategy this build can run: the weighted priorities of kiwi pick the same answer.
    for solver in SolverStrategy.all where solver.isAvailable {
      let result = ConstraintFile.solve(text: text, file: "example", solver: solver)
      #expect(result.status == 0)
      #expect(
        result.output
          == "root.width = 375.0\nlabel.left = 16.0\nfield.left = 104.0\nfield.width = 255.0\n"
          + "label.width = 80.0\n")
    }
  }

  @Test(
    "Malformed input: message, line, column, status 2",
    arguments: [
      ("x == 1\ny == $", "f:2:6: error: unexpected character '$'"),
      ("x = 1", "f:1:3: error: unknown relation '='; use ==, <= or >="),
      ("x =< 1", "f:1:3: error: unknown relation '=<'; use ==, <= or >="),
      ("x 1", "f:1:3: error: expected a relation (==, <=, >=), found '1'"),
      ("x == 1 @1001", "f:1:9: error: priority 1001 is out of range: it must be in (0, 1000]"),
      ("x == 1 @0", "f:1:9: error: priority 0 is out of range: it must be in (0, 1000]"),
      ("x == nan", "f:1:6: error: 'nan' is not a number this format accepts (no nan or inf)"),
      ("x == inf * y", "f:1:6: error: 'inf' is not a number this format accepts (no nan or inf)"),
      (
        "x == y + Infinity",
        "f:1:10: error: 'Infinity' is not a number this format accepts (no nan or inf)"
      ),
      ("x == 0x10", "f:1:6: error: malformed number '0x'"),
      (
        "edit w = 375 @1000",
        "f:1:14: error: an edit variable cannot be required (priority 1000); use at most 999"
      ),
      ("x == 1 y", "f:1:8: error: unexpected 'y' at the end of the statement"),
      ("x == 1 @750 z", "f:1:13: error: unexpected 'z' at the end of the statement"),
      (
        "x * y == 1",
        "f:1:5: error: a term multiplies a variable by a number, not by another variable"
      ),
      ("x == 1e", "f:1:7: error: malformed exponent"),
      ("edit 3 = 4", "f:1:6: error: expected a variable name after 'edit'"),
      ("edit w = 1\nedit w = 2", "f:2:6: error: 'w' is already an edit variable (line 1)"),
      ("x ==", "f:1:5: error: expected a term (a number or a variable name)"),
    ])
  func malformed(text: String, message: String) {
    let result = ConstraintFile.solve(text: text, file: "f")
    #expect(result.error == message)
    #expect(result.status == 2)
    #expect(result.output.isEmpty)
  }

  @Test("An unsatisfiable file names the conflicting lines, status 1")
  func unsatisfiable() {
    let text = "a == 10\nb == a + 5\n\nb <= 12 # too small\n"
    let result = ConstraintFile.solve(text: text, file: "u")
    #expect(result.status == 1)
    #expect(result.error.hasPrefix("u:4:1: error: unsatisfiable required constraint"))
    #expect(result.error.contains("lines 1, 2") || result.error.contains("line 2"))
  }

  @Test("A file the dense tableau's memory budget refuses has status 3, not 1")
  func refusedForMemory() {
    let text = "edit w = 375 @999\na + b == w\na >= 10\nb >= 10\n"
    let refused = ConstraintFile.solve(text: text, file: "m", solver: .dense, denseMemoryBudget: 64)
    #expect(refused.status == 3)
    #expect(refused.error.hasPrefix("m: error: "))
    #expect(refused.error.contains("memory budget"))
    #expect(refused.output.isEmpty)
    let solved = ConstraintFile.solve(text: text, file: "m", solver: .dense)
    #expect(solved.status == 0)
  }

  @Test("Writing then parsing gives the same system")
  func writeAndRead() throws {
    var file = ConstraintFile()
    let x = file.variable("x"), y = file.variable("row1.y")
    file.statements = [
      .constraint(
        Constraint(
          LinearExpression([Term(x, 2), Term(y, -0.5)], constant: -3), .lessThanOrEqual,
          priority: 999.5), line: 0),
      .edit(name: "x", value: 1.25, priority: 250, line: 0),
    ]
    let text = file.text()
    #expect(text == "2 * x <= 0.5 * row1.y + 3 @999.5\nedit x = 1.25 @250\n")
    let parsed = try ConstraintFile(parsing: text, file: "w")
    #expect(parsed.text() == text)
  }
}
