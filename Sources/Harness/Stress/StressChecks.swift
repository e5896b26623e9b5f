import AutoLayout
import Cassowary
import Scenes

/// The invariants a stress run checks, each a function from the scene's state to the first
/// thing found wrong (`nil`: it holds).
enum StressChecks {
  /// How far `row` is from holding, relative to its size: its residual (the expression, left
  /// side minus right side, at the solver's values; only the part that violates the relation)
  /// divided by 1 + |constant| + Σ |coefficient × value|. A row between big coordinates may be
  /// off by their rounding error; a small row must hold to the tolerance itself.
  static func scaledResidual(of row: Constraint, values: (Variable) -> Double) -> Double {
    var residual = row.expression.constant
    var scale = 1 + abs(row.expression.constant)
    for term in row.expression.terms {
      let product = term.coefficient * values(term.variable)
      residual += product
      scale += abs(product)
    }
    switch row.relation {
    case .equal: residual = abs(residual)
    case .lessThanOrEqual: residual = max(0, residual)
    case .greaterThanOrEqual: residual = max(0, -residual)
    }
    return residual / scale
  }

  /// Every required row of every installed constraint, lowered afresh from the model (not read
  /// back from the solver), holds at the engine's values within `tolerance`. Constraints the
  /// engine broke to recover from a conflict are optional now and are not checked.
  ///
  /// It runs after every operation, so it streams the rows (``LayoutEngine/forEachLoweredRow(_:)``)
  /// rather than keeping them.
  static func requiredConstraints(_ world: StressWorld, tolerance: Double) -> String? {
    let engine = world.engine
    var failure: String?
    engine.forEachLoweredRow { constraint, row in
      // A row the engine owns (constraint nil) comes at the priority it is held at.
      guard failure == nil, row.priority.isRequired, constraint?.isBroken != true else { return }
      let residual = scaledResidual(of: row, values: engine.value(of:))
      if residual > tolerance {
        failure =
          "required \(constraint.map { "constraint \($0)" } ?? "row the engine owns") does not "
          + "hold: scaled residual "
          + "\(residual) > \(tolerance); row \(describe(row, world)) at " + values(of: row, world)
      }
    }
    return failure
  }

  /// Every view's frame below the root, made absolute (its own and its superviews' frames added
  /// up from the root's position in the engine), is where the engine's current values put it
  /// (``View/solvedFrameInRootSpace``): the layout pass that ends every operation copied every
  /// changed value into the frames. The root's own frame is the caller's to set (the stress
  /// world resizes it); when constraints that conflict with it win, the engine holds it
  /// elsewhere, and its subviews are placed from there.
  static func frames(_ world: StressWorld, tolerance: Double) -> String? {
    var failure: String?
    func visit(_ view: View, _ parentOrigin: Point) {
      guard failure == nil else { return }
      let frame = view.frame
      let absolute = Rect(
        x: parentOrigin.x + frame.minX, y: parentOrigin.y + frame.minY, width: frame.width,
        height: frame.height)
      if let solved = view.solvedFrameInRootSpace {
        let pairs = [
          (absolute.minX, solved.minX), (absolute.minY, solved.minY),
          (absolute.width, solved.width), (absolute.height, solved.height),
        ]
        if !pairs.allSatisfy({ equal($0.0, $0.1, tolerance) }) {
          let name = world.scene.name(of: view) ?? "\(view)"
          failure =
            "the frame of \(name) (\(frame), \(absolute) in the root's superview space) is not "
            + "where the engine's values put it (\(solved)) after a layout pass"
          return
        }
      }
      for subview in view.subviews { visit(subview, absolute.origin) }
    }
    let root = world.scene.root
    let rootOrigin = root.solvedFrameInRootSpace?.origin ?? root.frame.origin
    for subview in root.subviews { visit(subview, rootOrigin) }
    return failure
  }

