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
  /// Determined blocks waiting for evaluation: a binary min-heap by rank
  /// (``DeterminedPart/rank(of:)``), and whether each block is in it.
  var queue: [(rank: Double, block: Int32)] = []
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
    guard queueingReaders else { return }
    part.forEachReader(of: variable) { block in enqueue(block, rank: part.rank(of: block)) }
  }

  /// Marks `variable` for the client.
  @inline(__always)
  mutating func markDirty(_ variable: Int32) {
    guard !isDirty[Int(variable)] else { return }
    isDirty[Int(variable)] = true
    dirty.append(variable)
  }

  /// Queues `block`, of rank `rank`, for evaluation, once.
  mutating func enqueue(_ block: Int32, rank: Double) {
    if Int(block) >= isQueued.count { reserve(variables: 0, blocks: Int(block) + 1) }
    guard !isQueued[Int(block)] else { return }
    isQueued[Int(block)] = true
    if isSweeping && rank > sweepAt {
      // A sweep in progress passes every block of a higher rank than the one it is at.
      sweepEnd = max(sweepEnd, rank)
      return
    }
    queue.append((rank, block))
    var child = queue.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard queue[parent].rank > queue[child].rank else { break }
      queue.swapAt(parent, child)
      child = parent
    }
  }

  /// Queues `block` of `part` for evaluation, once.
  mutating func enqueue(_ block: Int32, of part: DeterminedPart) {
    enqueue(block, rank: part.rank(of: block))
  }

  /// The first queued block in evaluation order, taken off the queue.
  mutating func dequeue() -> Int32? {
    guard let first = queue.first else { return nil }
    let last = queue.removeLast()
    if !queue.isEmpty {
      queue[0] = last
      var parent = 0
      while true {
        let left = 2 * parent + 1, right = left + 1
        var smallest = parent
        if left < queue.count && queue[left].rank < queue[smallest].rank { smallest = left }
        if right < queue.count && queue[right].rank < queue[smallest].rank { smallest = right }
        guard smallest != parent else { break }
        queue.swapAt(parent, smallest)
        parent = smallest
      }
    }
    isQueued[Int(first.block)] = false
    return first.block
  }

  /// Evaluates every active block of `part`, in plan order, and empties the queue.
  ///
  /// - Complexity: O(*t*) for the active steps' terms, plus O(*k*²) a block of *k*; allocates
  ///   nothing but room for new variables.
  mutating func evaluateAll(_ part: DeterminedPart) {
    reserve(variables: part.plan.variableCount, blocks: part.plan.blockCount)
    // Every block is evaluated in order, so none is queued: readers come after what they read.
    for entry in queue { isQueued[Int(entry.block)] = false }
    queue.removeAll(keepingCapacity: true)
    withUnsafeTemporaryAllocation(of: Double.self, capacity: max(part.plan.largestBlock, 1)) {
      scratch in
      guard !part.ranksAreIndices else {
        for block in 0..<part.plan.blockCount where part.isActive[block] {
          evaluate(block, part.plan, part, scratch, queueingReaders: false)
        }
        return
      }
      // The build's blocks in index order merged with the appended ones in rank order, as a
      // sweep passes them, without an order of every block (8 bytes a block at the peak).
      var late = 0
      for built in 0...part.buildBlockCount {
        while late < part.lateOrder.count
          && (built == part.buildBlockCount
            || part.ranks[Int(part.lateOrder[late])] < Double(built))
        {
          let block = Int(part.lateOrder[late])
          late += 1
          if part.isActive[block] {
            evaluate(block, part.plan, part, scratch, queueingReaders: false)
          }
        }
        if built < part.buildBlockCount && part.isActive[built] {
          evaluate(built, part.plan, part, scratch, queueingReaders: false)
        }
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
          continue
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

  /// Whether a sweep is in progress, the rank of the last queued block it knows of, and the
  /// rank of the block it is at.
  var isSweeping = false
  var sweepEnd = 0.0
  var sweepAt = 0.0

  /// Evaluates every queued block in rank order, from the lowest, passing over the others: the
  /// blocks they queue have higher ranks, and the sweep goes on to them. The build's blocks are
  /// passed in index order (their ranks), merged with the appended ones in
  /// ``DeterminedPart/lateOrder``.
  ///
  /// - Complexity: O(blocks between the lowest and highest rank queued).
  private mutating func sweep(
    _ part: DeterminedPart, _ scratch: UnsafeMutableBufferPointer<Double>
  ) {
    let start = queue.min { $0.rank < $1.rank }!.rank
    sweepEnd = queue.max { $0.rank < $1.rank }!.rank
    queue.removeAll(keepingCapacity: true)
    isSweeping = true
    defer { isSweeping = false }
    // The build's blocks (all of them while no block was appended) and the appended ones.
    let buildCount = part.ranksAreIndices ? part.plan.blockCount : part.buildBlockCount
    var built = max(Int(start.rounded(.up)), 0)
    var late = part.ranksAreIndices ? 0 : part.firstLatePosition(atOrAbove: start)
    while true {
      let block: Int32
      let rank: Double
      if late < part.lateOrder.count
        && (built >= buildCount || part.ranks[Int(part.lateOrder[late])] < Double(built))
      {
        block = part.lateOrder[late]
        rank = part.ranks[Int(block)]
        late += 1
      } else if built < buildCount {
        block = Int32(built)
        rank = Double(built)
        built += 1
      } else {
        break
      }
      guard rank <= sweepEnd else { break }
      sweepAt = rank
      guard isQueued[Int(block)] else { continue }
      isQueued[Int(block)] = false
      if part.isActive[Int(block)] {
        evaluate(Int(block), part.plan, part, scratch, queueingReaders: true)
      }
    }
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
