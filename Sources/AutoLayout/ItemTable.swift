import CThreadLocal
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The rows of the layout items made on one thread: every ``View`` and ``LayoutGuide`` takes a
/// row when it is made and gives it back as it goes.
///
/// Rows live in chunks that never move and are never freed, so a row's address names it for
/// good: an item keeps a pointer to its row, and an ``ItemID`` is that pointer with the row's
/// generation, which goes up each time an item gives the row back. An id of an item that went
/// therefore reads as gone, never as the item that took the row next.
///
/// One table a thread, as an allocator keeps a cache a thread: making and dropping items takes
/// no lock, independent trees on separate threads share no row, and what a thread's items took
/// is counted to that thread (the harness's per-thread byte counts stay exact). A row given back
/// on another thread than its table's goes on the table's list of rows freed elsewhere, under a
/// lock, which the table takes back when its own list is empty. A thread that ends leaves its
/// table to the next thread that needs one, so there are at most as many tables as threads that
/// ran at once.
final class ItemTable: @unchecked Sendable {
  /// Rows a chunk holds (12 KiB: one of the allocator's small size classes).
  static let rowsPerChunk = 512

  /// The chunks, in the order they were made. Only the thread holding the table touches this
  /// and the next two (unchecked: the table is reached through a thread-local pointer, never
  /// shared while held).
  @exclusivity(unchecked) private var chunks: [UnsafeMutablePointer<ItemRow>] = []
  /// Rows handed out from the newest chunk.
  @exclusivity(unchecked) private var rowsUsedInLastChunk = rowsPerChunk
  /// The first of the rows given back on this thread, reused last first: a list threaded
  /// through the rows, so that giving rows back allocates nothing.
  @exclusivity(unchecked) private var firstFreeRow: UnsafeMutablePointer<ItemRow>?
  /// The rows given back on other threads, threaded as ``firstFreeRow``'s, and how many.
  private let rowsFreedElsewhere = Mutex(RowsFreedElsewhere())
  /// Whether ``rowsFreedElsewhere`` holds any row, so that making an item looks without locking.
  private let hasRowsFreedElsewhere = Atomic<Bool>(false)

  private init() {}

  /// The calling thread's table, made (or taken over from a thread that ended) on first use.
  ///
  /// - Complexity: O(1).
  static var current: ItemTable { currentUnretained.takeUnretainedValue() }

  /// ``current``, not retained: tables are never freed.
  @inline(__always) private static var currentUnretained: Unmanaged<ItemTable> {
    if let raw = layoutbench_current_item_table() { return .fromOpaque(raw) }
    return tableForNewThread()
  }

  /// A table for a thread's first item: one a thread that ended left, or a new one. Out of
  /// line, so that reading the table stays a load where it is inlined.
  @inline(never) private static func tableForNewThread() -> Unmanaged<ItemTable> {
    let table = ItemTablePool.shared.tables.withLock { $0.popLast() } ?? ItemTable()
    // Retained for good: rows of its items may outlive the thread, and ids point into it.
    let raw = Unmanaged.passRetained(table).toOpaque()
    // The key only for its destructor, which leaves the table to the pool as the thread ends.
    pthread_setspecific(itemTableKey, raw)
    layoutbench_set_current_item_table(raw)
    return .fromOpaque(raw)
  }

  /// A row of the calling thread's table for a new item (see ``makeRow()``).
  ///
  /// - Complexity: O(1) amortized.
  static func makeRowOnThisThread() -> UnsafeMutablePointer<ItemRow> {
    currentUnretained._withUnsafeGuaranteedRef { $0.makeRow() }
  }

  /// A row for a new item: one given back before, or a new one. The caller stores its item in
  /// the row before anyone can ask for it.
  ///
  /// - Complexity: O(1) amortized.
  func makeRow() -> UnsafeMutablePointer<ItemRow> {
    if firstFreeRow == nil, hasRowsFreedElsewhere.load(ordering: .acquiring) {
      firstFreeRow = rowsFreedElsewhere.withLock { elsewhere in
        defer { elsewhere = RowsFreedElsewhere() }
        hasRowsFreedElsewhere.store(false, ordering: .relaxed)
        return elsewhere.first?.row
      }
    }
    let me = Unmanaged.passUnretained(self).toOpaque()
    if let row = firstFreeRow {
      firstFreeRow = row.pointee.link?.assumingMemoryBound(to: ItemRow.self)
      row.pointee.link = me
      return row
    }
    if rowsUsedInLastChunk == Self.rowsPerChunk {
      let chunk = UnsafeMutablePointer<ItemRow>.allocate(capacity: Self.rowsPerChunk)
      chunk.initialize(
        repeating: ItemRow(generation: 0, item: nil, link: me), count: Self.rowsPerChunk)
      chunks.append(chunk)
      rowsUsedInLastChunk = 0
    }
    defer { rowsUsedInLastChunk += 1 }
    return chunks[chunks.count - 1] + rowsUsedInLastChunk
  }

