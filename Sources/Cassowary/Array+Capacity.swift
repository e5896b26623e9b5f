extension Array {
  /// Moves the elements into storage of their size when growth left an eighth or more of the
  /// capacity unused (and more than a few kilobytes' worth of elements): a table sized by a
  /// layout just built then holds what the layout needs, not up to twice that. Inlined, so that
  /// each use is specialized and copies with `memcpy`.
  @inline(__always)
  mutating func trimExcessCapacity() {
    guard capacity > count + count / 8 + 1024 else { return }
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
  /// buffer), where taking a few elements off the end costs a few each.
  @inline(__always)
  mutating func removeAllKeepingCapacity() {
    let count = self.count
    if count == 0 { return }
    if count <= 4 {
      for _ in 0..<count { removeLast() }
    } else {
      removeAll(keepingCapacity: true)
    }
  }
}
