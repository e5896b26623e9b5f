/// Whether a layout item is still there: one flag, shared by the item and every constraint
/// that refers to it.
///
/// A constraint holds its items unowned (as UIKit's do) and this token strongly; the item marks
/// the token gone as it goes, and the constraint then reads the item as `nil`, as a weak
/// reference would, without the side table a weak reference gives its object (which puts every
/// retain and release of that object on the slow path).
///
/// One token stands for every reference to its item, so a new reference is one retain, and an
/// item that goes sets one flag however many constraints refer to it. The item makes its token
/// when the first constraint refers to it: an item no constraint names has none.
final class ItemLifetime {
  /// Whether the item has gone.
  var isGone = false
}
