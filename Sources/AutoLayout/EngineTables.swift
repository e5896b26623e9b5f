import Cassowary

/// The tables a ``LayoutEngine`` changes on every install: the owners of the installed solver
/// rows by solver id, the items by variable block, and the adds not yet given to the solver.
///
/// The engine keeps them in memory of its own, reached through a pointer it owns, rather than as
/// stored properties: each access to a class's stored property that the compiler cannot prove
/// exclusive is checked at run time (a call into the runtime's access set, some 150
/// instructions with its end), and an install made three of them, about a tenth of a form's
/// build. Only the engine's methods change the tables (others read `installed`), none of them
/// while another access to the same table is under way (a pending list is swapped out before
/// the solver, and through it a log handler, is called).
struct EngineTables {
  /// What each installed solver row belongs to, by solver id (ids given back are reused lowest
  /// first).
  var installed = IDTable<RowOwner>()
  /// The items that have variables, by variable block (block / 4): an item's first install
  /// gives it a block here.
  var items = IDTable<Unmanaged<LayoutItem>>()
  /// The rows of the constraints installed but not yet given to the solver: those installed
  /// inside a batch, and, until anything first asks the solver, every one (see
  /// `LayoutEngine.holdsFirstLayout`). They go in one ``LayoutSolver/add(contentsOf:)`` at the
  /// outermost batch's end, or before anything else asks the solver (a removal, a constant, a
  /// value), so that the solver sees the same operations in the same order, and a first
  /// layout is one build whose work the solver plans rather than one add at a time in the
  /// order the views asked.
  var pendingAdds = ConstraintBatch()
  /// What each of ``pendingAdds`` belongs to.
  var pendingOwners: [RowOwner] = []
}

/// What an installed solver row belongs to: a client's or the model's ``LayoutConstraint``, or
/// a row the engine makes and owns with no constraint object behind it.
enum RowOwner {
  /// A constraint, installed under its ``LayoutConstraint/solverID``. The engine keeps it
  /// alive: the entry is retained when the constraint is installed and released when its id is
  /// freed (or the engine goes). Unmanaged, so that copying an entry (into the pending adds'
  /// owners, out of the table) retains nothing.
  case constraint(Unmanaged<LayoutConstraint>)
  /// One of a view's content-size rows (see ``ContentSizeRows``), which the engine makes in the
  /// update pass and a ``LayoutConstraint`` stands for only when someone asks. Unowned: a
  /// view's rows are removed before it leaves the engine's tree (and a root's engine goes
  /// with the root).
  case contentSize(Unmanaged<View>)
  /// One of the rows that pin a view's margins or safe-area guide inside its bounds (see
  /// ``GuidePinRows``), which the engine makes with the guide. Unowned, as a content-size
  /// row's: a view's pins are removed before it leaves the engine's tree.
  case guidePin(Unmanaged<View>)
  /// One of a stack view's arrangement rows (see ``ArrangementRow``), which the stack's update
  /// pass makes and keeps in its table. Unowned, as a pin's: a stack's rows are removed before
  /// it leaves the engine's tree.
  case arrangement(Unmanaged<StackView>)
}
