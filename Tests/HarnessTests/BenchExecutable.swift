import Foundation

/// The `bench` executable built with these tests (`swift build --build-tests` builds every
/// product, beside the test bundle), or `nil` when it is not there.
let benchExecutable: URL? = {
  guard let tests = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
  else { return nil }
  let bench = URL(fileURLWithPath: tests).deletingLastPathComponent().appending(path: "bench")
  return FileManager.default.isExecutableFile(atPath: bench.path) ? bench : nil
}()
