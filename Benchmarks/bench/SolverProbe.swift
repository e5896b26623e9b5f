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
  }

  func run() throws {
    print(
      "kind   views solver  constraints build_ms  suggest_us  constant_us  alloc_B/op "
        + "retained_MB  after_teardown_B  cells/row  max_cells")
    for kind in kinds.split(separator: ",").compactMap({ SolverSystem.Kind(rawValue: String($0)) })
    {
      for size in sizes.split(separator: ",").compactMap({ Int($0) }) {
        let system = SolverSystem(kind, views: size)
        for solver in solvers.split(separator: ",") {
          let line: String
          if solver == "sparse" {
            var sparse = SparseSolver()
            line = measure(system, &sparse)
          } else {
            var dense = DenseSolver()
            line = measure(system, &dense)
          }
          print(
            "\(kind.rawValue.padding(6)) \(String(system.views).padding(5, left: true)) "
              + "\(String(solver).padding(7)) \(line)")
        }
      }
    }
  }

  func measure(_ system: SolverSystem, _ solver: inout some LayoutSolver) -> String {
    AllocatorStatistics.refresh()
    let startBytes = AllocatorStatistics.allocatedBytes
    let clock = ContinuousClock()
    let build = clock.measure {
      do { try system.install(in: &solver) } catch { print("  skipped: \(error)") }
    }
    guard solver.statistics.constraints == system.constraints.count else {
      return "skipped (the dense tableau would pass its memory budget)"
    }
    solver.forEachChangedValue { _, _ in }
    AllocatorStatistics.refresh()
    let retained = AllocatorStatistics.allocatedBytes - startBytes
    let statistics = solver.statistics
    if verbose {
      print(
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

    for (id, _) in system.constraints { try? solver.remove(id) }
    try? solver.removeEditVariable(system.rootWidth)
    try? solver.removeEditVariable(system.rootHeight)
    AllocatorStatistics.refresh()
    let afterTeardown = AllocatorStatistics.allocatedBytes - startBytes

    let perOp = Double(suggestAllocations + changeAllocations) / Double(2 * repetitions)
    return [
      String(system.constraints.count).padding(11, left: true),
      format(build.milliseconds).padding(8, left: true),
      format(suggest.microseconds / Double(repetitions)).padding(11, left: true),
      format(change.microseconds / Double(repetitions)).padding(12, left: true),
      format(perOp).padding(10, left: true),
      format(Double(retained) / 1e6).padding(12, left: true),
      String(afterTeardown).padding(17, left: true),
      format(Double(statistics.cells) / Double(max(1, statistics.rows))).padding(10, left: true),
      String(statistics.maximumRowCells).padding(10, left: true),
    ].joined(separator: " ")
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
