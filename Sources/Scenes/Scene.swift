import AutoLayout
import Cassowary

/// A generated view tree: a deterministic function of (kind, view count, seed, variant), built the
/// way the cookbook builds its recipes, with the incremental operations that make sense on it.
///
/// The root is a phone-sized view (375 × 667 in portrait; larger for big nested grids) with the
/// cookbook's margins (16 on the sides) and a 20-point status bar as its safe area's top. The tree
/// is made of rows (a row of a form, a row of buttons, a top-level container), so that one row can
/// be removed and added back.
public final class Scene {
  /// Which recipe built the scene.
  public let kind: SceneKind
  /// The view count asked for.
  public let requestedViews: Int
  /// The seed of the text lengths and positions.
  public let seed: UInt64
  /// The variant (see ``SceneKind/variants``).
  public let variant: String
  /// The root view.
  public let root: View
  /// The views below the root, exactly.
  public internal(set) var viewCount = 0
  /// Whether the root is in portrait.
  public internal(set) var isPortrait = true
  /// Whether the compact-regular constraint set is active (size-class-buttons).
  public internal(set) var isCompactRegular = false

  struct Row {
    var views: [View] = []
    var guides: [LayoutGuide] = []
    var own: [LayoutConstraint] = []
    var link: [LayoutConstraint] = []
    var anyAny: [LayoutConstraint] = []
    var compactRegular: [LayoutConstraint] = []
  }

  /// Where a nested grid's container or cell was made: its parent's index in
  /// ``Scene/gridPlaces`` (-1 for the root) and its index among the parent's children.
  struct GridPlace {
    let item: ObjectIdentifier
    let parent: Int32
    let child: Int32
  }

  var rows: [Row] = []
  /// Every nested-grid view, in the order made (breadth first, so a parent comes before its
  /// children); empty for the other kinds, whose items are named after their row.
  var gridPlaces: [GridPlace] = []
  /// Every tenth label (those the intrinsic-size change edits) with its text as built and the
  /// longer text the change gives it (made here, so that the operation itself allocates no
  /// strings).
  var texts: [(view: Label, original: String, changed: String)] = []
  /// The labels made so far, to pick every tenth for ``texts``.
  var labelCount = 0
  var textsChanged = false
  var generator: SeededGenerator
  let portraitSize: Size
  var deepConstraint: LayoutConstraint?
  var deepConstantChanged = false
  /// The stack-arranged views (stack-grid), for hide-unhide.
  var arranged: [View] = []
  var arrangedHidden = false
  /// The stack whose spacing constant-change edits (stack-grid).
  var deepStack: StackView?

  /// Builds the scene: its views and its constraints, activated in one batch. Nothing is solved
  /// until the root is laid out.
  public init(
    _ kind: SceneKind, views: Int, seed: UInt64 = 1, variant: String? = nil,
    solver: SolverStrategy = .default
  ) throws(SceneError) {
    guard views >= 1 else { throw SceneError(description: "a scene needs at least 1 view") }
    let chosen = variant ?? kind.variants[0]
    guard kind.variants.contains(chosen) else {
      throw SceneError(
        description: "unknown variant '\(chosen)' for \(kind); valid: "
          + kind.variants.joined(separator: ", "))
    }
    self.kind = kind
    self.requestedViews = views
    self.seed = seed
    self.variant = chosen
    self.generator = SeededGenerator(seed: seed)
    let scale =
      kind == .nestedGrid || kind == .stackGrid ? max(1, (Double(views) / 100).squareRoot()) : 1
    portraitSize = Size(width: 375 * scale, height: 667 * scale)
    root = View(frame: Rect(origin: .zero, size: portraitSize))
    root.preferredSolver = solver
    root.layoutMargins = EdgeInsets(top: 0, left: 16, bottom: 0, right: 16)
    root.safeAreaInsets = EdgeInsets(top: 20, left: 0, bottom: 0, right: 0)
    // Every scene has the root's two guides from the start, whether its constraints use them
    // or not: the export names them.
    _ = root.layoutMarginsGuide
    _ = root.safeAreaLayoutGuide
    build()
  }

  // MARK: Names

