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
