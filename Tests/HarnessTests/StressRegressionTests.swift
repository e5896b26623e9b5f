import AutoLayout
import Cassowary
import Harness
import Scenes
import Testing

/// Soaks that once found the solver in a wrong state, replayed to the step where they failed.
/// A soak is a function of its configuration, so each replays the same operations exactly.
@Suite struct StressRegressionTests {
  /// A redefinition made the old optional row's pair member basic at a coefficient of -7e-10
  /// (what the substitution left of it), blowing the tableau up: the full re-solve check failed
  /// at step 1,700 ("not optimal: at priority 266.91 its error is 12.5, the from scratch one's
  /// 0"), and other seeds crashed with an unbounded objective. Redefinitions are the sparse
  /// solver's; the soak compares it with the dense one at every check.
  @Test func stackGridRedefinitionAtARoundingResidue() throws {
    var configuration = StressConfiguration(
      kind: .stackGrid, views: 40, solver: .sparse, seed: 2, operations: 1_700, checkEvery: 100)
    configuration.judgesMemory = false  // other tests allocate in this process meanwhile
    let report = try StressRunner(configuration: configuration).run()
    #expect(report.violation == nil, "\(report.violation.map(String.init(describing:)) ?? "")")
    #expect(report.operations == 1_700)
  }
}