  /// Gives `row` back as its item goes: ids of the item read as gone from now on.
  ///
  /// - Complexity: O(1).
  static func freeRow(_ row: UnsafeMutablePointer<ItemRow>) {
    row.pointee.generation &+= 1
    row.pointee.item = nil
    let link = row.pointee.link.unsafelyUnwrapped
    let table = Unmanaged<ItemTable>.fromOpaque(link).takeUnretainedValue()
    if layoutbench_current_item_table() == link {
      row.pointee.link = table.firstFreeRow.map(UnsafeMutableRawPointer.init)
      table.firstFreeRow = row
    } else {
      table.rowsFreedElsewhere.withLock { elsewhere in
        row.pointee.link = elsewhere.first.map { UnsafeMutableRawPointer($0.row) }
        elsewhere.first = FreeRow(row: row)
        elsewhere.count += 1
        table.hasRowsFreedElsewhere.store(true, ordering: .releasing)
      }
    }
  }

  /// Rows in use and rows made, for tests.
  ///
  /// - Complexity: O(rows given back).
  var rowCounts: (inUse: Int, made: Int) {
    guard !chunks.isEmpty else { return (0, 0) }
    let made = (chunks.count - 1) * Self.rowsPerChunk + rowsUsedInLastChunk
    var free = rowsFreedElsewhere.withLock { $0.count }
    var next = firstFreeRow
    while let row = next {
      free += 1
      next = row.pointee.link?.assumingMemoryBound(to: ItemRow.self)
    }
    return (made - free, made)
  }
}

/// A table's list of rows given back on other threads.
private struct RowsFreedElsewhere: Sendable {
  var first: FreeRow?
  var count = 0
}

/// A row given back on another thread: sendable, since it goes to its table's list under a
/// lock, and a row on a list belongs to no item.
private struct FreeRow: @unchecked Sendable {
  let row: UnsafeMutablePointer<ItemRow>
}

/// An item's row in its thread's ``ItemTable``.
struct ItemRow {
  /// Goes up each time the row's item goes; an ``ItemID`` made with another one is stale.
  var generation: UInt32
  /// The item, not retained: it gives the row back as it goes.
  var item: Unmanaged<LayoutItem>?
  /// While the row is in use, its table (tables are never freed); while it is free, the next
  /// row of the free list it is on.
  fileprivate var link: UnsafeMutableRawPointer?
}

/// A layout item's name that does not keep it alive: its row and the row's generation when it
/// was taken. An anchor holds one, as UIKit's holds its item weakly.
struct ItemID: Equatable {
  let row: UnsafeMutablePointer<ItemRow>
  let generation: UInt32

  /// The item, not retained, or nil once it is gone (even if another item took its row since).
  ///
  /// - Complexity: O(1).
  var item: Unmanaged<LayoutItem>? {
    row.pointee.generation == generation ? row.pointee.item : nil
  }
}

/// The tables of threads that ended, for the next threads that need one.
private final class ItemTablePool: Sendable {
  static let shared = ItemTablePool()
  let tables = Mutex<[ItemTable]>([])
}

/// The key whose destructor leaves an ending thread's table to the pool. The thread's slot is
/// cleared first: an item that goes on the thread after that (another destructor's) gives its
/// row back as from another thread, while the next owner uses the table.
private let itemTableKey: pthread_key_t = {
  var key = pthread_key_t()
  let status = pthread_key_create(&key) { raw in
    guard let raw else { return }
    layoutbench_set_current_item_table(nil)
    let table = Unmanaged<ItemTable>.fromOpaque(raw).takeUnretainedValue()
    ItemTablePool.shared.tables.withLock { $0.append(table) }
  }
  precondition(status == 0, "pthread_key_create failed (\(status)): no item table for threads")
  return key
}()
