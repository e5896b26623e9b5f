import Cassowary

/// A malformed `.constraints` line: where and what, in the spec's `FILE:LINE:COLUMN: error:` form.
public struct ConstraintFileError: Error, Equatable, CustomStringConvertible {
  /// The file as named on the command line.
  public var file: String
  /// 1-based line and column.
  public var line: Int
  public var column: Int
  /// What is wrong.
  public var message: String

  public var description: String { "\(file):\(line):\(column): error: \(message)" }
}

extension ConstraintFile {
  /// Parses `text`, the contents of `file`; throws the first malformed line.
  public init(parsing text: String, file: String) throws(ConstraintFileError) {
    self.init()
    var lineNumber = 0
    // Split on the byte: a Swift string treats "\r\n" as one character, which is not "\n", so a
    // file with Windows line ends would be one line (and, behind a leading comment, empty).
    var bytes = Substring(text).utf8[...]
    // A UTF-8 byte order mark, as some editors write, is not part of the first line.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      lineNumber += 1
      var scanner = LineScanner(Array(line), file: file, line: lineNumber)
      try scanner.statement(into: &self)
    }
  }
}

/// Reads one line of the format.
struct LineScanner {
  let bytes: [UInt8]
  let file: String
  let line: Int
  var position = 0

  init(_ bytes: [UInt8], file: String, line: Int) {
    // Drop a comment and a carriage return.
    var content = bytes
    if let hash = content.firstIndex(of: UInt8(ascii: "#")) { content.removeSubrange(hash...) }
    if content.last == UInt8(ascii: "\r") { content.removeLast() }
    self.bytes = content
    self.file = file
    self.line = line
  }

  func error(_ message: String, at column: Int? = nil) -> ConstraintFileError {
    ConstraintFileError(file: file, line: line, column: (column ?? position) + 1, message: message)
  }

  mutating func skipSpaces() {
    while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 {
      position += 1
    }
  }

  var atEnd: Bool {
    mutating get {
      skipSpaces()
      return position >= bytes.count
    }
  }

  func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

  static func isNameStart(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
  }

  static func isNameByte(_ byte: UInt8) -> Bool {
    isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2E
  }

  static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  mutating func name() -> String? {
    skipSpaces()
    guard let first = peek(), Self.isNameStart(first) else { return nil }
    let start = position
    while let byte = peek(), Self.isNameByte(byte) { position += 1 }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  /// A decimal number with optional sign and exponent.
  mutating func number() throws(ConstraintFileError) -> Double? {
    skipSpaces()
    let start = position
    if let sign = peek(), sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { position += 1 }
    var digits = 0
    while let byte = peek(), Self.isDigit(byte) {
      position += 1
      digits += 1
    }
    if peek() == UInt8(ascii: ".") {
      position += 1
      while let byte = peek(), Self.isDigit(byte) {
        position += 1
        digits += 1
      }
    }
    guard digits > 0 else {
      position = start
      return nil
    }
    if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
      let mark = position
      position += 1
      if let sign = peek(), sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { position += 1 }
      var exponentDigits = 0
      while let byte = peek(), Self.isDigit(byte) {
        position += 1
        exponentDigits += 1
      }
      if exponentDigits == 0 { throw error("malformed exponent", at: mark) }
    }
    if let byte = peek(), Self.isNameStart(byte) {
      throw error("malformed number '\(text(start, upTo: position + 1))'", at: start)
    }
    let literal = text(start, upTo: position)
    guard let value = Double(literal), value.isFinite else {
      throw error("number '\(literal)' is out of range", at: start)
    }
    return value
  }

  /// The text from `start` to `end`, for a message: at most 40 characters, then an ellipsis
  /// and how long the rest is, so that a runaway token is not echoed whole.
  func text(_ start: Int, upTo end: Int) -> String {
    let whole = String(decoding: bytes[start..<min(end, bytes.count)], as: UTF8.self)
    guard whole.count > 40 else { return whole }
    return "\(whole.prefix(40))… (\(whole.utf8.count) bytes in all)"
  }

