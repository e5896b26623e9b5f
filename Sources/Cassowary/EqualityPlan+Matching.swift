extension EqualityPlan {
  /// The equalities' terms in contiguous storage, each variable once an equality with its
  /// coefficients summed (and dropped where they cancel), and which variables are known.
  struct Incidence {
    var starts: [Int32] = [0]
    var variables: [Int32] = []
    var coefficients: [Double] = []
    var isKnown: [Bool]

    init(_ equalities: [LinearExpression], variableCount: Int, isKnown: [Bool]) {
      self.isKnown = isKnown
      var sums = [Double](repeating: 0, count: variableCount)
      var seen = [Bool](repeating: false, count: variableCount)
      var touched: [Int32] = []
      let termCount = equalities.reduce(0) { $0 + $1.terms.count }
      variables.reserveCapacity(termCount)
      coefficients.reserveCapacity(termCount)
      starts.reserveCapacity(equalities.count + 1)
      for equality in equalities {
        touched.removeAllKeepingCapacity()
        for term in equality.terms {
          let id = Int(term.variable.id)
          precondition(id < variableCount, "a variable's id is not below variableCount")
          if !seen[id] {
            seen[id] = true
            touched.append(term.variable.id)
          }
          sums[id] += term.coefficient
        }
        for id in touched {
          if sums[Int(id)] != 0 {
            variables.append(id)
            coefficients.append(sums[Int(id)])
          }
          sums[Int(id)] = 0
          seen[Int(id)] = false
        }
        starts.append(Int32(variables.count))
      }
    }

    /// The incidence of arrays written already: `starts` (a first 0, then each equality's
    /// end), and each term's variable and coefficient, a variable once an equality.
    init(starts: [Int32], variables: [Int32], coefficients: [Double], isKnown: [Bool]) {
      self.starts = starts
      self.variables = variables
      self.coefficients = coefficients
      self.isKnown = isKnown
    }

    var equalityCount: Int { starts.count - 1 }

    /// The positions of equality `e`'s terms in `variables` and `coefficients`.
    @inline(__always)
    func terms(of e: Int) -> Range<Int> { Int(starts[e])..<Int(starts[e + 1]) }

    /// A maximum matching of equalities to the unknowns they mention: a greedy pass (an
    /// equality takes its first unknown not yet taken; in a layout written in dependency
    /// order that is nearly all of them), then a breadth-first search for an augmenting path
    /// from each equality left over.
    ///
    /// The unknowns `avoided` marks are left free where the structure allows: the greedy pass
    /// skips them, and a search may end at one only once every equality left over has been
    /// searched from without them. (Matching a variable that another constraint pins to its
    /// equality would make that constraint reach through the equality's definition: a label's
    /// height defined by the row above it puts the whole column above into the label's
    /// intrinsic-height constraint.)
    func maximumMatching(avoiding avoided: [Bool]) -> Matching {
      var workspace = EqualityPlan.Workspace()
      maximumMatching(avoiding: avoided, in: &workspace)
      return workspace.matching
    }

    /// ``maximumMatching(avoiding:)``, written to `workspace.matching` in the room of
    /// `workspace`'s tables.
    func maximumMatching(avoiding avoided: [Bool], in workspace: inout EqualityPlan.Workspace) {
      precondition(avoided.count >= isKnown.count, "an avoided mark is missing for a variable")
      var matching = EqualityPlan.Matching(
        subject: EqualityPlan.Workspace.take(
          &workspace.matching.subject, filledWith: -1, count: equalityCount),
        owner: EqualityPlan.Workspace.take(
          &workspace.matching.owner, filledWith: -1, count: isKnown.count))
      var leftOver = EqualityPlan.Workspace.take(&workspace.leftOver)
      defer {
        workspace.matching = matching
        workspace.leftOver = leftOver
      }
      // Over the tables' buffers: taken from the workspace, the arrays' uniqueness is not
      // known to the optimizer, which would check it on every write, and the incidence's own
      // tables are read a few times a term.
      withTables(avoided, &matching) { starts, variables, isKnown, avoided, owner, subject in
        for e in 0..<starts.count - 1 {
          var taken = false
          for index in Int(starts[e])..<Int(starts[e + 1]) {
            let v = Int(variables[index])
            if !isKnown[v] && !avoided[v] && owner[v] < 0 {
              owner[v] = Int32(e)
              subject[e] = Int32(v)
              taken = true
              break
            }
          }
          if !taken { leftOver.append(e) }
        }
      }
      guard !leftOver.isEmpty else { return }
      // Each search marks the variables it reaches with its own epoch, and records the
      // equality it reached each one from.
      var reachedIn = EqualityPlan.Workspace.take(
        &workspace.reachedIn, filledWith: -1, count: isKnown.count)
      var reachedFrom = EqualityPlan.Workspace.take(
        &workspace.reachedFrom, filledWith: -1, count: isKnown.count)
      // A search's queue of equalities, breadth first. A search queues an equality once at
      // most (it reaches a variable once, and a variable's owner owns only it; the root owns
      // none), so an equality each is room enough: the room of the blocks' `index` table,
      // which is as long and which they fill again.
      var queue = EqualityPlan.Workspace.take(&workspace.index, filledWith: 0, count: equalityCount)
      var stillLeft = EqualityPlan.Workspace.take(&workspace.stillLeft)
      defer {
        workspace.reachedIn = reachedIn
        workspace.reachedFrom = reachedFrom
        workspace.index = queue
        workspace.stillLeft = stillLeft
      }
      var epoch: Int32 = 0
      // Whether a search of the first stage passed over an avoided free variable: if none did,
      // every equality it left over has no augmenting path at all, and never will have.
      var passedAvoided = false
      withTables(avoided, &matching) { starts, variables, isKnown, avoided, owner, subject in
        reachedIn.withUnsafeMutableBufferPointer { reachedIn in
          reachedFrom.withUnsafeMutableBufferPointer { reachedFrom in
            queue.withUnsafeMutableBufferPointer { queue in
              for stage in 0..<2 {
                let allowAvoided = stage == 1
                if allowAvoided && !passedAvoided { break }
                stillLeft.removeAllKeepingCapacity()
                // Searches that fail share their marks: what one reached leads to no free
                // unknown, and while the matching stays as it is, a later search need not
                // walk it again. A path flipped changes the matching, and the next search
                // starts unmarked.
                epoch += 1
                for root in leftOver {
                  // The search's first level alone, without its queue: most equalities left
                  // over mention an unknown nothing owns (one the greedy pass avoided).
                  var own: Int32 = -1
                  for index in Int(starts[root])..<Int(starts[root + 1]) {
                    let v = Int(variables[index])
                    guard !isKnown[v], owner[v] < 0 else { continue }
                    guard allowAvoided || !avoided[v] else {
                      passedAvoided = true
                      continue
                    }
                    own = Int32(v)
                    break
                  }
                  if own >= 0 {
                    owner[Int(own)] = Int32(root)
                    subject[root] = own
                    continue
                  }
                  queue[0] = Int32(root)
                  var head = 0
                  var tail = 1
                  var free: Int32 = -1
                  search: while head < tail {
                    let e = Int(queue[head])
                    head += 1
                    for index in Int(starts[e])..<Int(starts[e + 1]) {
                      let v = Int(variables[index])
                      guard !isKnown[v], reachedIn[v] != epoch else { continue }
                      if owner[v] < 0 {
                        guard allowAvoided || !avoided[v] else {
                          passedAvoided = true
                          continue
                        }
                        reachedIn[v] = epoch
                        reachedFrom[v] = Int32(e)
                        free = Int32(v)
                        break search
                      }
                      reachedIn[v] = epoch
                      reachedFrom[v] = Int32(e)
                      precondition(tail < queue.count, "an equality was queued twice in a search")
                      queue[tail] = owner[v]
                      tail += 1
                    }
                  }
                  if free < 0 {
                    stillLeft.append(root)
                    continue
                  }
                  // Flip the path from the free variable back to the root.
                  var v = free
                  while v >= 0 {
                    let e = reachedFrom[Int(v)]
                    let previous = subject[Int(e)]
                    owner[Int(v)] = e
                    subject[Int(e)] = v
                    v = e == Int32(root) ? -1 : previous
                  }
                  epoch += 1
                }
                swap(&leftOver, &stillLeft)
              }
            }
          }
        }
      }
    }

    /// Calls `body` with the incidence's `starts`, `variables` and `isKnown`, `avoided`, and
    /// `matching`'s owners and subjects, as buffers.
    @inline(__always)
    private func withTables(
      _ avoided: [Bool], _ matching: inout EqualityPlan.Matching,
      _ body: (
        _ starts: UnsafeBufferPointer<Int32>, _ variables: UnsafeBufferPointer<Int32>,
        _ isKnown: UnsafeBufferPointer<Bool>, _ avoided: UnsafeBufferPointer<Bool>,
        _ owner: UnsafeMutableBufferPointer<Int32>, _ subject: UnsafeMutableBufferPointer<Int32>
      ) -> Void
    ) {
      starts.withUnsafeBufferPointer { starts in
        variables.withUnsafeBufferPointer { variables in
          isKnown.withUnsafeBufferPointer { isKnown in
            avoided.withUnsafeBufferPointer { avoided in
              matching.owner.withUnsafeMutableBufferPointer { owner in
                matching.subject.withUnsafeMutableBufferPointer { subject in
                  body(starts, variables, isKnown, avoided, owner, subject)
                }
              }
            }
          }
        }
      }
    }
  }

  /// Which unknown each equality determines (`subject`, -1 for none) and which equality
  /// determines each variable (`owner`, -1 for none).
  struct Matching {
    var subject: [Int32]
    var owner: [Int32]
  }

  /// The tables planning works in (matching, searches, blocks, factorization), kept by a client
  /// that plans again and again (``PlanSolver``'s later batches) for their room: planning then
  /// allocates only where a table outgrows it.
  struct Workspace {
    var matching = Matching(subject: [], owner: [])
    var leftOver: [Int] = []
    var stillLeft: [Int] = []
    var reachedIn: [Int32] = []
    var reachedFrom: [Int32] = []
    var index: [Int32] = []
    var low: [Int32] = []
    var onStack: [Bool] = []
    var stack: [Int32] = []
    var work: [(equality: Int32, position: Int32)] = []
    var members: [Int32] = []
    var starts: [Int32] = []
    var column: [Int32] = []

    /// `table`, emptied with its room kept, leaving an empty array in its place (so that the
    /// one returned is the only reference to its storage).
    ///
    /// - Complexity: O(its count).
    static func take<Element>(_ table: inout [Element]) -> [Element] {
      var taken: [Element] = []
      swap(&taken, &table)
      taken.removeAllKeepingCapacity()
      return taken
    }

    /// `table` holding `count` copies of `filler`, in its room where it has enough (a table
    /// new or outgrown is made at once, as `Array(repeating:count:)` does), leaving an empty
    /// array in its place. The elements it holds are overwritten in place, and the rest
    /// appended: a later batch's tables are mostly a few elements long, and emptying one to
    /// append repeated elements costs some 300 instructions however few they are.
    ///
    /// - Complexity: O(`count`), plus O(elements past `count`) to drop them.
    static func take<Element>(_ table: inout [Element], filledWith filler: Element, count: Int)
      -> [Element]
    {
      var taken: [Element] = []
      swap(&taken, &table)
      guard taken.capacity >= count else { return Array(repeating: filler, count: count) }
      taken.shrink(to: count)
      taken.withUnsafeMutableBufferPointer { $0.update(repeating: filler) }
      taken.grow(to: count, with: filler)
      return taken
    }

    /// Bytes held.
    var bytes: Int {
      (matching.subject.capacity + matching.owner.capacity + reachedIn.capacity
        + reachedFrom.capacity + index.capacity
        + low.capacity + stack.capacity + members.capacity + starts.capacity + column.capacity)
        * 4 + (leftOver.capacity + stillLeft.capacity) * 8 + onStack.capacity + work.capacity * 8
    }
  }
}
