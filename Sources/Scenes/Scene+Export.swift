import AutoLayout
import Cassowary

extension Scene {
  /// The scene's constraint system in the `.constraints` format: every installed constraint as
  /// the engine lowers it, over variables named after the items (`row12.field.left`,
  /// `row12.field.width`; `left`, `top`, `width` and `height` of each alignment rectangle), with
  /// the root's width and height as edit variables. Lays the scene out first.
  public func exportFile() -> ConstraintFile {
    root.layoutIfNeeded()
    var file = ConstraintFile()
    guard let engine = root.layoutEngine else { return file }
    let coordinates = ["left", "top", "width", "height"]
    var unnamed = 0
    let names = self.itemNames()
    var itemNames: [ObjectIdentifier: String] = [:]
    func variableName(_ variable: Variable) -> String {
      guard let (item, coordinate) = engine.owner(of: variable) else { return "v\(variable.id)" }
      let key = ObjectIdentifier(item)
      if itemNames[key] == nil {
        if let name = names.name(of: item) {
          itemNames[key] = name
        } else {
          unnamed += 1
          itemNames[key] = "item\(unnamed)"
        }
      }
      return "\(itemNames[key]!).\(coordinates[coordinate])"
    }
    var edits: [(String, Double)] = []
    for lowered in engine.loweredConstraints() {
      let constraint = lowered.constraint
      if constraint.isAutoresizingMaskConstraint, constraint.firstItem === root,
        constraint.firstAttribute == .width || constraint.firstAttribute == .height
      {
        edits.append(("root.\(constraint.firstAttribute)", constraint.constant))
        continue
      }
      for row in lowered.rows {
        var expression = LinearExpression(constant: row.expression.constant)
        for term in row.expression.terms {
          expression.terms.append(
            Term(file.variable(variableName(term.variable)), term.coefficient))
        }
        file.statements.append(
          .constraint(Constraint(expression, row.relation, priority: row.priority), line: 0))
      }
    }
    for (name, value) in edits {
      _ = file.variable(name)
      file.statements.append(.edit(name: name, value: value, priority: 999, line: 0))
    }
    return file
  }

  /// The header comment of an export: what made it, so the file can be regenerated.
  public var exportHeader: [String] {
    [
      "LayoutBench scene \(kind), \(viewCount) views (requested \(requestedViews)), seed \(seed), "
        + "variant \(variant)",
      "Regenerate: bench export \(kind) --views \(requestedViews) --seed \(seed) --variant \(variant)",
    ]
  }

  /// The solver's value of every named item's variables, by the names ``exportFile()`` gives
  /// them: what solving the scene directly gives, to compare with solving an exported file.
  public func directValues() -> [String: Double] {
    guard let engine = root.layoutEngine else { return [:] }
    var byName: [String: Double] = [:]
    let coordinates = ["left", "top", "width", "height"]
    let names = itemNames()
    for slot in 0..<(engine.solverVariableCapacity / 4) {
      for coordinate in 0..<4 {
        let variable = Variable(slot * 4 + coordinate)
        guard let (item, _) = engine.owner(of: variable), let name = names.name(of: item) else {
          continue
        }
        byName["\(name).\(coordinates[coordinate])"] = engine.value(of: variable)
      }
    }
    return byName
  }
}