  /// The character at `index`, for a message: quoted, and with its code point when it is not
  /// printable ASCII (a byte that starts no valid UTF-8 character is given as a byte).
  func character(at index: Int) -> String {
    let first = bytes[index]
    if first >= 0x20 && first < 0x7F { return "'\(Character(Unicode.Scalar(first)))'" }
    var iterator = bytes[index..<min(index + 4, bytes.count)].makeIterator()
    var decoder = UTF8()
    if case .scalarValue(let scalar) = decoder.decode(&iterator) {
      let hex = String(scalar.value, radix: 16, uppercase: true)
      let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      let shown = scalar.properties.isWhitespace || scalar.value < 0x20 ? "" : "'\(scalar)' "
      // The file is read as UTF-8, with each invalid sequence replaced by U+FFFD.
      let note = scalar.value == 0xFFFD ? ": the file is not valid UTF-8 here" : ""
      return "\(shown)(\(code)\(note))"
    }
    return "byte 0x" + String(first, radix: 16, uppercase: true)
  }

  /// One statement (or nothing, for a blank or comment line) into `file`.
  mutating func statement(into file: inout ConstraintFile) throws(ConstraintFileError) {
    if atEnd { return }
    let start = position
    if let keyword = name(), keyword == "edit" {
      try edit(into: &file)
      return
    }
    position = start
    let lhs = try expression(in: &file)
    skipSpaces()
    let relationColumn = position
    let relation = try self.relation()
    let rhs = try expression(in: &file)
    let priority = try optionalPriority(default: .required)
    try expectEnd()
    // Each side was checked as it was read; the two together can still pass double precision.
    let expression = lhs - rhs
    try checkFinite(expression, at: relationColumn, sides: true)
    file.statements.append(
      .constraint(Constraint(expression, relation, priority: priority), line: line))
  }

  mutating func edit(into file: inout ConstraintFile) throws(ConstraintFileError) {
    skipSpaces()
    let nameColumn = position
    guard let name = name() else { throw error("expected a variable name after 'edit'") }
    try checkNotReserved(name, at: nameColumn)
    skipSpaces()
    guard peek() == UInt8(ascii: "="),
      position + 1 >= bytes.count || bytes[position + 1] != UInt8(ascii: "=")
    else { throw error("expected '=' after the edit variable's name") }
    position += 1
    skipSpaces()
    let valueColumn = position
    guard let value = try number() else {
      throw error("expected a number for the edit variable's value", at: valueColumn)
    }
    skipSpaces()
    let priorityColumn = position
    let priority = try optionalPriority(default: 999)
    if priority.isRequired {
      throw error(
        "an edit variable cannot be required (priority 1000); use at most 999", at: priorityColumn)
    }
    try expectEnd()
    for statement in file.statements {
      if case .edit(let other, _, _, let otherLine) = statement, other == name {
        throw error("'\(name)' is already an edit variable (line \(otherLine))", at: nameColumn)
      }
    }
    _ = file.variable(name)
    file.statements.append(.edit(name: name, value: value, priority: priority, line: line))
  }

  mutating func checkNotReserved(_ name: String, at column: Int) throws(ConstraintFileError) {
    // Only names of 3 or 8 bytes can be reserved; lowering every name cost a fifth of a parse.
    guard name.utf8.count == 3 || name.utf8.count == 8 else { return }
    let lowered = name.lowercased()
    if lowered == "nan" || lowered == "inf" || lowered == "infinity" {
      throw error("'\(name)' is not a number this format accepts (no nan or inf)", at: column)
    }
  }

  /// Refuses an expression whose constant, or a variable's summed coefficient, is no longer
  /// finite: each number was within range, but adding them up passed double precision
  /// (`-1e308 - 1e308`). Without this, the solver would reject the constraint with no line and
  /// under an internal variable name.
  func checkFinite(
    _ expression: LinearExpression, at column: Int, sides: Bool = false
  ) throws(ConstraintFileError) {
    let what = sides ? "the two sides together" : "this side"
    // Sums of fewer than a million numbers of at most 1e300 cannot overflow: the common case
    // needs no table of sums.
    let bounded =
      expression.terms.count < 1_000_000
      && expression.terms.allSatisfy { abs($0.coefficient) <= 1e300 }
    if expression.constant.isFinite && bounded { return }
    guard expression.constant.isFinite else {
      throw error(
        "the constants of \(what) add up to \(expression.constant), past double precision",
        at: column)
    }
    var sums: [Int32: Double] = [:]
    for term in expression.terms {
      let sum = sums[term.variable.id, default: 0] + term.coefficient
      guard sum.isFinite else {
        throw error(
          "the coefficients of a variable in \(what) add up to \(sum), past double precision",
          at: column)
      }
      sums[term.variable.id] = sum
    }
  }

