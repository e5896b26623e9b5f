extension Array {
  /// Moves the elements into storage of their size when growth left an eighth or more of the
  /// capacity unused (and more than a few kilobytes' worth of elements): a table sized by a
  /// layout just built then holds what the layout needs, not up to twice that.
  mutating func trimExcessCapacity() {
    guard capacity > count + count / 8 + 1024 else { return }
    var trimmed: [Element] = []
    trimmed.reserveCapacity(count)
    trimmed.append(contentsOf: self)
    self = trimmed
  }
}
