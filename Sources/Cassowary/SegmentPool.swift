/// A run of slots in a ``SegmentPool``: `count` used of `capacity`, from `start`.
struct Segment {
  var start: Int32
  var count: Int32
  var capacity: Int32

  static let empty = Segment(start: 0, count: 0, capacity: 0)
}

/// One contiguous array holding many small growable lists (a tableau's rows, or its columns),
/// so that no list is a heap object of its own.
///
/// Segments grow into power-of-two capacities; freed segments go to a free list per capacity and
/// are reused, so a steady state of adds and removes allocates nothing. A free list runs through
/// its segments' first slots (see ``PoolElement``), so it needs no storage of its own. New
/// segments are cut from the end of the slots taken so far, in storage filled to its capacity
/// ahead of time, so that a new segment costs no array append. Compaction packs every segment at
/// its exact size. When the last segment is freed the storage itself is released, so memory
/// returns to where it started.
struct SegmentPool<Element: PoolElement> {
  private(set) var slots: [Element] = []
  /// The slots segments have taken, in use or on a free list; those above are the filler.
  private(set) var taken: Int32 = 0
  /// For each size class, the start of its first free segment, or -1; empty until a segment is
  /// freed.
  private var freeHeads: [Int32] = []
  private var liveSegments = 0
  private let filler: Element

  init(filler: Element) { self.filler = filler }

  /// Slot `index` of the pool.
  subscript(index: Int32) -> Element {
    @inline(__always) get { slots[Int(index)] }
    @inline(__always) _modify { yield &slots[Int(index)] }
  }

  /// Makes `segment` able to hold one more element, moving it if it is full.
  @inline(__always)
  mutating func reserveOneMore(_ segment: inout Segment) {
    if segment.count == segment.capacity { grow(&segment, toHold: segment.capacity + 1) }
  }

  /// Makes `segment` able to hold `needed` elements, moving it if it cannot: to the capacity
  /// that growing it one element at a time would end at.
  @inline(__always)
  mutating func reserve(_ segment: inout Segment, toHold needed: Int32) {
    if needed > segment.capacity { grow(&segment, toHold: needed) }
  }

  /// Calls `body` with the pool's slots, for a loop that reads and writes many of them without
  /// a check per access. The pool must not grow meanwhile: reserve first.
  @inline(__always)
  mutating func withUnsafeMutableSlots<Result>(
    _ body: (UnsafeMutableBufferPointer<Element>) -> Result
  ) -> Result {
    slots.withUnsafeMutableBufferPointer { body($0) }
  }

  /// Frees `segment`'s slots; it becomes empty.
  mutating func release(_ segment: inout Segment) {
    guard segment.capacity > 0 else { return }
    // A compacted segment's capacity need not be a power of two: it is reused as the largest
    // power of two it holds (a single slot is left until the next compaction).
    let sizeClass = Int.bitWidth - Int(segment.capacity).leadingZeroBitCount - 2
    if sizeClass >= 0 {
      if freeHeads.isEmpty { freeHeads = Array(repeating: -1, count: Self.sizeClasses) }
      slots[Int(segment.start)] = Element(freeLink: freeHeads[sizeClass])
      freeHeads[sizeClass] = segment.start
    }
    segment = .empty
    liveSegments -= 1
    if liveSegments == 0 {
      slots = []
      taken = 0
      freeHeads = []
    }
  }

  /// Size classes of segments: capacities 2 to 2³² (more than an `Int32` index reaches).
  private static var sizeClasses: Int { 32 }

  private mutating func grow(_ segment: inout Segment, toHold needed: Int32) {
    let sizeClass = Self.sizeClass(of: max(Self.smallestCapacity, Int(needed)))
    let newCapacity = Self.smallestCapacity << sizeClass
    let start: Int32
    if !freeHeads.isEmpty && freeHeads[sizeClass] >= 0 {
      start = freeHeads[sizeClass]
      freeHeads[sizeClass] = slots[Int(start)].freeLink
    } else {
      start = taken
      let end = Int(taken) + newCapacity
      if end > slots.count { extend(toHold: end) }
      taken = Int32(end)
    }
    let count = segment.count
    let from = Int(segment.start)
    slots.withUnsafeMutableBufferPointer { slots in
      for offset in 0..<Int(count) { slots[Int(start) + offset] = slots[from + offset] }
    }
    liveSegments += 1  // before releasing the old segment, so the pool is never seen empty
    release(&segment)
    segment = Segment(start: start, count: count, capacity: Int32(newCapacity))
  }

  /// Fills the storage with the filler up to its capacity, growing it (by doubling) first when it
  /// cannot hold `count` slots. A compacted pool's spare eighth is filled in place, without a new
  /// buffer; growth copies and fills in bulk (an append of repeated elements goes one element at
  /// a time, at 20 instructions a slot).
  private mutating func extend(toHold count: Int) {
    if count > slots.capacity {
      let capacity = max(count, 2 * slots.capacity)
      let filler = self.filler
      slots = [Element](unsafeUninitializedCapacity: capacity) { buffer, initialized in
        let base = buffer.baseAddress!
        let copied = slots.withUnsafeBufferPointer { old in
          if let start = old.baseAddress { base.initialize(from: start, count: old.count) }
          return old.count
        }
        (base + copied).initialize(repeating: filler, count: capacity - copied)
        initialized = capacity
      }
    }
    slots.append(contentsOf: repeatElement(filler, count: slots.capacity - slots.count))
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
  mutating func compact(_ segments: inout [Segment], holding used: Int) {
    let capacity = used + used / 8
    var live = 0
    // Copied through buffers: an append per element would check the array's uniqueness and
    // capacity each time, and a table of a 10,000-view layout holds a few hundred thousand.
    let compacted = [Element](unsafeUninitializedCapacity: capacity) { buffer, initialized in
      var next = 0
      slots.withUnsafeBufferPointer { slots in
        segments.withUnsafeMutableBufferPointer { segments in
          for index in segments.indices where segments[index].capacity > 0 {
            let segment = segments[index]
            guard segment.count > 0 else {
              segments[index] = .empty
              continue
            }
            let count = Int(segment.count)
            precondition(next + count <= capacity, "the segments hold more than \(used) elements")
            for offset in 0..<count {
              buffer.initializeElement(at: next + offset, to: slots[Int(segment.start) + offset])
            }
            segments[index] = Segment(
              start: Int32(next), count: segment.count, capacity: segment.count)
            next += count
            live += 1
          }
        }
      }
      initialized = next
    }
    liveSegments = live
    slots = compacted
    taken = Int32(compacted.count)
    freeHeads = []
  }

  /// Bytes held by the pool's storage.
  var bytes: Int { slots.capacity * MemoryLayout<Element>.stride }
}

/// An element of a ``SegmentPool``: one that can stand for a link in a free list. A free
/// segment's first slot holds such an element, naming the next free segment of its size.
protocol PoolElement {
  /// An element standing for a link to the free segment that starts at `next` (-1: none).
  init(freeLink next: Int32)
  /// The link of an element made by ``init(freeLink:)``.
  var freeLink: Int32 { get }
}