  /// `TERM (('+' | '-') TERM)*`, a leading '-' negating the first term.
  mutating func expression(in file: inout ConstraintFile) throws(ConstraintFileError)
    -> LinearExpression
  {
    var result = LinearExpression()
    var sign = 1.0
    skipSpaces()
    if peek() == UInt8(ascii: "-"), position + 1 < bytes.count, !Self.isDigit(bytes[position + 1]) {
      sign = -1
      position += 1
    }
    while true {
      try term(sign, into: &result, file: &file)
      skipSpaces()
      guard let byte = peek(), byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else {
        return result
      }
      sign = byte == UInt8(ascii: "+") ? 1 : -1
      position += 1
    }
  }

  mutating func term(
    _ sign: Double, into result: inout LinearExpression, file: inout ConstraintFile
  )
    throws(ConstraintFileError)
  {
    skipSpaces()
    let column = position
    if let value = try number() {
      skipSpaces()
      if peek() == UInt8(ascii: "*") {
        position += 1
        skipSpaces()
        let nameColumn = position
        guard let name = name() else {
          throw error("expected a variable name after '*'", at: nameColumn)
        }
        try checkNotReserved(name, at: nameColumn)
        result.terms.append(Term(file.variable(name), sign * value))
      } else {
        result.constant += sign * value
        try checkFinite(result, at: column)
      }
      return
    }
    if let variableName = name() {
      try checkNotReserved(variableName, at: column)
      skipSpaces()
      if peek() == UInt8(ascii: "*") {
        position += 1
        skipSpaces()
        let numberColumn = position
        guard let value = try number() else {
          if name() != nil {
            throw error(
              "a term multiplies a variable by a number, not by another variable", at: numberColumn)
          }
          throw error("expected a number after '*'", at: numberColumn)
        }
        result.terms.append(Term(file.variable(variableName), sign * value))
      } else {
        result.terms.append(Term(file.variable(variableName), sign))
      }
      return
    }
    guard peek() != nil else { throw error("expected a term (a number or a variable name)") }
    throw error("unexpected character \(character(at: position))", at: column)
  }

  mutating func relation() throws(ConstraintFileError) -> Relation {
    skipSpaces()
    let column = position
    var symbol = ""
    while let byte = peek(),
      byte == UInt8(ascii: "=") || byte == UInt8(ascii: "<")
        || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "!")
    {
      symbol.append(Character(Unicode.Scalar(byte)))
      position += 1
    }
    switch symbol {
    case "==": return .equal
    case "<=": return .lessThanOrEqual
    case ">=": return .greaterThanOrEqual
    case "":
      if peek() != nil {
        throw error(
          "expected a relation (==, <=, >=), found \(character(at: position))", at: column)
      }
      throw error("expected a relation (==, <=, >=) before the end of the line", at: column)
    default: throw error("unknown relation '\(symbol)'; use ==, <= or >=", at: column)
    }
  }

  mutating func optionalPriority(default standard: Priority) throws(ConstraintFileError) -> Priority
  {
    skipSpaces()
    guard peek() == UInt8(ascii: "@") else { return standard }
    position += 1
    skipSpaces()
    let column = position
    if let word = name() {
      try checkNotReserved(word, at: column)
      throw error("expected a number after '@'", at: column)
    }
    guard let value = try number() else { throw error("expected a number after '@'", at: column) }
    guard value > 0, value <= 1000 else {
      throw error(
        "priority \(formatNumber(value)) is out of range: it must be in (0, 1000]",
        at: column)
    }
    // Priorities are single precision, as UIKit's. A number is taken when it names a Float:
    // exactly its value, or its shortest spelling (0.1 and 0.10000000149011612 are the same
    // priority). Any other number is refused rather than given another meaning (a priority that
    // would become required, or equal to a nearby one), and so is a Float below the normal
    // range, where a literal and its neighbours collapse onto a few values (1e-45 and 1.4e-45
    // are one Float, but only one of them is its shortest spelling).
    let single = Float(value)
    guard single.isNormal else {
      throw error(
        "priority \(formatNumber(value)) is below single precision's normal range "
          + "(\(Float.leastNormalMagnitude)); priorities are Float, as UILayoutPriority",
        at: column)
    }
    guard Double(single) == value || Double("\(single)") == value else {
      throw error(
        "priority \(formatNumber(value)) is not a single-precision number (priorities are "
          + "Float, as UILayoutPriority): it would become \(single)",
        at: column)
    }
    return Priority(single)
  }

  mutating func expectEnd() throws(ConstraintFileError) {
    guard atEnd else {
      throw error("unexpected '\(text(position, upTo: bytes.count))' at the end of the statement")
    }
  }
}
