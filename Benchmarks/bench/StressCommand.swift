import ArgumentParser
import AutoLayout
import Cassowary
import Foundation
import Harness
import Scenes

/// `bench stress`: a soak of random operations on one scene, checking the solution after every
/// step (see ``StressRunner``).
struct Stress: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Soak a scene with random operations, checking every solution.",
    discussion: """
      Random operations drawn from --seed (the scene's own operations, root resizes, extra \
      optional and required constraints added and removed, constant and priority changes, text \
      changes, hidden arranged views, views added and removed). After every step: a layout, then \
      every required constraint holds (scaled residual <= 1e-6). Every --check-every steps and \
      after the last: the values equal a full re-solve from scratch, the frames equal those of \
      the same scene and operations on the other solver (scenes of at most 300 views), and \
      jemalloc's stats.allocated is sampled for the memory drift. Exit status: 0 every check \
      held, 1 a check failed (the message gives the seed, the step, the operation and the \
      command that reproduces it), 64 bad arguments.
      """ + "\n\n" + ExitStatus.table)

  @Option(help: "The scene: KIND or KIND/VARIANT (see `bench scenes`).")
  var scene = "form"
  @Option(help: "How many views.")
  var views = 100
  @Option(
    help: ArgumentHelp(
      "The solver under test: a strategy with Auto Layout's exact semantics ("
        + SolverStrategy.exact.map(\.name).joined(separator: ", ") + ").",
      valueName: "solver"),
    completion: .list(SolverStrategy.exact.map(\.name)),
    transform: exactStrategy)
  var solver: SolverStrategy = .default
  @Option(help: "The seed of the scene and of the operations.")
  var seed: UInt64 = 1
  @Option(help: "Stop after this many operations (default 1000 without --seconds).")
  var operations: Int?
  @Option(help: "Stop after this many seconds.")
  var seconds: Double?
  @Option(
    name: .customLong("check-every"),
    help: "Full re-solve, reference and memory checks every this many operations.")
  var checkEvery = 100
  @Flag(help: "No progress lines on standard error.")
  var quiet = false
  @Option(
    help: ArgumentHelp(
      "Write one line per step to this file: the step, the bit-exact hash of every frame after it, "
        + "and the operation (compare two runs' traces to find where they part).",
      valueName: "file"))
  var trace: String?
  @Flag(
    name: .customLong("verify-tableau"),
    help: ArgumentHelp(
      "Check the tableau's equations after every solver operation, stopping at the first "
        + "that breaks them (slow: for scenes of a few hundred views)."))
  var verifyTableau = false
  @Option(
    name: .customLong("heap-snapshots"),
    help: ArgumentHelp(
      "Under valgrind --tool=massif or with jemalloc profiling (MALLOC_CONF=prof:true), write "
        + "heap snapshots to DIR where the memory verdict samples: first-layout and after-undo "
        + "(.massif or .heap; scripts/heap-diff compares them).",
      valueName: "DIR"))
  var heapSnapshots: String?

  mutating func run() throws {
    let configuration: StressConfiguration
    do {
      configuration = try makeConfiguration()
    } catch {
      printError("bench stress: \(error.message)")
      throw ExitCode(64)
    }
    if let directory = configuration.heapSnapshotDirectory {
      // Made now: the snapshots are written where nothing reports a failure, minutes in.
      do {
        try OutputFile.prepare(directory + "/" + HeapSnapshot.firstLayoutName + ".heap")
      } catch {
        throw BenchFailure("bench stress: --heap-snapshots", error)
      }
    }
    ensureDeterministicHashing()
    let runner = StressRunner(configuration: configuration)
    // The trace goes to TRACE.partial, every line a checked write, renamed when the run ends.
    var traceFile: PartialFile?
    var traceFailure: OutputFileError?
    if let trace {
      do {
        traceFile = try PartialFile(path: trace)
      } catch {
        throw BenchFailure("bench stress: --trace", error)
      }
      Interrupts.keep(
        traceFile!, note: "\ninterrupted: the trace so far is in \(traceFile!.partialPath)\n")
    }
    var lastProgress = Date()
    // Set before the scene is built, so that the note's buffer is not allocated during the run,
    // where the memory verdict would count it, and a crash while building says so.
    CrashNote.set(
      "bench stress: crashed building the scene (seed \(configuration.seed))\n"
        + "reproduce: \(configuration.commandLine(operations: 1))\n")
    let report: StressReport
    do {
      report = try runner.run(
        willApply: { step, operation in
          CrashNote.set(
            "bench stress: crashed at step \(step) (seed \(configuration.seed)) applying "
              + "\(operation)\nreproduce: \(configuration.commandLine(operations: step))\n")
        },
        progress: { report in
          guard !quiet, Date().timeIntervalSince(lastProgress) >= 2 else { return }
          lastProgress = Date()
          printError("… \(report.operations) operations, \(Int(report.operationsPerSecond))/s")
        },
        trace: traceFile.map { file in
          { step, operation, hash in
            guard traceFailure == nil else { return }
            let line =
              "\(step)\t\(String(hash, radix: 16))\t\(operation.map { "\($0)" } ?? "first layout")\n"
            do throws(OutputFileError) {
              try file.append(line)
            } catch {
              traceFailure = error
            }
          }
        })
    } catch {
      printError("bench stress: \(error.description)")
      throw ExitCode(64)
    }
    printOutput(report.summary)
    if let traceFile {
      do {
        if let traceFailure { throw traceFailure }
        try traceFile.commit()
        Interrupts.release()
      } catch {
        throw BenchFailure(
          .ioFailure,
          "bench stress: --trace: \(error); the trace so far is in \(traceFile.partialPath)")
      }
    }
    if let violation = report.violation {
      printError("bench stress: \(violation)")
      throw ExitCode(1)
    }
  }

  private func makeConfiguration() throws(UsageError) -> StressConfiguration {
    let names = SceneKind.allCases.flatMap { kind in
      [kind.rawValue] + kind.variants.dropFirst().map { "\(kind.rawValue)/\($0)" }
    }
    let parts = scene.split(separator: "/", maxSplits: 1).map(String.init)
    guard let kind = parts.first.flatMap(SceneKind.init(rawValue:)),
      parts.count == 1 || kind.variants.contains(parts[1])
    else {
      throw UsageError(
        message: "unknown scene '\(scene)'; valid: \(names.joined(separator: ", "))")
    }
    guard views >= 1 else { throw UsageError(message: "--views must be at least 1") }
    if let operations, operations < 1 {
      throw UsageError(message: "--operations must be at least 1")
    }
    if let seconds, !(seconds > 0) {
      throw UsageError(message: "--seconds must be a positive number")
    }
    guard checkEvery >= 1 else { throw UsageError(message: "--check-every must be at least 1") }
    var configuration = StressConfiguration(
      kind: kind, variant: parts.count > 1 ? parts[1] : nil, views: views, solver: solver,
      seed: seed, operations: operations ?? (seconds == nil ? 1000 : nil), seconds: seconds,
      checkEvery: checkEvery)
    configuration.verifiesTableau = verifyTableau
    if let heapSnapshots {
      guard Callgrind.isRunning || AllocatorStatistics.isProfiling else {
        throw UsageError(
          message: "--heap-snapshots needs the run to be under valgrind --tool=massif, or "
            + "jemalloc profiling (MALLOC_CONF=prof:true,lg_prof_sample:0)")
      }
      configuration.heapSnapshotDirectory = heapSnapshots
    }
    return configuration
  }
}

