import Cassowary

/// Measuring and debugging, as UIKit's `UIConstraintBasedLayoutDebugging` and fitting APIs.
extension View {
  /// Where the engine's current values put this view: its frame in the root's superview space
  /// (the alignment rectangle with the insets added back), which a layout pass copies into
  /// ``frame``; `nil` for a view that no installed constraint mentions.
  ///
  /// Right after ``layoutIfNeeded()``, it equals the frame made absolute (the frames of the
  /// view and its superviews added up) within round-off; `bench stress` checks that.
  ///
  /// - Complexity: O(depth in the tree), to find the engine.
  public var solvedFrameInRootSpace: Rect? {
    guard engineBlock >= 0, let engine = rootView.engineStorage,
      let rect = engine.alignmentRect(of: self)
    else { return nil }
    return frameFromAlignmentRect(rect)
  }

  /// The size the view's constraints give it when its width and height are pulled towards
  /// `targetSize` at the given priorities, without changing the current layout (it solves a copy
  /// of the engine's solver). With ``LayoutPriority/fittingSizeLevel`` the result is as close to
  /// the target as the other constraints allow; `.required` fixes an axis.
  public func systemLayoutSizeFitting(
    _ targetSize: Size, horizontalFittingPriority: LayoutPriority = .fittingSizeLevel,
    verticalFittingPriority: LayoutPriority = .fittingSizeLevel
  ) -> Size {
    let engine = rootView.ensureEngine()
    rootView.updateConstraintsIfNeeded()
    guard engineBlock >= 0 else {
      // No constraint mentions the view: its content decides, or nothing does.
      let content = intrinsicContentSize
      return Size(
        width: content.width >= 0 ? content.width : targetSize.width,
        height: content.height >= 0 ? content.height : targetSize.height)
    }
    var probe = engine.solver
    for constraint in autoresizingConstraints where constraint.solverID >= 0 {
      try? probe.remove(ConstraintID(constraint.solverID))
    }
    var next = Int32(engine.installed.count)
    for (index, (target, priority)) in [
      (targetSize.width, horizontalFittingPriority), (targetSize.height, verticalFittingPriority),
    ].enumerated() {
      let variable = engine.variable(self, Int32(2 + index))
      let pull = Constraint(LinearExpression(variable) - LinearExpression(constant: target), .equal)
      if (try? probe.add(ConstraintID(next), pull.at(priority))) == nil {
        try? probe.add(ConstraintID(next), pull.at(LayoutEngine.brokenPriority))
      }
      next += 1
    }
    let insets = alignmentRectInsets
    return Size(
      width: probe.value(of: engine.variable(self, 2)) + insets.left + insets.right,
      height: probe.value(of: engine.variable(self, 3)) + insets.top + insets.bottom)
  }

  /// Whether the constraints leave some part of the view's frame undetermined: another value of
  /// its position or size satisfies them equally well. A view positioned by its own constraints
  /// that no constraint mentions is ambiguous; one that translates its frame is not.
  public var hasAmbiguousLayout: Bool { !ambiguousVariables().isEmpty }

  /// The names (`minX`, `minY`, `width`, `height`) of the view's variables that the constraints
  /// leave free.
  public func ambiguousVariables() -> [String] {
    guard let engine = rootView.engineStorage, engineBlock >= 0 else {
      return translatesAutoresizingMaskIntoConstraints ? [] : Self.variableNames
    }
    var probe = engine.solver
    return Self.variableNames.indices.filter { index in
      Self.isFree(engine.variable(self, Int32(index)), in: &probe)
    }.map { Self.variableNames[$0] }
  }

  static let variableNames = ["minX", "minY", "width", "height"]

  /// The lowest priority there is: a probe at this level cannot disturb any other level.
  static let probePriority = LayoutPriority(Float.leastNormalMagnitude)

  /// Whether `variable` can move without making any level of the objective worse: pulled both
  /// ways at the lowest priority, it moves.
  static func isFree(_ variable: Variable, in probe: inout any LayoutSolver) -> Bool {
    guard (try? probe.addEditVariable(variable, priority: probePriority)) != nil else {
      return false
    }
    defer { try? probe.removeEditVariable(variable) }
    let start = probe.value(of: variable)
    for target in [start + 100, start - 100] {
      try? probe.suggestValue(variable, target)
      if abs(probe.value(of: variable) - start) > 1e-6 { return true }
    }
    return false
  }

