/// Free variables of a ``PlanSolver`` that only constraints over them alone hold (a label's
/// height between its hugging and its compression resistance; the width of equally spaced
/// buttons, which the spaces' required inequalities keep within the row), each solved in closed
/// form rather than in the tableau: its value is the lexicographic optimum of its *bounds*,
/// found by narrowing an interval level by level (``optimum(of:)``).
///
/// A bound is `coefficient × variable + constant` related to 0: an optional one with the sparse
/// solver's error, the amount by which it is violated, summed within a priority level, levels
/// compared in order; a required one is an inequality, and the required bounds are the first
/// level, which leaves the interval where all hold (never empty: an operation that would empty
/// it is refused, ``requiredBoundsHold(for:)``). Required bounds come only from a
/// build. A variable is *bounded* from a build until something else mentions it (a constraint
/// over it and another variable, a new required one, an edit, a promoted equality): its bounds
/// then go to the sparse solver as written (``PlanSolver/unbind(_:)``).
///
/// Each variable's bounds are a list through ``next``; removed slots are reused, so the table
/// returns to its size when what was added is removed.
struct VariableBounds {
  /// One bound.
  struct Bound {
    var id: ConstraintID
    var variable: Int32
    var coefficient: Double
    var constant: Double
    var relation: Relation
    var priority: Priority
    /// The reduced constraint it is (its constant then includes the reduction's offset), or -1
    /// for one given as written.
    var reduced: Int32 = -1
  }

  /// The bounds by slot; a free slot's contents are stale.
  var bounds: [Bound] = []
  /// The next and the previous bound of the same variable (for a free slot, `next` is the next
  /// free slot); -1 ends.
  var next: [Int32] = []
  var previous: [Int32] = []
  /// The first free slot, or -1.
  var firstFree: Int32 = -1
  /// Each variable's first bound (-1 for none), by variable id.
  var first: [Int32] = []
  /// Whether each variable is bounded, by variable id.
  var isBounded: [Bool] = []
  /// The labels of the bounds that have one.
  var labels: [ConstraintID: String] = [:]
  /// The variables whose bounds changed since they were last narrowed, each once.
  var stale: [Int32] = []
  var isStale: [Bool] = []
  /// How many bounds are live, and how many variables are bounded.
  private(set) var liveCount = 0
  private(set) var boundedCount = 0

  /// No bounds.
  init() {}

