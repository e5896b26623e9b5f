/// The part of a ``PlanSolver``'s system that its required equalities determine and nothing
/// else reads: the steps of an ``EqualityPlan`` that no inequality, optional constraint or edit
/// reaches, evaluated block by block from the values of the variables they read, with no
/// tableau.
///
/// A block is *active* while its equalities live here; a block moved to the tableau
/// (``PlanSolver`` promotes it when an operation reaches its variables) stays in the plan,
/// inactive, and its variables are read like any other. Each step keeps its constraint's id and
/// can give back its terms as written, so the constraint can be given back whole: most from the
/// plan's own terms (its subject put back where it was written), the others from a copy.
struct DeterminedPart {
  /// The plan the steps come from (its reached blocks inactive from the start).
  var plan = EqualityPlan()
  /// Whether each block of ``plan`` lives here.
  var isActive: [Bool] = []
  /// The block of each step.
  var blockOfStep: [Int32] = []
  /// The active step that determines each variable, by id (-1 for none); as long as the
  /// largest variable id the plan knows.
  var stepOfVariable: [Int32] = []
  /// Each step's constraint id.
  var ids: [ConstraintID] = []
  /// Where each step's copy of its terms as written starts in ``terms``, then the end. A step
  /// whose terms are the plan's, its subject put back at its position
  /// (``EqualityPlan/subjectPositions``), has an empty run; the others are copied: a larger
  /// block's (the plan keeps the terms inside a block only in its factors), and one whose terms
  /// the plan merged (a variable written twice, or cancelling).
  var termStarts: [Int32] = []
  var terms: [Term] = []
  /// The labels of the steps' constraints that have one.
  var labels: [ConstraintID: String] = [:]
  /// The active blocks that read each variable (through a term outside the block), by
  /// variable id: `readers[readerStarts[v]..<readerStarts[v + 1]]`.
  var readerStarts: [Int32] = []
  var readers: [Int32] = []
  /// The readers of the blocks appended after the build (``appendBlock(_:)``), as one linked
  /// list a variable: `lateReaderHead[v]` the first entry (-1 for none), each entry its block
  /// and the next entry. Entries of blocks no longer active are passed over, as in ``readers``.
  var lateReaderHead: [Int32] = []
  var lateReaderBlock: [Int32] = []
  var lateReaderNext: [Int32] = []
  /// Each block's place in evaluation order, by block, once a block was appended: a block reads
  /// only blocks of lower rank. Empty while every block is the build's, in plan order (its rank
  /// is its index).
  var ranks: [Double] = []
  /// The blocks appended after the build, in rank order (the build's blocks, below
  /// ``buildBlockCount``, keep their indices as ranks): a sweep merges the two orders.
  var lateOrder: [Int32] = []
  /// How many blocks the build planned: blocks from here on were appended.
  var buildBlockCount = 0
  /// How many steps belong to blocks appended after the build.
  private(set) var appendedSteps = 0
  /// How many steps are active.
  private(set) var activeSteps = 0
  /// Whether each step's constraint was removed while its block waits to be settled (a
  /// removal inside a batch: the others of its block are usually removed too).
  var isRemoved: [Bool] = []
  /// How many steps of active blocks are removed, and the blocks that hold them.
  private(set) var removedSteps = 0
  private(set) var pendingBlocks: [Int32] = []

  /// The constraints the part holds: active steps not removed.
  var liveSteps: Int { activeSteps - removedSteps }

