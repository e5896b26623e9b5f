import ArgumentParser
import Foundation
import Harness
import Scenes

/// The results file of a run: rows appended to `PATH.partial` as they are measured (each a
/// whole line, checked), renamed to `PATH` when the run completes. An interrupt keeps the
/// `.partial` file and says where it is (``Interrupts``).
final class ResultsWriter {
  let file: PartialFile
  /// CSV, or JSON Lines for a path ending in `.jsonl` (a round's or callgrind's process).
  let format: ResultsFile.Format
  /// Rows written so far.
  private(set) var count = 0

  /// Checks the path, creates `PATH.partial` with the header, and makes it the file an
  /// interrupt keeps (saying where, unless a parent process will).
  init(path: String, saysWhereOnInterrupt: Bool = true) throws(OutputFileError) {
    file = try PartialFile(path: path)
    format = ResultsFile.Format(path: path)
    if !format.header.isEmpty { try file.append(format.header) }
    Interrupts.keep(
      file,
      note: saysWhereOnInterrupt
        ? "\ninterrupted: the rows measured so far are in \(file.partialPath)\n" : "")
  }

  var path: String { file.path }
  var partialPath: String { file.partialPath }

  func append(_ row: ResultRow) throws(OutputFileError) {
    try file.append(format.line(row))
    count += 1
  }

  func append(_ rows: [ResultRow]) throws(OutputFileError) {
    guard !rows.isEmpty else { return }
    try file.append(rows.map(format.line).joined())
    count += rows.count
  }

  /// Replaces what was written with `rows` (a run of several rounds, pooled at the end).
  func rewrite(_ rows: [ResultRow]) throws(OutputFileError) {
    try file.replaceContents(with: ResultsFile.text(rows, as: format))
    count = rows.count
  }

  /// Moves the complete file into place.
  func commit() throws(OutputFileError) {
    try file.commit()
    Interrupts.release()
  }

  /// The failure for `error` while writing: the rows written before it stay in `.partial`.
  func failure(_ error: OutputFileError) -> BenchFailure {
    BenchFailure(
      .ioFailure,
      "bench run: \(error); the \(count) rows measured before it are in \(partialPath)")
  }
}

/// Progress on standard error: one updating line on a terminal, a line every few seconds
/// otherwise, nothing with --quiet. The time left is estimated group by group from the groups of
/// the same size measured so far (at another size, scaled by the view count), since a group at
/// 10,000 views costs a hundred at 100.
final class ProgressReporter {
  let quiet: Bool
  /// The view count of each group, in the order they run.
  let groupSizes: [Int]
  let terminal = isatty(2) != 0
  let start = Date()
  var lastLine = Date.distantPast
  /// Seconds each finished group took, by view count.
  var durations: [Int: [Double]] = [:]
  var current: (index: Int, start: Date)?

  init(quiet: Bool, groupSizes: [Int] = []) {
    self.quiet = quiet
    self.groupSizes = groupSizes
  }

  /// The seconds a group of `size` views is expected to take, from those measured so far.
  private func estimate(_ size: Int) -> Double? {
    if let same = durations[size], !same.isEmpty { return same.reduce(0, +) / Double(same.count) }
    let nearest = durations.keys.min {
      abs(log(Double($0) / Double(size))) < abs(log(Double($1) / Double(size)))
    }
    guard let nearest, let times = durations[nearest], !times.isEmpty else { return nil }
    return times.reduce(0, +) / Double(times.count) * Double(size) / Double(nearest)
  }

  /// Group `index` (from 1) of `total` starts.
  func report(_ index: Int, _ total: Int, _ what: String) {
    let now = Date()
    if let current, current.index - 1 < groupSizes.count {
      durations[groupSizes[current.index - 1], default: []].append(
        now.timeIntervalSince(current.start))
    }
    current = (index, now)
    guard !quiet else { return }
    let elapsed = now.timeIntervalSince(start)
    var eta = ""
    if index > 1, total <= groupSizes.count {
      let left = (index - 1..<total).map { estimate(groupSizes[$0]) }
      if left.allSatisfy({ $0 != nil }) {
        eta = ", about \(duration(left.reduce(0) { $0 + $1! })) left"
      }
    }
    let line = "[\(index)/\(total)] \(what) (\(duration(elapsed)) elapsed\(eta))"
    if terminal {
      FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
    } else if now.timeIntervalSince(lastLine) >= 5 || index == 1 || index == total {
      lastLine = now
      printError(line)
    }
  }

