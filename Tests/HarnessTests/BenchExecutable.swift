import Foundation

/// The `bench` executable built with these tests (`swift build --build-tests` builds every
/// product, beside the test bundle), or `nil` when it is not there.
let benchExecutable: URL? = {
  guard let tests = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
  else { return nil }
  let bench = URL(fileURLWithPath: tests).deletingLastPathComponent().appending(path: "bench")
  return FileManager.default.isExecutableFile(atPath: bench.path) ? bench : nil
}()

/// Whether valgrind is on the PATH (for `bench run --callgrind` and `bench ab`'s instruction
/// counts).
let valgrindIsOnPath = (ProcessInfo.processInfo.environment["PATH"] ?? "")
  .split(separator: ":").contains {
    FileManager.default.isExecutableFile(atPath: "\($0)/valgrind")
  }

/// Runs `body` with a new directory `name-PID` in the temporary directory, removed afterwards.
func withScratchDirectory<Result>(
  _ name: String, _ body: (URL) throws -> Result
) throws -> Result {
  let directory = FileManager.default.temporaryDirectory.appending(path: "\(name)-\(getpid())")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  return try body(directory)
}
