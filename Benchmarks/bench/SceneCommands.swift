import ArgumentParser
import AutoLayout
import Cassowary
import Foundation
import Harness
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
      printOutput("\(name)  \(kind.summary)\(variants)")
    }
  }
}

/// `bench export KIND --views N`: a scene as a `.constraints` file.
struct Export: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write a scene as a .constraints file (to standard output unless --output).",
    discussion: ExitStatus.table)

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
    if let output {
      // Before the scene is built: a path that cannot take the file fails at once.
      do {
        try OutputFile.prepare(output)
      } catch {
        throw BenchFailure("bench export: --output", error)
      }
    }
    let scene: Scene
    do {
      scene = try Scene(kind, views: views, seed: seed, variant: variant)
    } catch {
      throw ValidationError(error.description)
    }
    let text = scene.exportFile().text(header: scene.exportHeader)
    if let output {
      do {
        try OutputFile.write(text, to: output)
      } catch {
        throw BenchFailure("bench export", error)
      }
    } else {
      printOutput(text, terminator: "")
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
      """ + "\n\n" + ExitStatus.table)

  @Argument(help: "The file; - or /dev/stdin for standard input.")
  var file: String
  @Option(
    help: ArgumentHelp(
      "The solver strategy (see `bench solvers`; default: \(SolverStrategy.default)).",
      valueName: "solver"))
  var solver: SolverStrategy?
  @Flag(
    help: """
      Solve in two parts: what the required equalities determine, block by block with no \
      tableau, and the rest with the sparse solver (the same answer where it is unique).
      """)
  var byBlocks = false

  func validate() throws {
    if byBlocks, let solver, solver != .sparse {
      throw ValidationError("--by-blocks uses the sparse solver for its second part")
    }
  }

  func run() throws {
    let solver = solver ?? .default
    try requireAvailable([solver], command: "solve")
    // Standard input and any readable file (a pipe, /dev/null) are read the same way, so the
    // same text gives the same answer whichever way it comes.
    let text: String
    do {
      text = try InputFile.read(file == "-" ? "/dev/stdin" : file)
    } catch {
      throw BenchFailure(.badInput, "\(file): error: \(error)")
    }
    let result =
      byBlocks
      ? ConstraintFile.solveByBlocks(text: text, file: file)
      : ConstraintFile.solve(text: text, file: file, solver: solver)
    printOutput(result.output, terminator: "")
    if !result.error.isEmpty { printError(result.error) }
    if result.status != 0 { throw ExitCode(result.status) }
  }
}

/// Writes a line to standard error.
func printError(_ line: String) {
  let text = line + "\n"
  _ = text.withCString { write(2, $0, strlen($0)) }
}

/// Writes `text` and `terminator` to standard output, unbuffered; the first failure is kept
/// for `Bench.main`, which exits 74 with it (a full or closed standard output is an I/O failure,
/// not silence).
func printOutput(_ text: String, terminator: String = "\n") {
  guard StandardOutput.failure == nil else { return }
  let bytes = Array((text + terminator).utf8)
  var offset = 0
  while offset < bytes.count {
    let written = bytes.withUnsafeBufferPointer {
      write(1, $0.baseAddress! + offset, $0.count - offset)
    }
    if written < 0 && errno == EINTR { continue }
    guard written > 0 else {
      StandardOutput.failure = written < 0 ? errno : EIO
      return
    }
    offset += written
  }
}

/// The first error writing standard output, if any.
enum StandardOutput {
  nonisolated(unsafe) static var failure: Int32?
}
