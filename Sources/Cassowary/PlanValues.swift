/// The values a ``PlanSolver`` reads and reports: every variable's current value, the variables
/// changed since the client last asked, and the determined blocks waiting to be evaluated.
///
/// Determined blocks are evaluated in plan order (each after the blocks it reads), so a change
/// pushed down the readers reaches each block once, after everything it reads has settled.
struct PlanValues {
  /// Each variable's value, by id.
  var values: [Double] = []
  /// What the client was last told of each variable (0 before it was told anything).
  var reported: [Double] = []
  /// Whether each variable may have changed since the client last asked, and which, in order.
  var isDirty: [Bool] = []
  var dirty: [Int32] = []
  /// Determined blocks waiting for evaluation: a binary min-heap, and whether each block is in
  /// it.
  var queue: [Int32] = []
  var isQueued: [Bool] = []

  /// Room for variables with ids below `count` (reading 0) and `blocks` blocks.
  ///
  /// - Complexity: O(growth).
  mutating func reserve(variables count: Int, blocks: Int) {
    if values.count < count {
      values.append(contentsOf: repeatElement(0, count: count - values.count))
    }
    if isDirty.count < count {
      isDirty.append(contentsOf: repeatElement(false, count: count - isDirty.count))
    }
    if reported.count < count {
      reported.append(contentsOf: repeatElement(0, count: count - reported.count))
    }
    if isQueued.count < blocks {
      isQueued.append(contentsOf: repeatElement(false, count: blocks - isQueued.count))
    }
  }

  /// Records that `variable` now reads `value`; when it changed, marks it for the client and
  /// queues the determined blocks that read it.
  ///
  /// - Complexity: O(readers of the variable · log queued).
  @inline(__always)
  mutating func set(
    _ variable: Int32, _ value: Double, readers part: DeterminedPart,
    queueingReaders: Bool = true
  ) {
    let v = Int(variable)
    if v >= values.count { reserve(variables: v + 1, blocks: 0) }
    guard value.bitPattern != values[v].bitPattern else { return }
    values[v] = value
    markDirty(variable)
    guard queueingReaders && v + 1 < part.readerStarts.count else { return }
    for index in Int(part.readerStarts[v])..<Int(part.readerStarts[v + 1]) {
      let block = part.readers[index]
      if part.isActive[Int(block)] { enqueue(block) }
    }
  }

  /// Marks `variable` for the client.
  @inline(__always)
  mutating func markDirty(_ variable: Int32) {
    guard !isDirty[Int(variable)] else { return }
    isDirty[Int(variable)] = true
    dirty.append(variable)
  }

  /// Queues `block` for evaluation, once.
  mutating func enqueue(_ block: Int32) {
    guard !isQueued[Int(block)] else { return }
    isQueued[Int(block)] = true
    if sweepEnd >= 0 {
      // A sweep in progress passes every block after the one it is at.
      sweepEnd = max(sweepEnd, block)
      return
    }
    queue.append(block)
    var child = queue.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard queue[parent] > queue[child] else { break }
      queue.swapAt(parent, child)
      child = parent
    }
  }

  /// The first queued block in plan order, taken off the queue.
  mutating func dequeue() -> Int32? {
    guard let first = queue.first else { return nil }
    let last = queue.removeLast()
    if !queue.isEmpty {
      queue[0] = last
      var parent = 0
      while true {
        let left = 2 * parent + 1, right = left + 1
        var smallest = parent
        if left < queue.count && queue[left] < queue[smallest] { smallest = left }
        if right < queue.count && queue[right] < queue[smallest] { smallest = right }
        guard smallest != parent else { break }
        queue.swapAt(parent, smallest)
        parent = smallest
      }
    }
    isQueued[Int(first)] = false
    return first
  }

  /// Evaluates every active block of `part`, in plan order, and empties the queue.
  ///
  /// - Complexity: O(*t*) for the active steps' terms, plus O(*k*²) a block of *k*; allocates
  ///   nothing but room for new variables.
  mutating func evaluateAll(_ part: DeterminedPart) {
    reserve(variables: part.plan.variableCount, blocks: part.plan.blockCount)
    // Every block is evaluated in order, so none is queued: readers come after what they read.
    for block in queue { isQueued[Int(block)] = false }
    queue.removeAll(keepingCapacity: true)
    withUnsafeTemporaryAllocation(of: Double.self, capacity: max(part.plan.largestBlock, 1)) {
      scratch in
      for block in 0..<part.plan.blockCount where part.isActive[block] {
        evaluate(block, part.plan, part, scratch, queueingReaders: false)
      }
    }
  }

  /// Evaluates the queued blocks, and those their changes queue, in plan order.
  ///
  /// - Complexity: O(terms of the blocks evaluated · log queued).
  mutating func propagate(_ part: DeterminedPart) {
    guard !queue.isEmpty else { return }
    withUnsafeTemporaryAllocation(of: Double.self, capacity: max(part.plan.largestBlock, 1)) {
      scratch in
      while !queue.isEmpty {
        // Checked before each block, inactive ones too: a teardown queues thousands of them.
        if queue.count >= Self.sweepThreshold {
          sweep(part, scratch)
          return
        }
        guard let block = dequeue(), part.isActive[Int(block)] else { continue }
        evaluate(Int(block), part.plan, part, scratch, queueingReaders: true)
      }
    }
  }

  /// How many queued blocks make ``propagate(_:)`` stop ordering them one by one and sweep the
  /// plan instead: a change near the root (a resize) reaches most of it, and a pass in plan
  /// order over the queued marks costs less than a heap operation a block.
  static var sweepThreshold: Int { 256 }

  /// Where a sweep in progress ends (the last queued block it knows of), or -1 outside one.
  var sweepEnd: Int32 = -1

  /// Evaluates every queued block in plan order, from the first, passing over the others: the
  /// blocks they queue come later, and the sweep goes on to them.
  private mutating func sweep(
    _ part: DeterminedPart, _ scratch: UnsafeMutableBufferPointer<Double>
  ) {
    var block = queue[0]
    sweepEnd = queue.max()!
    queue.removeAll(keepingCapacity: true)
    while block <= sweepEnd {
      if isQueued[Int(block)] {
        isQueued[Int(block)] = false
        if part.isActive[Int(block)] {
          evaluate(Int(block), part.plan, part, scratch, queueingReaders: true)
        }
      }
      block += 1
    }
    sweepEnd = -1
  }

  /// Evaluates one block and records its variables' new values.
  @inline(__always)
  private mutating func evaluate(
    _ block: Int, _ plan: EqualityPlan, _ part: DeterminedPart,
    _ scratch: UnsafeMutableBufferPointer<Double>, queueingReaders: Bool
  ) {
    let steps = plan.steps(ofBlock: block)
    if steps.count == 1 {
      let k = steps.lowerBound
      let value = values.withUnsafeMutableBufferPointer { plan.rightSide(k, $0) } / plan.pivots[k]
      set(plan.subjects[k], value, readers: part, queueingReaders: queueingReaders)
      return
    }
    values.withUnsafeMutableBufferPointer { plan.solveBlock(block, $0, scratch) }
    for (row, k) in steps.enumerated() {
      set(plan.subjects[k], scratch[row], readers: part, queueingReaders: queueingReaders)
    }
  }
}
