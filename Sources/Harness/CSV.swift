/// RFC 4180 CSV: fields quoted when they hold a comma, a quote or a line break; lines end in
/// CRLF.
public enum CSV {
  /// One record as a line (with its CRLF).
  public static func line(_ fields: [String]) -> String {
    fields.map(quoted).joined(separator: ",") + "\r\n"
  }

  static func quoted(_ field: String) -> String {
    guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else {
      return field
    }
    var result = "\""
    for character in field {
      if character == "\"" { result += "\"\"" } else { result.append(character) }
    }
    return result + "\""
  }

  /// The records of `text` (CRLF or LF line ends; quoted fields may hold line breaks).
  public static func records(_ text: String) throws(CSVError) -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var field = ""
    var inQuotes = false
    var afterQuote = false
    var line = 1
    var iterator = text.makeIterator()
    var pending: Character? = nil
    func next() -> Character? {
      if let character = pending {
        pending = nil
        return character
      }
      return iterator.next()
    }
    while let character = next() {
      if inQuotes {
        if character == "\"" {
          if let following = next() {
            if following == "\"" {
              field.append("\"")
            } else {
              inQuotes = false
              afterQuote = true
              pending = following
            }
          } else {
            inQuotes = false
            afterQuote = true
          }
        } else {
          if character == "\n" || character == "\r\n" { line += 1 }
          field.append(character)
        }
        continue
      }
      switch character {
      case ",":
        record.append(field)
        field = ""
        afterQuote = false
      case "\n", "\r\n", "\r":
        record.append(field)
        records.append(record)
        record = []
        field = ""
        afterQuote = false
        line += 1
      case "\"":
        guard field.isEmpty, !afterQuote else {
          throw CSVError(line: line, message: "a quote inside an unquoted field")
        }
        inQuotes = true
      default:
        if afterQuote { throw CSVError(line: line, message: "text after a closing quote") }
        field.append(character)
      }
    }
    if inQuotes { throw CSVError(line: line, message: "a quoted field is not closed") }
    if !field.isEmpty || !record.isEmpty {
      record.append(field)
      records.append(record)
    }
    return records
  }
}

/// Malformed CSV text.
public struct CSVError: Error, Equatable, CustomStringConvertible {
  public var line: Int
  public var message: String
  public var description: String { "line \(line): \(message)" }
}
