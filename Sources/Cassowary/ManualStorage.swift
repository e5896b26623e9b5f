/// Tables in manual memory (``ManualArray``s and plain values) that a ``ManualStorage`` owns:
/// they can be copied into memory of their own, and their memory freed.
protocol ManuallyAllocated {
  /// A copy of every table, in memory of its own.
  func copy() -> Self
  /// Frees the memory of every table.
  mutating func deallocate()
}

/// The heap object that owns tables in manual memory and frees them when the last value holding
/// it goes.
///
/// A value type that keeps its tables here (the sparse tableau, the solver) stays a value: before
/// it changes anything it checks, once per operation, that no copy of it holds the same storage
/// (`isKnownUniquelyReferenced`), and copies the tables when one does. An `Array` makes that check
/// on every write instead.
final class ManualStorage<Contents: ManuallyAllocated> {
  /// The tables; their address never changes.
  let contents: UnsafeMutablePointer<Contents>

  /// Storage owning `contents`.
  init(_ contents: Contents) {
    self.contents = .allocate(capacity: 1)
    self.contents.initialize(to: contents)
  }

  /// Storage owning a copy of this storage's tables.
  func copy() -> ManualStorage { ManualStorage(contents.pointee.copy()) }

  deinit {
    contents.pointee.deallocate()
    contents.deinitialize(count: 1)
    contents.deallocate()
  }
}
