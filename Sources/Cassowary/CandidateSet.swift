/// The symbols the primal simplex may try next as entering symbols, taken lowest id first
/// (Bland's rule): a bit per symbol, and a summary bit per word of symbols that holds one.
///
/// A first layout marks every symbol of every new row, tens of thousands of them at 10,000
/// views, and takes each back once; in a binary heap that cost a sift of a few hundred
/// instructions per symbol taken. Here an insert sets two bits, and taking the lowest reads the
/// summary from the lowest word that may hold one, then the word it names. The set's memory is
/// a bit per symbol, in manual memory that ``copy()`` copies and ``deallocate()`` frees.
struct CandidateSet: ManuallyAllocated {
  /// Bit `s % 64` of word `s / 64` is set when symbol `s` is a candidate.
  private var words = ManualArray<UInt64>()
  /// Bit `w % 64` of summary word `w / 64` is set when word `w` is not zero.
  private var summary = ManualArray<UInt64>()
  /// How many symbols the set holds.
  private(set) var count = 0
  /// No summary word below this one holds a bit.
  private var lowestSummary = 0

  /// An empty set, holding no memory.
  init() {}

  /// Whether the set holds no symbol.
  var isEmpty: Bool { count == 0 }

  /// Adds `symbol` (≥ 0) if the set does not hold it.
  ///
  /// - Complexity: O(1), amortized over the growth of the tables.
  @inline(__always)
  mutating func insert(_ symbol: Int32) {
    let word = Int(symbol) >> 6
    if word >= words.count { grow(toHold: word) }
    let bit: UInt64 = 1 << (UInt64(symbol) & 63)
    let old = words[word]
    guard old & bit == 0 else { return }
    words[word] = old | bit
    count += 1
    if old == 0 {
      summary[word >> 6] |= 1 << (UInt64(word) & 63)
      if word >> 6 < lowestSummary { lowestSummary = word >> 6 }
    }
  }

  /// Removes and returns the lowest symbol the set holds, or `nil` when it is empty.
  ///
  /// - Complexity: O(1) plus the summary words passed over since the last call; a summary word
  ///   covers 4,096 symbols.
  @inline(__always)
  mutating func popMin() -> Int32? {
    guard count > 0 else { return nil }
    var index = lowestSummary
    while summary[index] == 0 { index += 1 }
    lowestSummary = index
    let summaryWord = summary[index]
    let word = index << 6 + summaryWord.trailingZeroBitCount
    let bits = words[word]
    let symbol = word << 6 + bits.trailingZeroBitCount
    let rest = bits & (bits - 1)
    words[word] = rest
    if rest == 0 { summary[index] = summaryWord & (summaryWord - 1) }
    count -= 1
    return Int32(symbol)
  }

  /// Makes room for word `word`: the words double, so a growing tableau pays O(1) a symbol.
  @inline(never)
  private mutating func grow(toHold word: Int) {
    words.grow(to: Swift.max(word + 1, 2 * words.count, 4), with: 0)
    summary.grow(to: (words.count + 63) >> 6, with: 0)
  }

  /// Bytes of memory held.
  var bytes: Int { words.bytes + summary.bytes }

  func copy() -> CandidateSet {
    var copy = self
    copy.words = words.copy()
    copy.summary = summary.copy()
    return copy
  }

  /// Frees the memory; the set is empty afterwards.
  mutating func deallocate() {
    words.deallocate()
    summary.deallocate()
    count = 0
    lowestSummary = 0
  }
}
