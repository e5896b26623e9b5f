import AutoLayout
import Cassowary
import Scenes

/// A scene together with what a stress run added to it (extra constraints and views, the
/// original constants and priorities of the constraints it edited), able to apply a
/// ``StressOperation``. The scene under test and its reference scene are two worlds driven with
/// the same operations, so they stay the same tree.
final class StressWorld {
  /// The scene.
  let scene: Scene
  /// Extra constraints, active or made inactive by a removal of one of their views.
  private(set) var extras: [LayoutConstraint] = []
  /// Extra views still in the tree.
  private(set) var extraViews: [View] = []
  /// The root's size when the scene was built (random resizes scale it).
  let initialSize: Size
  /// Constraint conflicts the engine recovered from (its log goes nowhere).
  private(set) var loggedConflicts = 0
  /// The constants and priorities constraints had before the run first changed them, by
  /// constraint. An entry holds its constraint, so that no other constraint can be made at the
  /// same address (and so take over its entry) while the entry exists; entries whose
  /// constraint is held by nothing else are dropped in ``forgetUnreachableOriginals()``.
  private var originals: [ObjectIdentifier: Original] = [:]
  /// The number of entries after the last clean-up: the next one runs when it has doubled.
  private var originalsAfterCleanUp = 0
  /// What the run may change, as it was after the first layout: the views' hidden states and
  /// texts, and the editable constraints' constants and priorities. ``restore()`` puts them back.
  private var initialViews: [(view: View, isHidden: Bool, text: String?)] = []
  private var initialConstraints: [ConstraintTerms: (constant: Double, priority: LayoutPriority)] =
    [:]
  private var cachedViews: [View]?
  private var cachedLowered: [LayoutEngine.LoweredConstraint]?
  private var cachedEditable: [LayoutConstraint]?

  /// Builds the scene, gives it `solver` when one is given, and lays it out.
  init(
    _ kind: SceneKind, views: Int, seed: UInt64, variant: String?, solver: SolverStrategy,
    replacement: (any LayoutSolver)?
  ) throws(SceneError) {
    scene = try Scene(kind, views: views, seed: seed, variant: variant, solver: solver)
    initialSize = scene.root.frame.size
    if let replacement { scene.root.replaceSolver(with: replacement) }
    scene.root.layoutEngine?.logHandler = { [unowned self] _ in loggedConflicts += 1 }
    scene.root.layoutIfNeeded()
    // The tableau as a rebuild leaves it, as ``restore()`` leaves it too: the first layout adds
    // the constraints in the order the views installed them, a rebuild in an order of its own
    // (a function of the constraints alone), and the two tableaus, equivalent, differ by a few
    // per cent of their cells. Built the same way, the memory verdict compares what the run
    // kept, not the two orders.
    try? scene.root.layoutEngine?.solveFromScratch()
    scene.root.layoutIfNeeded()
    initialViews = self.views.map { ($0, $0.isHidden, ($0 as? Label)?.text) }
    for constraint in editable {
      // Values only: holding the constraints would keep those a churn replaces alive.
      initialConstraints[ConstraintTerms(constraint)] = (constraint.constant, constraint.priority)
    }
  }

