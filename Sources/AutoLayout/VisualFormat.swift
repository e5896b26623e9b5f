extension LayoutConstraint {
  /// The constraints that Apple's visual format language string `format` describes, inactive,
  /// as UIKit's `constraints(withVisualFormat:options:metrics:views:)` makes them.
  ///
  /// The grammar is Apple's (Auto Layout Guide, "Visual Format Language"):
  ///
  ///     format     ::= (H:|V:)? (| connection)? view (connection view)* (connection |)?
  ///     view       ::= [name((predicate(,predicate)*))?]
  ///     connection ::= nothing | - | -number- | -metric- | -(predicate(,predicate)*)-
  ///     predicate  ::= (==|<=|>=)? (number|metric|name) (@(number|metric))?
  ///
  /// - Orientation: horizontal unless the string starts with `V:`. Horizontal spaces run from
  ///   `trailing` to `leading` (`right` to `left` with ``FormatOptions/directionLeftToRight``,
  ///   mirrored with ``FormatOptions/directionRightToLeft``); vertical ones from `bottom` to
  ///   `top`, or from `lastBaseline` to `firstBaseline` between views with
  ///   ``FormatOptions/spacingBaselineToBaseline``.
  /// - Spaces: the later view comes first, `[a]-8-[b]` ⇒ `b.leading == a.trailing + 8`,
  ///   `|-8-[a]` ⇒ `a.leading == superview.leading + 8`, `[a]-8-|` ⇒ `superview.trailing ==
  ///   a.trailing + 8`; inequalities keep that orientation. `[a][b]` is a space of 0; a bare `-`
  ///   is the standard space, 8 between siblings and the superview's layout margins at a `|`
  ///   (`a.leading == superview.layoutMarginsGuide.leading`).
  /// - A view's predicates constrain its width (height in `V:`), to a constant or, by name, to
  ///   another view's: `[a(>=50@750,<=b)]`. Defaults: `==`, priority 1000. Names are looked up
  ///   in `metrics` before `views`.
  /// - Order: for each view from left to right, the space before it and then its size
  ///   predicates; the space to a trailing `|`; then one constraint per alignment option for
  ///   each adjacent pair of views, `previous.attribute == next.attribute`.
  ///
  /// Spaces and other characters outside the grammar are rejected, as are non-ASCII strings.
  /// An error leaves everything as it was (no constraint is made, no margins guide is added).
  ///
  /// - Parameters:
  ///   - format: The visual format string.
  ///   - options: Alignment, direction and spacing options.
  ///   - metrics: Named constants for spaces, sizes and priorities.
  ///   - views: The views the format names.
  /// - Returns: The constraints, none of them active.
  /// - Throws: ``VisualFormatError`` with UIKit's message and a caret position.
  public static func constraints(
    withVisualFormat format: String, options: FormatOptions = [],
    metrics: [String: Double] = [:], views: [String: View]
  ) throws(VisualFormatError) -> [LayoutConstraint] {
    var parser = VisualFormatParser(
      format: format, options: options, metrics: metrics, views: views)
    return try parser.parse().map { plan in
      LayoutConstraint(
        kind: .standard, plan.first.layoutItem, plan.firstAttribute, plan.relation,
        plan.second?.layoutItem, plan.secondAttribute, multiplier: 1, constant: plan.constant,
        priority: plan.priority)
    }
  }
}

extension VisualFormatParser.Item {
  /// The view, or the view's layout margins guide (made now if it did not exist).
  var layoutItem: LayoutItem {
    switch self {
    case .view(let view): view
    case .margins(let view): view.layoutMarginsGuide
    }
  }
}
