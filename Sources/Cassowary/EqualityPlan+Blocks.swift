extension EqualityPlan.Incidence {
  /// The matched equalities grouped into blocks, the strongly connected components of "needs"
  /// (an equality needs the equality that determines each other unknown it mentions), each block
  /// after the blocks it needs: `members` lists the equalities block after block, and `starts`
  /// where each block begins, then `members.count`.
  ///
  /// Tarjan's algorithm, iterative: it finishes a component only after every component reachable
  /// from it, which is the evaluation order.
  func blocks(of matching: EqualityPlan.Matching) -> (members: [Int32], starts: [Int32]) {
    var workspace = EqualityPlan.Workspace()
    blocks(of: matching, in: &workspace)
    return (workspace.members, workspace.starts)
  }

  /// ``blocks(of:)``, written to `workspace.members` and `workspace.starts` in the room of
  /// `workspace`'s tables.
  func blocks(of matching: EqualityPlan.Matching, in workspace: inout EqualityPlan.Workspace) {
    let count = equalityCount
    var index = EqualityPlan.Workspace.take(&workspace.index, filledWith: -1, count: count)
    var low = EqualityPlan.Workspace.take(&workspace.low, filledWith: 0, count: count)
    var onStack = EqualityPlan.Workspace.take(&workspace.onStack, filledWith: false, count: count)
    var stack = EqualityPlan.Workspace.take(&workspace.stack)
    // Each frame: an equality and the position of the next term to follow.
    var work = EqualityPlan.Workspace.take(&workspace.work)
    var members = EqualityPlan.Workspace.take(&workspace.members)
    var starts = EqualityPlan.Workspace.take(&workspace.starts)
    starts.append(0)
    members.reserveCapacity(count)
    defer {
      workspace.index = index
      workspace.low = low
      workspace.onStack = onStack
      workspace.stack = stack
      workspace.work = work
      workspace.members = members
      workspace.starts = starts
    }
    var nextIndex: Int32 = 0
    // Over the tables' buffers: taken from the workspace, the arrays' uniqueness is not
    // known to the optimizer, which would check it on every write.
    index.withUnsafeMutableBufferPointer { index in
      low.withUnsafeMutableBufferPointer { low in
        onStack.withUnsafeMutableBufferPointer { onStack in
          for root in 0..<count where matching.subject[root] >= 0 && index[root] < 0 {
            work.append((Int32(root), -1))  // -1: not visited yet
            while let (node, position) = work.popLast() {
              let e = Int(node)
              var at: Int32
              if position < 0 {
                index[e] = nextIndex
                low[e] = nextIndex
                nextIndex += 1
                stack.append(node)
                onStack[e] = true
                at = Int32(terms(of: e).lowerBound)
              } else {
                at = position
              }
              var descended = false
              let end = Int32(terms(of: e).upperBound)
              while at < end {
                let v = Int(variables[Int(at)])
                at += 1
                let other = Int(matching.owner[v])
                guard !isKnown[v], other >= 0, other != e else { continue }
                if index[other] < 0 {
                  work.append((node, at))
                  work.append((Int32(other), -1))
                  descended = true
                  break
                }
                if onStack[other] { low[e] = min(low[e], index[other]) }
              }
              if descended { continue }
              if low[e] == index[e] {
                while let member = stack.popLast() {
                  onStack[Int(member)] = false
                  members.append(member)
                  if member == node { break }
                }
                starts.append(Int32(members.count))
              }
              if let parent = work.last {
                low[Int(parent.equality)] = min(low[Int(parent.equality)], low[e])
              }
            }
          }
        }
      }
    }
  }
}