  /// Undoes the run: removes the extra constraints and views, undoes the scene's toggling
  /// operations, and puts every constant, priority, text, hidden state and the root's size back
  /// as they were after the first layout; then lays the scene out. The engine then holds the
  /// same constraints as after the first layout (a churned row's are new objects with the same
  /// values), and its solver is rebuilt from them, so its memory should be what it was.
  func restore() {
    LayoutConstraint.deactivate(extras)
    extras.removeAll()
    for view in extraViews.reversed() { view.removeFromSuperview() }
    extraViews.removeAll()
    scene.undoOperations()
    // First the values of constraints made during the run, as before the run first changed
    // them; then every constraint with the terms of one the scene was built with takes that
    // one's values (a churned row's constraints are new objects, and a flat scene's are copies
    // of the old ones, changed values included).
    for original in originals.values {
      original.constraint.constant = original.constant
      original.constraint.priority = original.priority
    }
    originals = [:]
    originalsAfterCleanUp = 0
    dropCaches()
    for constraint in editable {
      guard let initial = initialConstraints[ConstraintTerms(constraint)] else { continue }
      constraint.constant = initial.constant
      constraint.priority = initial.priority
    }
    for initial in initialViews {
      if initial.view.isHidden != initial.isHidden { initial.view.isHidden = initial.isHidden }
      if let text = initial.text, let label = initial.view as? Label, label.text != text {
        label.text = text
      }
    }
    scene.root.frame = Rect(origin: .zero, size: initialSize)
    // A required constraint broken by a conflict stays broken (held as an optional one) until
    // it is installed again, as in UIKit.
    engine.reinstallBrokenConstraints()
    engine.removeAllConflicts()
    dropCaches()
    scene.root.layoutIfNeeded()
    // The tableau as a first layout of these constraints leaves it: an incremental one is
    // larger by its fill-in and by the room of constraints since removed (the solver bounds
    // that on its own; see docs/solvers.md), so without this the comparison would measure
    // the tableau's history rather than memory kept for nothing.
    try? engine.solveFromScratch()
    scene.root.layoutIfNeeded()
  }

  /// Forgets the views and constraints listed for the planner and the checks (they are listed
  /// again when next asked for), so that a memory sample counts what the scene holds.
  func dropCaches() {
    cachedViews = nil
    cachedLowered = nil
    cachedEditable = nil
  }

  /// The engine (the scene is laid out, so it has one).
  var engine: LayoutEngine { scene.root.layoutEngine! }

  /// The views of the tree, depth first, the root first: what view indices refer to.
  var views: [View] {
    if let cachedViews { return cachedViews }
    var result: [View] = []
    scene.root.visitSubtree { result.append($0) }
    cachedViews = result
    return result
  }

  /// Every installed constraint, lowered (cached until the next operation).
  var lowered: [LayoutEngine.LoweredConstraint] {
    if let cachedLowered { return cachedLowered }
    let result = engine.loweredConstraints()
    cachedLowered = result
    return result
  }

  /// The installed constraints a run may edit: the scene's and the run's own, not those the
  /// model makes and keeps up to date itself (autoresizing, content size, margins, stacks).
  var editable: [LayoutConstraint] {
    if let cachedEditable { return cachedEditable }
    var result: [LayoutConstraint] = []
    engine.forEachInstalledConstraint {
      if !$0.isAutoresizingMaskConstraint && !$0.isContentSizeConstraint && $0.identifier == nil {
        result.append($0)
      }
    }
    cachedEditable = result
    return result
  }

  /// The constant `constraint` had before the run first changed it.
  func originalConstant(of constraint: LayoutConstraint) -> Double {
    originals[ObjectIdentifier(constraint)]?.constant ?? constraint.constant
  }

  /// The priority `constraint` had before the run first changed it.
  func originalPriority(of constraint: LayoutConstraint) -> LayoutPriority {
    originals[ObjectIdentifier(constraint)]?.priority ?? constraint.priority
  }

  /// Remembers `constraint`'s constant and priority, unless they are remembered already.
  private func rememberOriginal(of constraint: LayoutConstraint) {
    let key = ObjectIdentifier(constraint)
    if originals[key] == nil {
      originals[key] = Original(
        constraint: constraint, constant: constraint.constant, priority: constraint.priority)
    }
  }

  /// Drops the entries of constraints that only the entries still hold (gone from the scene for
  /// good), once the table has doubled since the last clean-up: amortized O(1) per operation.
  private func forgetUnreachableOriginals() {
    guard originals.count > 2 * originalsAfterCleanUp + 64 else { return }
    for key in Array(originals.keys)
    where isKnownUniquelyReferenced(&originals[key]!.constraint) {
      originals[key] = nil
    }
    originalsAfterCleanUp = originals.count
  }

  /// The constraint `target` names.
  func constraint(_ target: StressTarget) -> LayoutConstraint {
    switch target {
    case .extra(let index): extras[index]
    case .installed(let index): editable[index]
    }
  }

