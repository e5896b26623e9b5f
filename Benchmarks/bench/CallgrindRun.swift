import ArgumentParser
import CCallgrind
import Foundation
import Harness

/// `bench run --callgrind`: runs this same command again under
/// `valgrind --tool=callgrind --instr-atstart=no`, once for each group of the matrix (a scene or
/// variant, a solver and a mode, at every size), where the runner switches instrumentation on
/// only around each cell's phase and dumps its counters under the cell's label; then reads the
/// dump files and fills the `instructions` column of the rows the children wrote.
///
/// A group in a process of its own: in one process, the heap the groups before it left moved a
/// group's counts (chain's build at 50 views by 1.5 %, its teardown at 200 by 1.7 %, measured
/// after flat against alone), past the 1 % a comparison judges, so a change to one scene read
/// as a change to the next.
struct CallgrindRun {
  var context: RunContext
  /// Where the finished rows go.
  var output: String
  /// The groups this run measures (a shard's, or the whole matrix's), in the order a run takes
  /// them; each runs in a child of its own.
  var groups: [ShardGroup]
  /// Where each row goes in the run's order: the order a single process writes them (every
  /// group at the first size, then at the next), whatever the order the children ran in.
  var order: (ResultRow) -> [Int]

  /// valgrind's options: no instrumentation until the runner asks for it (so building scenes
  /// and warm-ups run several times faster than instrumented), one file per dump, no messages but
  /// errors.
  static let valgrindOptions = ["-q", "--tool=callgrind", "--instr-atstart=no"]

  /// How much longer a group takes under callgrind than natively, about: the child multiplies
  /// the cell budget (`--cell-budget`) by it.
  static let slowdown = 50.0

  /// jemalloc options for the child: no time-based purging of unused pages. jemalloc purges when
  /// enough wall-clock time has passed, so with purging on, when a phase's frees run the purge
  /// code depends on the clock, and the same cell's count moved by up to 0.03% between runs;
  /// without it, counts repeat exactly. (Bytes allocated and retained are not affected.)
  static let jemallocOptions = "dirty_decay_ms:-1,muzzy_decay_ms:-1"

  /// Runs the child and returns its rows with their instruction counts; they are also written
  /// to `output`.
  func run() throws -> [ResultRow] {
    guard Callgrind.isSupported else {
      printError(
        "bench run: --callgrind needs valgrind's headers (<valgrind/callgrind.h>) when bench is "
          + "built, and this bench was built without them: apt-get install -y valgrind, then "
          + "rebuild (rm -rf .build/*/*/CCallgrind.build; swift build -c release --product bench)")
      throw ExitCode(ExitStatus.badInput.rawValue)
    }
    guard let valgrind = Self.executable(named: "valgrind") else {
      printError(
        "bench run: --callgrind needs valgrind, which is not on the PATH: "
          + "apt-get install -y valgrind")
      throw ExitCode(ExitStatus.badInput.rawValue)
    }
    // This process reads the child's files once it has stopped: a signal is checked for.
    Interrupts.deferExit()
    let directory = ".build/callgrind/\(context.runID)"
    let writer: ResultsWriter
    do {
      try OutputFile.makeFolder(directory, for: directory)
      writer = try ResultsWriter(path: output)
    } catch {
      throw BenchFailure("bench run", error)
    }
    Self.disableAddressRandomization()
    printError(
      "bench run: measuring under callgrind, each group in its own process; dump files in "
        + "\(directory)/")
    var rows: [ResultRow] = []
    for (index, group) in groups.enumerated() {
      let childRows = "\(directory)/rows-\(index + 1).jsonl"
      do {
        try runChild(group, valgrind: valgrind, rows: childRows, directory: directory)
      } catch let interruption as Interruption {
        // What the children measured before the signal, with the counts of the cells they
        // dumped, goes to the run's .partial file; the dump files were scratch.
        let partial = (try? ResultsFile.load(childRows + ".partial")) ?? []
        let counted = (try? instructionCounts(in: directory)) ?? [:]
        try? writer.append(finished(rows + partial, counts: counted).rows)
        try? FileManager.default.removeItem(atPath: directory)
        throw interruption.failure(
          "the \(rows.count + partial.count) rows measured so far are in \(writer.partialPath)")
      }
      do {
        rows += try ResultsFile.load(childRows)
      } catch {
        throw BenchFailure(.internalFailure, "bench run: the run under callgrind wrote \(error)")
      }
    }
    // Stable: a cell's phases keep their order.
    rows = rows.enumerated().sorted { a, b in
      let (x, y) = (order(a.element), order(b.element))
      return x == y ? a.offset < b.offset : x.lexicographicallyPrecedes(y)
    }.map(\.element)
    let counts: [CellKey: UInt64]
    do {
      counts = try instructionCounts(in: directory)
    } catch let error as CallgrindDumpError {
      throw BenchFailure(.failed, "bench run: unreadable callgrind dump in \(directory)/: \(error)")
    } catch {
      throw BenchFailure(
        .failed, "bench run: cannot read the dumps in \(directory)/: \(systemReason(error))")
    }
    let (finishedRows, missing) = finished(rows, counts: counts)
    do {
      try writer.append(finishedRows)
      try writer.commit()
    } catch {
      throw writer.failure(error)
    }
    guard missing.isEmpty else {
      throw BenchFailure(
        .failed,
        "bench run: no callgrind dump for \(missing.count) measured cells (\(missing[0]), …) "
          + "in \(directory)/")
    }
    return finishedRows
  }