extension EqualityPlan {
  /// Lays the blocks in `workspace.members` and `workspace.starts` out for evaluation, in this
  /// plan's tables emptied with their room kept and with the rest of `workspace` for room: each
  /// equality's constant and its terms outside its block, and each larger block's LU factors
  /// (partial pivoting).
  mutating func factorize(
    _ incidence: Incidence, _ matching: Matching, constants equalityConstants: [Double],
    in workspace: inout Workspace
  ) throws(EqualityPlanError) {
    let members = workspace.members, starts = workspace.starts
    // A first plan takes the blocks' tables as they are; a plan made again copies them into
    // its own room, leaving the workspace's for the next.
    if order.capacity == 0 {
      order = members
    } else {
      order.removeAll(keepingCapacity: true)
      order.append(contentsOf: members)
    }
    if subjects.capacity == 0 {
      subjects = members.map { matching.subject[Int($0)] }
    } else {
      subjects.removeAll(keepingCapacity: true)
      for e in members { subjects.append(matching.subject[Int(e)]) }
    }
    if blockStarts.capacity == 0 {
      blockStarts = starts
    } else {
      blockStarts.removeAll(keepingCapacity: true)
      blockStarts.append(contentsOf: starts)
    }
    if constants.capacity == 0 {
      constants = members.map { equalityConstants[Int($0)] }
    } else {
      constants.removeAll(keepingCapacity: true)
      for e in members { constants.append(equalityConstants[Int(e)]) }
    }
    factors.removeAll(keepingCapacity: true)
    permutations.removeAll(keepingCapacity: true)
    largestBlock = 0
    let blockCount = starts.count - 1
    // The column of each variable in the block being laid out, -1 outside it.
    var column = Workspace.take(&workspace.column, filledWith: -1, count: variableCount)
    var matrix = Workspace.take(&workspace.matrix)
    var permutation = Workspace.take(&workspace.permutation)
    defer {
      workspace.column = column
      workspace.matrix = matrix
      workspace.permutation = permutation
    }
    // The tables are sized exactly first: they are held as long as the plan is, and grown by
    // doubling they would hold up to twice what they need.
    var otherCount = 0
    var factorCount = 0
    var permutationCount = 0
    for block in 0..<blockCount {
      let steps = Int(starts[block])..<Int(starts[block + 1])
      if steps.count == 1 {
        // Its subject is one of its terms, once (the incidence sums a variable's terms).
        otherCount += incidence.terms(of: Int(members[steps.lowerBound])).count - 1
        continue
      }
      factorCount += steps.count * steps.count
      permutationCount += steps.count
      for (offset, k) in steps.enumerated() { column[Int(subjects[k])] = Int32(offset) }
      for k in steps {
        for index in incidence.terms(of: Int(members[k]))
        where column[Int(incidence.variables[index])] < 0 {
          otherCount += 1
        }
      }
      for k in steps { column[Int(subjects[k])] = -1 }
    }
    factors.reserveCapacity(factorCount)
    permutations.reserveCapacity(permutationCount)
    // Filled in place, in the room of the last plan's tables: written one by one into the
    // plan's own arrays, each write checked their storage's uniqueness again.
    var pivots = Workspace.take(&self.pivots, filledWith: 0, count: members.count)
    var subjectPositions = Workspace.take(
      &self.subjectPositions, filledWith: Self.unplacedSubject, count: members.count)
    var otherStarts = Workspace.take(&self.otherStarts, filledWith: 0, count: members.count + 1)
    var otherVariables = Workspace.take(&self.otherVariables, filledWith: 0, count: otherCount)
    var otherCoefficients = Workspace.take(
      &self.otherCoefficients, filledWith: 0, count: otherCount)
    var factorStarts = Workspace.take(&self.factorStarts, filledWith: -1, count: blockCount)
    var permutationStarts = Workspace.take(
      &self.permutationStarts, filledWith: -1, count: blockCount)
    defer {
      self.pivots = pivots
      self.subjectPositions = subjectPositions
      self.otherStarts = otherStarts
      self.otherVariables = otherVariables
      self.otherCoefficients = otherCoefficients
      self.factorStarts = factorStarts
      self.permutationStarts = permutationStarts
    }
    var singular: Range<Int>?
    otherStarts.withUnsafeMutableBufferPointer { otherStarts in
      otherVariables.withUnsafeMutableBufferPointer { otherVariables in
        otherCoefficients.withUnsafeMutableBufferPointer { otherCoefficients in
          pivots.withUnsafeMutableBufferPointer { pivots in
            subjectPositions.withUnsafeMutableBufferPointer { subjectPositions in
              var other = 0
              for block in 0..<blockCount {
                let steps = Int(starts[block])..<Int(starts[block + 1])
                let size = steps.count
                largestBlock = max(largestBlock, size)
                if size == 1 {
                  // Most blocks: one equality, whose subject's coefficient is its pivot.
                  let k = steps.lowerBound
                  let subject = subjects[k]
                  let terms = incidence.terms(of: Int(members[k]))
                  for index in terms {
                    let v = incidence.variables[index]
                    if v == subject {
                      pivots[k] = incidence.coefficients[index]
                      if index - terms.lowerBound < Int(Self.unplacedSubject) {
                        subjectPositions[k] = UInt8(index - terms.lowerBound)
                      }
                    } else {
                      otherVariables[other] = v
                      otherCoefficients[other] = incidence.coefficients[index]
                      other += 1
                    }
                  }
                  otherStarts[k + 1] = Int32(other)
                  continue
                }
                for (offset, k) in steps.enumerated() { column[Int(subjects[k])] = Int32(offset) }
                matrix.removeAll(keepingCapacity: true)
                matrix.append(contentsOf: repeatElement(0, count: size * size))
                for (row, k) in steps.enumerated() {
                  for index in incidence.terms(of: Int(members[k])) {
                    let v = incidence.variables[index], coefficient = incidence.coefficients[index]
                    let at = column[Int(v)]
                    if at < 0 {
                      otherVariables[other] = v
                      otherCoefficients[other] = coefficient
                      other += 1
                    } else {
                      matrix[row * size + Int(at)] = coefficient
                    }
                  }
                  otherStarts[k + 1] = Int32(other)
                }
                for k in steps { column[Int(subjects[k])] = -1 }
                permutation.removeAll(keepingCapacity: true)
                permutation.append(contentsOf: Int32(0)..<Int32(size))
                guard Self.decompose(&matrix, size: size, permutation: &permutation) else {
                  singular = steps
                  return
                }
                factorStarts[block] = Int32(factors.count)
                permutationStarts[block] = Int32(permutations.count)
                factors.append(contentsOf: matrix)
                permutations.append(contentsOf: permutation)
              }
              assert(other == otherCount)
            }
          }
        }
      }
    }
    if let steps = singular {
      throw .singularBlock(equalities: members[steps].map(Int.init).sorted())
    }
    assert(factors.count == factorCount)
  }

