/// A solver variable: a cheap handle with a dense integer id.
///
/// The client numbers its variables densely from 0 (``VariableTable`` does it and keeps names), so
/// that a solver can index its own tables by ``id`` without hashing.
public struct Variable: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The variable's dense id.
  public var id: Int32

  /// The variable with id `id`, which must not be negative.
  public init(id: Int32) {
    precondition(id >= 0, "variable ids are not negative")
    self.id = id
  }

  /// The variable with id `id`.
  public init(_ id: Int) { self.init(id: Int32(id)) }

  public static func < (lhs: Variable, rhs: Variable) -> Bool { lhs.id < rhs.id }

  public var description: String { "v\(id)" }
}

/// Hands out variables with dense ids and remembers their names.
public struct VariableTable: Sendable {
  /// The name of each variable, indexed by its id.
  public private(set) var names: [String] = []

  /// An empty table.
  public init() {}

  /// The number of variables made so far.
  public var count: Int { names.count }

  /// A new variable called `name`.
  public mutating func make(_ name: String) -> Variable {
    names.append(name)
    return Variable(names.count - 1)
  }

  /// The name of `variable`, or its default spelling (`v12`) when the table did not make it.
  public func name(of variable: Variable) -> String {
    Int(variable.id) < names.count ? names[Int(variable.id)] : variable.description
  }
}
