import Cassowary
import Testing

/// The README's solver example, run as written, with the values it claims.
@Suite struct ReadmeExampleTests {
  @Test(arguments: SolverStrategy.exact)
  func readmeExample(kind: SolverStrategy) throws {
    var names = VariableTable()
    let rootWidth = names.make("root.width")
    let labelWidth = names.make("label.width")
    let fieldLeft = names.make("field.left")
    let fieldWidth = names.make("field.width")

    var solver = kind.makeSolver()
    try solver.addEditVariable(rootWidth, priority: 999)
    try solver.suggestValue(rootWidth, 375)
    try solver.add(ConstraintID(0), fieldLeft == 16 + labelWidth + 8)
    try solver.add(ConstraintID(1), fieldLeft + fieldWidth == rootWidth - 16)
    try solver.add(ConstraintID(2), (labelWidth >= 80).at(750))
    try solver.add(ConstraintID(3), (labelWidth <= 80).at(251))
    try solver.add(ConstraintID(4), (fieldWidth <= 97).at(250))
    #expect(solver.value(of: fieldWidth) == 255)

    try solver.suggestValue(rootWidth, 667)
    try solver.setConstant(ConstraintID(0), -20)
    var changed: [String: Double] = [:]
    solver.forEachChangedValue { changed[names.name(of: $0)] = $1 }
    #expect(changed["field.left"] == 100)
    #expect(changed["field.width"] == 551)
    #expect(changed["label.width"] == 80)
    #expect(changed["root.width"] == 667)
    #expect(solver.constraint(ConstraintID(0))?.expression.constant == -20)
  }
}
