import Cassowary

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Counters an engine keeps about its work, for the harness: it reads them before and after a
/// phase and reports the difference.
public struct LayoutStatistics: Equatable, Sendable {
  /// Constraints added to the solver (content-size constraints count once).
  public var constraintsAdded = 0
  /// Constraints removed from the solver.
  public var constraintsRemoved = 0
  /// Constants changed in place.
  public var constantsChanged = 0
  /// Priorities changed in place.
  public var prioritiesChanged = 0
  /// Update-constraints passes run.
  public var updateConstraintsPasses = 0
  /// Layout passes run.
  public var layoutPasses = 0
  /// Frames written by layout passes.
  public var framesWritten = 0
  /// Conflicts recovered from by breaking a required constraint.
  public var conflicts = 0

  /// An all-zero record.
  public init() {}
}

/// The solver behind one view hierarchy (UIKit keeps one per window): it gives items their
/// variables, lowers constraints into solver rows, and recovers from conflicts as UIKit does.
///
/// A root view makes its engine when a constraint in its tree is first activated.
public final class LayoutEngine {
  /// The solver in use.
  public let solverKind: SolverStrategy
  /// The solver, with every constraint installed so far given to it (see
  /// ``EngineTables/pendingAdds``).
  var solver: any LayoutSolver {
    _read {
      flushPendingAdds()
      yield storedSolver
    }
    _modify {
      flushPendingAdds()
      yield &storedSolver
    }
  }
  /// The solver as it is: without the adds still pending.
  private var storedSolver: any LayoutSolver
  /// Whether nothing has asked the solver yet. Until then every install waits in
  /// ``EngineTables/pendingAdds``, batch or not, so that the first layout pass hands the solver
  /// the whole first layout at once: the views' constraints, the guides made on first use and the
  /// intrinsic sizes the update pass adds. A plan that sees only part of it cannot leave free
  /// what a later part pins (a label's width, which its intrinsic size holds). A conflict is
  /// then recovered from, and logged, when the solver is first asked.
  private(set) var holdsFirstLayout = true
  /// The owners of the installed rows and the adds pending (see ``EngineTables``), reached
  /// through a pointer the engine owns.
  let tables: UnsafeMutablePointer<EngineTables> = {
    let tables = UnsafeMutablePointer<EngineTables>.allocate(capacity: 1)
    tables.initialize(to: EngineTables())
    return tables
  }()
  /// What each installed row belongs to, by solver id (ids given back are reused lowest first).
  var installed: IDTable<RowOwner> {
    _read { yield tables.pointee.installed }
    _modify { yield &tables.pointee.installed }
  }
  /// Items by variable block (block / 4).
  var items: IDTable<Unmanaged<LayoutItem>> {
    _read { yield tables.pointee.items }
    _modify { yield &tables.pointee.items }
  }
  var batchDepth = 0
  /// Each variable's value as the solver last reported it to ``forEachChangedItem(_:)``, by
  /// variable id (0 for one never reported): what a layout pass writes frames from. Read in
  /// place, a frame costs four loads, where asking the solver costs four calls through its
  /// existential; 32 bytes a view.
  var reportedValues: [Double] = []
  /// Room for the rows a stack view wants while it updates its arrangement, lent to one
  /// stack view at a time, so that an update allocates nothing once it has grown.
  var arrangementScratch: [ArrangementRow] = []

  /// What the engine has done so far.
  public var statistics: LayoutStatistics { counters }
  /// The counters behind ``statistics``. Not public, so that the compiler can see every access
  /// and check them statically: a public stored property of a class is checked for exclusive
  /// access at run time on every read and write (some 80 instructions each).
  var counters = LayoutStatistics()
  /// The conflicts recovered from, oldest first: the most recent
  /// ``conflictHistoryLimit``.
  public var conflicts: [ConflictReport] {
    flushPendingAdds()
    return recordedConflicts
  }
  /// The reports behind ``conflicts``, as recorded so far.
  var recordedConflicts: [ConflictReport] = []
  /// The solver's refusal of a change, if it refused one: for lack of memory (the dense
  /// solver's budget) or by failing inside (kiwi's round-off errors). The engine then stops
  /// changing the solver (its values no longer describe the constraints), so that a scene too
  /// large for the dense baseline, or one kiwi cannot solve, is reported as skipped by whoever
  /// checks this, never as a crash.
  public var refusal: SolverError? {
    flushPendingAdds()
    return storedRefusal
  }
  /// The refusal behind ``refusal`` (not public, as ``counters``).
  private var storedRefusal: SolverError? {
    didSet { isRefused = storedRefusal != nil }
  }
  /// Whether there is a refusal: read on every install and removal, where comparing the
  /// optional error with nil copied it (some 150 instructions).
  private(set) var isRefused = false
  /// Whether the solver refused something, with every pending add given to it first.
  var hasRefused: Bool {
    flushPendingAdds()
    return isRefused
  }
  /// Where conflict messages go; standard error by default.
  public var logHandler: (String) -> Void = { message in
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  }

  /// The priority a broken required constraint is held at: above every optional priority.
  static let brokenPriority = LayoutPriority(Float(1000).nextDown)
  /// The solver priority of a content hugging or compression resistance of 1000: the strongest
  /// optional level (a content-size constraint is never a hard row).
  static let strongestOptional = LayoutPriority(Float(1000).nextDown)

