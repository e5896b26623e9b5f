extension EqualityPlan.Incidence {
  /// The matched equalities grouped into blocks, the strongly connected components of "needs"
  /// (an equality needs the equality that determines each other unknown it mentions), each block
  /// after the blocks it needs: `members` lists the equalities block after block, and `starts`
  /// where each block begins, then `members.count`.
  ///
  /// Tarjan's algorithm, iterative: it finishes a component only after every component reachable
  /// from it, which is the evaluation order.
  func blocks(of matching: EqualityPlan.Matching) -> (members: [Int32], starts: [Int32]) {
    let count = equalityCount
    var index = [Int32](repeating: -1, count: count)
    var low = [Int32](repeating: 0, count: count)
    var onStack = [Bool](repeating: false, count: count)
    var stack: [Int32] = []
    // Each frame: an equality and the position of the next term to follow.
    var work: [(equality: Int32, position: Int32)] = []
    var members: [Int32] = []
    var starts: [Int32] = [0]
    members.reserveCapacity(count)
    var nextIndex: Int32 = 0
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
    return (members, starts)
  }
}

extension EqualityPlan {
  /// Lays the blocks out for evaluation: each equality's constant and its terms outside its
  /// block, and each larger block's LU factors (partial pivoting).
  mutating func factorize(
    _ blocks: (members: [Int32], starts: [Int32]), _ incidence: Incidence, _ matching: Matching,
    constants equalityConstants: [Double]
  ) throws(EqualityPlanError) {
    let (members, starts) = blocks
    order = members
    subjects = members.map { matching.subject[Int($0)] }
    blockStarts = starts
    constants = members.map { equalityConstants[Int($0)] }
    pivots = [Double](repeating: 0, count: members.count)
    subjectPositions = [UInt8](repeating: Self.unplacedSubject, count: members.count)
    // The column of each variable in the block being laid out, -1 outside it.
    var column = [Int32](repeating: -1, count: variableCount)
    // The tables are sized exactly first: they are held as long as the plan is, and grown by
    // doubling they would hold up to twice what they need.
    var otherCount = 0
    var factorCount = 0
    var permutationCount = 0
    for block in 0..<starts.count - 1 {
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
    otherStarts.reserveCapacity(members.count + 1)
    otherVariables.reserveCapacity(otherCount)
    otherCoefficients.reserveCapacity(otherCount)
    factors.reserveCapacity(factorCount)
    permutations.reserveCapacity(permutationCount)
    factorStarts.reserveCapacity(starts.count - 1)
    permutationStarts.reserveCapacity(starts.count - 1)
    var matrix: [Double] = []
    for block in 0..<starts.count - 1 {
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
            otherVariables.append(v)
            otherCoefficients.append(incidence.coefficients[index])
          }
        }
        otherStarts.append(Int32(otherVariables.count))
        factorStarts.append(-1)
        permutationStarts.append(-1)
        continue
      }
      for (offset, k) in steps.enumerated() { column[Int(subjects[k])] = Int32(offset) }
      matrix.removeAll(keepingCapacity: true)
      if size > 1 { matrix.append(contentsOf: repeatElement(0, count: size * size)) }
      for (row, k) in steps.enumerated() {
        for index in incidence.terms(of: Int(members[k])) {
          let v = incidence.variables[index], coefficient = incidence.coefficients[index]
          let at = column[Int(v)]
          if at < 0 {
            otherVariables.append(v)
            otherCoefficients.append(coefficient)
          } else if size == 1 {
            pivots[k] = coefficient
          } else {
            matrix[row * size + Int(at)] = coefficient
          }
        }
        otherStarts.append(Int32(otherVariables.count))
      }
      for k in steps { column[Int(subjects[k])] = -1 }
      if size == 1 {
        factorStarts.append(-1)
        permutationStarts.append(-1)
        continue
      }
      var permutation = Array(Int32(0)..<Int32(size))
      guard Self.decompose(&matrix, size: size, permutation: &permutation) else {
        throw .singularBlock(equalities: members[steps].map(Int.init).sorted())
      }
      factorStarts.append(Int32(factors.count))
      permutationStarts.append(Int32(permutations.count))
      factors.append(contentsOf: matrix)
      permutations.append(contentsOf: permutation)
    }
    assert(otherVariables.count == otherCount && factors.count == factorCount)
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
