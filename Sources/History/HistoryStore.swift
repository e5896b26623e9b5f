import Foundation
import GRDB
import Harness

/// The history of benchmark runs: an SQLite database of every run recorded (its commit, time,
/// machine, toolchain and allocator) and every cell it measured, queried for the trend of a
/// figure over commits and for the commits where a deterministic figure regressed.
///
/// A store opened for writing creates the file and brings its schema up to date
/// (``HistoryStore/schemaVersion``); one opened for reading never changes it. Every write is one
/// transaction, taken at once (`BEGIN IMMEDIATE`), so that two processes recording at the same
/// time both land, one after the other.
public final class HistoryStore {
  /// Where `bench history` keeps the store unless told otherwise.
  public static let defaultPath = "results/history.sqlite"

  /// The path the store was opened at.
  public let path: String
  let database: DatabaseQueue

  /// How a store is opened.
  public enum Access: Sendable {
    /// Read only: the store must exist and be of a schema this build knows in full.
    case read
    /// Read and write: the store is created if missing and migrated to this build's schema.
    case write
  }

  /// Opens the store at `path`, waiting up to `wait` seconds for another process that holds it.
  ///
  /// - Throws: ``HistoryError`` when the file is missing (for reading), not a database, of a
  ///   newer schema, locked past the wait, or cannot be written; the file is left as it was.
  /// - Complexity: O(1), plus the migrations a store of an older schema needs.
  public init(path: String, access: Access, wait: Double = 10) throws(HistoryError) {
    self.path = path
    var configuration = Configuration()
    configuration.readonly = access == .read
    configuration.busyMode = .timeout(wait)
    configuration.label = "history"
    var isFolder: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
    if exists, isFolder.boolValue {
      throw HistoryError(.badInput, "\(path) is a folder, not a history store")
    }
    if access == .read, !exists {
      throw HistoryError(
        .missing, "\(path): no history store here; record a run first (bench history add)")
    }
    if access == .write, !exists {
      let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder),
        isFolder.boolValue
      else {
        throw HistoryError(.badInput, "\(path): the folder \(folder) does not exist")
      }
    }
    do {
      database = try DatabaseQueue(path: path, configuration: configuration)
    } catch let error as DatabaseError {
      throw HistoryError.database(error, path: path)
    } catch {
      throw HistoryError(.database, "\(path): \(error)")
    }
    try prepareSchema(writing: access == .write)
  }

  /// Runs `body` in one transaction taken at once, mapping SQLite's errors to
  /// ``HistoryError``: either all of it lands or none of it.
  func write<T>(_ body: (Database) throws -> T) throws(HistoryError) -> T {
    try mappingErrors {
      try database.writeWithoutTransaction { db in
        var result: T?
        try db.inTransaction(.immediate) {
          result = try body(db)
          return .commit
        }
        return result!
      }
    }
  }

  /// Runs `body` on a consistent view of the store.
  func read<T>(_ body: (Database) throws -> T) throws(HistoryError) -> T {
    try mappingErrors { try database.read(body) }
  }

  /// Runs `body`, saying SQLite's errors as ``HistoryError``s of this store.
  private func mappingErrors<T>(_ body: () throws -> T) throws(HistoryError) -> T {
    do {
      return try body()
    } catch let error as HistoryError {
      throw error
    } catch let error as DatabaseError {
      throw HistoryError.database(error, path: path)
    } catch {
      throw HistoryError(.database, "\(path): \(error)")
    }
  }
}
