import Foundation
import Harness

/// SIGINT and SIGTERM, the same way for every command.
///
/// - A signal is forwarded to every child process bench is waiting for (a round, the run under
///   valgrind, a build `bench ab` measures): Foundation's `Process` starts each in a process
///   group of its own, so Ctrl-C at a terminal, or a SIGTERM sent to bench alone, would not reach
///   them, and they would go on measuring after bench had gone.
/// - A command that manages files of its own between children (``deferExit()``: a run of
///   several rounds, `--callgrind`, `bench ab`) is only told: it stops at its next
///   ``check()``, keeps what was measured and removes its scratch files (``Interruption``).
/// - Otherwise the results file being written is flushed, a temporary file under way removed,
///   and the process exits at once with 128 + the signal.
/// - A second signal ends bench and its children at once.
enum Interrupts {
  // Fixed storage, allocated once: the handler reads and writes it without allocating, and
  // touches no Swift global that needs initialising.
  // state[0]: the signal received (0: none); state[1]: children slots in use; state[2]: the
  // descriptor of the results file to flush (-1: none); state[3]: 1 when the command defers.
  nonisolated(unsafe) private static let state = UnsafeMutablePointer<Int32>.allocate(capacity: 4)
  nonisolated(unsafe) private static let children = UnsafeMutablePointer<pid_t>.allocate(
    capacity: 8)
  nonisolated(unsafe) private static let note = UnsafeMutablePointer<CChar>.allocate(capacity: 4096)

  /// Installs the handlers for SIGINT and SIGTERM.
  static func install() {
    state[0] = 0
    state[1] = 0
    state[2] = -1
    state[3] = 0
    note[0] = 0
    PendingFiles.prepareForSignalHandler()
    for number in [SIGINT, SIGTERM] {
      signal(number) { number in
        let first = Interrupts.state[0] == 0
        if first { Interrupts.state[0] = number }
        let running = Int(Interrupts.state[1])
        for index in 0..<running where Interrupts.children[index] > 0 {
          kill(Interrupts.children[index], first ? number : SIGKILL)
        }
        if first && (running > 0 || Interrupts.state[3] != 0) { return }
        if Interrupts.state[2] >= 0 { fsync(Interrupts.state[2]) }
        PendingFiles.removeInSignalHandler()
        if first { _ = write(2, Interrupts.note, strlen(Interrupts.note)) }
        _exit(128 + number)
      }
    }
  }

  /// From now on a signal only sets ``received`` (and reaches the children): the command checks
  /// for it where it can stop cleanly.
  static func deferExit() { state[3] = 1 }

  /// The signal received since ``install()``, if any.
  static var received: Int32? { state[0] == 0 ? nil : state[0] }

  /// Throws ``Interruption`` if a signal came.
  static func check() throws(Interruption) {
    if let received { throw Interruption(signal: received) }
  }

  /// Makes `file` the one an interrupt flushes, with `note` to say (empty: nothing).
  static func keep(_ file: PartialFile, note text: String) {
    state[2] = file.descriptor
    setNote(text)
  }

  /// No file to flush any more (it was committed).
  static func release() {
    state[2] = -1
    setNote("")
  }

  private static func setNote(_ text: String) {
    var length = 0
    for byte in text.utf8.prefix(4095) {
      note[length] = CChar(bitPattern: byte)
      length += 1
    }
    note[length] = 0
  }

  /// Runs `process` to its end, forwarding SIGINT and SIGTERM to it meanwhile; throws
  /// ``Interruption`` when one came (after the child has ended), and ``ChildStartFailure`` in
  /// words when the child cannot start.
  static func run(_ process: Process) throws {
    try check()
    // The slot is taken before the child starts, so that a signal in between is recorded, not
    // taken as one with no child to wait for (which would end bench and orphan the child).
    let slot = Int(state[1])
    precondition(slot < 8, "too many child processes at once")
    children[slot] = 0
    state[1] += 1
    defer { state[1] -= 1 }
    do {
      try process.run()
    } catch {
      throw ChildStartFailure(
        executable: process.executableURL?.path ?? "?", reason: systemReason(error))
    }
    children[slot] = process.processIdentifier
    if let received { kill(process.processIdentifier, received) }
    process.waitUntilExit()
    try check()
  }
}

/// A command stopped by SIGINT or SIGTERM; it exits 128 + the signal once it has kept what it
/// measured.
struct Interruption: Error {
  var signal: Int32

  /// The failure to end the command with, saying what was kept.
  func failure(_ kept: String) -> BenchFailure {
    BenchFailure.interrupted(by: signal, kept)
  }
}

/// A child process that could not be started: the executable and why, in words.
struct ChildStartFailure: Error, CustomStringConvertible {
  var executable: String
  var reason: String
  var description: String { "cannot start \(executable): \(reason)" }
}

/// The system's reason behind a Foundation error, in words (`Exec format error`), rather than
/// the error's domain and code.
func systemReason(_ error: any Error) -> String {
  let error = error as NSError
  if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
    underlying.domain == NSPOSIXErrorDomain
  {
    return String(cString: strerror(Int32(underlying.code)))
  }
  if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
  return error.localizedFailureReason ?? error.localizedDescription
}
