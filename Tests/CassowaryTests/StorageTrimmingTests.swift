import Cassowary
import Testing

/// When an outermost batch closes after many constraints were added or removed (at least half as
/// many as remain), the sparse solver packs its cell pools (each row and column at its exact
/// size) and gives back the capacity its tables grew into. The packed storage must
/// then behave exactly as grown storage does: rows that grow out of an exact-size segment move,
/// freed odd-sized segments are reused, and the values are those of a fresh solver.
@Suite struct StorageTrimmingTests {
  /// Independent views against a root of width 375 (an edit variable): each view's left and top
  /// are fixed, its width and height hug an intrinsic size (250) and resist compression (750),
  /// and it ends inside the root. Large enough (about 20,000 cells) that its pools are packed.
  static func views(_ count: Int) -> [(ConstraintID, Constraint)] {
    var constraints: [(ConstraintID, Constraint)] = []
    func add(_ constraint: Constraint) {
      constraints.append((ConstraintID(constraints.count), constraint))
    }
    let root = Variable(0)
    for index in 0..<count {
      let left = Variable(1 + 4 * index)
      let width = Variable(2 + 4 * index)
      let top = Variable(3 + 4 * index)
      let height = Variable(4 + 4 * index)
      let intrinsicWidth = Double(20 + (index * 37) % 180)
      let intrinsicHeight = Double(20 + (index * 13) % 40)
      add((width <= LinearExpression(constant: intrinsicWidth)).at(250))
      add((width >= LinearExpression(constant: intrinsicWidth)).at(750))
      add((height <= LinearExpression(constant: intrinsicHeight)).at(250))
      add((height >= LinearExpression(constant: intrinsicHeight)).at(750))
      add(left == LinearExpression(constant: Double(16 + index % 50)))
      add(top == LinearExpression(constant: Double(20 + index % 600)))
      add(left + width <= root - 16)
    }
    return constraints
  }

  static func install(
    _ constraints: [(ConstraintID, Constraint)], in solver: inout SparseSolver, rootWidth: Double
  ) throws {
    try solver.addEditVariable(Variable(0), priority: 999)
    try solver.suggestValue(Variable(0), rootWidth)
    for (id, constraint) in constraints { try solver.add(id, constraint) }
  }

  @Test func closingABatchPacksTheStorageAndTheSolverWorksOn() throws {
    let viewCount = 1000
    let constraints = Self.views(viewCount)
    var solver = SparseSolver()
    // Added one by one, outside a batch: the tables grow by doubling.
    try Self.install(constraints, in: &solver, rootWidth: 375)
    let grown = solver.statistics
    solver.beginBatch()
    solver.endBatch()
    let packed = solver.statistics
    #expect(packed.cells == grown.cells)
    #expect(
      packed.tableauBytes + packed.bookkeepingBytes
        < (grown.tableauBytes + grown.bookkeepingBytes) * 3 / 4,
      """
      grown: \(grown.tableauBytes) + \(grown.bookkeepingBytes) B, \
      packed: \(packed.tableauBytes) + \(packed.bookkeepingBytes) B
      """)
    // Closing another batch changes nothing more.
    solver.beginBatch()
    solver.endBatch()
    #expect(solver.statistics.tableauBytes == packed.tableauBytes)

    // Every row and column is now full: remove a third of the constraints and put half of those
    // back, with root resizes in between, so segments move, free and get reused.
    var live = Dictionary(uniqueKeysWithValues: constraints.map { ($0.0, $0.1) })
    for (index, (id, constraint)) in constraints.enumerated() where index % 3 == 1 {
      try solver.remove(id)
      live[id] = nil
      if index % 6 == 1 {
        try solver.suggestValue(Variable(0), index % 12 == 1 ? 667 : 320)
        try solver.add(id, constraint)
        live[id] = constraint
      }
    }
    try solver.suggestValue(Variable(0), 375)
    #expect(solver.structuralDefects().isEmpty)

    var fresh = SparseSolver()
    try Self.install(
      live.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, in: &fresh, rootWidth: 375)
    expectSameValues(solver, fresh, variables: 1 + 4 * viewCount, seed: 0, "packed/fresh")
  }
}
