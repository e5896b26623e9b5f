import Cassowary
import Scenes
import Testing

/// Input that other tools and editors produce, and numbers at the edges of what the format can
/// mean: each is solved as written or refused with a line, a column and status 2.
@Suite("The .constraints format at its edges")
struct ConstraintFileEdgeTests {
  @Test(
    "Windows line ends and a byte order mark read as Unix ones",
    arguments: ["\r\n", "\n"], [false, true])
  func lineEnds(newline: String, byteOrderMark: Bool) {
    let text =
      (byteOrderMark ? "\u{FEFF}" : "")
      + ["# a comment first", "x == 1", "y == x + 2"].joined(separator: newline) + newline
    let result = ConstraintFile.solve(text: text, file: "f")
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "x = 1.0\ny = 3.0\n")
  }

  @Test("An unsatisfiable file with Windows line ends is not answered as empty")
  func unsatisfiableWithCRLF() {
    let result = ConstraintFile.solve(text: "# c\r\nx == 1\r\nx == 2\r\n", file: "f")
    #expect(result.status == 1)
    #expect(
      result.error == "f:3:1: error: unsatisfiable required constraint; it conflicts with line 2")
  }

  @Test(
    "A priority that single precision would change is refused",
    arguments: [
      ("x == 1 @999.99999", "999.99999", "1000.0"),
      ("x == 1 @500.00001", "500.00001", "500.0"),
    ])
  func priorityChangedByFloat(text: String, written: String, becomes: String) {
    let result = ConstraintFile.solve(text: text, file: "f")
    #expect(result.status == 2)
    #expect(result.error.hasPrefix("f:1:9: error: priority \(written) is not a single-precision"))
    #expect(result.error.hasSuffix("it would become \(becomes)"))
  }

  @Test(
    "Priorities below Float's normal range are refused, however they are spelled",
    arguments: ["1e-300", "1e-45", "1.4e-45", "1e-39"])
  func priorityBelowNormalRange(written: String) {
    let result = ConstraintFile.solve(text: "x == 1 @\(written)", file: "f")
    #expect(result.status == 2)
    #expect(result.error.hasPrefix("f:1:9: error: priority \(written) is below single precision"))
  }

  @Test(
    "Priorities that single precision keeps are accepted, as its value or its shortest spelling",
    arguments: ["999.99", "0.1", "0.10000000149011612", "250", "1.1754944e-38"])
  func priorityKept(written: String) {
    let result = ConstraintFile.solve(text: "x == 1 @\(written)", file: "f")
    #expect(result.status == 0, "\(result.error)")
  }

  @Test(
    "Numbers that add up past double precision are refused at their line and column",
    arguments: [
      ("x == -1e308 - 1e308", "f:1:15: error: the constants of this side add up to -inf"),
      ("x + 1e308 * y + 1e308 * y == 0", "f:1:27: error: the coefficients of a variable"),
      ("1e308 + x == -1e308", "f:1:11: error: the constants of the two sides together"),
    ])
  func overflowingSums(text: String, message: String) {
    let result = ConstraintFile.solve(text: text, file: "f")
    #expect(result.status == 2)
    #expect(result.error.hasPrefix(message), "\(result.error)")
    #expect(!result.error.contains("v0"))
  }

  @Test("A constraint false on its own says so")
  func falseOnItsOwn() {
    let result = ConstraintFile.solve(text: "1 == 2\n", file: "f")
    #expect(result.status == 1)
    #expect(
      result.error == "f:1:1: error: unsatisfiable required constraint; it is false on its own")
  }

  @Test(
    "A solution that overflows names its variable and constraint",
    arguments: SolverStrategy.exact)
  func overflow(solver: SolverStrategy) {
    let result = ConstraintFile.solve(
      text: "x == 1e308\ny == x + 1e308\n", file: "f", solver: solver)
    #expect(result.status == 2)
    #expect(result.output.isEmpty)
    #expect(result.error.hasPrefix("f:2:1: error: the solution overflows: y = inf"))
  }

  @Test(
    "A character outside ASCII is named with its code point",
    arguments: [
      ("x == 1\ny é= 2\n", "f:2:3: error: expected a relation (==, <=, >=), found 'é' (U+00E9)"),
      ("x == 1\nyé == 2\n", "f:2:2: error: expected a relation (==, <=, >=), found 'é' (U+00E9)"),
      ("x == \u{2003}1\n", "f:1:6: error: unexpected character (U+2003)"),
      (
        "x == \u{FFFD}\n",
        "f:1:6: error: unexpected character '\u{FFFD}' (U+FFFD: the file is not valid UTF-8 here)"
      ),
    ])
  func nonASCII(text: String, message: String) {
    let result = ConstraintFile.solve(text: text, file: "f")
    #expect(result.status == 2)
    #expect(result.error == message)
  }

  @Test("A runaway token is quoted in part")
  func longToken() {
    let token = String(repeating: "b", count: 1_000_000)
    let result = ConstraintFile.solve(text: "x == 1 \(token)\n", file: "f")
    #expect(result.status == 2)
    #expect(
      result.error == "f:1:8: error: unexpected '\(String(repeating: "b", count: 40))… "
        + "(1000000 bytes in all)' at the end of the statement")
  }
}
