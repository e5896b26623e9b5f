import Foundation

/// A run as JSON (`bench run --format json`): a schema version, the run's context, every row (as
/// ``ResultRow`` encodes itself, with the CSV's field names and `null` where nothing was
/// measured) and the scaling slopes.
public struct ResultsDocument: Codable, Sendable, Equatable {
  /// The version of this layout; it changes whenever a field is renamed, removed or retyped.
  public static let currentSchemaVersion = 3

  public var schemaVersion = Self.currentSchemaVersion
  public var context: Context
  public var rows: [ResultRow]
  public var slopes: [Slope]

  /// What every row of the run shares, and what it was asked to measure.
  public struct Context: Codable, Sendable, Equatable {
    public var runID: String
    public var timestamp: String
    /// The benchmarked tree's commit (`-dirty` with uncommitted changes), `unknown` outside a
    /// repository.
    public var commit: String
    public var machine: String
    /// The Swift compiler that built the benchmark, to its minor version.
    public var toolchain: String
    /// The jemalloc version, `null` when the allocator is not jemalloc.
    public var jemalloc: String?
    public var options: Options

    public init(
      runID: String, timestamp: String, commit: String, machine: String, toolchain: String,
      jemalloc: String?, options: Options
    ) {
      self.runID = runID
      self.timestamp = timestamp
      self.commit = commit
      self.machine = machine
      self.toolchain = toolchain
      self.jemalloc = jemalloc
      self.options = options
    }
  }

  /// The matrix and how each cell repeats (``BenchmarkConfiguration``).
  public struct Options: Codable, Sendable, Equatable {
    /// `KIND/VARIANT` for each scene.
    public var scenes: [String]
    public var sizes: [Int]
    public var solvers: [String]
    public var modes: [String]
    public var phases: [String]
    public var seed: UInt64
    public var rounds: Int
    public var repetitions: Int
    public var warmup: Int
    public var minimumSeconds: Double
    public var cellBudgetSeconds: Double
    public var memoryBudgetBytes: Int
    public var countsInstructions: Bool

    public init(_ configuration: BenchmarkConfiguration) {
      scenes = configuration.scenes.map { "\($0.kind.rawValue)/\($0.variant)" }
      sizes = configuration.sizes
      solvers = configuration.solvers.map(\.name)
      modes = configuration.modes.map(\.rawValue)
      phases = configuration.phases.map(\.rawValue)
      seed = configuration.seed
      rounds = configuration.rounds
      repetitions = configuration.repetitions
      warmup = configuration.warmup
      minimumSeconds = configuration.minimumTime
      cellBudgetSeconds = configuration.cellBudget
      memoryBudgetBytes = configuration.memoryBudget
      countsInstructions = configuration.countsInstructions
    }
  }

  /// How one group phase's figure grows with the view count: the least-squares slope of log
  /// figure against log views.
  public struct Slope: Codable, Sendable, Equatable {
    public var scene: String
    public var variant: String
    public var solver: String
    public var mode: String
    public var phase: String
    /// `median_ns` or `instructions`: the metric's column name.
    public var metric: String
    public var sizes: [Int]
    public var slope: Double

    public init(
      scene: String, variant: String, solver: String, mode: String, phase: String,
      metric: String, sizes: [Int], slope: Double
    ) {
      self.scene = scene
      self.variant = variant
      self.solver = solver
      self.mode = mode
      self.phase = phase
      self.metric = metric
      self.sizes = sizes
      self.slope = slope
    }
  }

  public init(context: Context, rows: [ResultRow], slopes: [Slope]) {
    self.context = context
    self.rows = rows
    self.slopes = slopes
  }

  /// The document as JSON text: keys sorted, indented.
  public func jsonText() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }

  /// The compiler that built this code, to its minor version.
  public static var toolchain: String {
    #if compiler(>=7.0)
      "Swift 7 or later"
    #elseif compiler(>=6.4)
      "Swift 6.4 or later"
    #elseif compiler(>=6.3)
      "Swift 6.3"
    #elseif compiler(>=6.2)
      "Swift 6.2"
    #else
      "Swift before 6.2"
    #endif
  }
}