  /// An engine that drives `solver` (a new one of `solverKind` when `nil`).
  init(solverKind: SolverStrategy, solver: (any LayoutSolver)? = nil) {
    self.solverKind = solverKind
    self.storedSolver = solver ?? solverKind.makeSolver()
  }

  deinit {
    // Constraints hold their engine unowned (see `LayoutConstraint.engine`).
    for case .constraint(let constraint)? in installed.entries {
      constraint._withUnsafeGuaranteedRef {
        $0.engine = nil
        $0.solverID = -1
      }
      constraint.release()
    }
    tables.deinitialize(count: 1)
    tables.deallocate()
  }

  /// Figures about the solver's tableau.
  public var solverStatistics: SolverStatistics { solver.statistics }

  /// Rebuilds the solver's tableau from the installed constraints and solves it from scratch:
  /// the full solve that incremental updates are compared with. The rebuilt tableau holds what
  /// a first layout of the same constraints would, and so do the items' lists of constraints,
  /// subviews and arranged views: what incremental changes made them grow (fill-in, the room of
  /// constraints and views since removed) is given back. Incremental operations keep that room
  /// (giving it back on every removal would reallocate a list each time its length crossed a
  /// boundary); this is the moment to call after removing a large part of a layout. So do the
  /// solver ids: constraints that came and went leave gaps in them, which the solver's and the
  /// engine's tables indexed by id keep; the solve closes them, keeping the ids' order.
  ///
  /// - Complexity: a build of the installed constraints, plus O(items).
  public func solveFromScratch() throws(SolverError) {
    if let refusal { throw refusal }
    if let newIDs = installed.denseRenumbering() {
      try solver.solveFromScratch(renumbering: newIDs)
      let rowIndices = arrangementRowIndices()
      for (id, entry) in installed.entries.enumerated() {
        switch entry {
        case .constraint(let constraint)?:
          constraint._withUnsafeGuaranteedRef { $0.solverID = newIDs[id] }
        case .contentSize(let view)?:
          view._withUnsafeGuaranteedRef { $0.contentSizeRows.renumber(Int32(id), to: newIDs[id]) }
        case .guidePin(let view)?:
          view._withUnsafeGuaranteedRef { view in
            guard let (which, _) = view.pinnedEdge(ofRow: Int32(id)) else { return }
            var rows = view.pinRows(which)
            rows.renumber(Int32(id), to: newIDs[id])
            view.setPinRows(rows, which)
          }
        case .arrangement(let stack)?:
          stack._withUnsafeGuaranteedRef {
            $0.arrangementRows[Int(rowIndices[id])].solverID = newIDs[id]
          }
        case nil: continue
        }
      }
      installed.renumber(newIDs)
    } else {
      try solver.solveFromScratch()
    }
    installed.compact()
    items.compact()
    for entry in items.entries { entry?.takeUnretainedValue().compactLists() }
    // The values past the last non-zero one read 0 whether kept or not, to the engine as to the
    // solver (whose rebuild keeps its reported values up to the same point), so they can go.
    // The room kept is about what the next layout pass fills, one value per variable handed
    // out: growth while views came and went does not stay.
    var values: [Double] = []
    swap(&values, &reportedValues)
    while values.last == 0 { values.removeLast() }
    values.shrinkCapacity(toAbout: solverVariableCapacity)
    swap(&values, &reportedValues)
  }

  // MARK: Batches

  /// Defers the solver's optimization until the outermost ``endBatch()``.
  public func beginBatch() {
    batchDepth += 1
    storedSolver.beginBatch()
  }

  /// Ends a batch; the outermost end optimizes.
  public func endBatch() {
    if batchDepth == 1 && !holdsFirstLayout { flushPendingAdds() }
    storedSolver.endBatch()
    batchDepth -= 1
  }

  /// Gives the solver the adds pending (``EngineTables/pendingAdds``) in one call; a required
  /// constraint it refuses is broken, logged and added at ``brokenPriority``, as ``install(_:)``
  /// does, and the adds after it go on.
  func flushPendingAdds() {
    let isFirstLayout = holdsFirstLayout
    holdsFirstLayout = false
    guard !tables.pointee.pendingAdds.isEmpty else { return }
    // Taken out first: a conflict's log handler may ask the engine for something.
    var adds = ConstraintBatch()
    var owners: [RowOwner] = []
    swap(&adds, &tables.pointee.pendingAdds)
    swap(&owners, &tables.pointee.pendingOwners)
    let leading = isFirstLayout ? Self.rootWidthConstraints(in: owners) : []
    var start = 0
    while start < adds.count, !isRefused {
      do throws(SolverError) {
        if start == 0 {
          try storedSolver.add(adds, leading: leading)
        } else {
          try storedSolver.add(adds.suffix(from: start), leading: [])
        }
        start = adds.count
      } catch {
        if refuses(error) { break }
        // Only a required row fails: a constraint's or a guide's pin.
        guard case .unsatisfiable(let failed, _, let others) = error,
          let index = (start..<adds.count).first(where: { adds.id(at: $0) == failed })
        else { preconditionFailure("\(error)") }
        switch owners[index] {
        case .constraint(let constraint):
          recover(breaking: constraint.takeUnretainedValue(), conflictingWith: others)
        case .guidePin(let view):
          breakGuidePin(failed.rawValue, of: view.takeUnretainedValue(), conflictingWith: others)
        case .arrangement(let stack):
          breakArrangementRow(
            failed.rawValue, of: stack.takeUnretainedValue(), conflictingWith: others)
        case .contentSize: preconditionFailure("an optional row failed: \(error)")
        }
        addOrFail(failed.rawValue, adds[index].at(Self.brokenPriority))
        start = index + 1
      }
    }
    // The lists keep room for ``pendingRoomKept`` adds, so that a steady state of small
    // batches (a churned row, a few constraints activated) allocates nothing; a larger batch's
    // lists are given back for new ones of that room, as it allocated a lowered row per
    // constraint anyway, and a list of a first layout's or a size-class switch's thousands of
    // adds would otherwise be held for good. The room is the same whatever came before.
    guard tables.pointee.pendingAdds.isEmpty else { return }
    if adds.count > Self.pendingRoomKept {
      adds = ConstraintBatch()
      owners = []
      adds.reserveCapacity(
        constraints: Self.pendingRoomKept, terms: Self.pendingRoomKept * Self.pendingTermsEach)
      owners.reserveCapacity(Self.pendingRoomKept)
    } else {
      adds.removeAll(keepingCapacity: true)
      owners.removeAll(keepingCapacity: true)
    }
    swap(&adds, &tables.pointee.pendingAdds)
    swap(&owners, &tables.pointee.pendingOwners)
  }

