import Scenes

extension BenchmarkConfiguration {
  /// How long this matrix should take, estimated from `rows` measured earlier (a committed
  /// baseline): each of its measured cells that this matrix runs counts its median times the
  /// repetitions it ran and the warm-ups before them (a pooled row already counts every round's
  /// repetitions).
  /// `missing` counts this matrix's groups the rows say nothing about, which the estimate
  /// leaves out. Only as good as the machine the rows were measured on is like this one.
  ///
  /// - Complexity: O(rows + groups).
  public func estimatedDuration(from rows: [ResultRow]) -> (seconds: Double, missing: Int) {
    func group(
      _ kind: SceneKind, _ variant: String, _ size: Int, _ solver: String, _ mode: Mode
    ) -> String {
      "\(kind)/\(variant)/\(size)/\(solver)/\(mode)"
    }
    var groups = Set<String>()
    for (kind, variant) in scenes {
      for size in sizes {
        for solver in solvers {
          for mode in modes
          where includes(ShardGroup(scene: kind, variant: variant, solver: solver.name, mode: mode))
          {
            groups.insert(group(kind, variant, size, solver.name, mode))
          }
        }
      }
    }
    let wantedPhases = Set(phases)
    var measured = Set<String>()
    var nanoseconds = 0.0
    for row in rows where row.status == .ok && wantedPhases.contains(row.phase) {
      let key = group(row.scene, row.variant, row.views, row.solver.rawValue, row.mode)
      guard groups.contains(key) else { continue }
      measured.insert(key)
      // The warm-ups before the row's repetitions: a steady phase warms up an even number of
      // times on its scene; the one-shot passes warm up unless the plan ran the group without
      // (its note says so).
      let warmups =
        !row.phase.isOneShot
        ? warmup + warmup % 2 : row.note.contains("no warm-up") ? 0 : warmup
      nanoseconds += Double(row.medianNanoseconds ?? 0) * Double(row.repetitions + warmups)
    }
    return (nanoseconds / 1e9, groups.subtracting(measured).count)
  }
}