  /// The steps of `plan` in the blocks `isActive` marks, for constraints `ids` (by step) whose
  /// terms as written are `termRuns` (start and count in `terms`, by step).
  ///
  /// - Complexity: O(*t*) for *t* terms of the plan's equalities.
  init(
    plan: EqualityPlan, isActive: [Bool], ids: [ConstraintID], terms: [Term],
    termRuns: [(start: Int32, count: Int32)], labels: [ConstraintID: String]
  ) {
    self.plan = plan
    self.isActive = isActive
    self.ids = ids
    self.labels = labels
    let stepCount = plan.determinedCount
    var copiedCount = 0
    for k in 0..<stepCount where !Self.termsAreThePlans(k, plan, written: termRuns[k].count) {
      copiedCount += Int(termRuns[k].count)
    }
    // Filled through the tables' buffers, then kept: written one by one into the part's own
    // arrays, every write checked their storage's uniqueness again.
    var copied = [Term](repeating: Term(Variable(id: 0), 0), count: copiedCount)
    var copiedEnd = 0
    var blockOfStep = [Int32](repeating: 0, count: stepCount)
    var stepOfVariable = [Int32](repeating: -1, count: plan.variableCount)
    var termStarts = [Int32](repeating: 0, count: stepCount + 1)
    var readerCounts = [Int32](repeating: 0, count: plan.variableCount + 1)
    var activeSteps = 0
    blockOfStep.withUnsafeMutableBufferPointer { blockOfStep in
      stepOfVariable.withUnsafeMutableBufferPointer { stepOfVariable in
        termStarts.withUnsafeMutableBufferPointer { termStarts in
          readerCounts.withUnsafeMutableBufferPointer { readerCounts in
            terms.withUnsafeBufferPointer { terms in
              copied.withUnsafeMutableBufferPointer { copied in
                for block in 0..<plan.blockCount {
                  for k in plan.steps(ofBlock: block) {
                    blockOfStep[k] = Int32(block)
                    let run = termRuns[k]
                    if Self.termsAreThePlans(k, plan, written: run.count) {
                      assert(
                        terms[Int(run.start)..<Int(run.start + run.count)]
                          .elementsEqual(plan.writtenTerms(ofStep: k)) {
                            $0.variable == $1.variable
                              && $0.coefficient.bitPattern == $1.coefficient.bitPattern
                          },
                        "step \(k)'s terms are not the plan's")
                    } else {
                      for position in Int(run.start)..<Int(run.start + run.count) {
                        copied[copiedEnd] = terms[position]
                        copiedEnd += 1
                      }
                    }
                    termStarts[k + 1] = Int32(copiedEnd)
                    guard isActive[block] else { continue }
                    activeSteps += 1
                    stepOfVariable[Int(plan.subjects[k])] = Int32(k)
                    for index in Int(plan.otherStarts[k])..<Int(plan.otherStarts[k + 1]) {
                      readerCounts[Int(plan.otherVariables[index]) + 1] += 1
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    // A block reads a variable once for each of its terms over it; a reader listed twice is
    // queued once (``PlanSolver``'s queue marks what it holds).
    var readerStarts = readerCounts
    var readers: [Int32] = []
    readerStarts.withUnsafeMutableBufferPointer { readerStarts in
      for v in 0..<plan.variableCount { readerStarts[v + 1] += readerStarts[v] }
      readers = [Int32](repeating: 0, count: Int(readerStarts[plan.variableCount]))
      // Each variable's next free place among its readers, from its start.
      readerCounts.withUnsafeMutableBufferPointer { next in
        for v in 0...plan.variableCount { next[v] = readerStarts[v] }
        readers.withUnsafeMutableBufferPointer { readers in
          for block in 0..<plan.blockCount where isActive[block] {
            for k in plan.steps(ofBlock: block) {
              for index in Int(plan.otherStarts[k])..<Int(plan.otherStarts[k + 1]) {
                let v = Int(plan.otherVariables[index])
                readers[Int(next[v])] = Int32(block)
                next[v] += 1
              }
            }
          }
        }
      }
    }
    self.terms = copied
    self.blockOfStep = blockOfStep
    self.stepOfVariable = stepOfVariable
    self.termStarts = termStarts
    self.readerStarts = readerStarts
    self.readers = readers
    self.activeSteps = activeSteps
    isRemoved = [Bool](repeating: false, count: stepCount)
  }

  /// Nothing determined.
  init() {}

  /// The active step that determines `variable`, if any.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  func step(determining variable: Int32) -> Int? {
    guard Int(variable) < stepOfVariable.count else { return nil }
    let k = stepOfVariable[Int(variable)]
    return k < 0 ? nil : Int(k)
  }

  /// The constraint of step `k` as it is now (its constant may have changed since it was
  /// written).
  ///
  /// - Complexity: O(terms).
  func constraint(ofStep k: Int) -> Constraint {
    var written: [Term] = []
    appendWrittenTerms(ofStep: k, to: &written)
    return Constraint(
      LinearExpression(written, constant: plan.constants[k]), .equal, label: labels[ids[k]])
  }

  /// Whether step `k`'s `written` terms are the plan's, its subject at its position: the
  /// incidence lists an equality's terms as written, unless a variable is written twice or its
  /// terms cancel, which leaves it fewer.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  static func termsAreThePlans(_ k: Int, _ plan: EqualityPlan, written: Int32) -> Bool {
    plan.subjectPositions[k] != EqualityPlan.unplacedSubject
      && written == plan.otherStarts[k + 1] - plan.otherStarts[k] + 1
  }

  /// The number of step `k`'s terms as written.
  ///
  /// - Complexity: O(1).
  func writtenTermCount(ofStep k: Int) -> Int {
    termStarts[k] < termStarts[k + 1]
      ? Int(termStarts[k + 1] - termStarts[k])
      : Int(plan.otherStarts[k + 1] - plan.otherStarts[k]) + 1
  }

  /// Calls `body` with each of step `k`'s terms as written, in order.
  ///
  /// - Complexity: O(terms of the step).
  @inline(__always)
  func forEachWrittenTerm(ofStep k: Int, _ body: (Term) -> Void) {
    guard termStarts[k] == termStarts[k + 1] else {
      for index in Int(termStarts[k])..<Int(termStarts[k + 1]) { body(terms[index]) }
      return
    }
    plan.forEachTerm(ofStep: k, body)
  }

  /// Appends step `k`'s terms as written to `buffer`, in order.
  ///
  /// - Complexity: O(terms of the step).
  func appendWrittenTerms(ofStep k: Int, to buffer: inout [Term]) {
    forEachWrittenTerm(ofStep: k) { buffer.append($0) }
  }

  /// Marks `block` inactive: its variables are no longer determined here.
  ///
  /// - Complexity: O(steps of the block).
  mutating func deactivate(_ block: Int) {
    guard isActive[block] else { return }
    isActive[block] = false
    for k in plan.steps(ofBlock: block) {
      stepOfVariable[Int(plan.subjects[k])] = -1
      activeSteps -= 1
      if isRemoved[k] { removedSteps -= 1 }
    }
  }

  /// Marks step `k`'s constraint removed; its block waits in ``pendingBlocks``.
  mutating func markRemoved(_ k: Int) {
    isRemoved[k] = true
    removedSteps += 1
    pendingBlocks.append(blockOfStep[k])
  }

  /// The blocks waiting to be settled, in plan order, each once; the list is emptied.
  mutating func takePendingBlocks() -> [Int32] {
    defer { pendingBlocks.removeAll() }
    return Array(Set(pendingBlocks)).sorted()
  }

  /// Forgets the blocks waiting to be settled: they were planned again.
  mutating func clearPendingBlocks() {
    pendingBlocks.removeAll()
  }

  /// Marks `block` active again, after a promotion was undone.
  ///
  /// - Complexity: O(steps of the block).
  mutating func activate(_ block: Int) {
    guard !isActive[block] else { return }
    isActive[block] = true
    for k in plan.steps(ofBlock: block) {
      stepOfVariable[Int(plan.subjects[k])] = Int32(k)
      activeSteps += 1
      if isRemoved[k] { removedSteps += 1 }
    }
  }

  /// The active blocks among `blocks`, with the active blocks they need, directly or not, in
  /// evaluation order (each after those it needs).
  ///
  /// - Complexity: O(terms of the blocks found).
  func closure(of blocks: [Int32]) -> [Int32] {
    var found: Set<Int32> = []
    var pending: [Int32] = []
    for block in blocks where isActive[Int(block)] && found.insert(block).inserted {
      pending.append(block)
    }
    while let block = pending.popLast() {
      for k in plan.steps(ofBlock: Int(block)) {
        for index in Int(plan.otherStarts[k])..<Int(plan.otherStarts[k + 1]) {
          guard let step = step(determining: plan.otherVariables[index]) else { continue }
          let needed = blockOfStep[step]
          if found.insert(needed).inserted { pending.append(needed) }
        }
      }
    }
    // Blocks of equal rank (independent ones appended together) in index order: the order
    // they are promoted in decides the tableau's pivots, and a set's order is its address's.
    return found.sorted { (rank(of: $0), $0) < (rank(of: $1), $1) }
  }

  /// Block `block`'s place in evaluation order: a block reads only blocks of lower rank.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  func rank(of block: Int32) -> Double {
    ranks.isEmpty ? Double(block) : ranks[Int(block)]
  }

  /// Whether blocks evaluate in index order (no block was appended after the build).
  var ranksAreIndices: Bool { ranks.isEmpty }

  /// The position in ``lateOrder`` of the first appended block of rank `rank` or above.
  ///
  /// - Complexity: O(log appended blocks).
  func firstLatePosition(atOrAbove rank: Double) -> Int {
    var (low, high) = (0, lateOrder.count)
    while low < high {
      let middle = (low + high) / 2
      if ranks[Int(lateOrder[middle])] < rank { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Calls `body` with each active block that reads `variable` through a term outside it (a
  /// block may come more than once).
  ///
  /// - Complexity: O(readers listed for the variable).
  @inline(__always)
  func forEachReader(of variable: Int32, _ body: (Int32) -> Void) {
    let v = Int(variable)
    if v + 1 < readerStarts.count {
      for index in Int(readerStarts[v])..<Int(readerStarts[v + 1]) {
        let block = readers[index]
        if isActive[Int(block)] { body(block) }
      }
    }
    guard v < lateReaderHead.count else { return }
    var entry = lateReaderHead[v]
    while entry >= 0 {
      let block = lateReaderBlock[Int(entry)]
      if isActive[Int(block)] { body(block) }
      entry = lateReaderNext[Int(entry)]
    }
  }

  /// Makes room in the by-variable tables for variables with ids below `count`.
  ///
  /// - Complexity: O(growth).
  mutating func growVariables(to count: Int) {
    if stepOfVariable.count < count {
      stepOfVariable.append(contentsOf: repeatElement(-1, count: count - stepOfVariable.count))
    }
    if plan.variableCount < count { plan.variableCount = count }
  }

  /// Appends, as one new active block at rank `rank`, the steps of `block` of `source` (a plan
  /// over local variable ids, `globalOf` giving each one's id), for constraints `stepIDs` (by
  /// the source's step) whose terms as written `writtenTerms` gives (by the source's step).
  /// Returns the new block's index. The caller then places the blocks it appended in
  /// ``lateOrder`` (``orderLateBlocks(from:)``), before anything reads it.
  ///
  /// - Complexity: O(terms of the block + its factors).
  mutating func appendBlock(
    _ block: Int, of source: EqualityPlan, globalOf: [Int32], rank: Double,
    stepIDs: [ConstraintID], writtenTerms: (Int, inout [Term]) -> Void
  ) -> Int32 {
    if ranks.isEmpty {
      ranks = (0..<plan.blockCount).map(Double.init)
      buildBlockCount = plan.blockCount
    }
    let newBlock = Int32(plan.blockCount)
    let steps = source.steps(ofBlock: block)
    if plan.blockStarts.isEmpty { plan.blockStarts = [0] }
    if plan.otherStarts.isEmpty { plan.otherStarts = [0] }
    plan.appendFactors(ofBlock: block, of: source)
    var written: [Term] = []
    for k in steps {
      let step = Int32(plan.subjects.count)
      let subject = globalOf[Int(source.subjects[k])]
      plan.order.append(-1)
      plan.subjects.append(subject)
      plan.constants.append(source.constants[k])
      plan.pivots.append(source.pivots[k])
      plan.subjectPositions.append(source.subjectPositions[k])
      for index in Int(source.otherStarts[k])..<Int(source.otherStarts[k + 1]) {
        let variable = globalOf[Int(source.otherVariables[index])]
        plan.otherVariables.append(variable)
        plan.otherCoefficients.append(source.otherCoefficients[index])
        growVariables(to: Int(variable) + 1)
        addLateReader(newBlock, of: variable)
      }
      plan.otherStarts.append(Int32(plan.otherVariables.count))
      ids.append(stepIDs[k])
      blockOfStep.append(newBlock)
      isRemoved.append(false)
      // The plan's terms stand for the step's as written when they are the same, term for term.
      written.removeAllKeepingCapacity()
      writtenTerms(k, &written)
      let candidate = Int(step)
      if Self.termsAreThePlans(candidate, plan, written: Int32(written.count))
        && plan.writtenTerms(ofStep: candidate).elementsEqual(written, by: Self.sameTerm)
      {
        termStarts.append(Int32(terms.count))
      } else {
        terms.append(contentsOf: written)
        termStarts.append(Int32(terms.count))
      }
      growVariables(to: Int(subject) + 1)
      stepOfVariable[Int(subject)] = step
      activeSteps += 1
      appendedSteps += 1
    }
    plan.blockStarts.append(Int32(plan.subjects.count))
    isActive.append(true)
    ranks.append(rank)
    return newBlock
  }

  /// Places the blocks appended from `first` on in ``lateOrder``, as inserting each in turn
  /// before the blocks of its rank or above would: by rank, a later block before an earlier
  /// one of the same rank, and both before the blocks of that rank already placed. In one
  /// merge from the end, so that what follows the first of them moves once, not once a block
  /// (a commit appends a few blocks near each other, into an order thousands long).
  ///
  /// - Complexity: O(*k* log *k* + the placed blocks from the first new one's place) for *k*
  ///   new blocks.
  mutating func orderLateBlocks(from first: Int32) {
    let count = Int(plan.blockCount) - Int(first)
    guard count > 0 else { return }
    let ranks = ranks
    if count == 1 {
      return lateOrder.insert(first, at: firstLatePosition(atOrAbove: ranks[Int(first)]))
    }
    // The new blocks in order, sorted by insertion in room on the stack (a commit adds a few).
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { added in
      for (index, block) in (first..<Int32(plan.blockCount)).enumerated() {
        var place = index
        while place > 0 {
          let other = added[place - 1]
          let (otherRank, rank) = (ranks[Int(other)], ranks[Int(block)])
          guard otherRank > rank || (otherRank == rank && other < block) else { break }
          added[place] = other
          place -= 1
        }
        added[place] = block
      }
      // From the last new block: the placed blocks from its place on move up past it and the
      // new blocks after it, in one move, and the next search is below its place.
      var end = lateOrder.count
      lateOrder.append(contentsOf: repeatElement(0, count: count))
      lateOrder.withUnsafeMutableBufferPointer { order in
        let base = order.baseAddress!
        for index in stride(from: count - 1, through: 0, by: -1) {
          let rank = ranks[Int(added[index])]
          var (low, high) = (0, end)
          while low < high {
            let middle = (low + high) / 2
            if ranks[Int(order[middle])] < rank { low = middle + 1 } else { high = middle }
          }
          (base + low + index + 1).update(from: base + low, count: end - low)
          order[low + index] = added[index]
          end = low
        }
      }
    }
  }

  /// Whether two terms are the same, bit for bit.
  static func sameTerm(_ a: Term, _ b: Term) -> Bool {
    a.variable == b.variable && a.coefficient.bitPattern == b.coefficient.bitPattern
  }

  /// Lists `block` among the readers of `variable`.
  private mutating func addLateReader(_ block: Int32, of variable: Int32) {
    let v = Int(variable)
    if lateReaderHead.count <= v {
      lateReaderHead.append(contentsOf: repeatElement(-1, count: v + 1 - lateReaderHead.count))
    }
    lateReaderBlock.append(block)
    lateReaderNext.append(lateReaderHead[v])
    lateReaderHead[v] = Int32(lateReaderBlock.count - 1)
  }

  /// The active blocks alone, in evaluation order, in tables of their own: the blocks replaced
  /// or promoted since the build are dropped, ranks are indices again (so the sweep is back),
  /// and the readers are one table. Returns the part and, by old block, its new index (-1 for
  /// one dropped).
  ///
  /// - Precondition: no block waits to be settled.
  /// - Complexity: O(terms and factors of the active blocks + variables).
  func compacted() -> (part: DeterminedPart, newIndex: [Int32]) {
    precondition(pendingBlocks.isEmpty, "blocks wait to be settled")
    var order = (0..<plan.blockCount).filter { isActive[$0] }
    if !ranks.isEmpty { order.sort { ranks[$0] < ranks[$1] } }
    var newIndex = [Int32](repeating: -1, count: plan.blockCount)
    var packed = EqualityPlan()
    packed.variableCount = plan.variableCount
    packed.blockStarts = [0]
    packed.otherStarts = [0]
    var stepIDs: [ConstraintID] = []
    var written: [Term] = []
    var runs: [(start: Int32, count: Int32)] = []
    for (position, block) in order.enumerated() {
      newIndex[block] = Int32(position)
      let steps = plan.steps(ofBlock: block)
      packed.appendFactors(ofBlock: block, of: plan)
      for k in steps {
        packed.order.append(-1)
        packed.subjects.append(plan.subjects[k])
        packed.constants.append(plan.constants[k])
        packed.pivots.append(plan.pivots[k])
        packed.subjectPositions.append(plan.subjectPositions[k])
        let others = Int(plan.otherStarts[k])..<Int(plan.otherStarts[k + 1])
        packed.otherVariables.append(contentsOf: plan.otherVariables[others])
        packed.otherCoefficients.append(contentsOf: plan.otherCoefficients[others])
        packed.otherStarts.append(Int32(packed.otherVariables.count))
        stepIDs.append(ids[k])
        let start = Int32(written.count)
        appendWrittenTerms(ofStep: k, to: &written)
        runs.append((start, Int32(written.count) - start))
      }
      packed.blockStarts.append(Int32(packed.subjects.count))
    }
    var part = DeterminedPart(
      plan: packed, isActive: [Bool](repeating: true, count: order.count), ids: stepIDs,
      terms: written, termRuns: runs, labels: labels)
    part.growVariables(to: stepOfVariable.count)
    return (part, newIndex)
  }

  /// Bytes held by the tables.
  var bytes: Int {
    plan.bytes + isActive.capacity + blockOfStep.capacity * 4 + stepOfVariable.capacity * 4
      + ids.capacity * 4 + isRemoved.capacity + pendingBlocks.capacity * 4
      + termStarts.capacity * 4 + terms.capacity * MemoryLayout<Term>.stride
      + readerStarts.capacity * 4 + readers.capacity * 4 + lateReaderHead.capacity * 4
      + lateReaderBlock.capacity * 4 + lateReaderNext.capacity * 4 + ranks.capacity * 8
      + lateOrder.capacity * 4
  }
}

extension EqualityPlan {
  /// Appends block `block` of `source`'s factors and row permutation (a mark for a block of
  /// one), as the factors of this plan's next block.
  ///
  /// - Complexity: O(the block's size²).
  mutating func appendFactors(ofBlock block: Int, of source: EqualityPlan) {
    let size = source.steps(ofBlock: block).count
    largestBlock = max(largestBlock, size)
    guard size > 1 else {
      factorStarts.append(-1)
      permutationStarts.append(-1)
      return
    }
    let factorStart = Int(source.factorStarts[block])
    let permutationStart = Int(source.permutationStarts[block])
    factorStarts.append(Int32(factors.count))
    permutationStarts.append(Int32(permutations.count))
    factors.append(contentsOf: source.factors[factorStart..<factorStart + size * size])
    permutations.append(
      contentsOf: source.permutations[permutationStart..<permutationStart + size])
  }

  /// Bytes held by the plan's tables.
  var bytes: Int {
    (order.capacity + subjects.capacity + blockStarts.capacity + otherStarts.capacity
      + otherVariables.capacity + factorStarts.capacity + permutationStarts.capacity
      + permutations.capacity) * 4 + subjectPositions.capacity
      + (constants.capacity + otherCoefficients.capacity + pivots.capacity + factors.capacity) * 8
  }
}