  /// The indices of `owners` that are the root's frame constraints on the horizontal axis (its
  /// autoresizing mask's), given as the first layout's `leading` constraints
  /// (``LayoutSolver/add(contentsOf:leading:)``): the rows of a layout that spans its root's
  /// width reach them, through the root's margins and edges. The vertical ones keep their
  /// place: a layout whose rows flow down closes its chain of rows at the root's bottom, and a
  /// height fixed before the chain is built makes each row's definition walk the chain to it
  /// (a dynamic form's first layout measured dearer).
  ///
  /// - Complexity: O(*n*) for *n* owners.
  static func rootWidthConstraints(in owners: [RowOwner]) -> [Int] {
    var indices: [Int] = []
    for index in owners.indices {
      guard case .constraint(let reference) = owners[index] else { continue }
      // Read in place: taken out, each constraint and its view were retained and released, a
      // cache miss each on a first layout's every constraint.
      let isRootWidth = reference._withUnsafeGuaranteedRef { owner in
        guard owner.kind == .autoresizingMask, owner.firstAttribute.axis == .horizontal,
          let first = owner.unretainedFirstItem
        else { return false }
        // An autoresizing constraint's first item is its view.
        return first._withUnsafeGuaranteedRef {
          unsafeDowncast($0, to: View.self).superviewLink == nil
        }
      }
      if isRootWidth { indices.append(index) }
    }
    return indices
  }

  /// The pending adds the lists keep room for between batches (see ``flushPendingAdds()``).
  static let pendingRoomKept = 64
  /// The terms each of those adds is given room for: a layout's constraints have one to three.
  static let pendingTermsEach = 3

  // MARK: Variables

  /// The first of `item`'s four variables, giving it a block when it has none.
  func block(for item: LayoutItem) -> Int32 {
    if item.engineBlock >= 0 { return item.engineBlock }
    let block = items.insert(Unmanaged.passUnretained(item)) * 4
    item.engineBlock = block
    item.didEnterEngine()
    // The next layout pass copies the item's values whatever the solver reports: the block may
    // be one that changed while no item held it (its values then reported to nobody), and an
    // item that left and came back has a frame from before it left.
    item.solverValuesDidChange()
    return block
  }

  /// Counts one more row on `item`, giving it variables if it has none. Always inlined: an
  /// install that called it retained and released the item around the call.
  @inline(__always)
  func retain(_ item: LayoutItem) {
    _ = block(for: item)
    item.engineReferences += 1
  }

  func release(_ item: LayoutItem) {
    item.engineReferences -= 1
    guard item.engineReferences == 0 else { return }
    items.remove(item.engineBlock / 4)
    item.engineBlock = -1
  }

  /// The item's alignment rectangle in the root's superview space, as of the solver's current
  /// values, if it has variables.
  func alignmentRect(of item: LayoutItem) -> Rect? {
    let base = item.engineBlock
    guard base >= 0 else { return nil }
    return solver.rect(at: base)
  }

  /// Calls `body` for each item whose variables changed since the last call (an item may come
  /// more than once), after copying the changed values into ``reportedValues``.
  func forEachChangedItem(_ body: (LayoutItem) -> Void) {
    let items = self.items
    // Changed out of place, so that the property is only swapped (see
    // `View.changeSubviews(_:)`), and grown to every variable handed out.
    var values: [Double] = []
    swap(&values, &reportedValues)
    defer { swap(&values, &reportedValues) }
    let capacity = solverVariableCapacity
    if values.count < capacity {
      // Grown by an eighth, as the item table is: doubled, a few views added past the first
      // layout's would double the table for good.
      if values.capacity < capacity {
        values.reserveCapacity(Swift.max(capacity, values.capacity + values.capacity / 8))
      }
      values.append(contentsOf: repeatElement(0, count: capacity - values.count))
    }
    // An item's values often change together and come one after another: it is passed once
    // for such a run.
    var lastBlock = -1
    solver.forEachChangedValue { variable, value in
      let id = Int(variable.id)
      if id >= values.count {
        values.append(contentsOf: repeatElement(0, count: id + 1 - values.count))
      }
      values[id] = value
      guard id / 4 != lastBlock else { return }
      lastBlock = id / 4
      if let item = items[id / 4] { item._withUnsafeGuaranteedRef { body($0) } }
    }
  }

