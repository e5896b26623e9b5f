/// The terms of every constraint a solver holds, in one array: each constraint's record names
/// its run by start and length.
///
/// A constraint's terms as an array of their own cost a heap block each (64 or 80 bytes for a
/// layout's one to three terms) and a reference count that every copy of its record retained.
/// Here they are 16 bytes a term. A run that is given back is reused by the next run of the
/// same length, up to ``reusedLengths`` terms; the free runs of each length are linked through
/// their first terms' coefficients. Longer runs leave holes. Once the holes outnumber the terms
/// in use, ``pack(records:)`` moves the runs together.
struct TermStore {
  /// The longest run whose space is reused for another run of its length.
  static var reusedLengths: Int { 8 }

  /// The runs and the holes between them.
  private(set) var terms: [Term] = []
  /// The start of the first free run of each length from 1 to ``reusedLengths`` (lane
  /// `length - 1`), or -1 for none.
  private var freeRuns = SIMD8<Int32>(repeating: -1)
  /// The terms in runs given back and not reused yet.
  private(set) var holes = 0

  /// Whether the store holds no run and no hole.
  var isEmpty: Bool { terms.isEmpty }

  /// Stores `source` as a run and returns its start.
  ///
  /// - Complexity: O(`source.count`), amortized.
  mutating func store(_ source: UnsafeBufferPointer<Term>) -> Int32 {
    let count = source.count
    if count >= 1 && count <= Self.reusedLengths {
      let start = freeRuns[count - 1]
      if start >= 0 {
        terms.withUnsafeMutableBufferPointer { terms in
          freeRuns[count - 1] = Int32(terms[Int(start)].coefficient)
          for offset in 0..<count { terms[Int(start) + offset] = source[offset] }
        }
        holes -= count
        return start
      }
    }
    let start = Int32(terms.count)
    // Term by term: `append(contentsOf:)` costs some 60 instructions a call for a handful.
    for term in source { terms.append(term) }
    return start
  }

  /// Gives back the run of `count` terms at `start`, which the store must hold.
  ///
  /// - Complexity: O(1).
  mutating func release(start: Int32, count: Int32) {
    holes += Int(count)
    guard count >= 1 && count <= Self.reusedLengths else { return }
    terms[Int(start)].coefficient = Double(freeRuns[Int(count) - 1])
    freeRuns[Int(count) - 1] = start
  }

  /// The term at `index` of the store (a run's start plus an offset into it).
  @inline(__always)
  subscript(index: Int32) -> Term {
    terms.withUnsafeBufferPointer { $0[Int(index)] }
  }

  /// The run of `count` terms at `start`, as an array.
  ///
  /// - Complexity: O(`count`).
  func array(start: Int32, count: Int32) -> [Term] {
    Array(terms[Int(start)..<Int(start + count)])
  }

  /// Whether the run of `count` terms at `start` holds exactly `other`.
  ///
  /// - Complexity: O(`count`).
  @inline(__always)
  func run(start: Int32, count: Int32, equals other: UnsafeBufferPointer<Term>) -> Bool {
    guard Int(count) == other.count else { return false }
    return terms.withUnsafeBufferPointer { terms in
      for offset in 0..<Int(count) where terms[Int(start) + offset] != other[offset] {
        return false
      }
      return true
    }
  }

  /// Whether the holes outnumber the terms in use by enough to move the runs together: a store
  /// that layouts filled and emptied again (size-class switches, churn) then stays within twice
  /// what it holds.
  var isWasteful: Bool { holes > 4096 && holes > terms.count - holes }

  /// Moves the runs of `records` together, in the records' order, and drops every hole. Every
  /// run the store holds must belong to one of `records`.
  ///
  /// - Complexity: O(records + terms in use).
  mutating func pack(records: inout [ConstraintRecord?]) {
    var packed: [Term] = []
    packed.reserveCapacity(terms.count - holes)
    terms.withUnsafeBufferPointer { terms in
      for index in records.indices {
        guard let record = records[index] else { continue }
        let start = Int(record.termStart)
        records[index]!.termStart = Int32(packed.count)
        packed.append(contentsOf: terms[start..<start + Int(record.termCount)])
      }
    }
    terms = packed
    freeRuns = SIMD8(repeating: -1)
    holes = 0
  }

  /// Gives back the space growth left unused (see `Array.trimExcessCapacity()`).
  mutating func trimExcessCapacity() { terms.trimExcessCapacity() }

  /// Makes room for `count` more terms, on a store that holds none: a build then fills one
  /// block of its size. Not later, where doubling reservations for each batch would allocate
  /// in what should be a steady state.
  mutating func reserveForFirstBuild(_ count: Int) {
    guard terms.isEmpty else { return }
    terms.reserveCapacity(count)
  }

  /// The bytes the store's array takes.
  var bytes: Int { terms.capacity * MemoryLayout<Term>.stride }
}
