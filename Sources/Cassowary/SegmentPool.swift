/// A run of slots in a ``SegmentPool``: `count` used of `capacity`, from `start`.
struct Segment: BitwiseCopyable {
  var start: Int32
  var count: Int32
  var capacity: Int32

  static let empty = Segment(start: 0, count: 0, capacity: 0)
}

/// One contiguous block of memory holding many small growable lists (a tableau's rows, or its
/// columns), so that no list is a heap object of its own.
///
/// Segments grow into power-of-two capacities; freed segments go to a free list per capacity and
/// are reused, so a steady state of adds and removes allocates nothing. A free list runs through
/// its segments' first slots (see ``PoolElement``), so it needs no storage of its own. New
/// segments are cut from the end of the slots taken so far, in storage filled to its capacity
/// ahead of time. Compaction packs every segment at its exact size. When the last segment is
/// freed the storage itself is released, so memory returns to where it started.
///
/// Its memory is manual (see ``ManualArray``): the tableau that owns the pool frees it with
/// ``deallocate()`` and duplicates it with ``copy()``.
struct SegmentPool<Element: PoolElement> {
  /// The slots, filled to their capacity: `slots.count` is the storage's size.
  private(set) var slots = ManualArray<Element>()
  /// The slots segments have taken, in use or on a free list; those above are the filler.
  private(set) var taken: Int32 = 0
  /// For each size class, the start of its first free segment, or -1; empty until a segment is
  /// freed.
  private var freeHeads = ManualArray<Int32>()
  private var liveSegments = 0
  private let filler: Element
  /// The capacity of a segment's first slots (a power of two, at least ``smallestCapacity``).
  private let initialCapacity: Int
  private let initialSizeClass: Int

  init(filler: Element, initialCapacity: Int = smallestCapacity) {
    precondition(
      initialCapacity >= Self.smallestCapacity && initialCapacity.nonzeroBitCount == 1,
      "an initial capacity must be a power of two of at least \(Self.smallestCapacity)")
    self.filler = filler
    self.initialCapacity = initialCapacity
    initialSizeClass = Self.sizeClass(of: initialCapacity)
  }

  /// Slot `index` of the pool.
  subscript(index: Int32) -> Element {
    @inline(__always) unsafeAddress { UnsafePointer(slots.pointer(from: Int(index), length: 1)) }
    @inline(__always) nonmutating unsafeMutableAddress {
      slots.pointer(from: Int(index), length: 1)
    }
  }

  /// The slots of `segment`, all `capacity` of them, as a pointer to the first: for a loop over
  /// a segment with one bounds check for the whole segment. Valid until the pool next grows.
  @inline(__always)
  func slots(of segment: Segment) -> UnsafeMutablePointer<Element> {
    slots.pointer(from: Int(segment.start), length: Int(segment.capacity))
  }

  /// Makes `segment` able to hold one more element, moving it if it is full.
  @inline(__always)
  mutating func reserveOneMore(_ segment: inout Segment) {
    guard segment.count == segment.capacity else { return }
    if segment.capacity == 0 {
      // A new row's or column's first element: nothing to move or free.
      liveSegments += 1
      segment = Segment(
        start: take(sizeClass: initialSizeClass), count: 0, capacity: Int32(initialCapacity))
    } else {
      grow(&segment, toHold: segment.capacity + 1)
    }
  }

  /// Makes `segment` able to hold `needed` elements, moving it if it cannot: to the capacity
  /// that growing it one element at a time would end at.
  @inline(__always)
  mutating func reserve(_ segment: inout Segment, toHold needed: Int32) {
    if needed > segment.capacity { grow(&segment, toHold: needed) }
  }

  /// Frees `segment`'s slots; it becomes empty.
  mutating func release(_ segment: inout Segment) {
    guard segment.capacity > 0 else { return }
    // A compacted segment's capacity need not be a power of two: it is reused as the largest
    // power of two it holds (a single slot is left until the next compaction).
    let sizeClass = Int.bitWidth - Int(segment.capacity).leadingZeroBitCount - 2
    if sizeClass >= 0 {
      if freeHeads.isEmpty { freeHeads.grow(to: Self.sizeClasses, with: -1) }
      slots[Int(segment.start)] = Element(freeLink: freeHeads[sizeClass])
      freeHeads[sizeClass] = segment.start
    }
    segment = .empty
    liveSegments -= 1
    if liveSegments == 0 {
      slots.deallocate()
      taken = 0
      freeHeads.deallocate()
    }
  }

  /// Size classes of segments: capacities 2 to 2³² (more than an `Int32` index reaches).
  private static var sizeClasses: Int { 32 }