  /// The variable that holds `item`'s `index`-th coordinate (0 minX, 1 minY, 2 width, 3 height).
  func variable(_ item: LayoutItem, _ index: Int32) -> Variable {
    Variable(id: block(for: item) + index)
  }

  // MARK: Installing constraints

  /// Lists `constraint` under a new solver id, and keeps it alive until the id is freed.
  private func allocateID(_ constraint: LayoutConstraint) -> Int32 {
    installed.insert(.constraint(.passRetained(constraint)))
  }

  /// Whether `constraint` is installed here: listed under its solver id. Compares addresses,
  /// retaining nothing.
  ///
  /// - Complexity: O(1).
  func lists(_ constraint: LayoutConstraint) -> Bool {
    guard case .constraint(let listed)? = installed[Int(constraint.solverID)] else { return false }
    return listed.toOpaque() == Unmanaged.passUnretained(constraint).toOpaque()
  }

  /// Frees solver id `id`, letting go of the constraint listed under it, if it is one (whoever
  /// uninstalls it holds it for the call: an array being deactivated, an item's list).
  private func freeID(_ id: Int32) {
    var constraint: Unmanaged<LayoutConstraint>?
    if case .constraint(let listed)? = installed[Int(id)] { constraint = listed }
    installed.remove(id)
    constraint?.release()
  }

  /// Adds `constraint` to the solver. A required constraint that conflicts is broken, logged and
  /// held at ``brokenPriority``, as UIKit recovers.
  func install(_ constraint: LayoutConstraint) {
    precondition(!constraint.isInstalled, "constraint is already installed")
    assert(constraint.engine == nil)
    constraint.engine = self
    forEachItem(of: constraint) { retain($0) }
    let deferring = batchDepth > 0 || holdsFirstLayout
    // Deferred, the terms are written straight into the pending batch (ended below); else into
    // an array of their own.
    let pending = deferring && !isRefused
    var expression = LinearExpression()
    if pending {
      appendLoweredTerms(constraint, to: &tables.pointee.pendingAdds)
    } else {
      expression = lower(constraint)
    }
    counters.constraintsAdded += 1
    // A refused engine still lists the constraint under its id (freed on removal), so that
    // every constraint whose `engine` is this one is in ``installed``, where `deinit` finds it;
    // it no longer gives it to the solver.
    let id = allocateID(constraint)
    constraint.solverID = id
    guard !isRefused else { return }
    if pending {
      tables.pointee.pendingAdds.endConstraint(
        ConstraintID(id), constant: loweredConstant(constraint), relation: constraint.relation,
        priority: constraint.storedPriority)
      tables.pointee.pendingOwners.append(.constraint(.passUnretained(constraint)))
      return
    }
    let lowered = Constraint(expression, constraint.relation, priority: constraint.storedPriority)
    add(id, lowered) { recover(breaking: constraint, conflictingWith: $0) }
  }

  // MARK: Recovering from conflicts

  // A required row that cannot hold with the others is broken, as UIKit recovers: the caller's
  // `breaking` records and logs the break (on the constraint, or on the row the engine owns),
  // given the conflicting rows, and the row is then held at ``brokenPriority``. A refusal stops
  // there (it is kept in ``refusal``).

  /// Adds `row` under `id`, breaking it if it conflicts.
  ///
  /// - Complexity: that of a solver add, twice on a conflict.
  @inline(__always)
  func add(
    _ id: Int32, _ row: Constraint, breaking: (_ others: [ConstraintID: Constraint]) -> Void
  ) {
    do throws(SolverError) {
      try solver.add(ConstraintID(id), row)
    } catch {
      guard let others = conflictingRows(error) else { return }
      breaking(others)
      addOrFail(id, row.at(Self.brokenPriority))
    }
  }

  /// Gives row `id` the constant `constant`, breaking it first if it cannot hold with it.
  ///
  /// - Complexity: that of a solver constant change, plus a priority change on a conflict.
  @inline(__always)
  func setConstant(
    _ constant: Double, ofRow id: Int32,
    breaking: (_ others: [ConstraintID: Constraint]) -> Void
  ) {
    do throws(SolverError) {
      try solver.setConstant(ConstraintID(id), constant)
    } catch {
      guard holdBroken(id, after: error, breaking) else { return }
      do throws(SolverError) {
        try solver.setConstant(ConstraintID(id), constant)
      } catch {
        if !refuses(error) { preconditionFailure("an optional constant change failed: \(error)") }
      }
    }
  }

  /// Makes row `id` required again (`priority`), breaking it if it cannot hold as such.
  ///
  /// - Complexity: that of a solver priority change, twice on a conflict.
  @inline(__always)
  func setRequiredPriority(
    _ priority: LayoutPriority, ofRow id: Int32,
    breaking: (_ others: [ConstraintID: Constraint]) -> Void
  ) {
    do throws(SolverError) {
      try solver.setPriority(ConstraintID(id), priority)
    } catch {
      holdBroken(id, after: error, breaking)
    }
  }

  /// The required rows an `unsatisfiable` error names, or nil for a refusal (then kept in
  /// ``refusal``); any other error is a bug.
  @inline(__always)
  private func conflictingRows(_ error: SolverError) -> [ConstraintID: Constraint]? {
    if refuses(error) { return nil }
    guard case .unsatisfiable(_, _, let others) = error else { preconditionFailure("\(error)") }
    return others
  }

