import AutoLayout
import Testing

/// The README's Auto Layout example, line for line.
@Test("README: a label and a text field")
func readmeAutoLayoutExample() {
  let root = View(frame: Rect(x: 0, y: 0, width: 375, height: 667))
  let label = Label("Name"), field = TextField("Enter Name")
  root.addSubview(label)
  root.addSubview(field)
  LayoutConstraint.activate([
    label.leadingAnchor.constraint(equalTo: root.layoutMarginsGuide.leadingAnchor),
    field.leadingAnchor.constraint(equalToSystemSpacingAfter: label.trailingAnchor),
    field.trailingAnchor.constraint(equalTo: root.layoutMarginsGuide.trailingAnchor),
    field.topAnchor.constraint(equalTo: root.topAnchor, constant: 20),
    label.lastBaselineAnchor.constraint(equalTo: field.lastBaselineAnchor),
  ])
  root.layoutIfNeeded()
  #expect("\(label.frame) \(field.frame)" == "(8, 26.75, 34, 20.5) (50, 20, 317, 34)")
}

/// The stack-view example of `docs/model.md`, line for line.
@Test("README: a stack view with baseline alignment, then a hidden view")
func readmeStackViewExample() {
  let root = View(frame: Rect(x: 0, y: 0, width: 375, height: 667))
  let label = Label("Name"), field = TextField("Enter Name")
  let stack = StackView(arrangedSubviews: [label, field])
  stack.spacing = 8
  stack.alignment = .firstBaseline
  stack.translatesAutoresizingMaskIntoConstraints = false
  root.addSubview(stack)
  LayoutConstraint.activate([
    stack.leadingAnchor.constraint(equalTo: root.layoutMarginsGuide.leadingAnchor),
    stack.trailingAnchor.constraint(equalTo: root.layoutMarginsGuide.trailingAnchor),
    stack.topAnchor.constraint(equalTo: root.topAnchor, constant: 20),
  ])
  root.layoutIfNeeded()
  #expect(
    "\(stack.frame) \(label.frame) \(field.frame)"
      == "(8, 20, 359, 34) (0, 6.75, 34, 20.5) (42, 0, 317, 34)")
  label.isHidden = true  // UISV-hiding: width 0 @999.999; the field takes the row
  root.layoutIfNeeded()
  #expect("\(field.frame)" == "(0, 0, 359, 34)")
}
