/// A solver that the model, the harness and the tools can run: its name, what it supports, and
/// how to make one.
///
/// ``all`` is the one list of strategies: the command line's `--solver`/`--solvers`, the
/// benchmark runner, `bench solve`, `bench stress` and the tests read it. A strategy is a value,
/// so a caller can also pass one that is not in the list (a test's own) wherever a strategy is
/// taken. To add one to the list: a file defining it as a `static let` of this type (beside its
/// ``LayoutSolver``), and its name in ``all``.
///
/// Two strategies are equal when their names are. A class, so that what holds one (every view's
/// ``preferredSolver``) holds a reference, not the strategy's strings and closure.
public final class SolverStrategy: Hashable, Sendable, CustomStringConvertible {
  /// What a strategy supports, for the harness to decide what it measures and how to label it.
  public struct Capabilities: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Changes update the current solution instead of solving again from the constraints.
    public static let incrementalUpdates = Capabilities(rawValue: 1 << 0)
    /// ``LayoutSolver/setConstant(_:_:)`` changes the constant in place; without this, the
    /// harness labels constant changes as a remove and an add.
    public static let inPlaceConstants = Capabilities(rawValue: 1 << 1)
    /// Priorities are Auto Layout's lexicographic levels; without this they are weighted
    /// strengths, and frames may differ where priorities compete.
    public static let lexicographicPriorities = Capabilities(rawValue: 1 << 2)
    /// The solver refuses to grow past a memory budget
    /// (``SolverError/memoryBudgetExceeded(rows:columns:bytes:budget:)``).
    public static let memoryBudget = Capabilities(rawValue: 1 << 3)
  }

  /// The name tools and result files use (`sparse`).
  public let name: String
  /// One line on what it is.
  public let summary: String
  /// What it supports.
  public let capabilities: Capabilities
  /// Why this build cannot run it (and how to make it able), or `nil` when it can.
  public let unavailableReason: String?
  private let make: @Sendable () -> (any LayoutSolver)?

  /// A strategy named `name` whose solvers `make` makes; `make` returns `nil` only when
  /// `unavailableReason` is set.
  public init(
    name: String, summary: String, capabilities: Capabilities,
    unavailableReason: String? = nil,
    make: @escaping @Sendable () -> (any LayoutSolver)?
  ) {
    self.name = name
    self.summary = summary
    self.capabilities = capabilities
    self.unavailableReason = unavailableReason
    self.make = make
  }

  /// The strategy in ``all`` named `name` (a new reference to the same strategy), if any.
  ///
  /// - Complexity: O(strategies).
  public convenience init?(named name: String) {
    guard let strategy = Self.named(name) else { return nil }
    self.init(
      name: strategy.name, summary: strategy.summary, capabilities: strategy.capabilities,
      unavailableReason: strategy.unavailableReason, make: strategy.make)
  }

  /// Whether this build can run the strategy.
  public var isAvailable: Bool { unavailableReason == nil }

  /// A new, empty solver.
  ///
  /// - Precondition: ``isAvailable``.
  public func makeSolver() -> any LayoutSolver {
    guard let solver = make() else {
      preconditionFailure("solver \(name) is unavailable: \(unavailableReason ?? "")")
    }
    return solver
  }

  public var description: String { name }

  public static func == (lhs: SolverStrategy, rhs: SolverStrategy) -> Bool {
    lhs.name == rhs.name
  }
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension SolverStrategy {
  /// Every strategy this build knows, in the order tools list them.
  public static let all: [SolverStrategy] = [.sparse, .plan, .dense, .kiwi]

  /// Our own solvers, which implement Auto Layout's semantics exactly (lexicographic priorities,
  /// in-place constant changes): what the default benchmark matrix, the model's tests and
  /// `bench stress`'s cross-checks run.
  public static let exact: [SolverStrategy] = all.filter {
    $0.capabilities.isSuperset(of: [.lexicographicPriorities, .inPlaceConstants])
  }

  /// The strategy used where none is named: the model's engines (``preferredSolver`` of a
  /// root view), scenes, `bench solve` and `bench stress`. The plan-first solver, which gives
  /// the sparse solver's values and refusals; ``sparse`` stays the reference it is checked
  /// against.
  public static let `default`: SolverStrategy = .plan

  /// The strategy in ``all`` named `name`, if any.
  ///
  /// - Complexity: O(strategies).
  public static func named(_ name: String) -> SolverStrategy? {
    all.first { $0.name == name }
  }
}