  /// Moves the view to another solution that satisfies the constraints equally well: a visual
  /// check of ambiguity, as UIKit's method. The solution is found in a copy of the solver (each
  /// free variable pulled 100 points at the lowest priority) and written to the frame only; the
  /// next layout pass brings back the engine's own solution.
  public func exerciseAmbiguityInLayout() {
    guard let engine = rootView.engineStorage, engineBlock >= 0 else { return }
    var probe = engine.solver
    var moved = false
    for index in Self.variableNames.indices {
      let variable = engine.variable(self, Int32(index))
      guard Self.isFree(variable, in: &probe),
        (try? probe.addEditVariable(variable, priority: Self.probePriority)) != nil
      else { continue }
      let start = probe.value(of: variable)
      try? probe.suggestValue(variable, start + 100)
      if abs(probe.value(of: variable) - start) < 1e-6 {
        try? probe.suggestValue(variable, start - 100)
      }
      moved = true
    }
    guard moved else { return }
    let base = engineBlock
    let rect = Rect(
      x: probe.value(of: Variable(id: base)), y: probe.value(of: Variable(id: base + 1)),
      width: probe.value(of: Variable(id: base + 2)),
      height: probe.value(of: Variable(id: base + 3)))
    let absolute = frameFromAlignmentRect(rect)
    let origin = superview?.absoluteFrameOrigin() ?? .zero
    storedFrame = Rect(
      x: absolute.minX - origin.x, y: absolute.minY - origin.y, width: absolute.width,
      height: absolute.height)
  }

  /// The active constraints that refer to this view on `axis` (its own and those of the
  /// constraints it takes part in), as UIKit's `constraintsAffectingLayout(for:)`. The
  /// content-size constraint on `axis`, if the view has one, comes last, made for the asking
  /// (the engine holds the rows, not a constraint object).
  ///
  /// - Complexity: O(active constraints on the view).
  public func constraintsAffectingLayout(for axis: LayoutAttribute.Axis) -> [LayoutConstraint] {
    var result = activeConstraints.filter { $0.firstAttribute.axis == axis }
    for stack in [self as? StackView, arrangingStackView].compactMap({ $0 }) {
      for row in stack.arrangementRows
      where row.firstAttribute.axis == axis && row.refers(to: self) {
        result.append(row.describedConstraint())
      }
    }
    result += guidePinConstraints(on: axis)
    if let contentSize = contentSizeConstraint(axis) { result.append(contentSize) }
    return result
  }

  /// A dump of the view tree, one view a line, as UIKit's `_autolayoutTrace`: `•` marks the
  /// view hosting the engine, `*` views whose frame comes from the engine, and ambiguous views
  /// end with `- AMBIGUOUS LAYOUT for` and their free variables.
  public func autolayoutTrace() -> String {
    var lines: [String] = []
    let engine = rootView.engineStorage
    var probe = engine?.solver
    func visit(_ view: View, depth: Int) {
      var line = String(repeating: "| ", count: depth)
      if view.superview == nil, engine != nil {
        line += "•"
      } else if view.engineBlock >= 0 {
        line += "*"
      }
      line += view.layoutDescription
      var free: [String] = []
      if let engine, view.engineBlock >= 0, probe != nil {
        for (index, name) in Self.variableNames.enumerated()
        where Self.isFree(engine.variable(view, Int32(index)), in: &probe!) {
          free.append("\(view.layoutDescription).\(name){id: \(view.engineBlock + Int32(index))}")
        }
      } else if !view.translatesAutoresizingMaskIntoConstraints {
        free = Self.variableNames.map { "\(view.layoutDescription).\($0)" }
      }
      if !free.isEmpty { line += "- AMBIGUOUS LAYOUT for " + free.joined(separator: ", ") }
      lines.append(line)
      for subview in view.subviews { visit(subview, depth: depth + 1) }
    }
    visit(self, depth: 0)
    return lines.joined(separator: "\n")
  }
}
