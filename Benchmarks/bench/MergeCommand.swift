import ArgumentParser
import Foundation
import Harness

/// `bench merge SHARD.csv… --output RUN.csv`: the shards of one run joined into one.
struct Merge: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Join the shards of one run (bench run --shard K/N) into one results file.",
    discussion: """
      Every file must be one shard of the same run: the same commit, machine, toolchain and \
      matrix, shards 1 to N of one N, each given once, with no cell in two files, and together \
      every group of the matrix at every size. Otherwise nothing is written and the command \
      exits 2 naming the files, cells or groups at fault. The merged file lists the rows as an \
      unsharded run does, and its slopes (FILE-slopes.csv) are computed over the merged rows, \
      so `bench compare` gives the same verdicts on it as on an unsharded run.
      """ + "\n\n" + ExitStatus.table)

  @Argument(help: "The shards' results CSVs.")
  var shards: [String]
  @Option(help: "The merged results CSV to write.")
  var output: String

  func validate() throws {
    guard !shards.isEmpty else { throw ValidationError("give the shards' results files") }
  }

  func run() throws {
    do {
      try OutputFile.prepare(output)
      try OutputFile.prepare(ScalingTable.path(forResults: output))
    } catch {
      throw BenchFailure("bench merge: --output", error)
    }
    let files = try shards.map { (name: $0, rows: try loadResults($0, command: "merge")) }
    let merge = ShardMerge(files: files)
    guard merge.problems.isEmpty else {
      throw BenchFailure(
        .badInput, merge.problems.map { "bench merge: \($0)" }.joined(separator: "\n"))
    }
    do {
      try OutputFile.write(ResultsFile.text(merge.rows), to: output)
      try OutputFile.write(ScalingTable(merge.rows).csv, to: ScalingTable.path(forResults: output))
    } catch {
      throw BenchFailure("bench merge", error)
    }
    printError(
      "wrote \(output) (\(merge.rows.count) rows from \(shards.count) shards) and "
        + ScalingTable.path(forResults: output))
  }
}
