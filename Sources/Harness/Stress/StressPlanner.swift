import AutoLayout
import Scenes

/// Draws a stress run's operations from a seeded generator, looking at the scene under test for
/// what exists (views, extra constraints, stack views) and for the current values an operation's
/// constants start from.
///
/// Every family of change the engine has to handle incrementally is drawn: the scene's own
/// operations, root resizes, extra optional and required constraints added and later removed,
/// constant and priority changes, text (intrinsic size) changes, hidden arranged views, and
/// views added and removed.
struct StressPlanner {
  private var generator: SeededGenerator
  /// The most extra constraints and views alive at once, so a long soak stays bounded.
  static let extraConstraintLimit = 40
  static let extraViewLimit = 12

  /// A planner whose operation sequence is fixed by `seed`.
  init(seed: UInt64) {
    // Decorrelated from the scene, which draws its texts from `seed` itself.
    generator = SeededGenerator(seed: seed ^ 0x5354_5245_5353_2121)
  }

  /// The next operation for `world`.
  mutating func next(for world: StressWorld) -> StressOperation {
    let views = world.views
    let sceneOperations = SceneOperation.allCases.filter {
      $0 != .teardown && world.scene.supports($0)
    }
    let labels = views.indices.filter { views[$0] is Label }
    let arranged = views.indices.filter { index in
      let view = views[index]
      return (view.superview as? StackView)?.arrangedSubviews.contains { $0 === view } == true
    }
    let extras = world.extras.count, extraViews = world.extraViews.count
    let full = extras >= Self.extraConstraintLimit
    let choices: [(weight: Int, make: (inout StressPlanner) -> StressOperation)] = [
      (sceneOperations.isEmpty ? 0 : 12, { .scene($0.pick(sceneOperations)) }),
      (12, { $0.resize(world) }),
      (full ? 0 : 14, { $0.addConstraint(world) }),
      (extras == 0 ? 0 : full ? 30 : 10, { .removeConstraint(index: $0.int(0...extras - 1)) }),
      (14, { $0.setConstant(world) }),
      (10, { $0.setPriority(world) }),
      (labels.isEmpty ? 0 : 8, { .setText(view: $0.pick(labels), $0.text()) }),
      (arranged.isEmpty ? 0 : 6, { .toggleHidden(view: $0.pick(arranged)) }),
      (extraViews >= Self.extraViewLimit ? 0 : 4, { $0.addView(world) }),
      (extraViews == 0 ? 0 : 4, { .removeView(index: $0.int(0...extraViews - 1)) }),
    ]
    var roll = int(0...choices.map(\.weight).reduce(0, +) - 1)
    for choice in choices {
      if roll < choice.weight { return choice.make(&self) }
      roll -= choice.weight
    }
    preconditionFailure("the weights add up")
  }

  // MARK: Operations

  private mutating func resize(_ world: StressWorld) -> StressOperation {
    // Between 0.6 and 1.8 times the scene's own size, in half points.
    let base = world.initialSize
    return .resizeRoot(
      width: (base.width * Double(int(60...180)) / 50).rounded() / 2,
      height: (base.height * Double(int(60...180)) / 50).rounded() / 2)
  }

  private static let locations: [[LayoutAttribute]] = [
    [.left, .right, .centerX], [.top, .bottom, .centerY],
  ]

  /// A constraint between two random views (or a dimension against a constant): required ones
  /// hold in the current layout (an inequality with a margin of 0 to 100 points, sometimes an
  /// equality at the current value), optional ones ask for up to 40 points more or less than
  /// now, at a priority no scene uses.
  private mutating func addConstraint(_ world: StressWorld) -> StressOperation {
    let views = world.views
    let first = int(1...max(1, views.count - 1))
    var second: Int? = int(0...views.count - 1)
    if second == first || int(0...3) == 0 { second = nil }
    let firstAttribute: LayoutAttribute, secondAttribute: LayoutAttribute
    if second == nil || int(0...2) == 0 {
      firstAttribute = pick([.width, .height])
      secondAttribute = second == nil ? .notAnAttribute : pick([.width, .height])
    } else {
      let axis = pick(Self.locations)
      firstAttribute = pick(axis)
      secondAttribute = pick(axis)
    }
    let current =
      Self.value(of: views[first], firstAttribute)
      - (second.map { Self.value(of: views[$0], secondAttribute) } ?? 0)
    var spec = StressConstraint(
      first: first, firstAttribute: firstAttribute, relation: .equal, second: second,
      secondAttribute: secondAttribute, constant: 0, priority: .required)
    if int(0...9) < 4 {
      let margin = pick([0.0, 0, 1, 10, 100])
      switch int(0...6) {
      case 0: spec.constant = current
      case 1...3:
        spec.relation = .lessThanOrEqual
        spec.constant = current + margin
      default:
        spec.relation = .greaterThanOrEqual
        spec.constant = current - margin
      }
    } else {
      spec.relation = pick([.equal, .equal, .lessThanOrEqual, .greaterThanOrEqual])
      spec.constant = current + Double(int(-80...80)) / 2
      spec.priority = optionalPriority()
    }
    return .addConstraint(spec)
  }

