/// A recursive-descent parser for Apple's visual format language, one character of lookahead.
///
/// It makes no constraints: it records what each constraint will be (``Planned``), so that a
/// format that fails anywhere builds nothing, not even a superview's margins guide. Whitespace
/// is not part of the grammar and is rejected wherever it appears, as any other unexpected
/// character.
struct VisualFormatParser {
  /// An item a planned constraint refers to: a view, or a view's layout margins guide (made only
  /// once the whole format has parsed).
  enum Item {
    case view(View)
    case margins(View)
  }

  /// A constraint to make once parsing succeeds.
  struct Planned {
    var first: Item
    var firstAttribute: LayoutAttribute
    var relation: LayoutRelation
    var second: Item?
    var secondAttribute: LayoutAttribute
    var constant: Double
    var priority: LayoutPriority
  }

  /// One `(relation)?(object)(@priority)?` predicate.
  private struct Predicate {
    enum Object {
      case constant(Double)
      case view(View)
    }
    var relation = LayoutRelation.equal
    var object = Object.constant(0)
    var priority = LayoutPriority.required

    /// `view.size relation constant`, or `view.size relation other.size` when it names a view.
    func sizeConstraint(of view: View, _ size: LayoutAttribute) -> Planned {
      switch object {
      case .constant(let constant):
        Planned(
          first: .view(view), firstAttribute: size, relation: relation, second: nil,
          secondAttribute: .notAnAttribute, constant: constant, priority: priority)
      case .view(let other):
        Planned(
          first: .view(view), firstAttribute: size, relation: relation, second: .view(other),
          secondAttribute: size, constant: 0, priority: priority)
      }
    }

    /// `first.firstAttribute relation second.secondAttribute + constant` for a space (whose
    /// predicates never name views).
    func spaceConstraint(
      _ first: Item, _ firstAttribute: LayoutAttribute, _ second: Item,
      _ secondAttribute: LayoutAttribute
    ) -> Planned {
      guard case .constant(let constant) = object else { preconditionFailure("a view as a space") }
      return Planned(
        first: first, firstAttribute: firstAttribute, relation: relation, second: second,
        secondAttribute: secondAttribute, constant: constant, priority: priority)
    }
  }

  /// What joins two neighbours: the predicates of the space, or the standard space (`-`).
  private enum Connection {
    case predicates([Predicate])
    case standard

    static var flush: Connection { .predicates([Predicate()]) }
  }

  private let format: String
  private let characters: [UInt8]
  private let options: LayoutConstraint.FormatOptions
  private let metrics: [String: Double]
  private let views: [String: View]
  private var position = 0
  private var isVertical = false
  private var planned: [Planned] = []
  private var viewsInOrder: [View] = []

  init(
    format: String, options: LayoutConstraint.FormatOptions, metrics: [String: Double],
    views: [String: View]
  ) {
    self.format = format
    self.characters = Array(format.utf8)
    self.options = options
    self.metrics = metrics
    self.views = views
  }

  /// The constraints the format describes, in UIKit's order: for each view from left to right,
  /// the connection that leads to it and then its own size predicates; the connection to a
  /// trailing `|`; then the alignment constraints, pair by pair.
  mutating func parse() throws(VisualFormatError) -> [Planned] {
    if let index = format.firstIndex(where: { !$0.isASCII }) {
      let offset = format.distance(from: format.startIndex, to: index)
      throw error(VisualFormatError.Message.nonASCII, at: offset)
    }
    try parseOrientation()
    var pending: Connection?
    var pendingFromSuperview = false
    if peek == UInt8(ascii: "|") {
      position += 1
      pendingFromSuperview = true
      pending = .flush
      if peek == UInt8(ascii: "-") {
        position += 1
        pending = try parseConnection()
      }
    }
    var previous: View?
    while true {
      guard peek == UInt8(ascii: "[") else { throw error(VisualFormatError.Message.expectedView) }
      let (view, predicates) = try parseView()
      if let pending {
        if pendingFromSuperview {
          guard let superview = view.superview else {
            throw error(VisualFormatError.Message.noSuperview)
          }
          connect(superview, to: view, by: pending, edge: .leading)
        } else if let previous {
          connect(previous, to: view, by: pending, edge: nil)
        }
      }
      pendingFromSuperview = false
      let size: LayoutAttribute = isVertical ? .height : .width
      for predicate in predicates {
        planned.append(predicate.sizeConstraint(of: view, size))
      }
      viewsInOrder.append(view)
      previous = view
      guard let next = peek else { break }
      switch next {
      case UInt8(ascii: "["):
        pending = .flush
      case UInt8(ascii: "|"):
        try parseTrailingBar(after: view, by: .flush)
      case UInt8(ascii: "-"):
        position += 1
        let connection = try parseConnection()
        if peek == UInt8(ascii: "|") {
          try parseTrailingBar(after: view, by: connection)
        } else if peek == UInt8(ascii: "[") {
          pending = connection
        } else {
          throw error(VisualFormatError.Message.expectedViewOrBar)
        }
      default:
        throw error(VisualFormatError.Message.expectedConnection)
      }
      if peek == nil { break }
    }
    try planAlignment()
    return planned
  }

