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

/// The smallest coefficient the simplex pivots on. Coefficients are ratios of the constraints'
/// own (multipliers near 1), so a smaller one is the residue of a cancellation that rounding
/// left behind: dividing a row by it would multiply that row's round-off by its inverse (a
/// layout blown up to 1e10). A symbol whose coefficients in a row are all below it does not
/// take part in that row's ratio test.
let pivotTolerance = 1e-7

/// The smallest reduced cost (an objective coefficient, in errors per unit move) that counts:
/// costs are sums of ±1 weights times row coefficients, so a smaller one is the round-off of
/// those coefficients, and entering on it moves toward no optimum.
let costTolerance = 1e-7

/// The largest reduced cost that can be round-off of a column whose entries all fall below
/// ``pivotTolerance``; an improving symbol with a larger cost and nothing to stop it means a
/// corrupt tableau.
let noiseCostLimit = 1e-5