  private func duration(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded())
    return whole < 60 ? "\(whole) s" : "\(whole / 60) min \(whole % 60) s"
  }

  func finish() {
    if !quiet && terminal { FileHandle.standardError.write(Data("\n".utf8)) }
  }
}

/// A time in the unit that suits it.
func humanTime(_ nanoseconds: UInt64) -> String {
  let value = Double(nanoseconds)
  if value >= 1e9 { return String(format: "%.2f s", value / 1e9) }
  if value >= 1e6 { return String(format: "%.2f ms", value / 1e6) }
  if value >= 1e3 { return String(format: "%.1f µs", value / 1e3) }
  return "\(nanoseconds) ns"
}

/// A size in the unit that suits it.
func humanBytes(_ bytes: UInt64?) -> String {
  guard let bytes else { return "" }
  let value = Double(bytes)
  if value >= 1_048_576 { return String(format: "%.1f MiB", value / 1_048_576) }
  if value >= 1024 { return String(format: "%.1f KiB", value / 1024) }
  return "\(bytes) B"
}

/// The rows as a Markdown table: median (min–max) time, memory, status; instructions instead of
/// times in a `--callgrind` run.
func markdownTable(_ rows: [ResultRow]) -> String {
  if rows.contains(where: { $0.instructions != nil }) { return instructionTable(rows) }
  var lines = [
    "| scene | views | solver | mode | phase | median | min | max | reps | allocated | peak | status |",
    "| --- | ---: | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
  ]
  for row in rows {
    let scene = sceneLabel(row.scene, row.variant)
    let status = statusCell(row)
    let timing =
      row.status == .ok
      ? "\(humanTime(row.medianNanoseconds ?? 0)) | \(humanTime(row.minimumNanoseconds ?? 0)) | "
        + "\(humanTime(row.maximumNanoseconds ?? 0)) | \(row.repetitions)" : " |  |  | "
    lines.append(
      "| \(scene) | \(row.views) | \(row.solver) | \(row.mode) | \(row.phase) | \(timing) | "
        + "\(humanBytes(row.allocatedBytes)) | \(humanBytes(row.peakBytes)) | \(status) |")
  }
  return lines.joined(separator: "\n")
}

/// A row's status as the tables show it: `ok`, or the status with its note.
func statusCell(_ row: ResultRow) -> String {
  row.status == .ok ? "ok" : "\(row.status): \(row.note)"
}

/// A scene as tables and charts name it: `form`, or `equal-spacing/layout-guides` for a variant
/// other than the standard one.
func sceneLabel(_ scene: SceneKind, _ variant: String) -> String {
  variant == "standard" ? scene.rawValue : "\(scene.rawValue)/\(variant)"
}

/// A count with its digits in groups of three: 1,234,567.
func groupedDigits(_ value: UInt64) -> String {
  var digits = String(value)
  var index = digits.endIndex
  while digits.distance(from: digits.startIndex, to: index) > 3 {
    index = digits.index(index, offsetBy: -3)
    digits.insert(",", at: index)
  }
  return digits
}

/// The rows of a `--callgrind` run as a Markdown table: instructions, memory, status.
func instructionTable(_ rows: [ResultRow]) -> String {
  var lines = [
    "| scene | views | solver | mode | phase | instructions | allocated | peak | status |",
    "| --- | ---: | --- | --- | --- | ---: | ---: | ---: | --- |",
  ]
  for row in rows {
    let scene = sceneLabel(row.scene, row.variant)
    let status = statusCell(row)
    let instructions = row.instructions.map(groupedDigits) ?? ""
    lines.append(
      "| \(scene) | \(row.views) | \(row.solver) | \(row.mode) | \(row.phase) | \(instructions) | "
        + "\(humanBytes(row.allocatedBytes)) | \(humanBytes(row.peakBytes)) | \(status) |")
  }
  return lines.joined(separator: "\n")
}
