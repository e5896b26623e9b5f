import Foundation

/// Why an output file cannot be written, in words: the path as given and the reason.
///
/// A ``Kind/usage`` error is the command line's (a path that names a folder or a device): the
/// tool exits 64. An ``Kind/io`` error is the machine's (a full file system, a read-only or
/// missing folder that cannot be made): the tool exits 74.
public struct OutputFileError: Error, CustomStringConvertible, Sendable {
  /// Whose fault the error is.
  public enum Kind: Sendable {
    /// The path cannot name an output file.
    case usage
    /// The file system refused a write.
    case io
  }

  /// The path as the command line gave it.
  public var path: String
  /// What went wrong, in words.
  public var reason: String
  /// Whose fault it is.
  public var kind: Kind

  /// - Complexity: O(1).
  public init(path: String, reason: String, kind: Kind) {
    self.path = path
    self.reason = reason
    self.kind = kind
  }

  /// `PATH: REASON`.
  public var description: String { "\(path): \(reason)" }

  /// The error for the failed system call whose `errno` is current: "cannot WHAT: REASON".
  static func system(_ path: String, _ what: String) -> OutputFileError {
    OutputFileError(
      path: path, reason: "cannot \(what): \(String(cString: strerror(errno)))", kind: .io)
  }
}

/// The one way LayoutBench writes a file.
///
/// Every command that writes a file checks its path with ``prepare(_:)`` before any work, so a
/// path that cannot take the file fails in a second, not after a run; then writes it with
/// ``write(_:to:)`` (whole files) or a ``PartialFile`` (rows as they are measured). A file is
/// written to a temporary file in its own folder, every write and the final `fsync` and `close`
/// are checked, and only a complete file is renamed over the final name: after any failure the
/// final name holds what it held before, and the temporary file is gone.
public enum OutputFile {
  /// Checks that `path` can name an output file, making its missing folders.
  ///
  /// Refused as usage errors: an empty path, a path ending in `/`, a folder, a symbolic link
  /// (the rename would replace the link, not its file), a device, pipe or socket (the rename
  /// would replace `/dev/full` by a regular file), and a path under a file. Refused as I/O
  /// errors: a folder that cannot be made or written in.
  ///
  /// - Complexity: a few system calls per missing folder.
  public static func prepare(_ path: String) throws(OutputFileError) {
    func usage(_ reason: String) -> OutputFileError {
      OutputFileError(path: path, reason: reason, kind: .usage)
    }
    guard !path.isEmpty else { throw usage("is empty; name a file") }
    guard !path.hasSuffix("/") else { throw usage("ends in '/'; name a file, not a folder") }
    var status = stat()
    if lstat(path, &status) == 0 {
      switch status.st_mode & S_IFMT {
      case S_IFREG: break
      case S_IFDIR: throw usage("is a directory; name a file")
      case S_IFLNK: throw usage("is a symbolic link; name the file itself")
      default: throw usage("is not a regular file (a device, pipe or socket); name a file")
      }
    }
    let folder = folder(of: path)
    try makeFolder(folder, for: path)
    guard access(folder, W_OK) == 0 else {
      throw OutputFileError(
        path: path,
        reason: "cannot write in the folder \(folder): \(String(cString: strerror(errno)))",
        kind: .io)
    }
  }

  /// Checks that `folder` is a folder or can become one (nothing else stands under its name),
  /// without making it: a command that will write files into it later checks it before work.
  ///
  /// - Complexity: one system call.
  public static func checkFolder(_ folder: String) throws(OutputFileError) {
    var status = stat()
    guard lstat(folder, &status) != 0 || status.st_mode & S_IFMT == S_IFDIR else {
      throw OutputFileError(path: folder, reason: "is not a folder", kind: .usage)
    }
  }

  /// Makes `folder` and any missing folder above it, as `mkdir -p` does.
  ///
  /// - Complexity: a few system calls per missing folder.
  public static func makeFolder(_ folder: String, for path: String) throws(OutputFileError) {
    var status = stat()
    if stat(folder, &status) == 0 {
      guard status.st_mode & S_IFMT == S_IFDIR else {
        throw OutputFileError(path: path, reason: "\(folder) is not a folder", kind: .usage)
      }
      return
    }
    let parent = Self.folder(of: folder)
    if parent != folder { try makeFolder(parent, for: path) }
    guard mkdir(folder, 0o755) == 0 || errno == EEXIST else {
      throw OutputFileError(
        path: path,
        reason: "cannot create the folder \(folder): \(String(cString: strerror(errno)))",
        kind: .io)
    }
  }

