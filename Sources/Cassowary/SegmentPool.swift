#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A run of slots in a ``SegmentPool``: `count` used of `capacity`, from `start`.
struct Segment: BitwiseCopyable {
  var start: Int32
  var count: Int32
  var capacity: Int32

  static let empty = Segment(start: 0, count: 0, capacity: 0)
}

/// Many small growable lists (a tableau's rows, or its columns) in a few large blocks of memory,
/// so that no list is a heap object of its own.
///
/// Segments grow into power-of-two capacities; freed segments go to a free list per capacity and
/// are reused. A segment never shrinks, so lists that grow and shrink in turn allocate nothing,
/// and lists that grow in turn (different columns each time) take new slots until each has
/// room for the most it holds, or a compaction packs them.
/// A free list runs through its segments' first slots (see ``PoolElement``), so it needs no
/// storage of its own. New segments are cut from the end of the slots taken so far. Compaction
/// packs every segment at its exact size (see ``compact(_:holding:)``). When the last segment is
/// freed the memory itself is released, so memory returns to where it started.
///
/// The slots are numbered contiguously but live in blocks that are never moved: a pool that runs
/// out of room adds a block (twice the last one's size, up to ``largestBlock`` and to an eighth
/// of the slots taken) instead of copying everything into one twice as large. A pool that grew by copying touched about three
/// times its final size in new memory, every page of it a page fault (a third of a 10,000-view
/// form's build). A slot is found through a table with an entry per ``unit`` of slots; a segment
/// never crosses from one block into another, so a loop over a segment reads one pointer.
///
/// Its memory is manual (see ``ManualArray``): the tableau that owns the pool frees it with
/// ``deallocate()`` and duplicates it with ``copy()``.
struct SegmentPool<Element: PoolElement> {
  /// For each unit of slots, the address of its first slot.
  private var units = ManualArray<UnsafeMutablePointer<Element>>()
  /// For each unit of slots, the number one past the last slot of the block it lies in.
  private var blockEnds = ManualArray<Int32>()
  /// The first unit of each block, in order: the units whose addresses were allocated.
  private var blockStarts = ManualArray<Int32>()
  /// The slots segments have taken, in use or on a free list.
  private(set) var taken: Int32 = 0
  /// For each size class, the start of its first free segment, or -1; empty until a segment is
  /// freed.
  private var freeHeads = ManualArray<Int32>()
  private var liveSegments = 0
  /// The capacity of a segment's first slots (a power of two, at least ``smallestCapacity``).
  private let initialCapacity: Int
  private let initialSizeClass: Int

  init(initialCapacity: Int = smallestCapacity) {
    precondition(
      initialCapacity >= Self.smallestCapacity && initialCapacity.nonzeroBitCount == 1,
      "an initial capacity must be a power of two of at least \(Self.smallestCapacity)")
    self.initialCapacity = initialCapacity
    initialSizeClass = Self.sizeClass(of: initialCapacity)
  }

  /// Slots per entry of the address table: blocks are whole units.
  static var unit: Int { 1 << unitShift }
  private static var unitShift: Int { 8 }
  /// The size of the first block, in slots.
  private static var firstBlock: Int { unit }
  /// The size past which blocks stop doubling, in slots (a segment larger than this gets a block
  /// of its own size).
  static var largestBlock: Int { 1 << 16 }

  /// The address of slot `index`: any slot below ``slotCount`` is in some block.
  @inline(__always)
  private func address(of index: Int32) -> UnsafeMutablePointer<Element> {
    units[Int(index) >> Self.unitShift] + (Int(index) & (Self.unit - 1))
  }

  /// Slot `index` of the pool.
  subscript(index: Int32) -> Element {
    @inline(__always) unsafeAddress { UnsafePointer(address(of: index)) }
    @inline(__always) nonmutating unsafeMutableAddress { address(of: index) }
  }

  /// The slots of `segment`, all `capacity` of them, as a pointer to the first: for a loop over
  /// a segment with one bounds check for the whole segment. Valid until the pool is compacted.
  @inline(__always)
  func slots(of segment: Segment) -> UnsafeMutablePointer<Element> {
    guard segment.capacity > 0 else { return Self.placeholder }
    precondition(
      segment.start + segment.capacity <= blockEnds[Int(segment.start) >> Self.unitShift],
      "a segment crosses the end of its block")
    return address(of: segment.start)
  }

