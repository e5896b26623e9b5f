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
  private var cachedViews: [View]?
  private var cachedLowered: [LayoutEngine.LoweredConstraint]?
  private var cachedEditable: [LayoutConstraint]?

  /// Builds the scene, gives it `solver` when one is given, and lays it out.
  init(
    _ kind: SceneKind, views: Int, seed: UInt64, variant: String?, solver: SolverKind,
    replacement: (any LayoutSolver)?
  ) throws(SceneError) {
    scene = try Scene(kind, views: views, seed: seed, variant: variant, solver: solver)
    initialSize = scene.root.frame.size
    if let replacement { scene.root.replaceSolver(with: replacement) }
    scene.root.layoutEngine?.logHandler = { [unowned self] _ in loggedConflicts += 1 }
    scene.root.layoutIfNeeded()
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
    let result = lowered.map(\.constraint).filter {
      !$0.isAutoresizingMaskConstraint && !$0.isContentSizeConstraint && $0.identifier == nil
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
