import ArgumentParser
import Cassowary
import Harness
import Scenes

/// A comma-separated list of values of one kind, as `--phases build,resize` takes them: every
/// item must be a value of `Element`, and none empty. Completion offers `Element`'s values, and
/// argument-parser's error for a bad list names them.
struct CommaSeparated<Element: ExpressibleByArgument>: ExpressibleByArgument {
  var elements: [Element]

  init?(argument: String) {
    var elements: [Element] = []
    for item in argument.split(separator: ",", omittingEmptySubsequences: false) {
      guard let element = Element(argument: item.trimmingCharacters(in: .whitespaces)) else {
        return nil
      }
      elements.append(element)
    }
    guard !elements.isEmpty else { return nil }
    self.elements = elements
  }

  static var allValueStrings: [String] { Element.allValueStrings }
  static var defaultCompletionKind: CompletionKind { Element.defaultCompletionKind }
}

/// A scene on the command line: `KIND` (every variant of it, as `bench scenes` lists them) or
/// `KIND/VARIANT`.
struct SceneChoice: ExpressibleByArgument, Equatable {
  var kind: SceneKind
  /// The variants chosen, in the kind's order.
  var variants: [String]

  init?(argument: String) {
    let parts = argument.split(separator: "/", maxSplits: 1).map(String.init)
    guard let first = parts.first, let kind = SceneKind(rawValue: first) else { return nil }
    self.kind = kind
    if parts.count > 1 {
      guard kind.variants.contains(parts[1]) else { return nil }
      variants = [parts[1]]
    } else {
      variants = kind.variants
    }
  }

  static var allValueStrings: [String] {
    SceneKind.allCases.flatMap { kind in
      [kind.rawValue]
        + (kind.variants.count > 1 ? kind.variants.map { "\(kind.rawValue)/\($0)" } : [])
    }
  }
}

/// A view count: a positive whole number.
struct ViewCount: ExpressibleByArgument, Equatable {
  var count: Int

  init?(argument: String) {
    guard let count = Int(argument), count > 0 else { return nil }
    self.count = count
  }
}