  /// Runs `group` of this command's matrix under valgrind, its rows to `rows` and its dumps to
  /// `directory`; throws when the child fails or a signal stops it.
  private func runChild(
    _ group: ShardGroup, valgrind: String, rows: String, directory: String
  ) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: valgrind)
    // The command as given, then the group (the last --only-groups wins over a shard's): a
    // group's child gets the same arguments whatever else the matrix holds, as long as the
    // command is as long (a longer argument moves the heap, and a debug build's counts).
    process.arguments =
      Self.valgrindOptions + ["--callgrind-out-file=\(directory)/callgrind.%p"]
      + [Self.currentExecutable()] + CommandLine.arguments.dropFirst()
      + ["--callgrind-rows", rows, "--only-groups", group.description]
    var environment = ProcessInfo.processInfo.environment
    environment["MALLOC_CONF"] = [environment["MALLOC_CONF"], Self.jemallocOptions]
      .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ",")
    // Swift seeds its hashing per process, so a dictionary's probes, and with them the count,
    // would differ from one run to the next (by about 1 % on a 20-view cell).
    environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
    process.environment = environment
    // The child's tables are not wanted; its progress lines (standard error) are.
    process.standardOutput = FileHandle.nullDevice
    try Interrupts.run(process)
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw BenchFailure(
        .failed,
        "bench run: the run of \(group) under callgrind failed (status "
          + "\(process.terminationStatus)); its files are in \(directory)/")
    }
  }

  /// The instruction count of every cell dumped in `directory` so far, by the cell's key.
  private func instructionCounts(in directory: String) throws -> [CellKey: UInt64] {
    let dumps = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasPrefix("callgrind.") }
      .sorted { Self.dumpOrder($0) < Self.dumpOrder($1) }
      .map { try String(contentsOfFile: "\(directory)/\($0)", encoding: .utf8) }
    return try CallgrindDump.instructionsByCell(dumps)
  }

  /// The child's rows as this run's: its context, and each measured cell's count; with the
  /// keys of the measured cells that have none.
  private func finished(
    _ rows: [ResultRow], counts: [CellKey: UInt64]
  ) -> (rows: [ResultRow], missing: [CellKey]) {
    var rows = rows
    var missing: [CellKey] = []
    // The child reads no context of its own (see `Run.run()`); the rows are this run's.
    for index in rows.indices {
      rows[index].setContext(context)
      guard rows[index].status == .ok else { continue }
      rows[index].instructions = counts[rows[index].key]
      if rows[index].instructions == nil { missing.append(rows[index].key) }
    }
    return (rows, missing)
  }

  /// A dump file's place in the run: callgrind names them `callgrind.PID.N` in the order it
  /// wrote them (and `callgrind.PID` for the final one at exit, which sorts first and is of no
  /// cell).
  static func dumpOrder(_ name: String) -> Int {
    name.split(separator: ".").dropFirst(2).first.flatMap { Int($0) } ?? 0
  }

  /// Turns address-space randomization off for the processes this one starts, as `setarch -R`
  /// does: phases that remove views hash object addresses (sets of `ObjectIdentifier`), so their
  /// probe counts, and instructions, depend on where objects land. It makes such counts repeat
  /// more often; they can still move by a few dozen instructions in millions (under 0.001%).
  /// Where the kernel refuses, runs go on randomized.
  static func disableAddressRandomization() {
    _ = lb_disable_address_randomization()
  }

  /// The path of this executable, for valgrind to run it.
  static func currentExecutable() -> String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
  }

  /// The first executable file of that name on the PATH.
  static func executable(named name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }
}
