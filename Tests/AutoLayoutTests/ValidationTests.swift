import AutoLayout
import Testing

/// UIKit's run-time rules for the item/attribute initializer and activation, with its messages.
@Suite("Validation")
struct ValidationTests {
  let a = View(), b = View()

  func make(
    _ attr1: LayoutAttribute, _ item2: LayoutItem?, _ attr2: LayoutAttribute,
    multiplier: Double = 1, constant: Double = 0
  ) throws(LayoutError) -> LayoutConstraint {
    try LayoutConstraint(
      item: a, attribute: attr1, relatedBy: .equal, toItem: item2, attribute: attr2,
      multiplier: multiplier, constant: constant)
  }

  func error(_ body: () throws(LayoutError) -> LayoutConstraint) -> LayoutError? {
    do {
      _ = try body()
      return nil
    } catch {
      return error
    }
  }

  @Test func sizeWithLocation() {
    let failure = error { () throws(LayoutError) in try make(.width, b, .leading) }
    #expect(failure?.kind == .invalidPairing)
    #expect(failure?.message.contains("Invalid pairing of layout attributes") == true)
  }

  @Test func horizontalWithVertical() {
    #expect(
      error { () throws(LayoutError) in try make(.leading, b, .top) }?.kind == .invalidPairing)
    #expect(
      error { () throws(LayoutError) in try make(.centerY, b, .centerX) }?.kind == .invalidPairing)
    // Sizes pair across axes (an aspect ratio).
    #expect(error { () throws(LayoutError) in try make(.width, b, .height, multiplier: 2) } == nil)
  }

  @Test func leadingWithLeft() {
    let failure = error { () throws(LayoutError) in try make(.leading, b, .left) }
    #expect(failure?.kind == .directionalMismatch)
    #expect(
      failure?.message.hasSuffix(
        "A constraint cannot be made between a leading/trailing attribute and a right/left "
          + "attribute. Use leading/trailing for both or neither.") == true)
    #expect(error { () throws(LayoutError) in try make(.leadingMargin, b, .rightMargin) } != nil)
    #expect(error { () throws(LayoutError) in try make(.centerX, b, .left) } == nil)
  }

  @Test func locationEqualToConstant() {
    for failure in [
      error { () throws(LayoutError) in try make(.top, nil, .notAnAttribute, constant: 20) },
      error { () throws(LayoutError) in try make(.top, b, .top, multiplier: 0) },
    ] {
      #expect(failure?.kind == .locationEqualToConstant)
      #expect(
        failure?.message.hasSuffix(
          "A multiplier of 0 or a nil second item together with a location for the first "
            + "attribute creates an illegal constraint of a location equal to a constant. "
            + "Location attributes must be specified in pairs.") == true)
    }
    #expect(
      error { () throws(LayoutError) in try make(.width, nil, .notAnAttribute, constant: 20) }
        == nil)
  }

  @Test func missingAttributesAndNonFinite() {
    #expect(
      error { () throws(LayoutError) in try make(.notAnAttribute, b, .top) }?.kind
        == .missingAttribute)
    #expect(
      error { () throws(LayoutError) in try make(.top, b, .notAnAttribute) }?.kind
        == .missingAttribute)
    #expect(
      error { () throws(LayoutError) in try make(.width, nil, .width) }?.kind == .missingAttribute)
    #expect(
      error { () throws(LayoutError) in try make(.width, nil, .notAnAttribute, constant: .nan) }?
        .kind == .notFinite)
    #expect(
      error { () throws(LayoutError) in try make(.width, b, .width, multiplier: .infinity) }?.kind
        == .notFinite)
  }

  @Test func noCommonAncestor() throws {
    let root1 = View(), root2 = View()
    let x = View(), y = View()
    root1.addSubview(x)
    root2.addSubview(y)
    let constraint = x.leadingAnchor.constraint(equalTo: y.leadingAnchor)
    do {
      try LayoutConstraint.activateChecked([
        x.widthAnchor.constraint(equalToConstant: 5), constraint,
      ])
      Issue.record("activation across hierarchies succeeded")
    } catch {
      #expect(error.kind == .noCommonAncestor)
      #expect(error.message.hasPrefix("Unable to activate constraint with anchors"))
      #expect(error.message.hasSuffix("That's illegal."))
    }
    // Nothing was activated, not even the valid constraint before it.
    #expect(root1.layoutEngine == nil || root1.layoutEngine!.statistics.constraintsAdded == 0)
    #expect(!constraint.isActive)
  }

  @Test func priorityMessage() {
    #expect(
      LayoutError.invalidPriority(1001).message
        == "It's illegal to set priority:1001. Priorities must be greater than 0 and less or "
        + "equal to LayoutPriorityRequired, which is 1000.000000.")
  }

  @Test func description() throws {
    let root = View()
    let label = Label("Name")
    root.addSubview(label)
    let constraint = label.leadingAnchor.constraint(
      equalTo: root.layoutMarginsGuide.leadingAnchor, constant: 8
    ).withIdentifier("id")
    #expect(
      constraint.description
        == "<LayoutConstraint:\(address(constraint)) 'id' Label:\(address(label))'Name'.leading "
        + "== LayoutGuide:\(address(root.layoutMarginsGuide))'UIViewLayoutMarginsGuide'.leading "
        + "+ 8   (inactive)>")
    let half = try LayoutConstraint(
      item: label, attribute: .width, relatedBy: .lessThanOrEqual, toItem: root,
      attribute: .width, multiplier: 0.5, constant: -10)
    half.priority = 750
    half.isActive = true
    #expect(
      half.description
        == "<LayoutConstraint:\(address(half)) Label:\(address(label))'Name'.width <= "
        + "0.5*View:\(address(root)).width - 10 priority:750   (active)>")
  }
}

@Suite("Programming errors stop the program, as UIKit's exceptions do")
struct TrapTests {
  @Test func anchorsMixingLeadingAndLeft() async {
    await #expect(processExitsWith: .failure) {
      let a = View(), b = View()
      _ = a.leadingAnchor.constraint(equalTo: b.leftAnchor)
    }
  }

  @Test func priorityOutOfRange() async {
    await #expect(processExitsWith: .failure) {
      let a = View()
      a.widthAnchor.constraint(equalToConstant: 10).priority = 0
    }
  }
}

/// The address UIKit prints for `object`.
func address(_ object: AnyObject) -> String {
  "0x" + String(UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()), radix: 16)
}