  /// After `error` changing row `id` in place: on a conflict, records the break through
  /// `breaking` and holds the row at ``brokenPriority``. Returns false on a refusal.
  @inline(__always)
  @discardableResult
  private func holdBroken(
    _ id: Int32, after error: SolverError,
    _ breaking: (_ others: [ConstraintID: Constraint]) -> Void
  ) -> Bool {
    guard let others = conflictingRows(error) else { return false }
    breaking(others)
    setPriorityOrFail(id, Self.brokenPriority)
    return true
  }

  func addOrFail(_ id: Int32, _ constraint: Constraint) {
    guard !isRefused else { return }
    do throws(SolverError) {
      try storedSolver.add(ConstraintID(id), constraint)
    } catch {
      if refuses(error) { return }
      preconditionFailure("the solver refused an optional constraint: \(error)")
    }
  }

  /// Whether `error` is a refusal (for lack of memory, or a failure inside the solver), which is
  /// then kept in ``refusal``.
  func refuses(_ error: SolverError) -> Bool {
    guard error.isRefusal else { return false }
    storedRefusal = storedRefusal ?? error
    return true
  }

  func optional(_ priority: LayoutPriority) -> LayoutPriority {
    priority.isRequired ? Self.strongestOptional : priority
  }

  /// Removes `constraint` from the solver.
  func uninstall(_ constraint: LayoutConstraint) {
    precondition(lists(constraint), "constraint is not installed here")
    removeFromSolver(constraint.solverID)
    constraint.solverID = -1
    constraint.isHeldBroken = false
    constraint.engine = nil
    counters.constraintsRemoved += 1
    forEachItem(of: constraint) { release($0) }
  }

  func removeFromSolver(_ id: Int32) {
    guard id >= 0 else { return }
    guard !hasRefused else { return freeID(id) }
    do throws(SolverError) {
      try solver.remove(ConstraintID(id))
    } catch {
      if !refuses(error) { preconditionFailure("\(error)") }
    }
    freeID(id)
  }

  /// Applies a new constant in place.
  func constantDidChange(_ constraint: LayoutConstraint) {
    counters.constantsChanged += 1
    setConstant(loweredConstant(constraint), of: constraint, solverID: constraint.solverID)
  }

  /// Sets one solver row's constant; a required row that cannot take it is broken first.
  private func setConstant(_ constant: Double, of constraint: LayoutConstraint, solverID id: Int32)
  {
    guard id >= 0, !hasRefused else { return }
    setConstant(constant, ofRow: id) { recover(breaking: constraint, conflictingWith: $0) }
  }

  /// Applies a new priority in place.
  func priorityDidChange(_ constraint: LayoutConstraint) {
    counters.prioritiesChanged += 1
    guard !hasRefused else { return }
    let id = constraint.solverID
    let priority = constraint.storedPriority
    guard priority.isRequired else {
      constraint.isHeldBroken = false
      return setPriorityOrFail(id, priority)
    }
    guard !constraint.isHeldBroken else { return }
    setRequiredPriority(priority, ofRow: id) { recover(breaking: constraint, conflictingWith: $0) }
  }

  func setPriorityOrFail(_ id: Int32, _ priority: LayoutPriority) {
    guard !hasRefused else { return }
    do throws(SolverError) {
      try solver.setPriority(ConstraintID(id), priority)
    } catch {
      if refuses(error) { return }
      preconditionFailure("an optional priority change failed: \(error)")
    }
  }

  // MARK: Lowering

  /// Calls `body` with each item whose variables the lowered constraint uses.
  @inline(__always)
  func forEachItem(of constraint: some LoweredRelation, _ body: (LayoutItem) -> Void) {
    guard let first = constraint.unretainedFirstItem else { return }
    let firstAttribute = constraint.firstAttribute
    first._withUnsafeGuaranteedRef { $0.unretainedResolve(firstAttribute).0 }
      ._withUnsafeGuaranteedRef(body)
    if let second = constraint.unretainedSecondItem {
      let secondAttribute = constraint.secondAttribute
      second._withUnsafeGuaranteedRef { $0.unretainedResolve(secondAttribute).0 }
        ._withUnsafeGuaranteedRef(body)
      if constraint.originCoefficient != 0, let ancestor = constraint.unretainedCommonAncestor() {
        ancestor._withUnsafeGuaranteedRef(body)
      }
    }
  }

  /// The constraint as a solver expression: left side minus right side.
  ///
  /// Variables live in one space (the root's superview's), so two locations compare directly.
  /// Auto Layout measures locations from the common ancestor's bounds origin, which matters only
  /// when a multiplier other than 1 scales a location: then the ancestor's origin enters too.
  func lower(_ constraint: some LoweredRelation) -> LinearExpression {
    // Written in room on the stack and copied into an array of their count (a pending add's
    // go straight into the pending batch instead, see ``install(_:)``).
    let terms = withUnsafeTemporaryAllocation(of: Term.self, capacity: 6) { room in
      var writer = TermWriter(room: room)
      appendLoweredTerms(constraint, to: &writer)
      // Array literals of the usual counts: a literal allocates its buffer directly, where
      // `reserveCapacity` on an empty array takes the general growth path (some 220
      // instructions more), and `Array(unsafeUninitializedCapacity:)` is not specialized here
      // and looks the array's type up at every call.
      switch writer.count {
      case 1: return [room[0]]
      case 2: return [room[0], room[1]]
      case 3: return [room[0], room[1], room[2]]
      default:
        var terms: [Term] = []
        terms.reserveCapacity(writer.count)
        for index in 0..<writer.count { terms.append(room[index]) }
        return terms
      }
    }
    return LinearExpression(terms, constant: loweredConstant(constraint))
  }