  // MARK: Lexing

  private var peek: UInt8? { position < characters.count ? characters[position] : nil }

  private func error(_ message: String, at offset: Int? = nil) -> VisualFormatError {
    VisualFormatError(message: message, format: format, offset: offset ?? position)
  }

  private static func isNameStart(_ character: UInt8?) -> Bool {
    guard let character else { return false }
    return (character >= UInt8(ascii: "a") && character <= UInt8(ascii: "z"))
      || (character >= UInt8(ascii: "A") && character <= UInt8(ascii: "Z"))
      || character == UInt8(ascii: "_")
  }

  private static func isDigit(_ character: UInt8?) -> Bool {
    guard let character else { return false }
    return character >= UInt8(ascii: "0") && character <= UInt8(ascii: "9")
  }

  /// A C identifier (the caller checked that one starts here).
  private mutating func parseName() -> String {
    let start = position
    while Self.isNameStart(peek) || Self.isDigit(peek) { position += 1 }
    return String(decoding: characters[start..<position], as: UTF8.self)
  }

  /// A number as `strtod` reads decimal ones: an optional sign (when `signed`), digits with an
  /// optional fraction, an optional exponent.
  private mutating func parseNumber(signed: Bool) throws(VisualFormatError) -> Double {
    let start = position
    if signed, peek == UInt8(ascii: "-") || peek == UInt8(ascii: "+") { position += 1 }
    var digits = 0
    while Self.isDigit(peek) {
      position += 1
      digits += 1
    }
    if peek == UInt8(ascii: ".") {
      position += 1
      while Self.isDigit(peek) {
        position += 1
        digits += 1
      }
    }
    guard digits > 0 else {
      throw error(VisualFormatError.Message.expectedConstant, at: start)
    }
    if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
      var end = position + 1
      if end < characters.count,
        characters[end] == UInt8(ascii: "-") || characters[end] == UInt8(ascii: "+")
      {
        end += 1
      }
      if end < characters.count, Self.isDigit(characters[end]) {
        position = end
        while Self.isDigit(peek) { position += 1 }
      }
    }
    let text = String(decoding: characters[start..<position], as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw error(VisualFormatError.Message.notFinite)
    }
    return value
  }

  // MARK: Grammar

  /// `(H|V):`, optional.
  private mutating func parseOrientation() throws(VisualFormatError) {
    guard let first = peek, first == UInt8(ascii: "H") || first == UInt8(ascii: "V") else {
      return
    }
    position += 1
    guard peek == UInt8(ascii: ":") else {
      throw error(VisualFormatError.Message.expectedColon(after: Character(UnicodeScalar(first))))
    }
    position += 1
    isVertical = first == UInt8(ascii: "V")
  }

  /// `[name(predicates)?]`, at its `[`.
  private mutating func parseView() throws(VisualFormatError) -> (View, [Predicate]) {
    position += 1
    guard Self.isNameStart(peek) else { throw error(VisualFormatError.Message.expectedViewName) }
    let name = parseName()
    guard let view = views[name] else { throw error(VisualFormatError.Message.notAView(name)) }
    var predicates: [Predicate] = []
    if peek == UInt8(ascii: "(") {
      predicates = try parsePredicateList(inView: true)
    }
    guard peek == UInt8(ascii: "]") else {
      throw error(VisualFormatError.Message.expectedBracket)
    }
    position += 1
    return (view, predicates)
  }

  /// What follows a connection's first `-`: nothing (the standard space, when a view or `|`
  /// follows), a number or metric, or a parenthesized predicate list, then the closing `-`.
  private mutating func parseConnection() throws(VisualFormatError) -> Connection {
    guard let next = peek else { throw error(VisualFormatError.Message.expectedViewOrBar) }
    let predicates: [Predicate]
    switch next {
    case UInt8(ascii: "["), UInt8(ascii: "|"):
      return .standard
    case UInt8(ascii: "-"):
      throw error(VisualFormatError.Message.minusSign)
    case UInt8(ascii: "("):
      predicates = try parsePredicateList(inView: false)
    default:
      var predicate = Predicate()
      if Self.isDigit(next) || next == UInt8(ascii: ".") {
        predicate.object = .constant(try parseNumber(signed: false))
      } else if Self.isNameStart(next) {
        predicate.object = try parseNamedObject(inView: false)
      } else {
        throw error(VisualFormatError.Message.expectedConstant)
      }
      predicates = [predicate]
    }
    guard peek == UInt8(ascii: "-") else { throw error(VisualFormatError.Message.expectedDash) }
    position += 1
    return .predicates(predicates)
  }

  /// `(predicate(,predicate)*)`, at its `(`. Only a view's predicates may name views.
  private mutating func parsePredicateList(inView: Bool) throws(VisualFormatError)
    -> [Predicate]
  {
    position += 1
    var predicates: [Predicate] = []
    while true {
      predicates.append(try parsePredicate(inView: inView))
      if peek == UInt8(ascii: ",") {
        position += 1
      } else if peek == UInt8(ascii: ")") {
        position += 1
        return predicates
      } else {
        throw error(
          inView
            ? VisualFormatError.Message.unclosedViewPredicates
            : VisualFormatError.Message.unclosedConnectionPredicates)
      }
    }
  }

  /// `(==|<=|>=)?(number|metric|view)(@(number|metric))?`.
  private mutating func parsePredicate(inView: Bool) throws(VisualFormatError) -> Predicate {
    var predicate = Predicate()
    if let first = peek, "=<>!".utf8.contains(first) {
      let second = position + 1 < characters.count ? characters[position + 1] : nil
      guard second == UInt8(ascii: "="), first != UInt8(ascii: "!") else {
        throw error(VisualFormatError.Message.unknownRelation)
      }
      predicate.relation =
        first == UInt8(ascii: "=")
        ? .equal : first == UInt8(ascii: "<") ? .lessThanOrEqual : .greaterThanOrEqual
      position += 2
    }
    if let next = peek, Self.isDigit(next) || "+-.".utf8.contains(next) {
      predicate.object = .constant(try parseNumber(signed: true))
    } else if Self.isNameStart(peek) {
      predicate.object = try parseNamedObject(inView: inView)
    } else {
      throw error(VisualFormatError.Message.expectedConstant)
    }
    if peek == UInt8(ascii: "@") {
      position += 1
      predicate.priority = try parsePriority()
    }
    return predicate
  }

  /// A metric's value, or (in a view's predicates) another view. Metrics are looked up first.
  private mutating func parseNamedObject(inView: Bool) throws(VisualFormatError)
    -> Predicate.Object
  {
    let name = parseName()
    if let value = metrics[name] {
      guard value.isFinite else { throw error(VisualFormatError.Message.notFinite) }
      return .constant(value)
    }
    if let view = views[name] {
      guard inView else { throw error(VisualFormatError.Message.viewAsSpace) }
      return .view(view)
    }
    throw error(VisualFormatError.Message.unknownMetric(name))
  }

  /// A priority after `@`: a number or a metric, in (0, 1000].
  private mutating func parsePriority() throws(VisualFormatError) -> LayoutPriority {
    let value: Double
    if let next = peek, Self.isDigit(next) || "+-.".utf8.contains(next) {
      value = try parseNumber(signed: true)
    } else if Self.isNameStart(peek) {
      let name = parseName()
      guard let metric = metrics[name] else {
        throw error(VisualFormatError.Message.unknownMetric(name))
      }
      value = metric
    } else {
      throw error(VisualFormatError.Message.expectedConstant)
    }
    let priority = LayoutPriority(Float(value))
    guard priority.isValid else { throw error(VisualFormatError.Message.invalidPriority) }
    return priority
  }

  /// The final `|`, at it, after `view` and the connection between them.
  private mutating func parseTrailingBar(after view: View, by connection: Connection)
    throws(VisualFormatError)
  {
    guard let superview = view.superview else {
      throw error(VisualFormatError.Message.noSuperview)
    }
    position += 1
    guard peek == nil else { throw error(VisualFormatError.Message.expectedEnd) }
    connect(view, to: superview, by: connection, edge: .trailing)
  }

  // MARK: Planning

  /// Which superview edge a connection reaches, if any.
  private enum SuperviewEdge {
    case leading
    case trailing
  }

  /// The attributes at the start and end of a view along the layout, and whether the layout
  /// runs right to left (then the constraints are written mirrored).
  private var edges: (start: LayoutAttribute, end: LayoutAttribute, mirrored: Bool) {
    if isVertical { return (.top, .bottom, false) }
    switch options.intersection(.directionMask) {
    case .directionLeftToRight: return (.left, .right, false)
    case .directionRightToLeft: return (.right, .left, true)
    default: return (.leading, .trailing, false)
    }
  }

  /// Plans the constraints of `connection` between `before` and `after` (in format order).
  ///
  /// The item after the space comes first: `after.start == before.end + space`; right to left,
  /// the mirror, `before.left == after.right + space`. A superview edge pairs the superview's
  /// edge with the view's same edge; the standard space to a superview is its layout margins.
  private mutating func connect(
    _ before: View, to after: View, by connection: Connection, edge: SuperviewEdge?
  ) {
    var (start, end, mirrored) = edges
    if edge == nil, isVertical, options.contains(.spacingBaselineToBaseline) {
      (start, end) = (.firstBaseline, .lastBaseline)
    }
    var beforeItem = Item.view(before)
    var afterItem = Item.view(after)
    let beforeAttribute = edge == .leading ? start : end
    let afterAttribute = edge == .trailing ? end : start
    let predicates: [Predicate]
    switch connection {
    case .predicates(let list):
      predicates = list
    case .standard:
      guard edge != nil else {
        predicates = [Predicate(object: .constant(standardSpacing))]
        break
      }
      if edge == .leading { beforeItem = .margins(before) } else { afterItem = .margins(after) }
      predicates = [Predicate()]
    }
    for predicate in predicates {
      planned.append(
        mirrored
          ? predicate.spaceConstraint(beforeItem, beforeAttribute, afterItem, afterAttribute)
          : predicate.spaceConstraint(afterItem, afterAttribute, beforeItem, beforeAttribute))
    }
  }

  /// Checks the options against the orientation, then plans `previous.attribute ==
  /// next.attribute` for each adjacent pair and each alignment option.
  private mutating func planAlignment() throws(VisualFormatError) {
    let end = characters.count
    guard let attributes = options.intersection(.alignmentMask).alignmentAttributes else {
      throw error(VisualFormatError.Message.unknownAlignment, at: end)
    }
    if isVertical, attributes.contains(where: { $0.axis == .vertical }) {
      throw error(VisualFormatError.Message.alignedVertically, at: end)
    }
    if !isVertical, attributes.contains(where: { $0.axis == .horizontal }) {
      throw error(VisualFormatError.Message.alignedHorizontally, at: end)
    }
    if options.isSuperset(of: .directionMask) {
      throw error(VisualFormatError.Message.bothDirections, at: end)
    }
    if !isVertical, options.contains(.spacingBaselineToBaseline) {
      throw error(VisualFormatError.Message.baselineInHorizontal, at: end)
    }
    for (previous, next) in zip(viewsInOrder, viewsInOrder.dropFirst()) {
      for attribute in attributes {
        planned.append(
          Planned(
            first: .view(previous), firstAttribute: attribute, relation: .equal,
            second: .view(next), secondAttribute: attribute, constant: 0, priority: .required))
      }
    }
  }
}
