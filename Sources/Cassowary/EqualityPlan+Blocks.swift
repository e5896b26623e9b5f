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
    // The stack of equalities not yet in a component, and the walk's frames (an equality and
    // the position of the next term to follow): grown as deep as the walk goes, mostly far
    // less than an equality each, which sizing them for the worst case would allocate.
    var stack = EqualityPlan.Workspace.take(&workspace.stack)
    var work = EqualityPlan.Workspace.take(&workspace.work)
    var members = EqualityPlan.Workspace.take(&workspace.members, filledWith: 0, count: count)
    var starts = EqualityPlan.Workspace.take(&workspace.starts, filledWith: 0, count: count + 1)
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
    var memberCount = 0
    var blockCount = 0
    // Over the tables' buffers: taken from the workspace, the arrays' uniqueness is not
    // known to the optimizer, which would check it on every write.
    index.withUnsafeMutableBufferPointer { index in
      low.withUnsafeMutableBufferPointer { low in
        onStack.withUnsafeMutableBufferPointer { onStack in
          members.withUnsafeMutableBufferPointer { members in
            starts.withUnsafeMutableBufferPointer { starts in
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
                      members[memberCount] = member
                      memberCount += 1
                      if member == node { break }
                    }
                    blockCount += 1
                    starts[blockCount] = Int32(memberCount)
                  }
                  if let frame = work.last {
                    let parent = Int(frame.equality)
                    low[parent] = min(low[parent], low[e])
                  }
                }
              }
            }
          }
        }
      }
    }
    // Only matched equalities are members.
    if memberCount < members.count { members.removeLast(members.count - memberCount) }
    starts.removeLast(starts.count - (blockCount + 1))
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
      // Room for a block an equality: with larger blocks, more than the plan keeps.
      blockStarts = starts
      blockStarts.trimExcessCapacity()
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
    largestBlock = 0
    let blockCount = starts.count - 1
    // The column of each variable in the block being laid out, -1 outside it.
    var column = Workspace.take(&workspace.column, filledWith: -1, count: variableCount)
    defer { workspace.column = column }
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
    // Each larger block's factors are made in place, in its own part of the tables.
    var factors = Workspace.take(&self.factors, filledWith: 0, count: factorCount)
    var permutations = Workspace.take(&self.permutations, filledWith: 0, count: permutationCount)
    defer {
      self.pivots = pivots
      self.subjectPositions = subjectPositions
      self.otherStarts = otherStarts
      self.otherVariables = otherVariables
      self.otherCoefficients = otherCoefficients
      self.factorStarts = factorStarts
      self.permutationStarts = permutationStarts
      self.factors = factors
      self.permutations = permutations
    }
    var singular: Range<Int>?
    otherStarts.withUnsafeMutableBufferPointer { otherStarts in
      otherVariables.withUnsafeMutableBufferPointer { otherVariables in
        otherCoefficients.withUnsafeMutableBufferPointer { otherCoefficients in
          pivots.withUnsafeMutableBufferPointer { pivots in
            subjectPositions.withUnsafeMutableBufferPointer { subjectPositions in
              var other = 0
              var factorEnd = 0
              var permutationEnd = 0
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
                let factorStart = factorEnd, permutationStart = permutationEnd
                factorEnd += size * size
                permutationEnd += size
                let isRegular = factors.withUnsafeMutableBufferPointer { factors in
                  permutations.withUnsafeMutableBufferPointer { permutations in
                    let matrix = UnsafeMutableBufferPointer(
                      rebasing: factors[factorStart..<factorEnd])
                    let permutation = UnsafeMutableBufferPointer(
                      rebasing: permutations[permutationStart..<permutationEnd])
                    for (row, k) in steps.enumerated() {
                      for index in incidence.terms(of: Int(members[k])) {
                        let v = incidence.variables[index]
                        let coefficient = incidence.coefficients[index]
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
                    for row in 0..<size { permutation[row] = Int32(row) }
                    return Self.decompose(matrix, size: size, permutation: permutation)
                  }
                }
                for k in steps { column[Int(subjects[k])] = -1 }
                guard isRegular else {
                  singular = steps
                  return
                }
                factorStarts[block] = Int32(factorStart)
                permutationStarts[block] = Int32(permutationStart)
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
  }

  /// LU decomposition of the `size` × `size` row-major `matrix` in place, with partial pivoting
  /// recorded in `permutation` (row `r` of the factors is row `permutation[r]` of the input);
  /// false when a pivot is negligible against the matrix's largest entry (the rows are
  /// dependent).
  static func decompose(
    _ matrix: UnsafeMutableBufferPointer<Double>, size: Int,
    permutation: UnsafeMutableBufferPointer<Int32>
  ) -> Bool {
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