  /// The terms part of ``lower(_:)``, appended to `terms`.
  func appendLoweredTerms(
    _ constraint: some LoweredRelation, to terms: inout some TermSink
  ) {
    guard let first = constraint.unretainedFirstItem else {
      preconditionFailure("first item is gone")
    }
    let second = constraint.unretainedSecondItem
    // The same equation with a view's own guide's terms first, where a view is pinned to its
    // guide (its trailing and bottom margins): a planned build defines each equality's first
    // term that it can, and a guide is better defined from its view than the view from the
    // guide, which the view's superview places.
    var guideFirst = false
    if let second, second.toOpaque() != first.toOpaque() {
      let secondHost = second._withUnsafeGuaranteedRef { $0.unretainedHostView() }
      guideFirst = secondHost?.toOpaque() == first.toOpaque()
    }
    if guideFirst, let second {
      appendTerms(second, constraint.secondAttribute, -constraint.multiplier, &terms)
    }
    appendTerms(first, constraint.firstAttribute, 1, &terms)
    if let second {
      if !guideFirst {
        appendTerms(second, constraint.secondAttribute, -constraint.multiplier, &terms)
      }
      let net = constraint.originCoefficient
      if net != 0, let ancestor = constraint.unretainedCommonAncestor() {
        let horizontal = constraint.firstAttribute.axis == .horizontal
        let base = ancestor._withUnsafeGuaranteedRef { block(for: $0) }
        terms.append(Term(Variable(id: base + (horizontal ? 0 : 1)), -net))
      }
    }
  }

  /// The constant part of ``lower(_:)``.
  func loweredConstant(_ constraint: some LoweredRelation) -> Double {
    guard let first = constraint.unretainedFirstItem else { return -constraint.storedConstant }
    let firstAttribute = constraint.firstAttribute
    // Leading and trailing constants run in the reading direction: in right-to-left layouts,
    // `a.leading == b.trailing + 8` puts `a` 8 points to the left of `b`.
    let flips =
      (firstAttribute.isDirectional || constraint.secondAttribute.isDirectional)
      && first._withUnsafeGuaranteedRef { $0.effectiveLayoutDirection } == .rightToLeft
    var constant =
      (flips ? constraint.storedConstant : -constraint.storedConstant)
      + first._withUnsafeGuaranteedRef { $0.offset(of: firstAttribute) }
    if let second = constraint.unretainedSecondItem {
      let secondAttribute = constraint.secondAttribute
      constant -=
        constraint.multiplier * second._withUnsafeGuaranteedRef { $0.offset(of: secondAttribute) }
      let net = constraint.originCoefficient
      if net != 0, let ancestor = constraint.unretainedCommonAncestor()?.takeUnretainedValue() {
        let insets = ancestor.alignmentRectInsets
        constant += net * (constraint.firstAttribute.axis == .horizontal ? insets.left : insets.top)
      }
    }
    return constant
  }

  private func appendTerms(
    _ reference: Unmanaged<LayoutItem>, _ attribute: LayoutAttribute, _ k: Double,
    _ terms: inout some TermSink
  ) {
    reference._withUnsafeGuaranteedRef { appendTerms($0, attribute, k, &terms) }
  }

  @inline(__always)
  private func appendTerms(
    _ item: LayoutItem, _ attribute: LayoutAttribute, _ k: Double, _ terms: inout some TermSink
  ) {
    let (target, plain) = item.unretainedResolve(attribute)
    let base = target._withUnsafeGuaranteedRef { block(for: $0) }
    let x = Variable(id: base), y = Variable(id: base + 1)
    let width = Variable(id: base + 2), height = Variable(id: base + 3)
    // One or two terms appended one at a time (an array literal per call would be allocated),
    // and the reading direction, which walks up the superviews, looked up only when it matters.
    switch plain {
    case .left: terms.append(Term(x, k))
    case .width: terms.append(Term(width, k))
    case .top, .firstBaseline: terms.append(Term(y, k))
    case .height: terms.append(Term(height, k))
    case .right:
      terms.append(Term(x, k))
      terms.append(Term(width, k))
    case .leading, .trailing:
      terms.append(Term(x, k))
      let isRightEdge = (plain == .trailing) == (item.effectiveLayoutDirection == .leftToRight)
      if isRightEdge { terms.append(Term(width, k)) }
    case .centerX:
      terms.append(Term(x, k))
      terms.append(Term(width, k / 2))
    case .bottom, .lastBaseline:
      terms.append(Term(y, k))
      terms.append(Term(height, k))
    case .centerY:
      terms.append(Term(y, k))
      terms.append(Term(height, k / 2))
    default: preconditionFailure("\(plain) does not resolve to an edge")
    }
  }
}

/// Where lowering writes a constraint's terms, one at a time.
protocol TermSink {
  mutating func append(_ term: Term)
}

extension Array: TermSink where Element == Term {}

extension ConstraintBatch: TermSink {
  mutating func append(_ term: Term) { appendTerm(term) }
}

/// Terms written into room the caller lends, up to its capacity (a constraint lowers to at most
/// five terms).
private struct TermWriter: TermSink {
  let room: UnsafeMutableBufferPointer<Term>
  private(set) var count = 0

  init(room: UnsafeMutableBufferPointer<Term>) { self.room = room }

