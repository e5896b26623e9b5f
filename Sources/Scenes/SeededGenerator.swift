/// A small, fast, seeded random number generator (SplitMix64), so that a scene is a deterministic
/// function of its seed on every platform.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator whose sequence is fixed by `seed`.
  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A whole number in `range`.
  public mutating func int(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  /// A word of `length` letters, capitalized.
  public mutating func word(length: Int) -> String {
    // Spelled in ASCII bytes: a scene makes a word per text view inside its measured build, and
    // a `Character` at a time cost that phase a tenth of its instructions.
    let count = max(length, 0)
    return String(unsafeUninitializedCapacity: count) { bytes in
      for index in 0..<count {
        let letter = UInt8(ascii: "a") + UInt8(int(in: 0...25))
        bytes[index] = index == 0 ? letter - 32 : letter  // capitalized
      }
      return count
    }
  }
}
