import Cassowary
import PropertyBased
import Testing

/// `substituteDefinitions(of:in:definitions:)` replaces defined symbols in a row by their
/// definitions. The sparse tableau does it in one pass (gathering the row once); the dense one
/// keeps the protocol's one-at-a-time default. On the same random rows and definitions, both
/// must end with the same row, and the sparse row must stay consistent with its column index.
@Suite struct DefinitionSubstitutionTests {
  /// Random definitions over 24 symbols, in which a later definition may refer to an earlier
  /// one's symbol, and a target row mixing defined and other symbols; some coefficients cancel
  /// exactly, others up to a rounding residue, which neither tableau may keep as a cell.
  @Test func onePassMatchesOneDefinitionAtATime() async {
    await propertyCheck(count: propertyCaseCount(1000), input: Gen.uint64(in: 0...UInt64.max)) {
      seed in
      var random = SeededGenerator(seed: seed)
      var sparse = SparseTableau()
      var dense = DenseTableau()
      let symbols: Int32 = 24
      try? sparse.reserve(rows: 16, symbols: Int(symbols))
      try? dense.reserve(rows: 16, symbols: Int(symbols))

      // Symbols 0..<8 are defined, by rows over higher-numbered symbols (so that replacing
      // them in increasing order may bring in a symbol replaced later), and symbols 8...
      // otherwise.
      var definitions = [Int32](repeating: -1, count: Int(symbols))
      // Halves cancel exactly; tenths (not exact in binary) cancel up to a rounding residue,
      // which must be pruned as a zero, not kept (or, worse, expanded) as a coefficient.
      let coefficients = [
        -1.5, -1, -0.5, 0, 0.5, 1, 1.5, -1.2, -0.8, -0.4, -0.3, 0.1, 0.2, 0.4, 0.6, 2.4,
      ]
      func fill(_ row: Int32, lowest: Int32) {
        let constant = Double(Int.random(in: -5...5, using: &random))
        sparse.setConstant(constant, of: row)
        dense.setConstant(constant, of: row)
        for _ in 0..<Int.random(in: 1...5, using: &random) {
          let symbol = Int32.random(in: lowest..<symbols, using: &random)
          let coefficient = coefficients.randomElement(using: &random)!
          sparse.add(coefficient, for: symbol, to: row)
          dense.add(coefficient, for: symbol, to: row)
        }
      }
      for symbol in Int32(0)..<8 {
        let row = sparse.makeRow()
        #expect(dense.makeRow() == row)
        fill(row, lowest: symbol + 1)
        definitions[Int(symbol)] = row
      }
      let target = sparse.makeRow()
      #expect(dense.makeRow() == target)
      fill(target, lowest: 0)
      for symbol in Int32(0)..<8 where Bool.random(using: &random) {
        let coefficient = coefficients.randomElement(using: &random)!
        sparse.add(coefficient, for: symbol, to: target)
        dense.add(coefficient, for: symbol, to: target)
      }

      let replaced = (Int32(0)..<8).filter { _ in Int.random(in: 0..<4, using: &random) > 0 }
      sparse.substituteDefinitions(of: replaced, in: target, definitions: definitions)
      dense.substituteDefinitions(of: replaced, in: target, definitions: definitions)

      #expect(
        abs(sparse.constant(of: target) - dense.constant(of: target)) <= 1e-12,
        "seed \(seed): constant")
      var cells = 0
      for symbol in Int32(0)..<symbols {
        let a = sparse.coefficient(of: symbol, in: target)
        let b = dense.coefficient(of: symbol, in: target)
        #expect(abs(a - b) <= 1e-12, "seed \(seed): symbol \(symbol): \(a) vs \(b)")
        #expect(a == 0 || abs(a) > 1e-9, "seed \(seed): symbol \(symbol): a residue \(a) was kept")
        if a != 0 { cells += 1 }
        // The column index agrees with the row.
        var inColumn = 0.0
        sparse.forEachRow(containing: symbol) { row, coefficient in
          if row == target { inColumn = coefficient }
        }
        #expect(inColumn == a, "seed \(seed): symbol \(symbol): column says \(inColumn)")
      }
      #expect(sparse.cellCount(of: target) == cells, "seed \(seed): a zero cell was kept")
    }
  }

  /// A system from a 3,000-case soak (BatchedRemovalTests, seed 12272048395771503322): expanding
  /// `c9` over `v3`, `v4`, `v2` and `v0` cancels `v0`'s coefficient up to a rounding residue
  /// (2 · −0.5 against −0.5 · −2.0, through 2.4000000000000004). Expanding `v0` by that residue
  /// once brought in cells of 5e-17, and `c9`'s slack, pivoted in on one of them, made the
  /// tableau inconsistent: coefficients near 1e16, and `c1`, `c9` and `c10` no longer implied.
  @Test func anExpansionThatCancelsToAResidueLeavesNoCells() throws {
    let v = (0..<5).map { Variable($0) }
    let system: [(Int32, Constraint)] = [
      (1, (v[3] - 2 * v[2] + v[4] + 26 >= 0).at(250)),
      (2, (-2 * v[0] + 22 >= 0).at(750)),
      (10, (0.5 * v[4] - 2 * v[0] + 3 * v[3] - 49 >= 0).at(750)),
      (6, (v[1] - 9 <= 0).at(250)),
      (7, (-v[0] + 2 * v[0] + 2 * v[2] - 15 == 0).at(999.5)),
      (9, (0.5 * v[4] + v[3] + 32 <= 0).at(500)),
    ]
    var sparse = SparseSolver()
    var dense = DenseSolver()
    for (id, constraint) in system {
      try sparse.add(ConstraintID(id), constraint)
      try dense.add(ConstraintID(id), constraint)
    }
    #expect(sparse.structuralDefects() == [])
    for variable in v {
      #expect(abs(sparse.value(of: variable) - dense.value(of: variable)) <= 1e-6, "\(variable)")
    }
  }
}