  /// LU decomposition of the `size` × `size` row-major `matrix` in place, with partial pivoting
  /// recorded in `permutation` (row `r` of the factors is row `permutation[r]` of the input);
  /// false when a pivot is negligible against the matrix's largest entry (the rows are
  /// dependent).
  static func decompose(_ matrix: inout [Double], size: Int, permutation: inout [Int32]) -> Bool {
    let scale = matrix.reduce(0) { max($0, abs($1)) }
    let tolerance = scale * 1e-12
    for k in 0..<size {
      var pivotRow = k
      for row in (k + 1)..<size where abs(matrix[row * size + k]) > abs(matrix[pivotRow * size + k])
      {
        pivotRow = row
      }
      guard abs(matrix[pivotRow * size + k]) > tolerance else { return false }
      if pivotRow != k {
        for j in 0..<size { matrix.swapAt(k * size + j, pivotRow * size + j) }
        permutation.swapAt(k, pivotRow)
      }
      let pivot = matrix[k * size + k]
      for row in (k + 1)..<size {
        let factor = matrix[row * size + k] / pivot
        matrix[row * size + k] = factor
        guard factor != 0 else { continue }
        for j in (k + 1)..<size { matrix[row * size + j] -= factor * matrix[k * size + j] }
      }
    }
    return true
  }
}
