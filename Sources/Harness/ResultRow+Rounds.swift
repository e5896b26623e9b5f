extension ResultRow {
  /// The cells of several runs of the same matrix by the same build (an interleaved A/B run's
  /// rounds) as one run: each cell's rounds of samples kept in round order, its timing summary of the
  /// pooled samples, and its deterministic figures (checksum, bytes, counts) from the first
  /// round. A cell is `ok` only when every round measured it with the same checksum: a round
  /// that skipped it or failed gives the cell its status and note; a checksum that differs
  /// between rounds makes it an `error`, since the same build must draw the same frames.
  ///
  /// Cells keep the first round's order; a cell missing from a later round is kept as the
  /// rounds that have it give it.
  ///
  /// - Complexity: O(total rows + total samples).
  public static func pooling(rounds: [[ResultRow]]) -> [ResultRow] {
    var order: [CellKey] = []
    var pooled: [CellKey: ResultRow] = [:]
    for round in rounds {
      for row in round {
        guard var cell = pooled[row.key] else {
          order.append(row.key)
          pooled[row.key] = row
          continue
        }
        defer { pooled[row.key] = cell }
        guard cell.status == .ok else { continue }
        guard row.status == .ok else {
          cell.status = row.status
          cell.note = row.note
          continue
        }
        guard row.checksum == cell.checksum else {
          cell.status = .error
          cell.note =
            "the checksum differs between rounds of the same build (\(cell.checksum ?? "none"), "
            + "\(row.checksum ?? "none"))"
          continue
        }
        cell.samples += row.samples
        cell.repetitions += row.repetitions
      }
    }
    return order.map { key in
      var cell = pooled[key]!
      if cell.status == .ok, !cell.samples.isEmpty {
        let summary = TimingSummary(cell.pooledSamples)
        cell.medianNanoseconds = summary.median
        cell.minimumNanoseconds = summary.minimum
        cell.p90Nanoseconds = summary.p90
        cell.maximumNanoseconds = summary.maximum
      }
      return cell
    }
  }
}