  /// A non-null, aligned address for an empty segment: nothing is ever read there.
  private static var placeholder: UnsafeMutablePointer<Element> {
    UnsafeMutablePointer(bitPattern: MemoryLayout<Element>.alignment).unsafelyUnwrapped
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
    pushFree(start: segment.start, capacity: segment.capacity)
    segment = .empty
    liveSegments -= 1
    if liveSegments == 0 { deallocate() }
  }

  /// Puts the slots `start..<start + capacity` on a free list: that of the largest power of two
  /// they hold (a compacted segment's capacity need not be one; a single slot is left unused
  /// until the next compaction).
  private mutating func pushFree(start: Int32, capacity: Int32) {
    let sizeClass = Int.bitWidth - Int(capacity).leadingZeroBitCount - 2
    guard sizeClass >= 0 else { return }
    if freeHeads.isEmpty { freeHeads.grow(to: Self.sizeClasses, with: -1) }
    self[start] = Element(freeLink: freeHeads[sizeClass])
    freeHeads[sizeClass] = start
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
        freeHeads[sizeClass] = self[head].freeLink
        return head
      }
    }
    return cut(Self.smallestCapacity << sizeClass)
  }

  /// New slots for a segment of `capacity`, after those taken: in the last block if it has room,
  /// else in a new block (the rest of the last one goes to the free lists).
  @inline(__always)
  private mutating func cut(_ capacity: Int) -> Int32 {
    let start = taken
    if Int(start) + capacity > Int(blockEnd) { return cutInNewBlock(capacity) }
    taken = start + Int32(capacity)
    return start
  }

  /// The end of the last block, or 0 before the first.
  private var blockEnd: Int32 { blockEnds.isEmpty ? 0 : blockEnds[blockEnds.count - 1] }

  @inline(never)
  private mutating func cutInNewBlock(_ capacity: Int) -> Int32 {
    // The last block's unused end, in power-of-two pieces, to the free lists.
    pushFree(start: taken, length: blockEnd - taken)
    taken = blockEnd
    let lastStart = blockStarts.last.map { Int($0) << Self.unitShift } ?? 0
    let lastSize = Int(blockEnd) - lastStart
    // Twice the last block, but no more than an eighth of the slots taken so far: after a
    // compaction into one block of its exact size, the next few cells (a first layout pass
    // adding a handful of constraints) get a small block, not one as large as the largest.
    var size = min(max(Self.firstBlock, 2 * lastSize), Self.largestBlock)
    size = min(size, max(Self.firstBlock, Self.roundedToUnits(Int(taken) / 8)))
    size = max(size, Self.roundedToUnits(capacity))
    addBlock(slots: size)
    let start = taken
    taken += Int32(capacity)
    return start
  }

  /// `slots` rounded up to a whole number of units.
  private static func roundedToUnits(_ slots: Int) -> Int { (slots + unit - 1) & ~(unit - 1) }

  /// Allocates a block of `size` slots (a whole number of units) after the last.
  private mutating func addBlock(slots size: Int) {
    precondition(
      Int(blockEnd) + size <= Int(Int32.max), "a segment pool cannot hold more than 2³¹ slots")
    guard let memory = malloc(size * MemoryLayout<Element>.stride) else {
      fatalError("out of memory: a block of \(size) slots")
    }
    let base = memory.bindMemory(to: Element.self, capacity: size)
    let first = units.count
    let end = blockEnd + Int32(size)
    blockStarts.append(Int32(first))
    for unit in 0..<(size >> Self.unitShift) {
      units.append(base + unit << Self.unitShift)
      blockEnds.append(end)
    }
  }

  private mutating func grow(_ segment: inout Segment, toHold needed: Int32) {
    let sizeClass = Self.sizeClass(of: max(initialCapacity, Int(needed)))
    let newCapacity = Self.smallestCapacity << sizeClass
    let start = take(sizeClass: sizeClass)
    let count = Int(segment.count)
    if count > 0 {
      // Element by element: most segments that move hold two to four, for which a call to
      // `memmove` costs several times the copy.
      let from = slots(of: segment)
      let to = address(of: start)
      for offset in 0..<count { to[offset] = from[offset] }
    }
    liveSegments += 1  // before releasing the old segment, so the pool is never seen empty
    release(&segment)
    segment = Segment(start: start, count: Int32(count), capacity: Int32(newCapacity))
  }

  /// The capacity of a new segment: most rows and columns of a layout's tableau hold one to three
  /// cells, so two wastes least and a third cell costs one move.
  static var smallestCapacity: Int { 2 }

  /// The size class of the smallest power-of-two capacity of at least `capacity` slots.
  private static func sizeClass(of capacity: Int) -> Int {
    Int.bitWidth - (capacity - 1).leadingZeroBitCount - 1  // 2 → 0, 4 → 1, 8 → 2, …
  }

  /// The slots the blocks hold, in use or not.
  private var slotCount: Int { units.count << Self.unitShift }

  /// Whether the blocks have room for more than `ratio` times the `used` elements of its
  /// segments plus `allowance` slots.
  func isWasteful(holding used: Int, beyond ratio: Double, allowance: Int) -> Bool {
    Double(slotCount) > ratio * Double(used) + Double(allowance)
  }

  /// Rebuilds the pool holding exactly the elements `segments` use, each segment at its exact
  /// size; empty segments are released. `segments` must be every segment of the pool (the rows
  /// of a tableau, or its columns), holding `used` elements in all.
  ///
  /// A pool of up to ``largestBlock`` elements is copied into one block of their size. A larger
  /// one is copied a group of blocks at a time, each group's segments into a new block of their
  /// size (up to ``largestBlock``), and the group's blocks are freed before the next group is
  /// copied: compacting then holds the pool and one block more, not the pool twice (a large
  /// scene's first layout ends with a compaction, and its peak was that second copy).
  ///
  /// - Complexity: O(*s* + *b*) for *s* segments in *b* blocks, plus O(`used`) moves.
  mutating func compact(_ segments: inout ManualArray<Segment>, holding used: Int) {
    guard used > Self.largestBlock else { return compactIntoOneBlock(&segments, holding: used) }
    let blockCount = blockStarts.count
    // The block each unit lies in; for each block, the elements of its live segments and a
    // list of them: `first[block]`, then each segment's `capacity` names the next (-1 ends
    // it), a field the compaction rewrites anyway and a list that allocates nothing more.
    var unitBlock = ManualArray<Int32>(repeating: 0, count: units.count)
    var first = ManualArray<Int32>(repeating: -1, count: blockCount)
    var elements = ManualArray<Int>(repeating: 0, count: blockCount)
    defer {
      unitBlock.deallocate()
      first.deallocate()
      elements.deallocate()
    }
    for block in 0..<blockCount {
      let end = block + 1 < blockCount ? Int(blockStarts[block + 1]) : units.count
      for unit in Int(blockStarts[block])..<end { unitBlock[unit] = Int32(block) }
    }
    // Through pointers, each range checked once: this pass is most of a compaction.
    let segmentCount = segments.count
    let all = segments.pointer(from: 0, length: segmentCount)
    let blockOfUnit = unitBlock.pointer(from: 0, length: unitBlock.count)
    let heads = first.pointer(from: 0, length: blockCount)
    let sizes = elements.pointer(from: 0, length: blockCount)
    var live = 0
    var moved = 0
    // Backwards, so that each list comes out in the segments' order, as they are copied.
    for index in (0..<segmentCount).reversed() where all[index].capacity > 0 {
      let segment = all[index]
      guard segment.count > 0 else {
        all[index] = .empty
        continue
      }
      precondition(segment.start >= 0 && segment.start < taken, "a segment outside the pool")
      let block = Int(blockOfUnit[Int(segment.start) >> Self.unitShift])
      all[index].capacity = heads[block]
      heads[block] = Int32(index)
      sizes[block] += Int(segment.count)
      moved += Int(segment.count)
      live += 1
    }
    precondition(moved <= used, "the segments hold more than \(used) elements")
    var compacted = SegmentPool(initialCapacity: initialCapacity)
    var block = 0
    while block < blockCount {
      // The next group: blocks whose segments fit in one new block, or a single block.
      var end = block
      var total = 0
      while end < blockCount && (end == block || total + sizes[end] <= Self.largestBlock) {
        total += sizes[end]
        end += 1
      }
      if total > 0 {
        // What the last new block has left goes to the free lists, as a block's end does when
        // a segment does not fit.
        compacted.pushFree(start: compacted.taken, length: compacted.blockEnd - compacted.taken)
        compacted.taken = compacted.blockEnd
        compacted.addBlock(slots: Self.roundedToUnits(total))
        for member in block..<end {
          var index = Int(heads[member])
          while index >= 0 {
            let next = Int(all[index].capacity)
            let segment = Segment(
              start: all[index].start, count: all[index].count, capacity: all[index].count)
            let start = compacted.cut(Int(segment.count))
            let from = slots(of: segment)
            let to = compacted.address(of: start)
            for offset in 0..<Int(segment.count) { to[offset] = from[offset] }
            all[index] = Segment(start: start, count: segment.count, capacity: segment.count)
            index = next
          }
        }
      }
      for member in block..<end { free(units[Int(blockStarts[member])]) }
      block = end
    }
    compacted.liveSegments = live
    units.deallocate()
    blockEnds.deallocate()
    blockStarts.deallocate()
    freeHeads.deallocate()
    self = compacted
  }

  /// ``compact(_:holding:)`` for a small pool: every segment, in order, into one new block of
  /// their size; then the old blocks go.
  private mutating func compactIntoOneBlock(
    _ segments: inout ManualArray<Segment>, holding used: Int
  ) {
    var compacted = SegmentPool(initialCapacity: initialCapacity)
    if used > 0 { compacted.addBlock(slots: Self.roundedToUnits(used)) }
    var live = 0
    var moved = 0
    for index in segments.indices where segments[index].capacity > 0 {
      let segment = segments[index]
      guard segment.count > 0 else {
        segments[index] = .empty
        continue
      }
      let count = Int(segment.count)
      moved += count
      precondition(moved <= used, "the segments hold more than \(used) elements")
      let start = compacted.cut(count)
      let from = slots(of: segment)
      let to = compacted.address(of: start)
      for offset in 0..<count { to[offset] = from[offset] }
      segments[index] = Segment(start: start, count: segment.count, capacity: segment.count)
      live += 1
    }
    // The free lists the cuts made at block ends stay; the old blocks go.
    compacted.liveSegments = live
    deallocate()
    self = compacted
  }

  /// Puts the slots `start..<start + length` on the free lists, in power-of-two pieces.
  private mutating func pushFree(start: Int32, length: Int32) {
    var start = start
    var rest = length
    while rest >= 2 {
      let piece = Int32(1) << (Int32.bitWidth - rest.leadingZeroBitCount - 1)
      pushFree(start: start, capacity: piece)
      start += piece
      rest -= piece
    }
  }

  /// Bytes held by the pool's blocks and tables.
  var bytes: Int {
    slotCount * MemoryLayout<Element>.stride + units.bytes + blockEnds.bytes + blockStarts.bytes
      + freeHeads.bytes
  }

  /// A pool holding copies of this one's segments, in memory of its own.
  func copy() -> SegmentPool {
    var copy = self
    copy.units = ManualArray()
    copy.blockEnds = blockEnds.copy()
    copy.blockStarts = blockStarts.copy()
    copy.freeHeads = freeHeads.copy()
    for (index, first) in blockStarts.enumerated() {
      let end = index + 1 < blockStarts.count ? Int(blockStarts[index + 1]) : units.count
      let size = (end - Int(first)) << Self.unitShift
      guard let memory = malloc(size * MemoryLayout<Element>.stride) else {
        fatalError("out of memory: a block of \(size) slots")
      }
      memory.copyMemory(from: units[Int(first)], byteCount: size * MemoryLayout<Element>.stride)
      let base = memory.bindMemory(to: Element.self, capacity: size)
      for unit in 0..<(size >> Self.unitShift) { copy.units.append(base + unit << Self.unitShift) }
    }
    return copy
  }

  /// Frees the pool's memory; every segment of it becomes invalid.
  mutating func deallocate() {
    for first in blockStarts { free(units[Int(first)]) }
    units.deallocate()
    blockEnds.deallocate()
    blockStarts.deallocate()
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
