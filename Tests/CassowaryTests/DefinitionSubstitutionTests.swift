import Cassowary
import PropertyBased
import Testing

/// `substituteDefinitions(of:in:definitions:)` replaces defined symbols in a row by their
/// definitions. The sparse tableau does it in one pass (gathering the row once); the dense one
/// keeps the protocol's one-at-a-time default. On the same random rows and definitions, both
/// must end with the same row, and the sparse row must stay consistent with its column index.
@Suite struct DefinitionSubstitutionTests {
  /// Random definitions over 24 symbols, in which a later definition may refer to an earlier
  /// one's symbol, and a target row mixing defined and other symbols; some coefficients are
  /// chosen to cancel exactly.
  @Test func onePassMatchesOneDefinitionAtATime() async {
    await propertyCheck(count: propertyCaseCount(300), input: Gen.uint64(in: 0...UInt64.max)) {
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
      func fill(_ row: Int32, lowest: Int32) {
        let constant = Double(Int.random(in: -5...5, using: &random))
        sparse.setConstant(constant, of: row)
        dense.setConstant(constant, of: row)
        for _ in 0..<Int.random(in: 1...5, using: &random) {
          let symbol = Int32.random(in: lowest..<symbols, using: &random)
          let coefficient = Double(Int.random(in: -3...3, using: &random)) / 2
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
        let coefficient = Double(Int.random(in: 1...3, using: &random))
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
}
