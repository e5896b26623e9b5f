import ArgumentParser
import AutoLayout
import Cassowary
import Foundation
import Scenes

extension SceneKind: ExpressibleByArgument {}
/// `bench scenes`: the scene kinds, one line each.
struct ListScenes: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scenes", abstract: "List the scene kinds, one line each.")

  func run() {
    let width = SceneKind.allCases.map(\.rawValue.count).max() ?? 0
    for kind in SceneKind.allCases {
      let name = kind.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
      let variants =
        kind.variants.count > 1 ? " [variants: \(kind.variants.joined(separator: ", "))]" : ""
      print("\(name)  \(kind.summary)\(variants)")
    }
  }
}

/// `bench export KIND --views N`: a scene as a `.constraints` file.
struct Export: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write a scene as a .constraints file (to standard output unless --output).")

  @Argument(help: "The scene kind (see `bench scenes`).")
  var kind: SceneKind
  @Option(help: "How many views.")
  var views = 100
  @Option(help: "The seed of text lengths and positions.")
  var seed: UInt64 = 1
  @Option(help: "The variant (see `bench scenes`).")
  var variant: String?
  @Option(help: "Write here instead of standard output (atomically).")
  var output: String?

  func run() throws {
    let scene: Scene
    do {
      scene = try Scene(kind, views: views, seed: seed, variant: variant)
    } catch {
      throw ValidationError(error.description)
    }
    let text = scene.exportFile().text(header: scene.exportHeader)
    if let output {
      try writeAtomically(text, to: output)
    } else {
      FileHandle.standardOutput.write(Data(text.utf8))
    }
  }
}

/// `bench solve FILE`: solves a `.constraints` file and prints the solution.
struct Solve: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Solve a .constraints file and print NAME = VALUE lines.",
    discussion: """
      Exit status: 0 solved, 1 unsatisfiable, 2 malformed input, 3 refused for a resource \
      limit (the dense solver's memory budget) or, with --by-blocks, required equalities \
      whose coefficients are dependent.
      """)

  @Argument(help: "The file; - or /dev/stdin for standard input.")
  var file: String
  @Option(help: "The solver strategy (see `bench solvers`).")
  var solver: SolverStrategy = .sparse
  @Flag(
    help: """
      Solve in two parts: what the required equalities determine, block by block with no \
      tableau, and the rest with the sparse solver (the same answer where it is unique).
      """)
  var byBlocks = false

  func validate() throws {
    if byBlocks && solver != .sparse {
      throw ValidationError("--by-blocks uses the sparse solver for its second part")
    }
  }

  func run() throws {
    try requireAvailable([solver], command: "solve")
    let data: Data
    if file == "-" || file == "/dev/stdin" {
      data = FileHandle.standardInput.readDataToEndOfFile()
    } else {
      guard let contents = FileManager.default.contents(atPath: file) else {
        printError("\(file): error: cannot read the file")
        throw ExitCode(2)
      }
      data = contents
    }
    let text = String(decoding: data, as: UTF8.self)
    let result =
      byBlocks
      ? ConstraintFile.solveByBlocks(text: text, file: file)
      : ConstraintFile.solve(text: text, file: file, solver: solver)
    FileHandle.standardOutput.write(Data(result.output.utf8))
    if !result.error.isEmpty { printError(result.error) }
    if result.status != 0 { throw ExitCode(result.status) }
  }
}

/// Writes a line to standard error.
func printError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Writes `text` to `path` through a `.partial` file renamed into place, so the file is never
/// left half-written.
func writeAtomically(_ text: String, to path: String) throws {
  let partial = path + ".partial"
  try Data(text.utf8).write(to: URL(fileURLWithPath: partial))
  guard rename(partial, path) == 0 else {
    throw ValidationError(
      "cannot rename \(partial) to \(path): \(String(cString: strerror(errno)))")
  }
}