  mutating func append(_ term: Term) {
    precondition(count < room.count, "a constraint lowered to more terms than there is room for")
    room.initializeElement(at: count, to: term)
    count += 1
  }
}

/// What lowering reads of a relation between two attributes: a ``LayoutConstraint``, or a row
/// the engine owns with the same terms (``ArrangementRow``).
protocol LoweredRelation {
  /// The item on the left side; nil once it is gone.
  var firstItem: LayoutItem? { get }
  /// The item on the right side, if any.
  var secondItem: LayoutItem? { get }
  var firstAttribute: LayoutAttribute { get }
  var secondAttribute: LayoutAttribute { get }
  var multiplier: Double { get }
  /// The constant as declared (lowering flips it for right-to-left and adds offsets).
  var storedConstant: Double { get }
  /// ``firstItem``, not retained: lowering and activation read the items while the tree holds
  /// them, and a retain and a release for each read were a sixth of a scene's build.
  var unretainedFirstItem: Unmanaged<LayoutItem>? { get }
  /// ``secondItem``, not retained.
  var unretainedSecondItem: Unmanaged<LayoutItem>? { get }
  /// The closest view that contains both items.
  func commonAncestor() throws(LayoutError) -> View
}

extension LayoutConstraint: LoweredRelation {}

extension LoweredRelation {
  /// ``commonAncestor()``, not retained, and nil where that throws: the views' closest common
  /// ancestor, a guide standing for its owning view.
  ///
  /// - Complexity: O(depth of the two items' views).
  func unretainedCommonAncestor() -> Unmanaged<View>? {
    guard let first = unretainedFirstItem,
      let firstHost = first._withUnsafeGuaranteedRef({ $0.unretainedHostView() })
    else { return nil }
    guard let second = unretainedSecondItem else { return firstHost }
    guard let secondHost = second._withUnsafeGuaranteedRef({ $0.unretainedHostView() }) else {
      return nil
    }
    return firstHost._withUnsafeGuaranteedRef { first in
      secondHost._withUnsafeGuaranteedRef { first.unretainedCommonAncestor($0) }
    }
  }

  /// How many times the common ancestor's origin is subtracted: 1 per location side, scaled by
  /// the multiplier on the right (0 for a location = location + c constraint).
  var originCoefficient: Double {
    guard unretainedSecondItem != nil else { return 0 }
    let left = firstAttribute.isDimension ? 0.0 : 1.0
    let right = secondAttribute.isDimension ? 0.0 : 1.0
    return left - multiplier * right
  }
}

// MARK: - Inspection, for exports and cross-checks

extension LayoutEngine {
  /// An installed constraint as the solver holds it: its solver rows (two for a content-size
  /// constraint) at their declared priorities, over the engine's variables.
  public struct LoweredConstraint {
    /// The model's constraint (for a view's content-size rows, one made to describe them).
    public let constraint: LayoutConstraint
    /// The solver-level constraints (a broken constraint keeps its declared priority here).
    public let rows: [Constraint]
  }

  /// Calls `body` with every installed constraint, in the order of their solver ids. A view's
  /// content-size rows on an axis come once, at the first, as a constraint made to describe
  /// them (see ``View/constraintsAffectingLayout(for:)``).
  ///
  /// - Complexity: O(solver ids handed out).
  public func forEachInstalledConstraint(_ body: (LayoutConstraint) -> Void) {
    let rowIndices = arrangementRowIndices()
    for (id, entry) in installed.entries.enumerated() {
      switch entry {
      case .constraint(let constraint)?: body(constraint.takeUnretainedValue())
      case .contentSize(let owner)?:
        let view = owner.takeUnretainedValue()
        guard let constraint = view.contentSizeConstraint(growthRow: Int32(id)) else { continue }
        body(constraint)
      case .guidePin(let owner)?:
        let view = owner.takeUnretainedValue()
        guard let (which, edge) = view.pinnedEdge(ofRow: Int32(id)) else { continue }
        body(view.guidePinConstraint(which, edge: edge)!)
      case .arrangement(let stack)?:
        let row = stack._withUnsafeGuaranteedRef { $0.arrangementRows[Int(rowIndices[id])] }
        body(row.describedConstraint())
      case nil: continue
      }
    }
  }

