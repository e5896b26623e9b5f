import ArgumentParser
import Cassowary
import Harness
import Scenes

/// `bench solver`: the solvers alone on generated constraint systems — build, suggestion and
/// constant-change costs, steady-state allocations, memory and tableau density. A quick probe of
/// the solver layer; the full harness measures whole scenes phase by phase.
struct SolverProbe: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "solver",
    abstract: "Measure the solvers alone on generated constraint systems.")

  @Option(
    help: "System kinds: \(SolverSystem.Kind.allCases.map(\.rawValue).joined(separator: ", ")).")
  var kinds: String = SolverSystem.Kind.allCases.map(\.rawValue).joined(separator: ",")

  @Option(help: "View counts, comma-separated.")
  var sizes: String = "100,1000,10000"

  @Option(help: "Solvers: sparse, dense.")
  var solvers: String = "sparse,dense"

  @Option(help: "Suggestions and constant changes timed per cell.")
  var repetitions: Int = 200

  @Flag(help: "Also print the solver's memory breakdown and pivot count per cell.")
  var verbose = false

  @Option(
    help: ArgumentHelp(
      "The most memory, in MiB, a cell may be expected to retain; larger cells are skipped.",
      discussion:
        "The estimate extrapolates the memory the smaller sizes of the same kind and solver "
        + "retained, along their log-log slope (2 from a single size). It is also the dense "
        + "tableau's memory budget."))
  var memoryBudget: Int = 2048

  func validate() throws {
    for kind in kinds.split(separator: ",") where SolverSystem.Kind(rawValue: String(kind)) == nil {
      throw ValidationError(
        "unknown kind '\(kind)'; valid: \(SolverSystem.Kind.allCases.map(\.rawValue).joined(separator: ", "))"
      )
    }
    for solver in solvers.split(separator: ",") where !["sparse", "dense"].contains(solver) {
      throw ValidationError("unknown solver '\(solver)'; valid: sparse, dense")
    }
    for size in sizes.split(separator: ",") where Int(size) == nil || Int(size)! < 1 {
      throw ValidationError("'\(size)' is not a view count")
    }
    guard memoryBudget > 0 else { throw ValidationError("the memory budget must be positive") }
  }

  func run() throws {
    printOutput(
      "kind   views solver  constraints build_ms build_faults  suggest_us  constant_us  alloc_B/op "
        + "retained_MB  teardown_ms  after_teardown_B  cells/row  max_cells")
    let budget = memoryBudget << 20
    for kind in kinds.split(separator: ",").compactMap({ SolverSystem.Kind(rawValue: String($0)) })
    {
      // The memory each solver retained at the sizes measured so far, to extrapolate from.
      var retained: [Substring: [(x: Double, y: Double)]] = [:]
      for size in sizes.split(separator: ",").compactMap({ Int($0) }).sorted() {
        let system = SolverSystem(kind, views: size)
        for solver in solvers.split(separator: ",") {
          let line: String
          if let reason = Self.skipReason(system.views, retained[solver, default: []], budget) {
            line = "skipped (\(reason))"
          } else if solver == "sparse" {
            var sparse = SparseSolver()
            (line, retained[solver, default: []]) = measure(system, &sparse, retained[solver])
          } else {
            var dense = DenseSolver(memoryBudget: budget)
            (line, retained[solver, default: []]) = measure(system, &dense, retained[solver])
          }
          printOutput(
            "\(kind.rawValue.padding(6)) \(String(system.views).padding(5, left: true)) "
              + "\(String(solver).padding(7)) \(line)")
        }
      }
    }
  }

  /// Why a system of `views` views should not be built: the memory the smaller sizes retained,
  /// extrapolated, passes `budget` bytes. A solver whose tableau grows quadratically (the sparse
  /// one on a chain of equal widths, whose restricted rows all hold every spacing) would
  /// otherwise exhaust the machine.
  static func skipReason(_ views: Int, _ retained: [(x: Double, y: Double)], _ budget: Int)
    -> String?
  {
    guard let extrapolated = extrapolate(retained, to: Double(views)),
      extrapolated.value > Double(budget)
    else { return nil }
    let (estimate, slope) = extrapolated
    return "estimated \(Int(estimate / Double(1 << 20))) MiB retained (slope "
      + "\((slope * 100).rounded() / 100) from smaller sizes), over the \(budget >> 20) MiB budget"
  }

  /// Measures one cell; returns its line and `history` with this size's retained memory added.
  func measure(
    _ system: SolverSystem, _ solver: inout some LayoutSolver,
    _ history: [(x: Double, y: Double)]?
  ) -> (String, [(x: Double, y: Double)]) {
    let (line, retained) = measure(system, &solver)
    guard let retained else { return (line, history ?? []) }
    return (line, (history ?? []) + [(x: Double(system.views), y: Double(retained))])
  }

  /// Measures one cell: its line, and the bytes the built solver retained (nil when skipped).
  func measure(_ system: SolverSystem, _ solver: inout some LayoutSolver) -> (String, Int?) {
    // The thread's exact counters, not `stats.allocated`, which also counts what jemalloc's
    // thread caches hold and so moved by ±700 KB between cells when nothing leaked.
    let lifetime = AllocationMeter()
    let clock = ContinuousClock()
    let faultsBefore = minorPageFaults()
    let build = clock.measure {
      do { try system.install(in: &solver) } catch { printOutput("  skipped: \(error)") }
    }
    let buildFaults = minorPageFaults() - faultsBefore
    guard solver.statistics.constraints == system.constraints.count else {
      return ("skipped (the dense tableau would pass its memory budget)", nil)
    }
    solver.forEachChangedValue { _, _ in }
    let retained = lifetime.stop().netBytes
    let statistics = solver.statistics
    if verbose {
      printOutput(
        "  tableau \(statistics.tableauBytes) B, bookkeeping \(statistics.bookkeepingBytes) B, "
          + "cells \(statistics.cells), rows \(statistics.rows), pivots \(statistics.pivots)")
    }

    // Warm up, then time and count allocations in steady state.
    let widths = [system.rootWidths.portrait, system.rootWidths.landscape]
    for index in 0..<4 { try? solver.suggestValue(system.rootWidth, widths[index % 2]) }
    let idle = AllocationMeter().stop().allocatedBytes  // the meter's own fixed cost
    var meter = AllocationMeter()
    let suggest = clock.measure {
      for index in 0..<repetitions {
        try? solver.suggestValue(system.rootWidth, widths[index % 2])
        solver.forEachChangedValue { _, _ in }
      }
    }
    let suggestBytes = meter.stop().allocatedBytes
    let suggestAllocations = suggestBytes - min(idle, suggestBytes)
    let constant = solver.constraint(system.middleSpacing)?.expression.constant ?? 0
    for index in 0..<4 {
      try? solver.setConstant(system.middleSpacing, constant - Double(index % 2))
    }
    meter = AllocationMeter()
    let change = clock.measure {
      for index in 0..<repetitions {
        try? solver.setConstant(system.middleSpacing, constant - Double(index % 2))
        solver.forEachChangedValue { _, _ in }
      }
    }
    let changeBytes = meter.stop().allocatedBytes
    let changeAllocations = changeBytes - min(idle, changeBytes)

    // One at a time, oldest first, outside a batch: as a client that deactivates constraints in
    // the order it made them would (a batch of them all would rebuild from nothing instead).
    let teardown = clock.measure {
      for (id, _) in system.constraints { try? solver.remove(id) }
      try? solver.removeEditVariable(system.rootWidth)
      try? solver.removeEditVariable(system.rootHeight)
    }
    let afterTeardown = lifetime.stop().netBytes

    let perOp = Double(suggestAllocations + changeAllocations) / Double(2 * repetitions)
    let line = [
      String(system.constraints.count).padding(11, left: true),
      format(build.milliseconds).padding(8, left: true),
      String(buildFaults).padding(12, left: true),
      format(suggest.microseconds / Double(repetitions)).padding(11, left: true),
      format(change.microseconds / Double(repetitions)).padding(12, left: true),
      format(perOp).padding(10, left: true),
      format(Double(retained) / 1e6).padding(12, left: true),
      format(teardown.milliseconds).padding(12, left: true),
      String(afterTeardown).padding(17, left: true),
      format(Double(statistics.cells) / Double(max(1, statistics.rows))).padding(10, left: true),
      String(statistics.maximumRowCells).padding(10, left: true),
    ].joined(separator: " ")
    return (line, retained)
  }

  func format(_ value: Double) -> String {
    let rounded = (value * 100).rounded() / 100
    return String(rounded)
  }
}

extension Duration {
  var milliseconds: Double {
    Double(components.seconds) * 1e3 + Double(components.attoseconds) / 1e15
  }
  var microseconds: Double { milliseconds * 1e3 }
}

extension String {
  func padding(_ width: Int, left: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - count))
    return left ? fill + self : self + fill
  }
}