  /// The start of a free segment of `sizeClass`'s capacity: the first on its free list, or new
  /// slots cut from the end of those taken.
  @inline(__always)
  private mutating func take(sizeClass: Int) -> Int32 {
    if !freeHeads.isEmpty {
      let head = freeHeads[sizeClass]
      if head >= 0 {
        freeHeads[sizeClass] = slots[Int(head)].freeLink
        return head
      }
    }
    let start = taken
    let end = Int(taken) + Self.smallestCapacity << sizeClass
    if end > slots.count { extend(toHold: end) }
    taken = Int32(end)
    return start
  }

  private mutating func grow(_ segment: inout Segment, toHold needed: Int32) {
    let sizeClass = Self.sizeClass(of: max(initialCapacity, Int(needed)))
    let newCapacity = Self.smallestCapacity << sizeClass
    let start = take(sizeClass: sizeClass)
    let count = Int(segment.count)
    if count > 0 {
      // Element by element: most segments that move hold two to four, for which a call to
      // `memmove` costs several times the copy.
      let from = slots.pointer(from: Int(segment.start), length: count)
      let to = slots.pointer(from: Int(start), length: count)
      for offset in 0..<count { to[offset] = from[offset] }
    }
    liveSegments += 1  // before releasing the old segment, so the pool is never seen empty
    release(&segment)
    segment = Segment(start: start, count: Int32(count), capacity: Int32(newCapacity))
  }

  /// Fills the storage with the filler up to its capacity, growing it (by doubling) first when it
  /// cannot hold `count` slots. A compacted pool's spare eighth is filled in place, without new
  /// memory.
  @inline(never)
  private mutating func extend(toHold count: Int) {
    let size = count > slots.capacity ? max(count, 2 * slots.capacity) : slots.capacity
    slots.grow(to: size, with: filler)
  }

  /// The capacity of a new segment: most rows and columns of a layout's tableau hold one to three
  /// cells, so two wastes least and a third cell costs one move.
  static var smallestCapacity: Int { 2 }

  /// The size class of the smallest power-of-two capacity of at least `capacity` slots.
  private static func sizeClass(of capacity: Int) -> Int {
    Int.bitWidth - (capacity - 1).leadingZeroBitCount - 1  // 2 → 0, 4 → 1, 8 → 2, …
  }

  /// Whether the storage has room for more than `ratio` times the `used` elements of its
  /// segments (plus a fixed allowance, so that small pools are left alone).
  func isWasteful(holding used: Int, beyond ratio: Double) -> Bool {
    Double(slots.capacity) > ratio * Double(used) + 4096
  }

  /// Rebuilds the pool holding exactly the elements `segments` use, each segment at its exact
  /// size, with an eighth to spare at the end so that the next few moves do not double the
  /// storage; empty segments are released. `segments` must be every segment of the pool (the
  /// rows of a tableau, or its columns), holding `used` elements in all.
  mutating func compact(_ segments: inout ManualArray<Segment>, holding used: Int) {
    var compacted = ManualArray<Element>()
    compacted.reserveCapacity(used + used / 8)
    var live = 0
    for index in segments.indices where segments[index].capacity > 0 {
      let segment = segments[index]
      guard segment.count > 0 else {
        segments[index] = .empty
        continue
      }
      precondition(
        compacted.count + Int(segment.count) <= compacted.capacity,
        "the segments hold more than \(used) elements")
      let next = Int32(compacted.count)
      let source = slots(of: segment)
      for offset in 0..<Int(segment.count) { compacted.append(source[offset]) }
      segments[index] = Segment(start: next, count: segment.count, capacity: segment.count)
      live += 1
    }
    liveSegments = live
    slots.deallocate()
    slots = compacted
    taken = Int32(compacted.count)
    freeHeads.deallocate()
  }

  /// Bytes held by the pool's storage.
  var bytes: Int { slots.bytes + freeHeads.bytes }

  /// A pool holding copies of this one's segments, in memory of its own.
  func copy() -> SegmentPool {
    var copy = self
    copy.slots = slots.copy()
    copy.freeHeads = freeHeads.copy()
    return copy
  }

  /// Frees the pool's memory; every segment of it becomes invalid.
  mutating func deallocate() {
    slots.deallocate()
    freeHeads.deallocate()
    taken = 0
    liveSegments = 0
  }
}

/// An element of a ``SegmentPool``: one that can stand for a link in a free list. A free
/// segment's first slot holds such an element, naming the next free segment of its size.
protocol PoolElement: BitwiseCopyable {
  /// An element standing for a link to the free segment that starts at `next` (-1: none).
  init(freeLink next: Int32)
  /// The link of an element made by ``init(freeLink:)``.
  var freeLink: Int32 { get }
}
