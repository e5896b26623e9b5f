import CCallgrind

/// Detailed heap snapshots from valgrind's massif, taken at chosen points of a run: which code
/// allocated the memory a laid-out scene holds (`scripts/module-costs` sums them by module).
///
/// Massif's own snapshots come at times it chooses; a monitor command issued from inside the
/// program takes one at the exact point the harness names.
public enum HeapSnapshot {
  /// Under `valgrind --tool=massif`, writes a detailed snapshot of the heap to `path` (massif's
  /// `detailed_snapshot` monitor command) and returns true. Natively, under another tool, or in
  /// a build without valgrind's headers, does nothing and returns false.
  ///
  /// - Complexity: O(1) in the program; massif's cost to write the heap tree.
  @discardableResult
  public static func write(to path: String) -> Bool {
    guard Callgrind.isRunning else { return false }
    return lb_valgrind_monitor_command("detailed_snapshot \(path)") == 0
  }

  /// The file a cell's snapshot goes to: the cell's key (``ResultRow/key``) with each `/` as
  /// `_`, then `.massif`.
  public static func fileName(forCell key: CellKey) -> String {
    String(key.description.map { $0 == "/" ? "_" : $0 }) + ".massif"
  }

  /// The name (without extension) of the snapshot `bench stress --heap-snapshots` takes where the
  /// soak's memory verdict first samples: after the scene's first layout.
  public static let firstLayoutName = "first-layout"

  /// The name (without extension) of the snapshot `bench stress --heap-snapshots` takes where
  /// the memory verdict samples last: after the run was undone and the scene laid out again.
  public static let afterUndoName = "after-undo"

  /// Writes the snapshots a soak takes at one of its memory samples, `directory/name` plus
  /// `.massif` under massif (``write(to:)``) or `.heap` under jemalloc profiling
  /// (``AllocatorStatistics/writeHeapProfile(to:)``); nothing otherwise.
  public static func writeSoakSnapshot(_ name: String, in directory: String) {
    write(to: directory + "/" + name + ".massif")
    AllocatorStatistics.writeHeapProfile(to: directory + "/" + name + ".heap")
  }
}
