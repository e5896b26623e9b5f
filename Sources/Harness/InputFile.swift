import Foundation

/// Why an input file cannot be read, in words (`cannot read the file: No such file or
/// directory`); the caller names the file.
public struct InputFileError: Error, CustomStringConvertible, Sendable {
  /// What went wrong.
  public var description: String
}

/// The one way LayoutBench reads a file it is given.
public enum InputFile {
  /// The text of the file at `path`: a regular file, a pipe or a device (`/dev/stdin`,
  /// `/dev/null`) alike, so the same bytes give the same answer whichever way they come.
  /// Invalid UTF-8 is replaced, as the parsers expect.
  ///
  /// - Complexity: O(file size).
  public static func read(_ path: String) throws(InputFileError) -> String {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw failure() }
    defer { close(descriptor) }
    var status = stat()
    if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
      throw InputFileError(description: "cannot read the file: it is a directory")
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes {
        Foundation.read(descriptor, $0.baseAddress, $0.count)
      }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { throw failure() }
      if count == 0 { break }
      bytes.append(contentsOf: chunk[..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func failure() -> InputFileError {
    InputFileError(description: "cannot read the file: \(String(cString: strerror(errno)))")
  }
}