  /// Whether `variable` is bounded.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  func contains(_ variable: Int32) -> Bool {
    Int(variable) < isBounded.count && isBounded[Int(variable)]
  }

  /// Makes room for variables with ids below `variables` and for `count` more bounds: a
  /// build sizes the tables once, as they are held as long as the solver is, where growing
  /// them by doubling would hold up to twice what they need.
  ///
  /// - Complexity: O(`variables`) the first time.
  mutating func reserve(variables: Int, bounds count: Int) {
    if variables > isBounded.count {
      isBounded.reserveCapacity(variables)
      first.reserveCapacity(variables)
      isStale.reserveCapacity(variables)
      isBounded.append(contentsOf: repeatElement(false, count: variables - isBounded.count))
      first.append(contentsOf: repeatElement(-1, count: variables - first.count))
      isStale.append(contentsOf: repeatElement(false, count: variables - isStale.count))
    }
    bounds.reserveCapacity(bounds.count + count)
    next.reserveCapacity(next.count + count)
    previous.reserveCapacity(previous.count + count)
  }

  /// Marks `variable` bounded, with no bounds yet.
  mutating func bind(_ variable: Int32) {
    let v = Int(variable)
    if v >= isBounded.count {
      isBounded.append(contentsOf: repeatElement(false, count: v + 1 - isBounded.count))
      first.append(contentsOf: repeatElement(-1, count: v + 1 - first.count))
      isStale.append(contentsOf: repeatElement(false, count: v + 1 - isStale.count))
    }
    guard !isBounded[v] else { return }
    isBounded[v] = true
    boundedCount += 1
  }

  /// Adds `bound` to its variable's list; returns its slot.
  ///
  /// - Precondition: its variable is bounded.
  /// - Complexity: O(1) amortized.
  mutating func insert(_ bound: Bound) -> Int {
    let slot: Int
    let head = first[Int(bound.variable)]
    if firstFree >= 0 {
      slot = Int(firstFree)
      firstFree = next[slot]
      bounds[slot] = bound
      next[slot] = head
      previous[slot] = -1
    } else {
      // A new slot's links appended as they end up: each write to a table checks its
      // uniqueness, and a build inserts a bound a view or more.
      slot = bounds.count
      bounds.append(bound)
      next.append(head)
      previous.append(-1)
    }
    if head >= 0 { previous[Int(head)] = Int32(slot) }
    first[Int(bound.variable)] = Int32(slot)
    liveCount += 1
    markStale(bound.variable)
    return slot
  }

  /// Marks `variable`'s bounds changed: it is narrowed again before the values are next read.
  ///
  /// - Complexity: O(1).
  mutating func markStale(_ variable: Int32) {
    guard !isStale[Int(variable)] else { return }
    isStale[Int(variable)] = true
    stale.append(variable)
  }

  /// Copies the variables marked stale, each once and in the order marked, into `taken` (its
  /// contents replaced) and empties the list. Both keep their buffers, so a steady state
  /// allocates nothing: returning the list would share its buffer, and emptying it would then
  /// allocate a new one; swapping the two would leave the list with the scratch's smaller
  /// buffer, to grow again on the next pass that marks every bound (a teardown).
  ///
  /// - Complexity: O(stale variables).
  mutating func takeStale(into taken: inout [Int32]) {
    taken.removeAll(keepingCapacity: true)
    taken.append(contentsOf: stale)
    stale.removeAll(keepingCapacity: true)
    for variable in taken { isStale[Int(variable)] = false }
  }

  /// Removes the bound in `slot` from its variable's list and frees the slot.
  ///
  /// - Complexity: O(1).
  mutating func remove(_ slot: Int) {
    let variable = Int(bounds[slot].variable)
    let (before, after) = (previous[slot], next[slot])
    if before >= 0 { next[Int(before)] = after } else { first[variable] = after }
    if after >= 0 { previous[Int(after)] = before }
    markStale(Int32(variable))
    // Looked up only when some bound has a label: a lookup hashes the id even in an empty
    // dictionary, some 200 instructions (a teardown removes a bound a view or more).
    if !labels.isEmpty { labels[bounds[slot].id] = nil }
    next[slot] = firstFree
    firstFree = Int32(slot)
    liveCount -= 1
  }

  /// Marks `variable` no longer bounded, its bounds removed; returns them, with their labels.
  ///
  /// - Complexity: O(bounds of the variable).
  mutating func unbind(_ variable: Int32) -> [(bound: Bound, label: String?)] {
    var removed: [(bound: Bound, label: String?)] = []
    var slot = first[Int(variable)]
    while slot >= 0 {
      let bound = bounds[Int(slot)]
      removed.append((bound, labels.isEmpty ? nil : labels[bound.id]))
      let following = next[Int(slot)]
      remove(Int(slot))
      slot = following
    }
    isBounded[Int(variable)] = false
    boundedCount -= 1
    return removed
  }

  /// Bytes held by the tables.
  var bytes: Int {
    bounds.capacity * MemoryLayout<Bound>.stride + (next.capacity + previous.capacity) * 4
      + first.capacity * 4 + isBounded.capacity + stale.capacity * 4 + isStale.capacity
  }

  // MARK: - Required bounds

  /// Narrows `low...high` to where `coefficient × x + constant` stands in `relation` to 0.
  ///
  /// - Complexity: O(1).
  static func narrow(
    _ low: inout Double, _ high: inout Double, coefficient: Double, constant: Double,
    relation: Relation
  ) {
    let breakpoint = -constant / coefficient
    let isLower: Bool
    switch relation {
    case .equal:
      low = max(low, breakpoint)
      high = min(high, breakpoint)
      return
    case .greaterThanOrEqual: isLower = coefficient > 0
    case .lessThanOrEqual: isLower = coefficient < 0
    }
    if isLower { low = max(low, breakpoint) } else { high = min(high, breakpoint) }
  }

  /// Whether `low...high` holds a value, up to the sparse solver's tolerance for a row's
  /// constant (the ends of a required interval come out of reductions, with their rounding).
  ///
  /// - Complexity: O(1).
  static func isFeasible(_ low: Double, _ high: Double) -> Bool {
    low - high <= valueTolerance * max(1, abs(low), abs(high))
  }

  /// Whether the required bounds of `variable` leave it a value.
  ///
  /// - Complexity: O(bounds of the variable).
  func requiredBoundsHold(for variable: Int32) -> Bool {
    var low = -Double.infinity
    var high = Double.infinity
    var slot = first[Int(variable)]
    while slot >= 0 {
      let bound = bounds[Int(slot)]
      if bound.priority.isRequired {
        Self.narrow(
          &low, &high, coefficient: bound.coefficient,
          constant: bound.constant, relation: bound.relation)
      }
      slot = next[Int(slot)]
    }
    return Self.isFeasible(low, high)
  }

  // MARK: - Narrowing

  /// The value of bounded `variable`: the lexicographic optimum of its bounds. Level after
  /// level, highest first, the interval of values still optimal narrows to the minimizers of
  /// the level's error (a convex, piecewise-linear function: its slope rises by each bound's
  /// |coefficient| at the bound's breakpoint, twice for an equality), within the interval.
  /// Where the last interval holds more than one value, the one nearest 0 is taken, as a
  /// variable nothing decides reads 0.
  ///
  /// - Complexity: O(*k* log *k*) for *k* bounds of the variable; `scratch` keeps its
  ///   capacity between calls, so nothing is allocated once it has grown.
  func optimum(of variable: Int32, scratch order: inout [Key]) -> Double {
    var low = -Double.infinity
    var high = Double.infinity
    order.removeAllKeepingCapacity()
    var slot = first[Int(variable)]
    while slot >= 0 {
      let bound = bounds[Int(slot)]
      let jump = bound.relation == .equal ? 2 * abs(bound.coefficient) : abs(bound.coefficient)
      order.append(
        Key(
          priority: bound.priority.rawValue, breakpoint: -bound.constant / bound.coefficient,
          jump: jump, slot: slot))
      slot = next[Int(slot)]
    }
    if order.count <= 16 {
      // A few bounds: sorted by insertion (highest priority first, then by breakpoint), each
      // level walked in order.
      for i in order.indices.dropFirst() {
        let key = order[i]
        var j = i
        while j > 0 && key.precedes(order[j - 1]) {
          order[j] = order[j - 1]
          j -= 1
        }
        order[j] = key
      }
      var start = 0
      while start < order.count {
        let priority = order[start].priority
        var end = start + 1
        while end < order.count && order[end].priority == priority { end += 1 }
        (low, high) = minimizers(order[start..<end], within: low, high)
        start = end
      }
    } else {
      // Many (a shared width that every row's preferences bound): each level gathered in
      // turn, highest first, and its minimizers selected, not sorted: O(k) a level.
      var start = 0
      while start < order.count {
        var priority = order[start].priority
        for index in start..<order.count { priority = max(priority, order[index].priority) }
        var end = start
        for index in start..<order.count where order[index].priority == priority {
          order.swapAt(index, end)
          end += 1
        }
        (low, high) = selectedMinimizers(&order, start..<end, within: low, high)
        start = end
      }
    }
    return min(max(0, low), high)
  }

  /// A bound's place in the narrowing's order, and how much the level's slope rises at it.
  struct Key {
    var priority: Float
    var breakpoint: Double
    var jump: Double
    var slot: Int32

    @inline(__always)
    func precedes(_ other: Key) -> Bool {
      priority != other.priority ? priority > other.priority : breakpoint < other.breakpoint
    }
  }

  /// ``minimizers(_:within:_:)`` for a level in no order: the two ends of the argmin are the
  /// first breakpoints where the slope stops being negative and where it becomes positive,
  /// weighted quantiles found by selection.
  ///
  /// - Complexity: O(*k*) expected for *k* bounds in `range`, which it reorders.
  private func selectedMinimizers(
    _ keys: inout [Key], _ range: Range<Int>, within low: Double, _ high: Double
  ) -> (Double, Double) {
    var slope = 0.0
    var total = 0.0
    for index in range {
      let bound = bounds[Int(keys[index].slot)]
      let a = bound.coefficient
      total += keys[index].jump
      switch bound.relation {
      case .equal: slope -= abs(a)
      case .lessThanOrEqual: if a < 0 { slope += a }
      case .greaterThanOrEqual: if a > 0 { slope -= a }
      }
    }
    let tolerance = 1e-9 * max(total, 1e-3)
    let from =
      slope >= -tolerance
      ? -Double.infinity : Self.select(&keys, range, reaching: -slope - tolerance, strictly: false)
    let to =
      slope + total <= tolerance
      ? Double.infinity : Self.select(&keys, range, reaching: -slope + tolerance, strictly: true)
    if to < low { return (low, low) }
    if from > high { return (high, high) }
    return (max(from, low), min(to, high))
  }

  /// The smallest breakpoint in `range` where the jumps of the keys at or before it reach
  /// `target` (exceed it, `strictly`); +∞ if they never do. Quickselect with a three-way
  /// partition, so equal breakpoints end it.
  private static func select(
    _ keys: inout [Key], _ range: Range<Int>, reaching target: Double, strictly: Bool
  ) -> Double {
    var lower = range.lowerBound
    var upper = range.upperBound
    var need = target
    func reaches(_ weight: Double) -> Bool { strictly ? weight > need : weight >= need }
    while lower < upper {
      let pivot = keys[lower + (upper - lower) / 2].breakpoint
      var less = lower
      var index = lower
      var greater = upper
      while index < greater {
        let breakpoint = keys[index].breakpoint
        if breakpoint < pivot {
          keys.swapAt(less, index)
          less += 1
          index += 1
        } else if breakpoint > pivot {
          greater -= 1
          keys.swapAt(index, greater)
        } else {
          index += 1
        }
      }
      var below = 0.0
      for position in lower..<less { below += keys[position].jump }
      if reaches(below) {
        upper = less
        continue
      }
      var through = below
      for position in less..<greater { through += keys[position].jump }
      if reaches(through) { return pivot }
      need -= through
      lower = greater
    }
    return Double.infinity
  }

  /// The values within `low...high` that minimize the summed error of `level` (bounds of one
  /// priority, by breakpoint).
  private func minimizers(
    _ level: ArraySlice<Key>, within low: Double, _ high: Double
  ) -> (Double, Double) {
    // The slope far to the left, and where it rises.
    var slope = 0.0
    var scale = 0.0
    for key in level {
      let bound = bounds[Int(key.slot)]
      let a = bound.coefficient
      scale += abs(a)
      switch bound.relation {
      case .equal: slope -= abs(a)
      case .lessThanOrEqual: if a < 0 { slope += a }
      case .greaterThanOrEqual: if a > 0 { slope -= a }
      }
    }
    let tolerance = 1e-9 * max(scale, 1e-3)
    // The argmin over the line: from the first breakpoint where the slope stops being
    // negative, to the first where it becomes positive.
    var from = -Double.infinity
    var to = Double.infinity
    var foundFrom = slope >= -tolerance
    if slope > tolerance { to = -Double.infinity }
    var positive = slope > tolerance
    for key in level where !positive {
      let bound = bounds[Int(key.slot)]
      let breakpoint = key.breakpoint
      slope += bound.relation == .equal ? 2 * abs(bound.coefficient) : abs(bound.coefficient)
      if !foundFrom && slope >= -tolerance {
        foundFrom = true
        from = breakpoint
      }
      if slope > tolerance {
        positive = true
        to = breakpoint
      }
    }
    // Within the interval: the argmin where they meet, else the end nearer it (the error
    // rises away from the argmin on either side).
    if to < low { return (low, low) }
    if from > high { return (high, high) }
    return (max(from, low), min(to, high))
  }
}