  /// The engine's values equal those of a copy of its solver rebuilt and solved from scratch,
  /// for every variable an installed constraint uses; where they differ, both solutions are
  /// equally good (a tie, reported but not a failure).
  static func fullResolve(_ world: StressWorld, tolerance: Double) -> StressCheckResult {
    let engine = world.engine
    let scratch: [Double]
    do {
      scratch = try engine.valuesSolvedFromScratch()
    } catch {
      return .fails("the full re-solve failed: \(error)")
    }
    var used = [Bool](repeating: false, count: scratch.count)
    for lowered in world.lowered {
      for row in lowered.rows {
        for term in row.expression.terms where Int(term.variable.id) < used.count {
          used[Int(term.variable.id)] = true
        }
      }
    }
    var differences: [String] = []
    for id in used.indices where used[id] {
      let variable = Variable(id)
      let incremental = engine.value(of: variable)
      if !equal(incremental, scratch[id], tolerance) {
        differences.append(
          "\(name(of: variable, world)) = \(incremental), from scratch \(scratch[id])")
      }
    }
    guard !differences.isEmpty else { return .holds }
    let what =
      "\(differences.count) value(s) differ from a full re-solve: "
      + differences.prefix(4).joined(separator: "; ")
    let scratchValue = { (variable: Variable) in
      Int(variable.id) < scratch.count ? scratch[Int(variable.id)] : 0
    }
    return judge(
      what, tolerance,
      ("incremental", { errors(world, tolerance: $0, values: engine.value(of:)) }),
      ("from scratch", { errors(world, tolerance: $0, values: scratchValue) }))
  }

  /// Whether two different solutions of `world`'s constraints are equally good (a tie: the
  /// layout has several optima, or they differ by rounding) or which is worse, by their error
  /// vectors compared level by level, highest priority first.
  ///
  /// The vectors are compared twice: with each row's rounding allowance
  /// (``errors(_:tolerance:values:)``), and without it, where two levels count as equal when they agree to 1e-9 of their size. The
  /// allowance keeps drift at a high priority from deciding, but it can also hide that a
  /// solution paid at a high priority for what it gained at a lower one: a fresh solve off by
  /// 6e-5 at priority 250 (2e-9 of its error there) looked 6e-5 better at priority 96.3. A
  /// solution is worse only when both comparisons say so; when they disagree, the difference
  /// is rounding, and it is a tie.
  private static func judge(
    _ what: String, _ tolerance: Double,
    _ a: (name: String, errors: (Double) -> [LayoutPriority: Double]),
    _ b: (name: String, errors: (Double) -> [LayoutPriority: Double])
  ) -> StressCheckResult {
    let withAllowance = firstDifference(a.errors(tolerance), b.errors(tolerance)) {
      equal($0, $1, tolerance)
    }
    guard let difference = withAllowance else { return .tie(what) }
    let rawA = a.errors(0)
    let rawB = b.errors(0)
    let raw = firstDifference(rawA, rawB) { abs($0 - $1) <= 1e-9 * max(1, abs($0), abs($1)) }
    let (worse, better) = difference.firstIsWorse ? (a.name, b.name) : (b.name, a.name)
    guard let raw, raw.firstIsWorse == difference.firstIsWorse else {
      let rawSays =
        raw.map {
          "without it, the \($0.firstIsWorse ? a.name : b.name) one is worse, at priority "
            + "\($0.level.rawValue)"
        } ?? "without it, they are equal"
      return .tie(
        "\(what); the \(worse) one is worse at priority \(difference.level.rawValue) only with "
          + "the rounding allowance (\(rawSays))")
    }
    return .fails(
      "\(what); the \(worse) solution is not optimal: at priority \(difference.level.rawValue) "
        + "its error is \(max(difference.first, difference.second)), the \(better) one's "
        + "\(min(difference.first, difference.second)) (without the rounding allowance, at "
        + "priority \(raw.level.rawValue): \(a.name) \(rawA[raw.level] ?? 0), \(b.name) "
        + "\(rawB[raw.level] ?? 0))")
  }

  /// The highest level at which two error vectors differ (by `equal`), with both errors and
  /// whether the first is the larger; `nil` when they agree everywhere.
  static func firstDifference(
    _ a: [LayoutPriority: Double], _ b: [LayoutPriority: Double],
    equal: (Double, Double) -> Bool
  ) -> (level: LayoutPriority, first: Double, second: Double, firstIsWorse: Bool)? {
    for level in Set(a.keys).union(b.keys).sorted(by: >) {
      let x = a[level] ?? 0, y = b[level] ?? 0
      if !equal(x, y) { return (level, x, y, x > y) }
    }
    return nil
  }

