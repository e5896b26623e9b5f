import HeapModule

/// Entries by dense integer id; ids given back are reused lowest first.
///
/// Lowest first, not last-freed first: a subtree removed and added again (churn) then gets its
/// ids in the order it had, and a full solve, which adds constraints in id order, replays the
/// layout in the order it was built. Reused last-freed first, they came back reversed, and
/// re-solving a form from scratch after churn went quadratic (38 s at 10,000 views against 0.2 s
/// for a resize).
///
/// The entries and the free ids change together, in one call: an engine keeps a table as one
/// property, so each insertion or removal is one access to the engine's storage rather than
/// three (each checked at run time for exclusive access).
struct IDTable<Entry> {
  /// The entries by id; nil for an id given back.
  private(set) var entries: [Entry?] = []
  private var freeIDs = Heap<Int32>()

  /// The number of ids given out so far, in use or not.
  var count: Int { entries.count }

  /// The entry with `id`, or nil for one given back or never given out.
  subscript(id: Int) -> Entry? { id >= 0 && id < entries.count ? entries[id] : nil }

  /// Stores `entry` under the lowest free id, or a new one; returns the id.
  ///
  /// - Complexity: O(log free ids), amortized.
  mutating func insert(_ entry: Entry) -> Int32 {
    // Ids at or past the end were given back and then cut off by `remove`: stale, skipped.
    // (New ids are only appended once no free id is left, so a stale id never comes back
    // below the end while it is still in the heap.)
    while let id = freeIDs.popMin() {
      guard Int(id) < entries.count else { continue }
      entries[Int(id)] = entry
      return id
    }
    // Grown by an eighth, not doubled: a table's ids are given out in a build and reused after,
    // so a few more than the build's (a soak's extras) would otherwise double it for good.
    if entries.count == entries.capacity {
      entries.reserveCapacity(entries.count + entries.count / 8 + 16)
    }
    entries.append(entry)
    return Int32(entries.count - 1)
  }

  /// The new id of each id if the ids in use were renumbered 0, 1, 2, … in their order (-1 for
  /// an id given back), or nil when they already are: no id in use is past a free one.
  ///
  /// - Complexity: O(ids given out).
  func denseRenumbering() -> [Int32]? {
    guard entries.contains(where: { $0 == nil }) else { return nil }
    var next: Int32 = 0
    return entries.map { entry in
      guard entry != nil else { return -1 }
      defer { next += 1 }
      return next
    }
  }

  /// Renumbers the entries as `newIDs` (from ``denseRenumbering()``) says: the table then holds
  /// exactly the entries in use, and no id is free.
  ///
  /// - Complexity: O(ids given out).
  mutating func renumber(_ newIDs: [Int32]) {
    var dense: [Entry?] = []
    dense.reserveCapacity(newIDs.count { $0 >= 0 })
    for (id, entry) in entries.enumerated() where entry != nil {
      precondition(Int(newIDs[id]) == dense.count, "not a dense renumbering in id order")
      dense.append(entry)
    }
    entries = dense
    freeIDs = Heap()
  }

  /// Gives back the room that ids no longer in use took: the free ids cut off the end (still in
  /// the heap, skipped when popped) go, and the entries' storage shrinks to their count when it
  /// is more than a quarter above it (`Array.shrinkCapacity(toAbout:)`). A table then holds
  /// about what its ids need, not what its busiest moment needed.
  ///
  /// - Complexity: O(ids given out).
  mutating func compact() {
    if freeIDs.count > 0 {
      let end = Int32(entries.count)
      let live = freeIDs.unordered.filter { $0 < end }
      if live.count < freeIDs.count { freeIDs = Heap(live) }
    }
    entries.shrinkCapacity(toAbout: entries.count)
  }

  /// Gives `id` back. When the highest ids are all free, the table ends at the highest id in
  /// use, so that the ids a burst of insertions added past a build's do not stay for good
  /// (tables indexed by these ids, the solver's per-variable ones, follow).
  ///
  /// - Complexity: O(log free ids), amortized.
  mutating func remove(_ id: Int32) {
    entries[Int(id)] = nil
    guard Int(id) == entries.count - 1 else {
      freeIDs.insert(id)
      return
    }
    // The last id is cut off at once, and goes in no heap: ids given back from the end (a
    // teardown, last made first) each went to the top of it, the heap's most costly insertion.
    while let last = entries.last, last == nil { entries.removeLast() }
    if entries.isEmpty { freeIDs = Heap() }
  }
}
