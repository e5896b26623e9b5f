import Foundation
import Harness
import Testing

/// `bench run --output` is checked before anything is measured.
@Suite struct OutputPathTests {
  @Test func refusesDevicesAndDirectories() throws {
    #expect(outputPathProblem("/dev/full")?.contains("not a regular file") == true)
    #expect(outputPathProblem("/dev/null")?.contains("not a regular file") == true)
    let directory = FileManager.default.temporaryDirectory.path
    #expect(outputPathProblem(directory) == "is a directory; name a file")
  }

  @Test func acceptsFilesAndNewPaths() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("output-path-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("existing.csv")
    try Data("x\n".utf8).write(to: file)
    #expect(outputPathProblem(file.path) == nil)
    #expect(outputPathProblem(directory.appendingPathComponent("new.csv").path) == nil)
    #expect(outputPathProblem("results/not-yet/latest.csv") == nil)
    #expect(
      outputPathProblem(file.appendingPathComponent("under-a-file.csv").path)
        == "\(file.path) is not a directory")
  }
}
