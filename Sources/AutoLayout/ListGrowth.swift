import Synchronization

/// The capacities a view's list (its subviews, arranged views, dirty subviews)
/// passes through as elements are appended to it one by one, as the standard library grows an
/// array and the allocator rounds each buffer up to its size class.
///
/// A solve from scratch gives back what a list grew to while elements came and went
/// (``LayoutItem/compactLists()``): it leaves the list with the capacity that appending its
/// elements to an empty list would have given it, the room a first layout of the same
/// constraints leaves. A rounder guess (the next power of two) is wrong both ways under a
/// size-class allocator: 17 references appended hold 18 places (320 bytes with jemalloc),
/// while room for 32 is 38 places (640 bytes), so a list shrunk to the power of two would hold
/// twice a first layout's bytes.
enum ListGrowth {
  /// The capacity of a list of `count` elements of type `element` built by appending them one
  /// by one to an empty list; 0 for no elements.
  ///
  /// The sizes the allocator gives are learned once per element size, by reserving and
  /// freeing a buffer of each capacity on the way (a few small allocations the first time
  /// a count is reached in the process).
  ///
  /// - Complexity: O(log `count`) the first time a count is reached, O(log log `count`)
  ///   after that (a binary search of the capacities learned), with a lock taken.
  static func appendedCapacity<Element>(
    of element: Element.Type, count: Int
  ) -> Int {
    guard count > 0 else { return 0 }
    let key = Key(
      stride: MemoryLayout<Element>.stride, alignment: MemoryLayout<Element>.alignment)
    return learned.withLock { chains in
      // A few element sizes at most: a linear search, cheaper than hashing the key, as a solve
      // from scratch asks once per list.
      let index = chains.firstIndex { $0.key == key } ?? chains.endIndex
      if index == chains.endIndex {
        var chain: [Int] = []
        chain.reserveCapacity(Self.longestChain)
        chain.append(reservedCapacity(of: element, 1))
        chains.append((key, chain))
      }
      while chains[index].chain[chains[index].chain.count - 1] < count {
        // The standard library's growth for an append to a full buffer: twice its capacity.
        // The chain has room for every doubling, so learning a count allocates nothing that
        // stays (a measure of bytes held must not see the table grow).
        let last = chains[index].chain[chains[index].chain.count - 1]
        chains[index].chain.append(reservedCapacity(of: element, Swift.max(last + 1, 2 * last)))
      }
      return chains[index].chain.withUnsafeBufferPointer { chain in
        var low = 0
        var high = chain.count - 1
        while low < high {
          let middle = (low + high) / 2
          if chain[middle] < count { low = middle + 1 } else { high = middle }
        }
        return chain[low]
      }
    }
  }

  /// The capacity a buffer reserved for `room` elements gets: `room` rounded up to what the
  /// allocator's size class holds.
  private static func reservedCapacity<Element>(of element: Element.Type, _ room: Int) -> Int {
    var probe: [Element] = []
    probe.reserveCapacity(room)
    return probe.capacity
  }

  /// What a chain of capacities depends on.
  private struct Key: Equatable {
    var stride: Int
    var alignment: Int
  }

  /// The most capacities a chain can hold: one per doubling of an `Int` count.
  private static let longestChain = Int.bitWidth

  /// The capacities learned so far, in increasing order, by element size; room
  /// for more element sizes than the model has list types, reserved once.
  private static let learned = Mutex<[(key: Key, chain: [Int])]>(
    {
      var chains: [(key: Key, chain: [Int])] = []
      chains.reserveCapacity(16)
      return chains
    }())
}

extension Array {
  /// Gives back the room growth left beyond what appending the elements one by one would have
  /// reached (``ListGrowth/appendedCapacity(of:count:)``); an empty list frees its storage. A
  /// list that grew while elements came and went then holds what a list built afresh would.
  ///
  /// - Complexity: O(count) when it shrinks, O(log count) otherwise.
  mutating func shrinkToAppendedCapacity() {
    guard count > 0 else {
      if capacity > 0 { self = [] }
      return
    }
    // No room beyond the elements: nothing to give back, and no need to look the capacity up.
    guard capacity > count else { return }
    let appended = ListGrowth.appendedCapacity(of: Element.self, count: count)
    guard capacity > appended else { return }
    var smaller: [Element] = []
    smaller.reserveCapacity(appended)
    smaller.append(contentsOf: self)
    self = smaller
  }

  /// Empties the list and gives it the capacity that appending `count` elements to an empty
  /// list would (``ListGrowth/appendedCapacity(of:count:)``); no storage for 0.
  ///
  /// - Complexity: O(count) when the storage changes, O(log `count`) otherwise.
  mutating func makeEmpty(withAppendedCapacityFor count: Int) {
    let appended = ListGrowth.appendedCapacity(of: Element.self, count: count)
    guard capacity != appended else {
      removeAll(keepingCapacity: true)
      return
    }
    self = []
    if appended > 0 { reserveCapacity(appended) }
  }
}
