extension Array {
  /// Moves the elements into storage of their size when growth left an eighth or more of the
  /// capacity unused: a table sized by a layout just built then holds what the layout needs,
  /// not up to twice that, and what a rebuild of the same constraints holds too. Inlined, so
  /// that each use is specialized and copies with `memcpy`.
  @inline(__always)
  mutating func trimExcessCapacity() {
    guard capacity > count + count / 8 + 16 else { return }
    var trimmed: [Element] = []
    trimmed.reserveCapacity(count)
    trimmed.append(contentsOf: self)
    self = trimmed
  }
}

extension Array {
  /// Empties the array and keeps its storage for reuse. The solver's scratch buffers and undo
  /// log are cleared once or more per operation, mostly while empty or holding one to four
  /// elements: `removeAll(keepingCapacity: true)` goes through the general `replaceSubrange`
  /// (about 80 instructions, and on an array that never had storage, the slow path of a shared
  /// buffer), where taking a few elements off the end costs a few each: up to `limit` (four
  /// by default; a list that mostly holds more, as a substitution's sum of up to eight terms,
  /// passes its own).
  @inline(__always)
  mutating func removeAllKeepingCapacity(offTheEndUpTo limit: Int = 4) {
    let count = self.count
    if count == 0 { return }
    if count <= limit {
      for _ in 0..<count { removeLast() }
    } else {
      removeAll(keepingCapacity: true)
    }
  }
}

extension Array {
  /// Removes elements off the end until the array holds `count` (none when it holds no more),
  /// keeping its storage: a few one at a time, as ``removeAllKeepingCapacity(offTheEndUpTo:)``
  /// takes them, and more (a table a whole system filled, taken for a batch of a few
  /// constraints) in one `removeLast(_:)`, where one at a time costs some 10 instructions each.
  @inline(__always)
  mutating func shrink(to count: Int) {
    let extra = self.count - count
    guard extra > 0 else { return }
    if extra <= 4 {
      for _ in 0..<extra { removeLast() }
    } else {
      removeLast(extra)
    }
  }

  /// Appends `filler` until the array holds `count` elements. A solver's per-symbol and
  /// per-variable tables grow by a few elements per constraint: within the capacity a few
  /// elements are appended one at a time, since an append of repeated elements costs some 200
  /// instructions a call however few it appends, and more (a table refilled to the size of a
  /// rebuild after later batches left it short) in one append, where one at a time costs some
  /// 18 instructions each; beyond the capacity, in one append, which allocates exactly as
  /// before (one element at a time would take the buffer through other sizes).
  @inline(__always)
  mutating func grow(to count: Int, with filler: Element) {
    let extra = count - self.count
    guard extra > 0 else { return }
    if count <= capacity && extra <= 16 {
      for _ in 0..<extra { append(filler) }
    } else {
      append(contentsOf: repeatElement(filler, count: extra))
    }
  }
}
