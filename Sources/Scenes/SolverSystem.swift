import Cassowary

/// A generated constraint system at the solver level (no view objects): the constraints a scene of
/// `views` views lowers to, so the solvers can be measured on their own.
///
/// Each kind follows a recipe of the Auto Layout Cookbook, with each view's left, width, top and
/// height as variables, content hugging and compression resistance as the optional inequality
/// pair (`w ≤ intrinsic @hug`, `w ≥ intrinsic @CR`), and the root's size as edit variables.
public struct SolverSystem: Sendable {
  /// The kinds of system.
  public enum Kind: String, CaseIterable, Sendable {
    /// Fixed Height Columns: rows of a label and a text field, stacked top to bottom; the labels'
    /// trailing edges align and the fields stretch to the right margin.
    case form
    /// Independent views, each placed against the root on its own.
    case flat
    /// One long chain of equal-width views across the root (worst case for propagation).
    case chain
  }

  /// Which recipe built it.
  public var kind: Kind
  /// The views it lays out.
  public var views: Int
  /// The constraints, in the order a client would add them.
  public var constraints: [(ConstraintID, Constraint)]
  /// The root's width and height, which are edit variables.
  public var rootWidth: Variable
  public var rootHeight: Variable
  /// A constraint deep in the system whose constant can change (a spacing in the middle).
  public var middleSpacing: ConstraintID
  /// Every variable.
  public var variables: VariableTable

  /// The system of `kind` for about `views` views; `seed` varies the intrinsic sizes.
  public init(_ kind: Kind, views: Int, seed: UInt64 = 1) {
    var builder = Builder(seed: seed)
    self.kind = kind
    rootWidth = builder.variables.make("root.width")
    rootHeight = builder.variables.make("root.height")
    switch kind {
    case .form: middleSpacing = builder.form(rows: max(1, views / 2), root: rootWidth)
    case .flat: middleSpacing = builder.flat(views: max(1, views), root: rootWidth)
    case .chain: middleSpacing = builder.chain(views: max(2, views), root: rootWidth)
    }
    self.views = builder.views
    constraints = builder.constraints
    variables = builder.variables
  }

  /// The root widths a resize alternates between (portrait, landscape). A chain's root grows
  /// with the chain so that its views keep their intrinsic widths.
  public var rootWidths: (portrait: Double, landscape: Double) {
    kind == .chain ? (Double(views) * 90 + 40, Double(views) * 120) : (375, 667)
  }

  /// Adds the system to `solver` in one batch, with the root size as edit variables at 999.
  public func install(in solver: inout some LayoutSolver) throws(SolverError) {
    let width = rootWidths.portrait
    let height = 667.0
    solver.beginBatch()
    defer { solver.endBatch() }
    try solver.addEditVariable(rootWidth, priority: 999)
    try solver.addEditVariable(rootHeight, priority: 999)
    try solver.suggestValue(rootWidth, width)
    try solver.suggestValue(rootHeight, height)
    try solver.add(contentsOf: constraints)
  }

  struct Builder {
    var variables = VariableTable()
    var constraints: [(ConstraintID, Constraint)] = []
    var views = 0
    var random: UInt64

    init(seed: UInt64) { random = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

    mutating func next(_ range: ClosedRange<Int>) -> Double {
      random ^= random << 13
      random ^= random >> 7
      random ^= random << 17
      return Double(range.lowerBound + Int(random % UInt64(range.count)))
    }

    @discardableResult
    mutating func add(_ constraint: Constraint) -> ConstraintID {
      let id = ConstraintID(constraints.count)
      constraints.append((id, constraint))
      return id
    }

    /// A view with intrinsic size `width × height` and default priorities (hug 250, CR 750).
    mutating func view(_ name: String, width: Double, height: Double, hug: Priority = 250)
      -> (left: Variable, width: Variable, top: Variable, height: Variable)
    {
      views += 1
      let view = (
        left: variables.make("\(name).left"), width: variables.make("\(name).width"),
        top: variables.make("\(name).top"), height: variables.make("\(name).height")
      )
      add((view.width <= LinearExpression(constant: width)).at(hug))
      add((view.width >= LinearExpression(constant: width)).at(750))
      add((view.height <= LinearExpression(constant: height)).at(hug))
      add((view.height >= LinearExpression(constant: height)).at(750))
      return view
    }

    mutating func form(rows: Int, root: Variable) -> ConstraintID {
      var previousBottom: LinearExpression = 20
      var firstLabel: (left: Variable, width: Variable, top: Variable, height: Variable)? = nil
      var firstField: Variable? = nil
      var middle = ConstraintID(0)
      for row in 0..<rows {
        let label = view("row\(row).label", width: next(40...120), height: 21, hug: 251)
        let field = view("row\(row).field", width: 97, height: 30)
        add(label.left == 16)
        add(field.left == label.left + label.width + 8)
        add(field.left + field.width == root - 16)
        let spacing = add(label.top == previousBottom + 8)
        if row == rows / 2 { middle = spacing }
        add(field.top == LinearExpression(label.top))
        if let firstLabel, let firstField {
          // Labels' trailing edges align; fields share a width (the widest label decides).
          add(label.left + label.width == firstLabel.left + firstLabel.width)
          add(field.width == LinearExpression(firstField))
        } else {
          firstLabel = label
          firstField = field.width
        }
        previousBottom = field.top + field.height
      }
      return middle
    }

    mutating func flat(views count: Int, root: Variable) -> ConstraintID {
      var middle = ConstraintID(0)
      for index in 0..<count {
        let item = view("view\(index)", width: next(20...200), height: next(20...60))
        let inset = add(item.left == LinearExpression(constant: Double(16 + index % 50)))
        if index == count / 2 { middle = inset }
        add(item.top == LinearExpression(constant: Double(20 + (index / 50) % 600)))
        add(item.left + item.width <= root - 16)
      }
      return middle
    }

    mutating func chain(views count: Int, root: Variable) -> ConstraintID {
      var previous: (left: Variable, width: Variable, top: Variable, height: Variable)? = nil
      var first: Variable? = nil
      var middle = ConstraintID(0)
      for index in 0..<count {
        let item = view("view\(index)", width: next(20...80), height: 44)
        add(item.top == 20)
        if let previous, let first {
          let spacing = add(item.left == previous.left + previous.width + 8)
          if index == count / 2 { middle = spacing }
          add(item.width == LinearExpression(first))
        } else {
          add(item.left == 20)
          first = item.width
        }
        previous = item
      }
      add(previous!.left + previous!.width == root - 20)
      return middle
    }
  }
}