/// The strategy `name` names, if it has Auto Layout's exact semantics (what `bench stress`
/// checks); the error lists only those.
func exactStrategy(_ name: String) throws -> SolverStrategy {
  let exact = SolverStrategy.exact.map(\.name).joined(separator: ", ")
  guard let strategy = SolverStrategy.named(name) else {
    throw ValidationError("unknown solver '\(name)'; the exact strategies are \(exact)")
  }
  guard SolverStrategy.exact.contains(strategy) else {
    throw ValidationError(
      "solver '\(name)' is not an exact strategy (bench stress checks Auto Layout's exact "
        + "semantics); the exact strategies are \(exact)")
  }
  return strategy
}

/// A message written to standard error if the process crashes (a precondition in the engine or
/// a solver): where a soak was when it died. The text lives in a fixed buffer so the signal
/// handler only calls write(2).
enum CrashNote {
  nonisolated(unsafe) private static var buffer = UnsafeMutablePointer<CChar>.allocate(
    capacity: 4096)
  nonisolated(unsafe) private static var length = 0
  nonisolated(unsafe) private static var installed = false

  /// Replaces the note (truncated to 4 KiB), installing the handlers on first use.
  static func set(_ text: String) {
    if !installed {
      installed = true
      for signal in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS] {
        Foundation.signal(signal) { number in
          _ = write(2, CrashNote.buffer, CrashNote.length)
          Foundation.signal(number, SIG_DFL)
          raise(number)
        }
      }
    }
    length = 0
    for byte in text.utf8.prefix(4095) {
      buffer[length] = CChar(bitPattern: byte)
      length += 1
    }
  }
}