  /// Calls `body` with each solver-level row of every installed constraint, lowered afresh
  /// from the model as in ``loweredConstraints()``, one at a time, and the constraint it comes
  /// from: nil for a row the engine owns (a view's content size, a guide's pin or a stack's
  /// arrangement row, the last two at the priority the engine holds them at: ``brokenPriority``
  /// once broken). Nothing is kept: the rows' terms are built in one buffer reused from row to
  /// row, so a pass over a laid-out scene allocates nothing once the buffer has grown, as long
  /// as `body` keeps no row, but for one table of stack rows' places when there are any.
  ///
  /// - Complexity: O(installed rows).
  public func forEachLoweredRow(_ body: (LayoutConstraint?, Constraint) -> Void) {
    var terms: [Term] = []
    terms.reserveCapacity(8)
    let rowIndices = arrangementRowIndices()
    for (id, entry) in installed.entries.enumerated() {
      switch entry {
      case .constraint(let reference)?:
        let constraint = reference.takeUnretainedValue()
        appendLoweredTerms(constraint, to: &terms)
        let expression = LinearExpression(terms, constant: loweredConstant(constraint))
        body(constraint, Constraint(expression, constraint.relation, priority: constraint.priority))
      case .contentSize(let owner)?:
        let view = owner.takeUnretainedValue()
        guard let axis = view.contentSizeRows.axis(ofGrowthRow: Int32(id)) else { continue }
        terms.append(contentSizeTerm(of: view, axis))
        let rows = contentSizeRows(of: view, axis, LinearExpression(terms, constant: 0))
        body(nil, rows.growth)
        body(nil, rows.shrinkage)
      case .guidePin(let owner)?:
        let view = owner.takeUnretainedValue()
        guard let (which, edge) = view.pinnedEdge(ofRow: Int32(id)),
          let guide = view.pinnedGuide(which)
        else { continue }
        appendGuidePinTerms(view, guide, edge, to: &terms)
        let expression = LinearExpression(terms, constant: 0 - view.guidePinConstant(which, edge))
        let priority = view.pinRows(which).isBroken(edge) ? Self.brokenPriority : .required
        body(nil, Constraint(expression, .equal, priority: priority))
      case .arrangement(let stack)?:
        let row = stack._withUnsafeGuaranteedRef { $0.arrangementRows[Int(rowIndices[id])] }
        appendLoweredTerms(row, to: &terms)
        let expression = LinearExpression(terms, constant: loweredConstant(row))
        let priority = row.isBroken ? Self.brokenPriority : row.priority
        body(nil, Constraint(expression, row.relation, priority: priority))
      case nil: continue
      }
      terms.removeAll(keepingCapacity: true)
    }
  }

  /// Every installed constraint, lowered, in the order of their solver ids.
  public func loweredConstraints() -> [LoweredConstraint] {
    var result: [LoweredConstraint] = []
    result.reserveCapacity(installed.entries.count)
    let rowIndices = arrangementRowIndices()
    for (id, entry) in installed.entries.enumerated() {
      switch entry {
      case .constraint(let reference)?:
        let constraint = reference.takeUnretainedValue()
        let row = Constraint(lower(constraint), constraint.relation, priority: constraint.priority)
        result.append(LoweredConstraint(constraint: constraint, rows: [row]))
      case .contentSize(let owner)?:
        let view = owner.takeUnretainedValue()
        guard let axis = view.contentSizeRows.axis(ofGrowthRow: Int32(id)),
          let constraint = view.contentSizeConstraint(axis)
        else { continue }
        let rows = contentSizeRows(
          of: view, axis, LinearExpression([contentSizeTerm(of: view, axis)], constant: 0))
        result.append(
          LoweredConstraint(constraint: constraint, rows: [rows.growth, rows.shrinkage]))
      case .guidePin(let owner)?:
        let view = owner.takeUnretainedValue()
        guard let (which, edge) = view.pinnedEdge(ofRow: Int32(id)),
          let guide = view.pinnedGuide(which),
          let constraint = view.guidePinConstraint(which, edge: edge)
        else { continue }
        let row = guidePinRow(view, guide, edge, constant: view.guidePinConstant(which, edge))
        result.append(LoweredConstraint(constraint: constraint, rows: [row]))
      case .arrangement(let stack)?:
        let row = stack._withUnsafeGuaranteedRef { $0.arrangementRows[Int(rowIndices[id])] }
        let lowered = Constraint(lower(row), row.relation, priority: row.priority)
        result.append(LoweredConstraint(constraint: row.describedConstraint(), rows: [lowered]))
      case nil: continue
      }
    }
    return result
  }

  /// The item a solver variable belongs to, and which of its coordinates it is (0 minX, 1 minY,
  /// 2 width, 3 height).
  public func owner(of variable: Variable) -> (item: LayoutItem, coordinate: Int)? {
    guard let item = items[Int(variable.id / 4)] else { return nil }
    return (item.takeUnretainedValue(), Int(variable.id % 4))
  }

  /// The solver's current value of `variable`.
  public func value(of variable: Variable) -> Double { solver.value(of: variable) }

  /// The value of every variable (indexed by id, up to ``solverVariableCapacity``) after a copy
  /// of the solver is rebuilt and solved from scratch: what the incremental path should have
  /// given, for cross-checks (`bench stress`). The engine's own solver is left as it is.
  public func valuesSolvedFromScratch() throws(SolverError) -> [Double] {
    var copy = solver
    try copy.solveFromScratch()
    return (0..<solverVariableCapacity).map { copy.value(of: Variable($0)) }
  }
}

extension LayoutConstraint {
  /// Whether the model made this constraint from a view's frame and autoresizing mask.
  public var isAutoresizingMaskConstraint: Bool {
    kind == .autoresizingMask
  }

  /// Whether the model made this constraint from a view's intrinsic content size.
  public var isContentSizeConstraint: Bool {
    kind == .contentSize
  }
}

extension LayoutEngine {
  /// One more than the highest variable id the engine has handed out.
  public var solverVariableCapacity: Int { items.count * 4 }
}

extension LayoutSolver {
  /// The four values from `base` (minX, minY, width, height) as a rectangle.
  ///
  /// `mutating` though it changes nothing: called on the engine's stored existential, a
  /// mutating method opens it in place, where a non-mutating call copies the solver out of the
  /// engine first (for the sparse solver, a retain and a release of each of its buffers: most of
  /// a layout pass's instructions when each frame read its values that way).
  @inline(__always)
  mutating func rect(at base: Int32) -> Rect {
    Rect(
      x: value(of: Variable(id: base)), y: value(of: Variable(id: base + 1)),
      width: value(of: Variable(id: base + 2)), height: value(of: Variable(id: base + 3)))
  }
}
