import GRDB

/// Why the history store cannot do what was asked. Every kind is bad input to `bench` (exit 2),
/// and none leaves the store changed.
public struct HistoryError: Error, CustomStringConvertible, Equatable {
  public enum Kind: String, Sendable {
    /// No store at the path, for a command that only reads one.
    case missing
    /// The file is not an SQLite database, or a damaged one.
    case notADatabase
    /// The store was written by a newer `bench`, with migrations this one does not know.
    case newerSchema
    /// Another process held the store longer than the wait allowed.
    case locked
    /// The store cannot be written: a read-only file or folder.
    case readOnly
    /// A results file or an option that cannot be recorded or answered.
    case badInput
    /// Another SQLite failure (a full disk, an I/O error).
    case database
  }

  public var kind: Kind
  public var description: String

  public init(_ kind: Kind, _ description: String) {
    self.kind = kind
    self.description = description
  }

  /// The error for SQLite's `error` on the store at `path`, said in words.
  static func database(_ error: DatabaseError, path: String) -> HistoryError {
    switch error.resultCode {
    case .SQLITE_NOTADB, .SQLITE_CORRUPT:
      HistoryError(
        .notADatabase, "\(path) is not a history store: not an SQLite database, or a damaged one")
    case .SQLITE_BUSY, .SQLITE_LOCKED:
      HistoryError(
        .locked,
        "\(path) is locked by another process; try again when it is done, or wait longer "
          + "(--wait)")
    case .SQLITE_CANTOPEN:
      HistoryError(
        .readOnly,
        "\(path) cannot be opened (a folder, a missing folder, or no permission): "
          + (error.message ?? "\(error.resultCode)"))
    case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
      HistoryError(
        .readOnly,
        "\(path) cannot be written (a read-only file or folder): "
          + (error.message ?? "\(error.resultCode)"))
    default:
      HistoryError(.database, "\(path): SQLite: \(error.message ?? "\(error.resultCode)")")
    }
  }
}
