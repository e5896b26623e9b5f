import ArgumentParser
import Cassowary
import Foundation

extension SolverStrategy: ExpressibleByArgument {
  /// The strategy in ``SolverStrategy/all`` named `argument`.
  public convenience init?(argument: String) { self.init(named: argument) }
  public static var allValueStrings: [String] { all.map(\.name) }
  public var defaultValueDescription: String { name }
}

/// Stops with exit status 64 and the reason when this build cannot run `strategies` (kiwi
/// without its headers).
func requireAvailable(_ strategies: [SolverStrategy], command: String) throws {
  for strategy in strategies {
    if let reason = strategy.unavailableReason {
      printError("bench \(command): solver \(strategy.name) is unavailable: \(reason)")
      throw ExitCode(64)
    }
  }
}

/// `bench solvers`: the solver strategies, one line each, with what they support.
struct ListSolvers: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "solvers",
    abstract: "List the solver strategies, one line each, with what they support.")

  func run() {
    let width = SolverStrategy.all.map(\.name.count).max() ?? 0
    for strategy in SolverStrategy.all {
      let name = strategy.name.padding(toLength: width, withPad: " ", startingAt: 0)
      let capabilities: [(SolverStrategy.Capabilities, String)] = [
        (.incrementalUpdates, "incremental"), (.inPlaceConstants, "in-place constants"),
        (.lexicographicPriorities, "lexicographic priorities"), (.memoryBudget, "memory budget"),
      ]
      let supports = capabilities.filter { strategy.capabilities.contains($0.0) }.map(\.1)
      let availability = strategy.unavailableReason.map { " — unavailable: \($0)" } ?? ""
      printOutput(
        "\(name)  \(strategy.summary) [\(supports.joined(separator: ", "))]\(availability)")
    }
  }
}
