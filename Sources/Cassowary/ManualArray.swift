#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A growable array of plain values whose memory its owner allocates and frees explicitly: the
/// sparse tableau's tables.
///
/// A Swift `Array` checks, on every write, that its buffer is not shared (copy on write); the
/// sparse tableau writes its tables a few million times while a 10,000-view layout is built,
/// and those checks were about a tenth of its instructions. The tableau keeps its tables in one
/// heap object that it checks once per operation instead (see ``SparseTableau``), and that
/// object holds them as manual arrays. Indices are checked as an array's are.
///
/// Copying the struct does not copy the elements: only ``copy()`` does, and only
/// ``deallocate()`` frees them.
struct ManualArray<Element: BitwiseCopyable> {
  /// The first element; an array that holds no memory points at a placeholder never read.
  private(set) var base = placeholder
  private(set) var count = 0
  private(set) var capacity = 0

  /// An empty array, holding no memory.
  init() {}

  /// An array of `count` copies of `element`.
  init(repeating element: Element, count: Int) {
    grow(to: count, with: element)
  }

  /// Element `index`, which must be in `0..<count`.
  subscript(index: Int) -> Element {
    @inline(__always) unsafeAddress {
      precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "index out of range")
      return UnsafePointer(base + index)
    }
    @inline(__always) nonmutating unsafeMutableAddress {
      precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "index out of range")
      return base + index
    }
  }

  /// The elements `start..<start + length`, which must all be in the array, as a pointer to the
  /// first: for a loop over a run of elements with one check for the whole run.
  @inline(__always)
  func pointer(from start: Int, length: Int) -> UnsafeMutablePointer<Element> {
    precondition(
      start >= 0 && length >= 0 && start <= count - length, "range out of bounds")
    return base + start
  }

  /// A non-null, aligned address for an array without memory: nothing is ever read there.
  private static var placeholder: UnsafeMutablePointer<Element> {
    UnsafeMutablePointer(bitPattern: MemoryLayout<Element>.alignment).unsafelyUnwrapped
  }

  /// Bytes of memory held.
  var bytes: Int { capacity * MemoryLayout<Element>.stride }

  @inline(__always)
  mutating func append(_ element: Element) {
    if count == capacity { reallocate(capacity: Swift.max(4, 2 * capacity)) }
    base[count] = element
    count += 1
  }

  @inline(__always)
  @discardableResult
  mutating func removeLast() -> Element {
    precondition(count > 0, "removeLast() on an empty array")
    count -= 1
    return base[count]
  }

  @inline(__always)
  mutating func popLast() -> Element? {
    guard count > 0 else { return nil }
    count -= 1
    return base[count]
  }

  /// Empties the array, keeping its memory.
  @inline(__always)
  mutating func removeAllKeepingCapacity() { count = 0 }

  /// Appends `filler` until the array holds `count` elements; beyond the capacity, the memory at
  /// least doubles.
  @inline(__always)
  mutating func grow(to count: Int, with filler: Element) {
    guard count > self.count else { return }
    if count > capacity { reallocate(capacity: Swift.max(count, 2 * capacity)) }
    if count - self.count <= 8 {
      // One element at a time: the solver's tables grow by a few elements per constraint, where
      // a call to fill memory costs more than the elements.
      for index in self.count..<count { (base + index).initialize(to: filler) }
    } else {
      (base + self.count).initialize(repeating: filler, count: count - self.count)
    }
    self.count = count
  }

  /// Makes room for `capacity` elements at least, in memory of exactly that size when it must
  /// grow: for a table whose final size is known before it is filled, which then never grows by
  /// doubling (each doubling a copy of everything so far).
  ///
  /// - Complexity: O(`count`) when the memory moves.
  mutating func reserveCapacity(_ capacity: Int) {
    if capacity > self.capacity { reallocate(capacity: capacity) }
  }

  /// Moves the elements into memory of about their size when growth left more than an eighth
  /// of the capacity unused, as `Array.trimExcessCapacity()` does. An eighth is kept spare, as
  /// the allocator's size classes leave an array: trimmed to the element, the first few
  /// elements a layout adds after its build (a nested grid's first layout pass) doubled every
  /// table. The capacity after a trim depends on the count alone, so that a rebuild of the
  /// same constraints holds what the first build held.
  mutating func trimExcessCapacity() {
    guard capacity > count + count / 8 + 16 else { return }
    reallocate(capacity: count + count / 8)
  }

  /// An array holding copies of the elements, in memory of its own with the same capacity.
  func copy() -> ManualArray {
    var copy = ManualArray()
    copy.reallocate(capacity: capacity)
    if count > 0 { copy.base.initialize(from: base, count: count) }
    copy.count = count
    return copy
  }

  /// Frees the memory; the array is empty afterwards.
  mutating func deallocate() {
    if capacity > 0 { free(base) }
    base = Self.placeholder
    count = 0
    capacity = 0
  }

  /// Moves the elements to memory for `capacity` elements (at least `count`).
  ///
  /// With `realloc`, which the allocator may answer by extending the block in place, without a
  /// copy (2 % of a 10,000-view flat build's instructions went to copying tables that doubled).
  private mutating func reallocate(capacity newCapacity: Int) {
    guard newCapacity > 0 else { return deallocate() }
    let bytes = newCapacity * MemoryLayout<Element>.stride
    let memory = capacity > 0 ? realloc(base, bytes) : malloc(bytes)
    guard let memory else { fatalError("out of memory: \(bytes) bytes for a table") }
    base = memory.bindMemory(to: Element.self, capacity: newCapacity)
    capacity = newCapacity
  }
}

extension ManualArray: RandomAccessCollection {
  var startIndex: Int { 0 }
  var endIndex: Int { count }
}
