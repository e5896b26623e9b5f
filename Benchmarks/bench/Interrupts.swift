import Foundation
import Harness

/// SIGINT and SIGTERM, the same way for every command: while bench waits for a child process
/// (a round, the run under valgrind, a build `bench ab` measures), the signal is forwarded to
/// it and the command, once the child has ended, keeps what was measured and exits 130 or 143
/// (``Interruption``); with no child, the results file being written is flushed, any temporary
/// file removed, and the process exits at once.
///
/// Children are forwarded the signal because Foundation's `Process` starts each in a process
/// group of its own: Ctrl-C at a terminal, or a SIGTERM sent to bench alone, would not reach
/// them, and they would go on measuring after bench had gone.
enum Interrupts {
  // Fixed storage, allocated once in `install()`: the handler reads it without allocating.
  nonisolated(unsafe) private static var state = UnsafeMutablePointer<Int32>.allocate(capacity: 3)
  nonisolated(unsafe) private static var children = UnsafeMutablePointer<pid_t>.allocate(
    capacity: maximumChildren)
  nonisolated(unsafe) private static var note = UnsafeMutablePointer<CChar>.allocate(
    capacity: noteCapacity)
  private static let maximumChildren = 8
  private static let noteCapacity = 4096
  // state[0]: the signal received (0: none); state[1]: children running; state[2]: the
  // descriptor of the results file to flush (-1: none).

  /// Installs the handlers for SIGINT and SIGTERM.
  static func install() {
    state[0] = 0
    state[1] = 0
    state[2] = -1
    note[0] = 0
    for number in [SIGINT, SIGTERM] {
      signal(number) { number in
        Interrupts.state[0] = number
        let running = Int(Interrupts.state[1])
        if running > 0 {
          for index in 0..<running where Interrupts.children[index] > 0 {
            kill(Interrupts.children[index], number)
          }
          return
        }
        if Interrupts.state[2] >= 0 { fsync(Interrupts.state[2]) }
        PendingFiles.removeInSignalHandler()
        _ = write(2, Interrupts.note, strlen(Interrupts.note))
        _exit(128 + number)
      }
    }
  }

  /// The signal received since ``install()``, if any.
  static var received: Int32? { state[0] == 0 ? nil : state[0] }

  /// Throws ``Interruption`` if a signal came.
  static func check() throws(Interruption) {
    if let received { throw Interruption(signal: received) }
  }

  /// Makes `file` the one an interrupt flushes, and (`sayingWhere`) says where its rows are.
  static func keep(_ file: PartialFile, sayingWhere: Bool) {
    state[2] = file.descriptor
    setNote(
      sayingWhere ? "\ninterrupted: the rows measured so far are in \(file.partialPath)\n" : "")
  }

  /// No file to flush any more (it was committed).
  static func release() {
    state[2] = -1
    setNote("")
  }

  private static func setNote(_ text: String) {
    var length = 0
    for byte in text.utf8.prefix(noteCapacity - 1) {
      note[length] = CChar(bitPattern: byte)
      length += 1
    }
    note[length] = 0
  }

  /// Runs `process` to its end, forwarding SIGINT and SIGTERM to it meanwhile; throws
  /// ``Interruption`` when one came (after the child has ended).
  static func run(_ process: Process) throws {
    try check()
    // The slot is taken before the child starts, so that a signal in between is recorded,
    // not taken as one with no child to wait for (which would end bench and orphan the child).
    let slot = Int(state[1])
    precondition(slot < maximumChildren, "too many child processes at once")
    children[slot] = 0
    state[1] += 1
    defer { state[1] -= 1 }
    try process.run()
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
