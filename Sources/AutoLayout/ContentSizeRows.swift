/// A view's content-size rows as its engine holds them: on each axis that has an intrinsic
/// length, a growth row (`length ≤ intrinsic`, at the content hugging priority) and a shrinkage
/// row (`length ≥ intrinsic`, at the compression resistance priority), under two solver ids
/// the engine owns (``RowOwner/contentSize(_:)``), and the intrinsic length they hold.
///
/// No ``LayoutConstraint`` stands for them: the engine makes and changes the rows in the update
/// pass, and a constraint object describing one axis is made only when someone asks
/// (``View/constraintsAffectingLayout(for:)``, ``View/constraints``, an export).
struct ContentSizeRows {
  /// The growth and shrinkage rows' solver ids, horizontal then vertical; -1 for an axis
  /// without rows.
  private var ids: (Int32, Int32, Int32, Int32) = (-1, -1, -1, -1)
  /// The intrinsic length each axis's rows hold (meaningless for an axis without rows).
  private var lengths: (Double, Double) = (0, 0)

  /// The rows' ids on `axis`, or nil when it has none.
  ///
  /// - Complexity: O(1).
  subscript(axis: LayoutAttribute.Axis) -> (growth: Int32, shrinkage: Int32)? {
    get {
      let pair = axis == .horizontal ? (ids.0, ids.1) : (ids.2, ids.3)
      return pair.0 >= 0 ? pair : nil
    }
    set {
      let pair = newValue ?? (-1, -1)
      if axis == .horizontal {
        ids.0 = pair.0
        ids.1 = pair.1
      } else {
        ids.2 = pair.0
        ids.3 = pair.1
      }
    }
  }

  /// The intrinsic length the rows on `axis` hold.
  ///
  /// - Complexity: O(1).
  func length(_ axis: LayoutAttribute.Axis) -> Double {
    axis == .horizontal ? lengths.0 : lengths.1
  }

  /// Records the intrinsic length the rows on `axis` hold.
  ///
  /// - Complexity: O(1).
  mutating func setLength(_ length: Double, _ axis: LayoutAttribute.Axis) {
    if axis == .horizontal { lengths.0 = length } else { lengths.1 = length }
  }

  /// The axis whose growth row has solver id `id`, if one has.
  ///
  /// - Complexity: O(1).
  func axis(ofGrowthRow id: Int32) -> LayoutAttribute.Axis? {
    if id == ids.0 { return .horizontal }
    if id == ids.2 { return .vertical }
    return nil
  }

  /// Gives the row with solver id `old` the id `new`, when the engine closes the gaps in its
  /// ids (``LayoutEngine/solveFromScratch()``). The engine renumbers in increasing order of the
  /// old ids and never to a larger one, so an id renumbered already is below any `old` still to
  /// come and is not mistaken for it.
  ///
  /// - Complexity: O(1).
  mutating func renumber(_ old: Int32, to new: Int32) {
    if ids.0 == old {
      ids.0 = new
    } else if ids.1 == old {
      ids.1 = new
    } else if ids.2 == old {
      ids.2 = new
    } else if ids.3 == old {
      ids.3 = new
    }
  }
}