  /// The scene's name for `item` (`row12.field`, `n2.0.3`, `root.margins`), used in stress
  /// reports; nil for an item the scene did not make (a stack view's spacing guides) or no
  /// longer holds (after a teardown).
  ///
  /// Names are the harness's bookkeeping, so the measured build makes none and the scene keeps
  /// none (a kept table would count as memory the layout holds): each call names every item.
  /// A caller that asks for many (an export) takes ``itemNames()`` once.
  ///
  /// - Complexity: O(*n*) for *n* items.
  public func name(of item: LayoutItem) -> String? { itemNames().name(of: item) }

  /// The names of a scene's items, made at once by ``Scene/itemNames()``.
  public struct ItemNames {
    let table: [ObjectIdentifier: String]

    /// `item`'s name (see ``Scene/name(of:)``): its own, or for a view's margins or safe-area
    /// guide, the view's with `.margins` or `.safeArea`.
    ///
    /// - Complexity: O(1).
    public func name(of item: LayoutItem) -> String? {
      if let name = table[ObjectIdentifier(item)] { return name }
      if let guide = item as? LayoutGuide, let owner = guide.owningView,
        let ownerName = table[ObjectIdentifier(owner)]
      {
        switch guide.identifier {
        case "UIViewLayoutMarginsGuide": return ownerName + ".margins"
        case "UIViewSafeAreaLayoutGuide": return ownerName + ".safeArea"
        default: return nil
        }
      }
      return nil
    }
  }

  /// Every item's name, for looking up many.
  ///
  /// - Complexity: O(*n*) for *n* items.
  public func itemNames() -> ItemNames { ItemNames(table: makeNames()) }

  /// Every item's name: the root's, each row's items' after the row (`row12.field`, `label3`,
  /// `v7`), and each nested-grid view's after its place (`n2` under the root, `n2.0` its first
  /// child).
  private func makeNames() -> [ObjectIdentifier: String] {
    var names: [ObjectIdentifier: String] = [:]
    func add(_ item: LayoutItem, _ name: String) { names[ObjectIdentifier(item)] = name }
    add(root, "root")
    add(root.layoutMarginsGuide, "root.margins")
    add(root.safeAreaLayoutGuide, "root.safeArea")
    var gridNames: [String] = []
    gridNames.reserveCapacity(gridPlaces.count)
    for place in gridPlaces {
      let name =
        place.parent < 0 ? "n\(place.child)" : "\(gridNames[Int(place.parent)]).\(place.child)"
      gridNames.append(name)
      names[place.item] = name
    }
    guard kind != .nestedGrid && kind != .stackGrid else { return names }
    for (index, row) in rows.enumerated() {
      let prefix = "row\(index)"
      switch kind {
      case .form, .dynamicForm:
        add(row.views[0], "\(prefix).label")
        add(row.views[1], "\(prefix).field")
      case .equalWidthButtons:
        for (button, view) in row.views.enumerated() { add(view, "\(prefix).button\(button)") }
      case .equalSpacing, .sizeClassButtons:
        add(row.views[0], "\(prefix).short")
        add(row.views[1], "\(prefix).long")
        let spacers: [LayoutItem] = row.guides.isEmpty ? Array(row.views.dropFirst(2)) : row.guides
        for (spacer, item) in spacers.enumerated() { add(item, "\(prefix).spacer\(spacer)") }
      case .flat:
        add(row.views[0], "label\(index)")
      case .chain:
        add(row.views[0], "v\(index)")
      case .nestedGrid, .stackGrid:
        break
      }
    }
    return names
  }

  // MARK: Building

