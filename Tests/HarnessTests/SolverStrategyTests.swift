import Cassowary
import Harness
import Scenes
import Testing

/// Solver strategies as plug-ins: one the list does not hold runs through the harness as ours
/// do, and kiwi's rows say how kiwi differs.
@Suite struct SolverStrategyTests {
  /// A strategy of the test's own: the dense solver under another name.
  static let toy = SolverStrategy(
    name: "toy-dense", summary: "the dense solver under another name",
    capabilities: SolverStrategy.dense.capabilities, make: { DenseSolver() })

  func run(_ solvers: [SolverStrategy], phases: [Phase]) -> [ResultRow] {
    var configuration = BenchmarkConfiguration(
      scenes: [(.form, "standard")], sizes: [30], solvers: solvers, modes: [.incremental],
      phases: phases)
    configuration.repetitions = 2
    configuration.minimumTime = 0
    return configuration.runRows()
  }

  @Test func everyListedStrategyHasItsOwnName() {
    let names = SolverStrategy.all.map(\.name)
    #expect(Set(names).count == names.count)
    for strategy in SolverStrategy.all {
      #expect(SolverStrategy.named(strategy.name) == strategy)
      #expect(ResultRow.Solver(rawValue: strategy.name) == ResultRow.Solver(strategy))
    }
    #expect(SolverStrategy.exact == [.sparse, .plan, .dense])
    #expect(SolverStrategy.named("toy-dense") == nil)
    #expect(ResultRow.Solver(rawValue: "toy,dense") == nil)
    #expect(ResultRow.Solver(rawValue: "") == nil)
  }

  @Test func aStrategyOutsideTheListRunsThroughTheHarness() throws {
    let rows = run(
      [.dense, Self.toy], phases: [.build, .firstSolve, .resize, .constantChange, .teardown])
    let dense = rows.filter { $0.solver == .dense }
    let toy = rows.filter { $0.solver.rawValue == "toy-dense" }
    #expect(dense.count == 5)
    #expect(toy.map(\.phase) == dense.map(\.phase))
    for (ours, theirs) in zip(dense, toy) {
      #expect(theirs.status == .ok, "\(theirs.phase): \(theirs.note)")
      #expect(theirs.checksum == ours.checksum, "\(theirs.phase)")
      #expect(theirs.constraints == ours.constraints)
      #expect(theirs.note.isEmpty, "\(theirs.phase): \(theirs.note)")
    }
    // The row reads back from its CSV fields with the plug-in's name.
    let first = try #require(toy.first)
    #expect(try ResultRow(fields: first.fields, line: 2).solver == first.solver)
  }

  @Test(.enabled(if: KiwiSolver.isAvailable))
  func kiwiRowsSayHowKiwiDiffers() {
    let rows = run([.sparse, .kiwi], phases: [.build, .firstSolve, .constantChange])
    let kiwi = rows.filter { $0.solver == .kiwi }
    #expect(kiwi.count == 3)
    for row in kiwi {
      #expect(row.status == .ok, "\(row.phase): \(row.note)")
      #expect(row.note.contains("lexicographic solvers"), "\(row.phase): \(row.note)")
      #expect(row.note.contains("remove + add") == (row.phase == .constantChange))
    }
  }
}
