/// The shards of one run joined into one (`bench merge`), or why they cannot be.
public struct ShardMerge: Sendable {
  /// The merged rows, in the order an unsharded run writes them (the first size's groups in
  /// matrix order, then the next size's), each carrying the first shard's run id and time, and
  /// no shard.
  public private(set) var rows: [ResultRow] = []
  /// Why the files cannot be merged, each naming the files, cells or groups at fault; empty
  /// when they can.
  public private(set) var problems: [String] = []

  /// Merges `files` (a name, to say in a problem, and its rows). Refused: no row in any file;
  /// a file whose rows are not of one shard; files of different commits, machines,
  /// toolchains or matrices, or of different shard counts; a shard given twice; a cell in two
  /// files; and a group or size of the matrix that no file measured.
  ///
  /// - Complexity: O(rows log rows).
  public init(files: [(name: String, rows: [ResultRow])]) {
    guard !files.isEmpty else {
      problems.append("no files to merge")
      return
    }
    struct Facts: Equatable {
      var commit, machine, toolchain, matrix, shard: String
    }
    func facts(_ row: ResultRow) -> Facts {
      Facts(
        commit: row.commit, machine: row.machine, toolchain: row.toolchain, matrix: row.matrix,
        shard: row.shard)
    }
    var fileFacts: [(name: String, facts: Facts)] = []
    for file in files {
      // A shard whose groups have no phase of the matrix to measure writes no row: it adds
      // nothing, and the check that every group ran still holds the rest to account.
      guard let first = file.rows.first else { continue }
      let own = facts(first)
      if let other = file.rows.first(where: { facts($0) != own }) {
        problems.append(
          "\(file.name) is not one shard of one run: its rows differ in commit, machine, "
            + "toolchain, matrix or shard (\(other.seriesKey) at \(other.views) views)"
        )
        continue
      }
      guard !own.matrix.isEmpty else {
        problems.append(
          "\(file.name) names no matrix (a file written before shards existed): run it again")
        continue
      }
      fileFacts.append((file.name, own))
    }
    guard problems.isEmpty else { return }
    guard let reference = fileFacts.first else {
      problems.append("no file has a row: nothing to merge")
      return
    }
    for (label, value) in [
      ("commit", \Facts.commit), ("machine", \Facts.machine), ("toolchain", \Facts.toolchain),
      ("matrix", \Facts.matrix),
    ] as [(String, KeyPath<Facts, String>)] {
      let differing = fileFacts.filter {
        $0.facts[keyPath: value] != reference.facts[keyPath: value]
      }
      if !differing.isEmpty {
        problems.append(
          "the shards differ in \(label): \(reference.name) has '\(reference.facts[keyPath: value])', "
            + differing.map { "\($0.name) has '\($0.facts[keyPath: value])'" }.joined(
              separator: ", "))
      }
    }
    let shards = fileFacts.map { (name: $0.name, shard: Shard($0.facts.shard)) }
    if files.count > 1 {
      if let unsharded = shards.first(where: { $0.shard == nil }) {
        problems.append("\(unsharded.name) is not a shard (its shard column is empty)")
      }
      let counts = Set(shards.compactMap { $0.shard?.count })
      if counts.count > 1 {
        problems.append(
          "the shards are of different counts: "
            + shards.map { "\($0.name) is \($0.shard?.description ?? "unsharded")" }
            .joined(separator: ", "))
      }
      var seen: [Int: String] = [:]
      for entry in shards {
        guard let shard = entry.shard else { continue }
        if let earlier = seen[shard.index] {
          problems.append("shard \(shard) is given twice: \(earlier) and \(entry.name)")
        }
        seen[shard.index] = entry.name
      }
    }
    var owner: [CellKey: String] = [:]
    var merged: [ResultRow] = []
    var duplicates: [String: [CellKey]] = [:]
    var pairs: [String] = []
    for file in files {
      for row in file.rows {
        if let earlier = owner[row.key] {
          let pair = earlier == file.name ? "\(file.name) (twice)" : "\(earlier) and \(file.name)"
          if duplicates[pair] == nil { pairs.append(pair) }
          duplicates[pair, default: []].append(row.key)
          continue
        }
        owner[row.key] = file.name
        merged.append(row)
      }
    }
    for pair in pairs {
      let cells = duplicates[pair]!
      problems.append(
        "\(cells.count) cell(s) are in both \(pair): "
          + cells.prefix(5).map(\.description).joined(separator: ", ")
          + (cells.count > 5 ? ", …" : ""))
    }
    guard
      let (allGroups, sizes, phases) = BenchmarkConfiguration.groupsAndSizes(
        ofMatrix: reference.facts.matrix)
    else {
      problems.append(
        "\(reference.name): its matrix column is not a matrix: \(reference.facts.matrix)")
      return
    }
    // A group emits rows for every size it runs (skipped ones included), unless no phase of
    // the matrix applies to it.
    let groups = allGroups.filter { group in
      phases.contains { $0.applies(to: group.scene, mode: group.mode) }
    }
    var measured = Set<String>()
    for row in merged { measured.insert("\(ShardGroup(row)) \(row.views)") }
    let missing = groups.flatMap { group in
      sizes.compactMap { measured.contains("\(group) \($0)") ? nil : "\(group) at \($0) views" }
    }
    let ranGroups = Set(merged.map { ShardGroup($0) })
    let groupsNotRun = groups.filter { !ranGroups.contains($0) }
    if !groupsNotRun.isEmpty {
      problems.append(
        "no shard ran \(groupsNotRun.count) group(s) of the matrix: "
          + groupsNotRun.map(\.description).joined(separator: ", "))
    } else if !missing.isEmpty {
      problems.append(
        "no shard measured \(missing.count) size(s) of a group: "
          + missing.prefix(10).joined(separator: ", ") + (missing.count > 10 ? ", …" : ""))
    }
    guard problems.isEmpty else { return }
    // The order an unsharded run writes: scene by scene, size by size, then the solvers and
    // modes in matrix order, phases in order.
    let groupOrder = Dictionary(uniqueKeysWithValues: groups.enumerated().map { ($1, $0) })
    var sceneOrder: [String: Int] = [:]
    for group in groups where sceneOrder["\(group.scene)/\(group.variant)"] == nil {
      sceneOrder["\(group.scene)/\(group.variant)"] = sceneOrder.count
    }
    let sizeOrder = Dictionary(uniqueKeysWithValues: sizes.enumerated().map { ($1, $0) })
    let phaseOrder = Dictionary(
      phases.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    func position(_ row: ResultRow) -> [Int] {
      [
        sceneOrder["\(row.scene)/\(row.variant)"] ?? 0, sizeOrder[row.views] ?? 0,
        groupOrder[ShardGroup(row)] ?? 0, phaseOrder[row.phase] ?? 0,
      ]
    }
    // The run id and time of shard 1 (or of the first file with rows).
    let firstName = shards.first { $0.shard?.index == 1 }?.name ?? reference.name
    let first = files.first { $0.name == firstName && !$0.rows.isEmpty }!.rows[0]
    rows = merged.sorted { position($0).lexicographicallyPrecedes(position($1)) }.map {
      var row = $0
      row.runID = first.runID
      row.timestamp = first.timestamp
      row.shard = ""
      return row
    }
  }
}