  private func build() {
    var constraints: [LayoutConstraint] = []
    switch kind {
    case .nestedGrid, .stackGrid:
      buildNestedGrid(into: &constraints)
    default:
      let perRow: Int
      switch kind {
      case .form, .dynamicForm, .sizeClassButtons: perRow = 2
      case .equalWidthButtons: perRow = variant == "three" ? 3 : 2
      case .equalSpacing: perRow = 5
      default: perRow = 1
      }
      let count = max(1, (requestedViews + perRow / 2) / perRow)
      if kind == .sizeClassButtons { root.traitCollection = .compactCompact }
      rows.reserveCapacity(count)
      for index in 0..<count {
        rows.append(makeRow(index))
        let (own, link) = rowConstraints(index)
        rows[index].own = own
        rows[index].link = link
        // Appended one list after the other: `own + link` would make a third for each row.
        constraints.append(contentsOf: own)
        constraints.append(contentsOf: link)
        if kind == .sizeClassButtons {
          let (anyAny, compact) = sizeClassConstraints(index)
          rows[index].anyAny = anyAny
          rows[index].compactRegular = compact
        }
      }
    }
    LayoutConstraint.activate(constraints)
    if kind == .sizeClassButtons {
      // Interface Builder's two sets, installed by the root's traits (Compact-Compact: Any-Any).
      root.addConstraints(rows.flatMap(\.anyAny), installation: .except(.compactRegular))
      root.addConstraints(rows.flatMap(\.compactRegular), installation: .only(.compactRegular))
    }
    pickDeepConstraint()
  }

  private func plainView() -> View {
    let view = View()
    view.translatesAutoresizingMaskIntoConstraints = false
    return view
  }

  private func label(_ make: (String) -> Label, letters: ClosedRange<Int>) -> Label {
    let text = generator.word(length: generator.int(in: letters))
    let view = make(text)
    if labelCount % 10 == 0 { texts.append((view, text, text + "Xx")) }
    labelCount += 1
    return view
  }

  /// Makes row `index`'s views and adds them to the root.
  private func makeRow(_ index: Int) -> Row {
    var row = Row()
    switch kind {
    case .form, .dynamicForm:
      let label = label({ Label($0) }, letters: 4...14)
      if kind == .dynamicForm, generator.int(in: 0...99) < 15 {
        label.font = FontMetrics(pointSize: 36)
      }
      row.views = [label, self.label({ TextField($0) }, letters: 8...20)]
    case .equalWidthButtons:
      let count = variant == "three" ? 3 : 2
      row.views = (0..<count).map { _ in self.label({ Button($0) }, letters: 3...24) }
    case .equalSpacing:
      let short = label({ Button($0) }, letters: 3...8)
      let long = label({ Button($0) }, letters: 12...24)
      row.views = [short, long]
      for spacer in 0..<3 {
        if variant == "layout-guides" {
          row.guides.append(LayoutGuide(identifier: "row\(index).spacer\(spacer)"))
        } else {
          row.views.append(plainView())
        }
      }
    case .sizeClassButtons:
      row.views = [
        label({ Button($0) }, letters: 3...8),
        label({ Button($0) }, letters: 12...24),
      ]
    case .flat:
      row.views = [label({ Label($0) }, letters: 3...16)]
    case .chain:
      row.views = [plainView()]
    case .nestedGrid, .stackGrid:
      preconditionFailure("nested grids are built by buildNestedGrid")
    }
    for view in row.views { root.addSubview(view) }
    for guide in row.guides { root.addLayoutGuide(guide) }
    viewCount += row.views.count
    return row
  }

  /// The anchor the row below `index` hangs from, or the safe area's top (+ 20) for the first.
  private func anchorAbove(_ index: Int) -> (YAxisAnchor, Double) {
    guard index > 0 else { return (root.safeAreaLayoutGuide.topAnchor, 20) }
    let views = rows[index - 1].views
    // The form's field and the size-class row's long button are the lower view of their row.
    let lower = kind == .form || kind == .sizeClassButtons ? views[1] : views[0]
    return (lower.bottomAnchor, standardSpacing)
  }

  func rebuildConstraints(_ index: Int) -> (own: [LayoutConstraint], link: [LayoutConstraint]) {
    if kind == .flat {
      // Keep the label where it was.
      return (rows[index].own.map { $0.copy() }, [])
    }
    return rowConstraints(index)
  }

