import Foundation
import Harness
import Testing

/// `bench ab` with the `bench` built with these tests as both builds. Only what does not depend
/// on the machine's timing is checked: what it writes, how it pools rounds, its exit status.
@Suite("bench ab in child processes", .serialized)
struct ABRunTests {
  static let bench = benchExecutable

  /// Runs `bench ab` on a small group with `bench` as both builds; time verdicts are judged
  /// alone unless `corroborate` says otherwise, so that only the test that needs valgrind does.
  func ab(
    _ bench: URL, in directory: URL, _ extra: [String], corroborate: String = "none"
  ) throws -> Int32 {
    let process = Process()
    process.executableURL = bench
    process.currentDirectoryURL = directory
    process.arguments =
      [
        "ab", bench.path, bench.path, "--scenes", "flat", "--sizes", "20", "--solvers",
        "sparse", "--modes", "incremental", "--phases", "build,resize", "--repetitions", "6",
        "--warmup", "1", "--min-time", "0", "--output-directory", "ab", "--quiet",
        "--corroborate", corroborate,
      ] + extra
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  @Test(.enabled(if: bench != nil, "needs the bench executable"), .timeLimit(.minutes(3)))
  func bothBuildsArePooledRoundByRound() throws {
    let bench = try #require(Self.bench)
    try withScratchDirectory("layoutbench-ab") { directory in
      // No confirmation rounds: on a loaded machine a cell judged slower or faster would be
      // measured again, and the pooled count would depend on the load.
      let status = try ab(bench, in: directory, ["--rounds", "3", "--confirm-rounds", "0"])
      // The same build on both sides: 0, or (on a noisy machine) 1 or 4, but never 2.
      #expect([0, 1, 4].contains(status))
      var sides: [[ResultRow]] = []
      for side in ["baseline", "current"] {
        let text = try String(
          contentsOf: directory.appending(path: "ab/\(side).csv"), encoding: .utf8)
        sides.append(try ResultsFile.rows(text))
      }
      #expect(sides[0].map(\.key) == sides[1].map(\.key))
      #expect(sides[0].map(\.phase) == [.build, .resize])
      for (old, new) in zip(sides[0], sides[1]) {
        #expect(old.status == .ok && new.status == .ok)
        #expect(old.samples.count == 3 && new.samples.count == 3)
        // Six repetitions a round: six samples for the one-shot build, three pair means for
        // the steady resize.
        #expect(old.samples.allSatisfy { $0.count == (old.phase == .build ? 6 : 3) })
        #expect(old.repetitions == 18)
        #expect(old.checksum == new.checksum && old.allocatedBytes == new.allocatedBytes)
      }
      #expect(
        FileManager.default.fileExists(atPath: directory.appending(path: "ab/comparison.md").path))
      // The scratch files of each round are gone.
      #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "ab/rounds").path))
    }
  }

  /// A slowdown of time alone (`--slow-down` spins outside the measured work) is judged slower
  /// on time, and set aside because the instruction counts did not move.
  @Test(
    .enabled(if: bench != nil && valgrindIsOnPath, "needs the bench executable and valgrind"),
    .timeLimit(.minutes(5)))
  func aTimeOnlySlowdownIsNotBackedByInstructions() throws {
    let bench = try #require(Self.bench)
    try withScratchDirectory("layoutbench-ab-corroborate") { directory in
      let status = try ab(
        bench, in: directory,
        ["--rounds", "3", "--confirm-rounds", "0", "--slow-down", "flat/standard/20=4"],
        corroborate: "instructions")
      let report = try String(
        contentsOf: directory.appending(path: "ab/comparison.md"), encoding: .utf8)
      // Both slowed cells were judged slower on time (four times their time), and neither verdict
      // stands: the instruction counts did not grow with them.
      #expect(report.contains("Time verdicts backed by instruction counts"), "\(report)")
      #expect(report.contains("Time moved but the instructions did not"), "\(report)")
      #expect(report.contains("flat/standard/20/sparse/incremental/build (slower"))
      #expect(report.contains("flat/standard/20/sparse/incremental/resize (slower"))
      #expect(!report.contains("| median_ns |"))
      // A debug build's counts move by about 1 % from process to process (the runtime's generic
      // metadata caches), so its instructions may be findings of their own; a release build's
      // repeat within 0.1 %. Without them the comparison is unchanged.
      if !report.contains("| instructions |") { #expect(status == 0, "\(report)") }
      // The counted cells carry their instructions in both pooled files.
      let current = try ResultsFile.rows(
        String(contentsOf: directory.appending(path: "ab/current.csv"), encoding: .utf8))
      #expect(current.contains { $0.instructions != nil })
    }
  }

  @Test(.enabled(if: bench != nil, "needs the bench executable"), .timeLimit(.minutes(3)))
  func nothingMeasuredOrABuildThatFailsIsStatusTwo() throws {
    let bench = try #require(Self.bench)
    try withScratchDirectory("layoutbench-ab-bad") { directory in
      // A memory budget of 1 MiB skips every group of 100 views (16 KiB a view is assumed before
      // any size is measured), so nothing is measured to compare.
      #expect(try ab(bench, in: directory, ["--sizes", "100", "--memory-budget", "1"]) == 2)
      // A baseline "build" that exits 1.
      let process = Process()
      process.executableURL = bench
      process.currentDirectoryURL = directory
      process.arguments = [
        "ab", "/bin/false", bench.path, "--scenes", "flat", "--sizes", "20", "--output-directory",
        "ab",
      ]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      #expect(process.terminationStatus == 2)
    }
  }
}