  /// The solution's error at each optional priority level: the sum over optional rows (broken
  /// required constraints at the level they are held at) of how far each is from holding, the
  /// quantity the solvers minimize level by level.
  ///
  /// A row whose scaled residual (``scaledResidual(of:values:)``) is within `tolerance` holds and
  /// adds nothing: the same rule as for required rows. Its residual is then the rounding of the
  /// magnitudes it was computed from (a row between coordinates of 10⁴ may be off by 10⁻⁶ after
  /// thousands of incremental updates), and the lexicographic order would otherwise let that
  /// rounding, at a high priority, decide which of two solutions is better.
  static func errors(_ world: StressWorld, tolerance: Double, values: (Variable) -> Double)
    -> [LayoutPriority: Double]
  {
    let broken = LayoutPriority(Float(1000).nextDown)
    var result: [LayoutPriority: Double] = [:]
    for lowered in world.lowered {
      for row in lowered.rows {
        let priority = lowered.constraint.isBroken ? broken : row.priority
        guard !priority.isRequired else { continue }
        var residual = row.expression.constant
        var scale = 1 + abs(row.expression.constant)
        for term in row.expression.terms {
          let product = term.coefficient * values(term.variable)
          residual += product
          scale += abs(product)
        }
        switch row.relation {
        case .equal: residual = abs(residual)
        case .lessThanOrEqual: residual = max(0, residual)
        case .greaterThanOrEqual: residual = max(0, -residual)
        }
        result[priority, default: 0] += residual / scale <= tolerance ? 0 : residual
      }
    }
    return result
  }

  /// Every view of `world` has the frame of its counterpart in `reference` (the same tree, the
  /// same operations, the other solver); where they differ, both are equally good.
  static func reference(_ world: StressWorld, _ reference: StressWorld, tolerance: Double)
    -> StressCheckResult
  {
    let views = world.views, others = reference.views
    guard views.count == others.count else {
      return .fails(
        "the reference scene has \(others.count) views, the scene under test \(views.count)")
    }
    var differences: [String] = []
    for (index, (view, other)) in zip(views, others).enumerated() {
      let a = view.frame, b = other.frame
      let pairs = [
        (a.minX, b.minX), (a.minY, b.minY), (a.width, b.width), (a.height, b.height),
      ]
      if !pairs.allSatisfy({ equal($0.0, $0.1, tolerance) }) {
        let name = world.scene.name(of: view) ?? "view #\(index)"
        differences.append("\(name) \(a) vs \(b)")
      }
    }
    guard !differences.isEmpty else { return .holds }
    let what =
      "\(differences.count) frame(s) differ from the reference solver's: "
      + differences.prefix(4).joined(separator: "; ")
    return judge(
      what, tolerance,
      ("tested solver's", { errors(world, tolerance: $0, values: world.engine.value(of:)) }),
      (
        "reference solver's",
        { errors(reference, tolerance: $0, values: reference.engine.value(of:)) }
      ))
  }

  /// Whether `a` and `b` agree within `tolerance`, relative to the larger (absolute below 1).
  static func equal(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool {
    abs(a - b) <= tolerance * max(1, abs(a), abs(b))
  }

  /// A variable's name: the scene's name for its item and the coordinate (`row3.field.width`).
  static func name(of variable: Variable, _ world: StressWorld) -> String {
    guard let (item, coordinate) = world.engine.owner(of: variable) else { return "\(variable)" }
    let base = world.scene.name(of: item) ?? "\(type(of: item))"
    return base + "." + ["left", "top", "width", "height"][coordinate]
  }

  private static func describe(_ row: Constraint, _ world: StressWorld) -> String {
    row.description { name(of: $0, world) }
  }

  private static func values(of row: Constraint, _ world: StressWorld) -> String {
    row.expression.terms.map {
      "\(name(of: $0.variable, world)) = \(world.engine.value(of: $0.variable))"
    }
    .joined(separator: ", ")
  }
}

/// The outcome of a comparison between two solutions.
enum StressCheckResult: Equatable {
  /// They are equal.
  case holds
  /// They differ but are equally good: the layout has several optima (not a failure).
  case tie(String)
  /// They differ and one is worse, or the comparison could not be made.
  case fails(String)
}