  /// Row `index`'s constraints: its own, and its link to the row above (or the top).
  private func rowConstraints(_ index: Int) -> (own: [LayoutConstraint], link: [LayoutConstraint]) {
    let views = rows[index].views
    let margins = root.layoutMarginsGuide
    let (above, spacing) = anchorAbove(index)
    switch kind {
    case .form, .dynamicForm:
      let label = views[0], field = views[1]
      // Room for the fifth made at once: appended to a literal of four, it moved them.
      var own: [LayoutConstraint] = []
      own.reserveCapacity(index > 0 ? 5 : 4)
      own.append(label.leadingAnchor.constraint(equalTo: margins.leadingAnchor))
      own.append(field.leadingAnchor.constraint(equalToSystemSpacingAfter: label.trailingAnchor))
      own.append(field.trailingAnchor.constraint(equalTo: margins.trailingAnchor))
      own.append(label.lastBaselineAnchor.constraint(equalTo: field.lastBaselineAnchor))
      if index > 0 {
        own.append(field.widthAnchor.constraint(equalTo: rows[0].views[1].widthAnchor))
      }
      if kind == .form {
        return (own, [field.topAnchor.constraint(equalTo: above, constant: spacing)])
      }
      let labelAbove = index > 0 ? rows[index - 1].views[0].bottomAnchor : above
      let fieldAbove = index > 0 ? rows[index - 1].views[1].bottomAnchor : above
      return (
        own,
        [
          label.topAnchor.constraint(greaterThanOrEqualTo: labelAbove, constant: spacing),
          label.topAnchor.constraint(equalTo: labelAbove, constant: spacing).withPriority(249),
          field.topAnchor.constraint(greaterThanOrEqualTo: fieldAbove, constant: spacing),
          field.topAnchor.constraint(equalTo: fieldAbove, constant: spacing).withPriority(249),
        ]
      )
    case .equalWidthButtons:
      var own: [LayoutConstraint] = []
      own.reserveCapacity(3 * views.count - 1)
      own.append(views[0].leadingAnchor.constraint(equalTo: margins.leadingAnchor))
      for (previous, button) in zip(views, views.dropFirst()) {
        own.append(
          button.leadingAnchor.constraint(equalToSystemSpacingAfter: previous.trailingAnchor))
        own.append(button.widthAnchor.constraint(equalTo: views[0].widthAnchor))
        own.append(button.bottomAnchor.constraint(equalTo: views[0].bottomAnchor))
      }
      own.append(views.last!.trailingAnchor.constraint(equalTo: margins.trailingAnchor))
      return (own, [views[0].topAnchor.constraint(equalTo: above, constant: spacing)])
    case .equalSpacing:
      let short = views[0], long = views[1]
      let spacers: [LayoutItem] =
        rows[index].guides.isEmpty ? Array(views[2...]) : rows[index].guides
      var own: [LayoutConstraint] = []
      own.reserveCapacity(13 + 2 * spacers.count)
      own += [
        spacers[0].leadingAnchor.constraint(equalTo: margins.leadingAnchor),
        short.leadingAnchor.constraint(equalTo: spacers[0].trailingAnchor),
        spacers[1].leadingAnchor.constraint(equalTo: short.trailingAnchor),
        long.leadingAnchor.constraint(equalTo: spacers[1].trailingAnchor),
        spacers[2].leadingAnchor.constraint(equalTo: long.trailingAnchor),
        spacers[2].trailingAnchor.constraint(equalTo: margins.trailingAnchor),
        short.leadingAnchor.constraint(greaterThanOrEqualTo: margins.leadingAnchor),
        long.leadingAnchor.constraint(greaterThanOrEqualToSystemSpacingAfter: short.trailingAnchor),
        margins.trailingAnchor.constraint(greaterThanOrEqualTo: long.trailingAnchor),
        spacers[0].widthAnchor.constraint(equalTo: spacers[1].widthAnchor),
        spacers[0].widthAnchor.constraint(equalTo: spacers[2].widthAnchor),
        short.widthAnchor.constraint(equalTo: long.widthAnchor),
        long.bottomAnchor.constraint(equalTo: short.bottomAnchor),
      ]
      for spacer in spacers {
        own.append(spacer.bottomAnchor.constraint(equalTo: short.bottomAnchor))
        own.append(spacer.heightAnchor.constraint(equalToConstant: 0))
      }
      return (own, [short.topAnchor.constraint(equalTo: above, constant: spacing)])
    case .sizeClassButtons:
      let short = views[0], long = views[1]
      // Constraints 1, 3 and 6 of the recipe hold in both size classes; 4 (the short button's
      // vertical position) becomes the link to the row above.
      let own = [
        short.leadingAnchor.constraint(equalTo: margins.leadingAnchor),
        long.trailingAnchor.constraint(equalTo: margins.trailingAnchor),
        short.widthAnchor.constraint(equalTo: long.widthAnchor),
      ]
      return (own, [short.topAnchor.constraint(equalTo: above, constant: spacing)])
    case .flat:
      let x = Double(generator.int(in: 0...300)), y = Double(generator.int(in: 0...620))
      return (
        [
          views[0].leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: x),
          views[0].topAnchor.constraint(equalTo: root.topAnchor, constant: y),
        ], []
      )
    case .chain:
      let view = views[0]
      guard index > 0 else {
        return (
          [
            view.heightAnchor.constraint(equalToConstant: 20),
            view.leadingAnchor.constraint(equalTo: margins.leadingAnchor),
            view.trailingAnchor.constraint(equalTo: margins.trailingAnchor),
          ],
          [view.topAnchor.constraint(equalTo: above, constant: spacing)]
        )
      }
      let previous = rows[index - 1].views[0]
      return (
        [view.heightAnchor.constraint(equalToConstant: 20)],
        [
          view.topAnchor.constraint(equalTo: above, constant: spacing),
          view.leadingAnchor.constraint(equalTo: previous.leadingAnchor),
          view.widthAnchor.constraint(equalTo: previous.widthAnchor),
        ]
      )
    case .nestedGrid, .stackGrid:
      return nestedRowConstraints(index)
    }
  }

  /// The recipe's two sets for row `index`: Any-Any adds 2 (long after short) and 5 (long's
  /// bottom with short's); Compact-Regular uninstalls those and adds 7, 8 and 9 (long at the
  /// leading margin, short at the trailing margin, long below short).
  func sizeClassConstraints(_ index: Int) -> ([LayoutConstraint], [LayoutConstraint]) {
    let short = rows[index].views[0], long = rows[index].views[1]
    let margins = root.layoutMarginsGuide
    return (
      [
        long.leadingAnchor.constraint(equalToSystemSpacingAfter: short.trailingAnchor),
        long.bottomAnchor.constraint(equalTo: short.bottomAnchor),
      ],
      [
        long.leadingAnchor.constraint(equalTo: margins.leadingAnchor),
        short.trailingAnchor.constraint(equalTo: margins.trailingAnchor),
        long.topAnchor.constraint(equalToSystemSpacingBelow: short.bottomAnchor),
      ]
    )
  }

  // MARK: Nested grids

  /// Containers of containers, breadth first: each container gets up to 4 children until the
  /// view count is reached; a container lays its children out in a row (even depths) or a column
  /// (odd depths) inside its margins, 8 apart, with equal sizes.
  private func buildNestedGrid(into constraints: inout [LayoutConstraint]) {
    // Each container with its place in `gridPlaces` (-1 for the root).
    var queue: [(view: View, depth: Int, place: Int32)] = [(root, 0, -1)]
    var head = 0
    while viewCount < requestedViews, head < queue.count {
      let (container, depth, place) = queue[head]
      head += 1
      var made: [View] = []
      for index in 0..<4 where viewCount < requestedViews {
        let child = kind == .stackGrid ? gridStack(horizontal: (depth + 1) % 2 == 0) : plainView()
        gridPlaces.append(
          GridPlace(item: ObjectIdentifier(child), parent: place, child: Int32(index)))
        child.layoutMargins = EdgeInsets(all: 4)
        if container !== root, let stack = container as? StackView {
          stack.addArrangedSubview(child)
          arranged.append(child)
        } else {
          container.addSubview(child)
        }
        viewCount += 1
        made.append(child)
        queue.append((child, depth + 1, Int32(gridPlaces.count - 1)))
      }
      if container === root {
        rows = made.map { Row(views: [$0]) }
      } else if kind == .nestedGrid {
        constraints += gridConstraints(made, in: container, horizontal: depth % 2 == 0)
      }
    }
    for index in rows.indices {
      let (own, link) = nestedRowConstraints(index)
      rows[index].own = own
      rows[index].link = link
      constraints.append(contentsOf: own)
      constraints.append(contentsOf: link)
    }
  }

  /// A container of the stack grid: its arranged views fill it equally, 8 apart, inside its
  /// margins, in a row (`horizontal`) or a column, as the nested grid's constraints place them.
  private func gridStack(horizontal: Bool) -> StackView {
    let stack = StackView()
    stack.translatesAutoresizingMaskIntoConstraints = false
    stack.axis = horizontal ? .horizontal : .vertical
    stack.distribution = .fillEqually
    stack.spacing = standardSpacing
    stack.isLayoutMarginsRelativeArrangement = true
    return stack
  }

  private func gridConstraints(_ items: [View], in container: View, horizontal: Bool)
    -> [LayoutConstraint]
  {
    let margins = container.layoutMarginsGuide
    var result: [LayoutConstraint] = []
    for (index, item) in items.enumerated() {
      result += edgeConstraints(item, index, items, margins, horizontal: horizontal)
    }
    return result
  }

  /// The constraints that place `items[index]` among its siblings inside `margins`.
  private func edgeConstraints(
    _ item: View, _ index: Int, _ items: [View], _ margins: LayoutGuide, horizontal: Bool
  ) -> [LayoutConstraint] {
    var result: [LayoutConstraint] = []
    if horizontal {
      result += [
        item.topAnchor.constraint(equalTo: margins.topAnchor),
        item.bottomAnchor.constraint(equalTo: margins.bottomAnchor),
        index == 0
          ? item.leadingAnchor.constraint(equalTo: margins.leadingAnchor)
          : item.leadingAnchor.constraint(
            equalToSystemSpacingAfter: items[index - 1].trailingAnchor),
      ]
      if index > 0 { result.append(item.widthAnchor.constraint(equalTo: items[0].widthAnchor)) }
      if index == items.count - 1 {
        result.append(item.trailingAnchor.constraint(equalTo: margins.trailingAnchor))
      }
    } else {
      result += [
        item.leadingAnchor.constraint(equalTo: margins.leadingAnchor),
        item.trailingAnchor.constraint(equalTo: margins.trailingAnchor),
        index == 0
          ? item.topAnchor.constraint(equalTo: margins.topAnchor)
          : item.topAnchor.constraint(equalToSystemSpacingBelow: items[index - 1].bottomAnchor),
      ]
      if index > 0 { result.append(item.heightAnchor.constraint(equalTo: items[0].heightAnchor)) }
      if index == items.count - 1 {
        result.append(item.bottomAnchor.constraint(equalTo: margins.bottomAnchor))
      }
    }
    return result
  }

  private func nestedRowConstraints(_ index: Int) -> (
    own: [LayoutConstraint], link: [LayoutConstraint]
  ) {
    let items = rows.map { $0.views[0] }
    let all = edgeConstraints(
      items[index], index, items, root.layoutMarginsGuide, horizontal: true)
    // The leading constraint links to the previous row; the rest are the row's own.
    let link = all.filter { $0.firstAttribute == .leading }
    let own = all.filter { $0.firstAttribute != .leading }
    return (own, link)
  }

  /// A spacing in the middle of the tree, for constant-change.
  private func pickDeepConstraint() {
    guard !rows.isEmpty else { return }
    if kind == .stackGrid {
      // Stack views make their constraints in the update pass: change the deepest stack's
      // spacing, which edits its spacing constants in place.
      deepStack = root.deepestDescendant()?.superview as? StackView
      return
    }
    let middle = rows[rows.count / 2]
    if kind == .nestedGrid, let deepest = root.deepestDescendant(), deepest !== root,
      let constraint = deepest.constraintsAffectingLayout(for: .horizontal).first(where: {
        $0.firstItem === deepest && $0.firstAttribute == .leading
      })
        ?? deepest.constraintsAffectingLayout(for: .vertical).first(where: {
          $0.firstItem === deepest && $0.firstAttribute == .top
        })
    {
      deepConstraint = constraint
      return
    }
    deepConstraint = (middle.link + middle.own).first {
      !$0.constant.isZero || $0.relation == .equal
    }
  }
}

extension View {
  /// The last view of a depth-first walk that always takes the last subview.
  func deepestDescendant() -> View? {
    var view = self
    while let last = view.subviews.last { view = last }
    return view
  }
}
