import ArgumentParser
import Foundation
import Harness

/// The exit statuses of every `bench` command, one table (sysexits.h's numbers where it has
/// one). `docs/benchmark.md` and `bench --help` print the same table.
enum ExitStatus: Int32, CaseIterable {
  /// Done; no regression.
  case ok = 0
  /// A regression, a failed check (a soak, a cross-check) or an unsatisfiable file.
  case failed = 1
  /// Bad input: a file that cannot be read or parsed, or files that cannot be compared.
  case badInput = 2
  /// Refused for a budget (the dense tableau's memory), which says nothing about the input.
  case overBudget = 3
  /// Improvements only: the baseline may be updated.
  case improvementsOnly = 4
  /// Bad options (sysexits' EX_USAGE).
  case usage = 64
  /// An internal failure: a bug (EX_SOFTWARE).
  case internalFailure = 70
  /// An output that cannot be written: a full file system, a read-only folder, a closed
  /// standard output (EX_IOERR).
  case ioFailure = 74
  /// Interrupted by SIGINT (Ctrl-C): 128 + 2.
  case interrupted = 130
  /// Stopped by SIGTERM: 128 + 15.
  case terminated = 143

  /// What the status means, for the table.
  var meaning: String {
    switch self {
    case .ok: "done (compare, ab: no regression)"
    case .failed: "a regression, a failed check, or (solve) an unsatisfiable file"
    case .badInput: "bad input: a file unreadable or malformed, or files not comparable"
    case .overBudget: "refused for a budget (the dense tableau's memory), before any work"
    case .improvementsOnly: "improvements only (compare, ab): the baseline may be updated"
    case .usage: "bad options or arguments"
    case .internalFailure: "an internal failure (a bug: please report it)"
    case .ioFailure: "an output that cannot be written (full file system, read-only folder)"
    case .interrupted: "interrupted by SIGINT; a run keeps its rows in FILE.partial"
    case .terminated: "stopped by SIGTERM; a run keeps its rows in FILE.partial"
    }
  }

  /// The table, as `--help` prints it.
  static var table: String {
    "Exit status:\n"
      + allCases.map {
        "  \(String($0.rawValue).padding(toLength: 4, withPad: " ", startingAt: 0))\($0.meaning)"
      }
      .joined(separator: "\n")
  }

  /// The status of a process ended by `signal`.
  static func interruption(_ signal: Int32) -> ExitStatus {
    signal == SIGTERM ? .terminated : .interrupted
  }
}

/// A failure that ends a command with a message (already in words, naming the file and what
/// went wrong) and a status from ``ExitStatus``.
struct BenchFailure: Error {
  var status: ExitStatus
  var message: String

  init(_ status: ExitStatus, _ message: String) {
    self.status = status
    self.message = message
  }

  /// The failure for an output file that cannot be written, by `command` (`bench run`).
  init(_ command: String, _ error: OutputFileError) {
    self.init(error.kind == .usage ? .usage : .ioFailure, "\(command): \(error)")
  }

  /// The failure for a signal that ended the command, with what was kept.
  static func interrupted(by signal: Int32, _ kept: String) -> BenchFailure {
    BenchFailure(.interruption(signal), "\ninterrupted: \(kept)")
  }
}

extension Bench {
  /// Parses the command line, runs the command, and exits with a status of ``ExitStatus``:
  /// argument-parser's own for its errors, ours for ``BenchFailure`` and output errors, 74 when
  /// standard output could not be written, 70 for anything else (a bug, said in words).
  static func main() {
    var command: ParsableCommand
    do {
      command = try parseAsRoot()
    } catch {
      exit(withError: error)
    }
    Interrupts.install()
    do {
      try command.run()
    } catch let failure as BenchFailure {
      finish(failure.status.rawValue, failure.message)
    } catch let error as OutputFileError {
      let failure = BenchFailure("bench", error)
      finish(failure.status.rawValue, failure.message)
    } catch let interruption as Interruption {
      finish(ExitStatus.interruption(interruption.signal).rawValue, "\ninterrupted")
    } catch let failure as ChildStartFailure {
      finish(ExitStatus.internalFailure.rawValue, "bench: \(failure)")
    } catch let code as ExitCode {
      finish(code.rawValue, nil)
    } catch let error as ValidationError {
      finish(ExitStatus.usage.rawValue, "bench: \(error.message)")
    } catch {
      // Argument-parser's own (help, a clean exit, usage) are its to print.
      if error is CleanExit || String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") {
        exit(withError: error)
      }
      finish(
        ExitStatus.internalFailure.rawValue,
        "bench: internal failure: \(String(describing: error))")
    }
    finish(ExitStatus.ok.rawValue, nil)
  }

  /// Prints `message` and exits with `status`, or 74 when standard output could not be written.
  private static func finish(_ status: Int32, _ message: String?) -> Never {
    if let message { printError(message) }
    // A command that checks for signals itself can finish its work after one came: its files
    // are complete, and the status still says it was interrupted.
    if status == 0, let signal = Interrupts.received {
      printError("\ninterrupted: the command had finished; its files are complete")
      Foundation.exit(ExitStatus.interruption(signal).rawValue)
    }
    if let failure = StandardOutput.failure {
      printError("bench: cannot write standard output: \(String(cString: strerror(failure)))")
      Foundation.exit(ExitStatus.ioFailure.rawValue)
    }
    Foundation.exit(status)
  }
}
