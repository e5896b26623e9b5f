/// The kinds of symbol in a Cassowary tableau.
enum SymbolKind: UInt8 {
  /// A client variable; unrestricted in sign.
  case external
  /// The slack of an inequality; never negative.
  case slack
  /// The error of an optional constraint, minimized by the objective; never negative.
  case error
  /// The marker of a required equality; held at zero and never pivoted into the basis.
  case dummy
  /// A free id, waiting to be reused.
  case free
}

/// Sentinel subjects of rows that are not the row of a basic symbol.
enum RowRole {
  /// The symbol id used for "no symbol".
  static let none: Int32 = -1
  /// The subject of an objective row (one per priority level).
  static let objective: Int32 = -2
  /// The subject of the phase-one artificial objective.
  static let artificial: Int32 = -3
  /// The subject of a released row.
  static let released: Int32 = -4
}

/// One cell of a row, as the solver sees it.
struct Cell {
  var symbol: Int32
  var coefficient: Double
}

/// Whether `value` is zero up to rounding, relative to the magnitudes it was computed from.
@inline(__always)
func isNearZero(_ value: Double, relativeTo scale: Double) -> Bool {
  abs(value) <= 1e-9 * max(scale, 1e-3)
}

/// `old + delta`, or 0 when the two cancel up to rounding: how every coefficient and cost is
/// updated, so that a cancelled cell is removed rather than kept at a residue that a later pivot
/// or expansion would divide or multiply by.
@inline(__always)
func prunedSum(_ old: Double, _ delta: Double) -> Double {
  let sum = old + delta
  return isNearZero(sum, relativeTo: max(abs(old), abs(delta))) ? 0 : sum
}

/// The tolerance for a row constant (a value) to count as zero or feasible.
let valueTolerance = 1e-8
