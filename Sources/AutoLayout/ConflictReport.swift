import Cassowary

/// One recovery from unsatisfiable required constraints: what conflicted, what was broken, and
/// the message logged, in UIKit's words.
public struct ConflictReport {
  /// The mutually exclusive required constraints, the one being added or changed last.
  public let constraints: [LayoutConstraint]
  /// The constraint the engine broke: it stays active, held as the strongest optional
  /// constraint so that it still pulls.
  public let broken: LayoutConstraint
  /// The message as logged.
  public let message: String
}

extension LayoutEngine {
  /// Breaks `constraint`, which cannot hold with the required constraints `others`: records and
  /// logs the conflict as UIKit does. The caller re-adds it at ``brokenPriority``.
  ///
  /// UIKit asks the view which constraint to break; without that delegate its engine breaks the
  /// one being added. This engine always breaks the constraint being added or changed, so the
  /// choice is deterministic.
  func recover(
    breaking constraint: LayoutConstraint, conflictingWith others: [ConstraintID: Constraint]
  ) {
    constraint.isHeldBroken = true
    var set = others.keys.sorted().compactMap { id -> LayoutConstraint? in
      switch installed[Int(id.rawValue)] {
      case .constraint(let constraint)?: return constraint.takeUnretainedValue()
      case .contentSize(let owner)?:
        // Content-size rows are optional and so never conflict; described should one come.
        return owner.takeUnretainedValue().contentSizeConstraint(growthRow: id.rawValue)
      case .guidePin(let owner)?:
        let view = owner.takeUnretainedValue()
        guard let (which, edge) = view.pinnedEdge(ofRow: id.rawValue) else { return nil }
        return view.guidePinConstraint(which, edge: edge)
      case .arrangement(let owner)?:
        let stack = owner.takeUnretainedValue()
        guard let index = stack.arrangementRowIndex(ofSolverID: id.rawValue) else { return nil }
        return stack.arrangementRows[index].describedConstraint()
      case nil: return nil
      }
    }
    set.removeAll { $0 === constraint }
    set.append(constraint)
    let message = Self.unsatisfiableMessage(set, broken: constraint)
    if recordedConflicts.count >= Self.conflictHistoryLimit { recordedConflicts.removeFirst() }
    recordedConflicts.append(ConflictReport(constraints: set, broken: constraint, message: message))
    counters.conflicts += 1
    logHandler(message)
  }

  /// Removes and installs again, in one batch, every required constraint and required row the
  /// engine broke to recover from a conflict, as deactivating and activating a constraint does
  /// in UIKit: each then holds again if it can, or is broken (and logged) again. A broken row
  /// the engine owns (a stack view's `UISV-…`, a guide's pin) has no constraint of its own to
  /// deactivate; this mends it.
  ///
  /// - Complexity: O(solver ids handed out), plus a solver removal and add a broken row.
  public func reinstallBrokenConstraints() {
    flushPendingAdds()
    var constraints: [LayoutConstraint] = []
    var stackRows: [(StackView, index: Int)] = []
    var pinned: [(View, PinnedGuide)] = []
    let rowIndices = arrangementRowIndices()
    for (id, entry) in installed.entries.enumerated() {
      switch entry {
      case .constraint(let reference)?:
        let constraint = reference.takeUnretainedValue()
        if constraint.isHeldBroken { constraints.append(constraint) }
      case .arrangement(let owner)?:
        let stack = owner.takeUnretainedValue()
        let index = Int(rowIndices[id])
        if stack.arrangementRows[index].isBroken { stackRows.append((stack, index)) }
      case .guidePin(let owner)?:
        let view = owner.takeUnretainedValue()
        guard let (which, edge) = view.pinnedEdge(ofRow: Int32(id)) else { continue }
        let rows = view.pinRows(which)
        // A guide's four pins go and come back together: listed at its first broken edge.
        if rows.isBroken(edge), (0..<4).first(where: rows.isBroken) == edge {
          pinned.append((view, which))
        }
      default: continue
      }
    }
    beginBatch()
    LayoutConstraint.deactivate(constraints)
    LayoutConstraint.activate(constraints)
    // A row keeps its place in its stack's table; only its solver id changes.
    for (stack, index) in stackRows {
      var row = stack.arrangementRows[index]
      uninstallArrangementRow(&row)
      installArrangementRow(&row, of: stack)
      stack.arrangementRows[index] = row
    }
    for (view, which) in pinned {
      uninstallGuidePins(of: view, which)
      installGuidePins(of: view, which)
    }
    endBatch()
  }

  /// How many conflicts ``conflicts`` keeps: the most recent. A report holds its constraints,
  /// so an unbounded history would keep every constraint that ever conflicted alive in a
  /// long-running app; ``LayoutStatistics/conflicts`` counts them all.
  public static let conflictHistoryLimit = 64

  /// Forgets the conflicts recorded so far (``conflicts`` becomes empty; the count in
  /// ``statistics`` stays).
  ///
  /// - Complexity: O(conflicts recorded).
  public func removeAllConflicts() {
    flushPendingAdds()
    recordedConflicts = []
  }

  /// UIKit's "Unable to simultaneously satisfy constraints." log, naming this library's types.
  static func unsatisfiableMessage(_ constraints: [LayoutConstraint], broken: LayoutConstraint)
    -> String
  {
    let autoresizing = constraints.contains { $0.kind == .autoresizingMask }
    var lines = [
      "[LayoutConstraints] Unable to simultaneously satisfy constraints.",
      "\tProbably at least one of the constraints in the following list is one you don't want. ",
      "\tTry this: ",
      "\t\t(1) look at each constraint and try to figure out which you don't expect; ",
      "\t\t(2) find the code that added the unwanted constraint or constraints and fix it. ",
    ]
    if autoresizing {
      lines.append(
        "\t(Note: If you're seeing AutoresizingMaskLayoutConstraints that you don't understand, "
          + "refer to the documentation for the View property "
          + "translatesAutoresizingMaskIntoConstraints) ")
    }
    lines.append("(")
    lines.append(constraints.map { "    \"\($0)\"" }.joined(separator: ",\n"))
    lines += [
      ")", "", "Will attempt to recover by breaking constraint ", "\(broken)", "",
      "Read LayoutEngine.conflicts, or set LayoutEngine.logHandler, to catch this in code.",
    ]
    return lines.joined(separator: "\n")
  }
}