  /// The folder that holds `path`: `.` for a bare file name.
  ///
  /// - Complexity: O(path length).
  public static func folder(of path: String) -> String {
    // By hand: Foundation's deletingLastPathComponent traps on some one-character paths.
    var trimmed = Substring(path)
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return "." }
    if slash == trimmed.startIndex { return "/" }
    var folder = trimmed[..<slash]
    while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
    return String(folder)
  }

  /// Writes `text` to `path`: ``prepare(_:)``, then a temporary file in the same folder,
  /// written whole, flushed to disk and renamed into place. On any failure the temporary file
  /// is removed and `path` keeps what it held.
  ///
  /// - Complexity: O(text length).
  public static func write(_ text: String, to path: String) throws(OutputFileError) {
    try prepare(path)
    let name = path.split(separator: "/").last.map(String.init) ?? path
    var template = Array("\(folder(of: path))/.\(name).XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw .system(path, "write a temporary file beside it") }
    let temporary = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    PendingFiles.register(temporary)
    defer { PendingFiles.unregister() }
    do throws(OutputFileError) {
      try writeAll(Array(text.utf8), to: descriptor, path: path)
      // mkstemp makes the file private; a finished file gets the mode any new file would.
      guard fchmod(descriptor, 0o666 & ~creationMask) == 0, fsync(descriptor) == 0 else {
        throw .system(path, "write")
      }
    } catch {
      close(descriptor)
      unlink(temporary)
      throw error
    }
    guard close(descriptor) == 0 else {
      let failure = OutputFileError.system(path, "write")
      unlink(temporary)
      throw failure
    }
    guard rename(temporary, path) == 0 else {
      let failure = OutputFileError.system(path, "move the finished file into place")
      unlink(temporary)
      throw failure
    }
  }

  /// The process's file-creation mask, read once (reading it means setting it).
  private static let creationMask: mode_t = {
    let mask = umask(0o022)
    umask(mask)
    return mask
  }()

  /// Writes every byte of `bytes` to `descriptor`, retrying short writes and interruptions.
  ///
  /// - Complexity: O(bytes).
  static func writeAll(
    _ bytes: [UInt8], to descriptor: Int32, path: String
  ) throws(OutputFileError) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBufferPointer {
        Foundation.write(descriptor, $0.baseAddress! + offset, bytes.count - offset)
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else {
        if written == 0 { errno = EIO }
        throw .system(path, "write")
      }
      offset += written
    }
  }
}

/// A results file written row by row as a run measures: `PATH.partial` while the run goes on,
/// renamed to `PATH` by ``commit()``.
///
/// Each ``append(_:)`` writes whole lines or, when the file system refuses part of them, cuts
/// the file back to where they began: the `.partial` file always ends on a whole row, so an
/// interrupted or failed run leaves rows that `bench` can read (and a run can be resumed from).
public final class PartialFile: @unchecked Sendable {
  /// The final path.
  public let path: String
  /// `PATH.partial`, where rows go until ``commit()``.
  public let partialPath: String
  /// The open `.partial` file, or -1 once committed.
  public private(set) var descriptor: Int32
  /// Bytes of whole rows written so far.
  private var length: off_t = 0

  /// Creates (or empties) `PATH.partial` after ``OutputFile/prepare(_:)``.
  ///
  /// - Complexity: a few system calls.
  public init(path: String) throws(OutputFileError) {
    try OutputFile.prepare(path)
    self.path = path
    partialPath = path + ".partial"
    descriptor = open(partialPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw .system(partialPath, "write") }
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// Appends `text` (whole lines), or cuts the file back and throws when it cannot all be
  /// written.
  ///
  /// - Complexity: O(text length).
  public func append(_ text: String) throws(OutputFileError) {
    let bytes = Array(text.utf8)
    do throws(OutputFileError) {
      try OutputFile.writeAll(bytes, to: descriptor, path: partialPath)
    } catch {
      // Give back what part of the lines was written, so the file ends on a whole row.
      _ = ftruncate(descriptor, length)
      _ = lseek(descriptor, length, SEEK_SET)
      throw error
    }
    length += off_t(bytes.count)
  }

  /// Replaces what was written with `text` (a run of several rounds, pooled at the end).
  ///
  /// - Complexity: O(text length).
  public func replaceContents(with text: String) throws(OutputFileError) {
    guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
      throw .system(partialPath, "write")
    }
    length = 0
    try append(text)
  }

  /// Flushes the `.partial` file to disk and renames it to ``path``.
  ///
  /// - Complexity: a few system calls.
  public func commit() throws(OutputFileError) {
    guard fsync(descriptor) == 0 else { throw .system(partialPath, "write") }
    let closed = close(descriptor)
    descriptor = -1
    guard closed == 0 else { throw .system(partialPath, "write") }
    guard rename(partialPath, path) == 0 else {
      throw .system(path, "move \(partialPath) into place")
    }
  }
}

/// The temporary file an ``OutputFile/write(_:to:)`` has under way, so that an interrupt
/// handler can remove it (with `unlink`, which is safe in a signal handler) before the process
/// exits.
public enum PendingFiles {
  // Fixed storage allocated once, so that the handler touches no Swift global that needs
  // initialising; `isSet[0]` is cleared before the path is rewritten and set after.
  nonisolated(unsafe) private static let buffer = UnsafeMutablePointer<CChar>.allocate(
    capacity: Int(PATH_MAX) + 1)
  nonisolated(unsafe) private static let isSet: UnsafeMutablePointer<Int32> = {
    let flag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    flag.initialize(to: 0)
    return flag
  }()

  static func register(_ path: String) {
    let bytes = path.utf8CString
    guard bytes.count <= Int(PATH_MAX) else { return }
    isSet[0] = 0
    for (index, byte) in bytes.enumerated() { buffer[index] = byte }
    isSet[0] = 1
  }

  static func unregister() { isSet[0] = 0 }

  /// Makes the storage the handler reads ready, so that the handler itself initialises
  /// nothing: call before installing it.
  public static func prepareForSignalHandler() { unregister() }

  /// Removes the file under way, if any. Async-signal-safe once a file has been registered.
  ///
  /// - Complexity: one system call.
  public static func removeInSignalHandler() {
    if isSet[0] != 0 { unlink(buffer) }
  }
}
