import Foundation
import Harness
import Testing

/// Every output is checked before any work, and written whole or not at all.
@Suite struct OutputFileTests {
  @Test func refusesWhatCannotNameAFile() throws {
    for device in ["/dev/full", "/dev/null"] {
      #expect(throws: OutputFileError.self) { try OutputFile.prepare(device) }
    }
    try withScratchDirectory("output-refusals") { directory in
      let file = directory.appending(path: "existing.csv")
      try Data("x\n".utf8).write(to: file)
      let refusals: [(String, String)] = [
        ("", "is empty"), (directory.path, "is a directory"), (directory.path + "/", "ends in '/'"),
        (file.path + "/under-a-file.csv", "is not a folder"),
      ]
      for (path, reason) in refusals {
        do {
          try OutputFile.prepare(path)
          Issue.record("\(path) was accepted")
        } catch let error as OutputFileError {
          #expect(error.kind == .usage)
          #expect(error.description.contains(reason), "\(error)")
        } catch {
          Issue.record("\(path): \(error)")
        }
      }
    }
  }

  @Test(
    "The folder of a path",
    arguments: [
      ("a", "."), ("a/b", "a"), ("/a", "/"), ("a//b/", "a"), ("/x/y/z.csv", "/x/y"), ("./f", "."),
    ])
  func folder(path: String, folder: String) {
    #expect(OutputFile.folder(of: path) == folder)
  }

  @Test func makesMissingFoldersAndWritesWhole() throws {
    try withScratchDirectory("output-folders") { directory in
      let path = directory.path + "/a/b/report.md"
      try OutputFile.write("first\n", to: path)
      try OutputFile.write("second\n", to: path)
      #expect(try String(contentsOfFile: path, encoding: .utf8) == "second\n")
      // No temporary file is left beside it.
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: directory.path + "/a/b") == [
          "report.md"
        ])
    }
  }

  @Test func aFailedWriteKeepsTheOldFileAndLeavesNoTemporary() throws {
    try withScratchDirectory("output-failure") { directory in
      let path = directory.path + "/out.csv"
      try OutputFile.write("old\n", to: path)
      // A folder in the file's place is refused before anything is written.
      try FileManager.default.createDirectory(
        atPath: directory.path + "/taken.csv", withIntermediateDirectories: false)
      #expect(throws: OutputFileError.self) {
        try OutputFile.write("new\n", to: directory.path + "/taken.csv")
      }
      #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
          "out.csv", "taken.csv",
        ])
    }
  }

  @Test func aPartialFileEndsOnWholeRowsAndCommitsByRename() throws {
    try withScratchDirectory("output-partial") { directory in
      let path = directory.path + "/new/run.csv"
      let file = try PartialFile(path: path)
      try file.append("a,b\n")
      try file.append("1,2\n")
      #expect(!FileManager.default.fileExists(atPath: path))
      #expect(try String(contentsOfFile: path + ".partial", encoding: .utf8) == "a,b\n1,2\n")
      try file.replaceContents(with: "a,b\n3,4\n")
      try file.commit()
      #expect(try String(contentsOfFile: path, encoding: .utf8) == "a,b\n3,4\n")
      #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
    }
  }
}