  /// An extra constraint's constant moved up to 20 points, or a scene constraint's set to its
  /// original constant ± 8 (so changes do not drift).
  private mutating func setConstant(_ world: StressWorld) -> StressOperation {
    guard let target = self.target(world) else { return resize(world) }
    let constraint = world.constraint(target)
    switch target {
    case .extra: return .setConstant(target, constraint.constant + Double(int(-40...40)) / 2)
    case .installed:
      return .setConstant(target, world.originalConstant(of: constraint) + Double(int(-8...8)))
    }
  }

  /// Optional ↔ optional, required → optional, and back to required for a constraint that was
  /// required.
  private mutating func setPriority(_ world: StressWorld) -> StressOperation {
    guard let target = self.target(world) else { return resize(world) }
    let constraint = world.constraint(target)
    if constraint.priority.isRequired {
      return .setPriority(target, optionalPriority(in: 900...998))
    }
    let original = world.originalPriority(of: constraint)
    let required = original.isRequired ? int(0...1) == 0 : int(0...4) == 0
    return .setPriority(target, required ? .required : optionalPriority())
  }

  private mutating func addView(_ world: StressWorld) -> StressOperation {
    let views = world.views
    let stacks = views.indices.filter { views[$0] is StackView }
    var spec = StressView(
      text: text(), stack: nil, anchor: int(0...views.count - 1),
      dx: Double(int(-20...40)), dy: Double(int(0...20)))
    if !stacks.isEmpty { spec.stack = pick(stacks) }
    return .addView(spec)
  }

  // MARK: Drawing

  /// An extra constraint (half the time, when there are any) or an editable scene constraint.
  private mutating func target(_ world: StressWorld) -> StressTarget? {
    if !world.extras.isEmpty, world.editable.isEmpty || int(0...1) == 0 {
      return .extra(int(0...world.extras.count - 1))
    }
    return world.editable.isEmpty ? nil : .installed(int(0...world.editable.count - 1))
  }

  /// A priority with two decimals in `range` (1...998 by default): practically never one the
  /// scenes use or another extra constraint has, so no two optional constraints tie by accident.
  private mutating func optionalPriority(in range: ClosedRange<Int> = 1...998) -> LayoutPriority {
    LayoutPriority(Float(int(range)) + Float(int(1...99)) / 100)
  }

  private mutating func text() -> String {
    let length = int(0...24)
    return length == 0 ? "" : generator.word(length: length)
  }

  private mutating func int(_ range: ClosedRange<Int>) -> Int { generator.int(in: range) }

  private mutating func pick<Element>(_ elements: [Element]) -> Element {
    elements[int(0...elements.count - 1)]
  }

  /// The current value of `attribute` of `view`'s alignment rectangle, in the root's space.
  static func value(of view: View, _ attribute: LayoutAttribute) -> Double {
    let frame = view.convert(Rect(origin: .zero, size: view.frame.size), to: nil)
    let insets = view.alignmentRectInsets
    let left = frame.minX + insets.left, top = frame.minY + insets.top
    let width = frame.width - insets.left - insets.right
    let height = frame.height - insets.top - insets.bottom
    switch attribute {
    case .left: return left
    case .right: return left + width
    case .centerX: return left + width / 2
    case .width: return width
    case .top: return top
    case .bottom: return top + height
    case .centerY: return top + height / 2
    case .height: return height
    default: return 0
    }
  }
}