  /// Applies `operation` and lays the scene out. Throws when the operation names something this
  /// world does not have (the reference scene diverged from the scene under test).
  func apply(_ operation: StressOperation) throws(StressWorldError) {
    let views = self.views
    func view(_ index: Int) throws(StressWorldError) -> View {
      guard index < views.count else { throw StressWorldError("no view #\(index)") }
      return views[index]
    }
    switch operation {
    case .scene(let sceneOperation):
      scene.perform(sceneOperation)
    case .resizeRoot(let width, let height):
      scene.root.frame = Rect(x: 0, y: 0, width: width, height: height)
    case .addConstraint(let spec):
      let constraint: LayoutConstraint
      do {
        constraint = try LayoutConstraint(
          item: try view(spec.first), attribute: spec.firstAttribute, relatedBy: spec.relation,
          toItem: try spec.second.map { index throws(StressWorldError) in try view(index) },
          attribute: spec.secondAttribute, constant: spec.constant)
      } catch let error as StressWorldError {
        throw error
      } catch {
        throw StressWorldError("invalid constraint: \(error)")
      }
      constraint.priority = spec.priority
      LayoutConstraint.activate([constraint])
      extras.append(constraint)
    case .removeConstraint(let index):
      guard index < extras.count else { throw StressWorldError("no extra constraint #\(index)") }
      LayoutConstraint.deactivate([extras.remove(at: index)])
    case .setConstant(let target, let constant):
      let constraint = try checked(target)
      rememberOriginal(of: constraint)
      constraint.constant = constant
    case .setPriority(let target, let priority):
      let constraint = try checked(target)
      rememberOriginal(of: constraint)
      constraint.priority = priority
    case .setText(let index, let text):
      guard let label = try view(index) as? Label else {
        throw StressWorldError("view #\(index) is not a label")
      }
      label.text = text
    case .toggleHidden(let index):
      try view(index).isHidden.toggle()
    case .addView(let spec):
      let label = Label(spec.text)
      if let stackIndex = spec.stack {
        guard let stack = try view(stackIndex) as? StackView else {
          throw StressWorldError("view #\(stackIndex) is not a stack view")
        }
        stack.addArrangedSubview(label)
      } else {
        let anchor = try view(spec.anchor)
        scene.root.addSubview(label)
        LayoutConstraint.activate([
          label.leadingAnchor.constraint(equalTo: anchor.leadingAnchor, constant: spec.dx),
          label.topAnchor.constraint(equalTo: anchor.bottomAnchor, constant: spec.dy),
        ])
      }
      extraViews.append(label)
    case .removeView(let index):
      guard index < extraViews.count else { throw StressWorldError("no extra view #\(index)") }
      extraViews.remove(at: index).removeFromSuperview()
    }
    // Extra constraints that lost a view are inactive: forget them.
    extras.removeAll { !$0.isActive }
    cachedViews = nil
    cachedLowered = nil
    cachedEditable = nil
    forgetUnreachableOriginals()
    scene.root.layoutIfNeeded()
  }

  private func checked(_ target: StressTarget) throws(StressWorldError) -> LayoutConstraint {
    switch target {
    case .extra(let index) where index >= extras.count,
      .installed(let index) where index >= editable.count:
      throw StressWorldError("no \(target)")
    default: return constraint(target)
    }
  }
}

/// What identifies a constraint apart from its constant and priority: its items (by identity),
/// attributes, relation and multiplier.
private struct ConstraintTerms: Hashable {
  var first: ObjectIdentifier?
  var firstAttribute: LayoutAttribute
  var relation: LayoutRelation
  var second: ObjectIdentifier?
  var secondAttribute: LayoutAttribute
  var multiplier: Double

  init(_ constraint: LayoutConstraint) {
    first = constraint.firstItem.map(ObjectIdentifier.init)
    firstAttribute = constraint.firstAttribute
    relation = constraint.relation
    second = constraint.secondItem.map(ObjectIdentifier.init)
    secondAttribute = constraint.secondAttribute
    multiplier = constraint.multiplier
  }
}

/// A constraint's constant and priority before a run first changed either.
private struct Original {
  var constraint: LayoutConstraint
  var constant: Double
  var priority: LayoutPriority
}

/// The reference scene could not apply an operation the scene under test applied.
struct StressWorldError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
