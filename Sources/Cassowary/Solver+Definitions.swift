/// Rows kept as written (``TableauStorage/keepsDefinitionsAsWritten``).
///
/// A basic external variable's row is its *definition*: `x = c + Σ aᵢ·yᵢ`, where a `yᵢ` may be
/// another basic external variable, never a basic slack, error or dummy, and the references form
/// no cycle. Rows the simplex decides on — those of slacks, errors and dummies, and the objective —
/// stay in restricted form (over non-basic symbols only), so ratio tests and pricing are the
/// textbook ones; a definition is expanded into them only where they need it. Values come from
/// evaluating definitions in dependency order, and a change marks only what lies downstream.
extension Solver {
  var keepsDefinitions: Bool { Tableau.keepsDefinitionsAsWritten }

  @inline(__always)
  func isBasicExternal(_ symbol: Int32) -> Bool {
    Self.isBasicExternal(symbol, symbolKind, basicRow)
  }

  /// Whether `symbol` is an external variable with a definition, for the static walks below.
  @inline(__always)
  static func isBasicExternal(
    _ symbol: Int32, _ symbolKind: ManualArray<SymbolKind>, _ basicRow: ManualArray<Int32>
  ) -> Bool {
    symbolKind[Int(symbol)] == .external && basicRow[Int(symbol)] >= 0
  }

  /// The lowest-id non-basic external symbol of `row`, if any. With `avoidingSizePreferences`
  /// (a required inequality's subject), the lowest-id one that no size preference mentions
  /// (``isSizePreference(_:)``) when there is one.
  ///
  /// A row of a form is linked to the one above by inequalities ("at least 8 below"), and each
  /// of its views has size preferences on its height. Defining a height by an inequality makes
  /// the height's preferences reach through the inequality's chain: given the row above's
  /// height from the row's position, every preference of a height above expands through every
  /// row below, which is quadratic in the rows. Positions defined from positions keep each
  /// preference a row or two long, whichever way the chain is written.
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func lowestParametricExternal(in row: Int32, avoidingSizePreferences: Bool = false) -> Int32? {
    var lowest = Int32.max
    var lowestFree = Int32.max
    tableau.forEachCell(of: row) { symbol, coefficient in
      guard symbol < lowestFree, symbolKind[Int(symbol)] == .external,
        basicRow[Int(symbol)] < 0, abs(coefficient) > pivotTolerance
      else { return }
      if avoidingSizePreferences && !hasSizePreference(symbolVariable[Int(symbol)]) {
        lowestFree = symbol
      }
      lowest = min(lowest, symbol)
    }
    if lowestFree != .max { return lowestFree }
    return lowest == .max ? nil : lowest
  }

  /// Replaces each basic external variable of `row` by its definition, once (the definitions may
  /// bring in other basic variables). Returns false when the row held none.
  mutating func expandOneLevel(_ row: Int32) -> Bool {
    var defined = takeScratch()
    defer { returnScratch(defined) }
    appendBasicExternals(of: row, to: &defined)
    guard !defined.isEmpty else { return false }
    for symbol in defined {
      let coefficient = tableau.coefficient(of: symbol, in: row)
      guard coefficient != 0 else { continue }
      tableau.removeCell(for: symbol, from: row)
      tableau.add(row: basicRow[Int(symbol)], times: coefficient, to: row)
    }
    return true
  }

  /// The largest coefficient a new row may reach while it is expanded a level at a time
  /// (``expandOneLevel(_:)``); past it, the row is written again and expanded fully. A
  /// constraint's own coefficients are multipliers near 1, and a row of a layout reaches a
  /// variable by a handful of paths; coefficients in the thousands are shares of one
  /// coefficient that will cancel, whose rounding the row would keep.
  var expansionCoefficientLimit: Double { 1024 }

  /// The largest magnitude of `row`'s coefficients.
  ///
  /// - Complexity: O(cells of `row`).
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func largestCoefficient(in row: Int32) -> Double {
    var largest = 0.0
    tableau.forEachCell(of: row) { _, coefficient in largest = max(largest, abs(coefficient)) }
    return largest
  }

  /// How many levels of definitions a new row is expanded by, looking for a variable to define,
  /// before it is expanded fully.
  var maximumExpansionLevels: Int { 16 }

  /// Replaces every basic external variable in `row` by its definition, recursively, so the row
  /// is over non-basic symbols only. Costs the size of the definitions it reaches.
  mutating func expandFully(_ row: Int32) {
    expand(row, downstreamOf: RowRole.none)
  }

  /// Replaces, recursively, basic external variables of `row` by their definitions: all of them,
  /// or with a `subject`, only those marked (in `symbolMark`) as depending on it.
  ///
  /// Definitions share dependencies (a form's rows all lead back to the first row), so the
  /// definitions reached are expanded once each, in topological order — a definition before
  /// those it refers to, so that by the time a variable is replaced every path to it has added
  /// its coefficient. Expanding as variables turn up instead would redo a shared definition once
  /// per path: exponential on a chain of diamonds.
  ///
  /// With `cancelling`, a row that reaches more than ``deepExpansionLimit`` definitions is
  /// first expanded one definition at a time (``expandByCancellation(_:)``), and fully only if
  /// that does not end.
  mutating func expand(_ row: Int32, downstreamOf subject: Int32, cancelling: Bool = false) {
    // A row over parametric symbols only (a view's compression resistance written through its
    // hugging's markers) has nothing to expand: one pass over its few cells, rather than the
    // walk's set-up.
    guard holdsBasicExternal(row) else { return }
    nextVisitEpoch()
    var order = takeScratch()
    var stack = takeScratch()
    defer {
      returnScratch(stack)
      returnScratch(order)
    }
    let complete = Self.orderDefinitions(
      reachedFrom: row, downstreamOf: subject, in: tableau, symbolKind, basicRow,
      marked: symbolMark, markEpoch, visits: visitMark, visitEpoch, &stack, &order,
      limit: cancelling ? deepExpansionLimit : .max)
    if !complete {
      if expandByCancellation(row) { return }
      nextVisitEpoch()
      stack.removeAll(keepingCapacity: true)
      order.removeAll(keepingCapacity: true)
      _ = Self.orderDefinitions(
        reachedFrom: row, downstreamOf: subject, in: tableau, symbolKind, basicRow,
        marked: symbolMark, markEpoch, visits: visitMark, visitEpoch, &stack, &order)
    }
    order.reverse()
    expandedDefinitions += order.count
    tableau.substituteDefinitions(of: order, in: row, definitions: basicRow)
  }

  /// How many definitions a new optional row may reach before it is expanded one definition at a
  /// time first (``expand(_:downstreamOf:cancelling:)``).
  var deepExpansionLimit: Int { 32 }

  /// Expands `row` one definition at a time, each time the one that no other definition in the
  /// row refers to, for at most ten steps while the row stays short; returns whether no basic
  /// external is left (false leaves the row partly expanded, equal to what it was).
  ///
  /// A chain of definitions deep enough to cost a full expansion often cancels within a step or
  /// two: "a top is 8 below the one above" mentions two positions whose definitions differ by
  /// one link, however long the chain above them. The full expansion walks the whole chain to
  /// order its definitions before any coefficient cancels; expanding the lower position first
  /// cancels the upper one at once. A definition expanded early (one that a definition outside
  /// the row refers to) only comes back to be expanded again, so the result is the same.
  ///
  /// - Complexity: O(steps × (cells of the row and of the definitions it holds)), ten steps at most.
  mutating func expandByCancellation(_ row: Int32) -> Bool {
    var basics = takeScratch()
    defer { returnScratch(basics) }
    for _ in 0..<10 {
      basics.removeAll(keepingCapacity: true)
      appendBasicExternals(of: row, to: &basics)
      if basics.isEmpty { return true }
      guard basics.count <= 8, tableau.cellCount(of: row) <= 24 else { return false }
      var chosen: Int32 = -1
      for candidate in basics {
        var isReferred = false
        for other in basics where other != candidate {
          if tableau.coefficient(of: candidate, in: basicRow[Int(other)]) != 0 {
            isReferred = true
            break
          }
        }
        if !isReferred {
          chosen = candidate
          break
        }
      }
      guard chosen >= 0 else { return false }
      let coefficient = tableau.coefficient(of: chosen, in: row)
      tableau.removeCell(for: chosen, from: row)
      tableau.add(row: basicRow[Int(chosen)], times: coefficient, to: row)
      expandedDefinitions += 1
    }
    return false
  }

  /// Appends to `order` the definitions ``expand(_:downstreamOf:)`` replaces, each after the
  /// definitions it refers to (depth first; `~symbol` on the stack means "all of symbol's
  /// dependencies are done"): basic external symbols, and when it expands downstream of a
  /// subject, only the marked ones other than the subject.
  ///
  /// Static, with the tables it reads and the marks it writes passed in: calling a method from
  /// a `mutating` one can make the compiler copy the solver first, and a copy that lives on
  /// shares the mark table's storage, so the next mark copies the whole table.
  private static func orderDefinitions(
    reachedFrom row: Int32, downstreamOf subject: Int32, in tableau: Tableau,
    _ symbolKind: ManualArray<SymbolKind>, _ basicRow: ManualArray<Int32>,
    marked marks: ManualArray<UInt32>, _ markEpoch: UInt32,
    visits: ManualArray<UInt32>, _ visitEpoch: UInt32, _ stack: inout [Int32],
    _ order: inout [Int32], limit: Int = .max
  ) -> Bool {
    func appendSelected(of row: Int32, _ visits: ManualArray<UInt32>, to stack: inout [Int32]) {
      tableau.forEachCell(of: row) { symbol, _ in
        guard visits[Int(symbol)] != visitEpoch, isBasicExternal(symbol, symbolKind, basicRow)
        else { return }
        if subject < 0 || (symbol != subject && marks[Int(symbol)] == markEpoch) {
          stack.append(symbol)
        }
      }
    }
    appendSelected(of: row, visits, to: &stack)
    var visited = 0
    while let top = stack.popLast() {
      if top < 0 {
        order.append(~top)
        continue
      }
      guard visits[Int(top)] != visitEpoch else { continue }
      visits[Int(top)] = visitEpoch
      visited += 1
      if visited > limit { return false }
      stack.append(~top)
      appendSelected(of: basicRow[Int(top)], visits, to: &stack)
    }
    return true
  }

  /// Starts a new depth-first visit: every symbol reads as unvisited.
  mutating func nextVisitEpoch() {
    visitEpoch &+= 1
    if visitEpoch == 0 {
      for index in visitMark.indices { visitMark[index] = 0 }
      visitEpoch = 1
    }
    visitMark.grow(to: symbolKind.count, with: 0)
  }

  // The helpers below that walk a row or a column are not `mutating`: a closure that captured a
  // mutable `self` while the tableau is being read would make the compiler copy the whole solver.

  /// Whether `row` holds a basic external symbol: a definition it refers to.
  @inline(__always)  // called from mutating methods, a method call copies the solver
  func holdsBasicExternal(_ row: Int32) -> Bool {
    var found = false
    tableau.forEachCell(of: row) { symbol, _ in
      if Self.isBasicExternal(symbol, symbolKind, basicRow) { found = true }
    }
    return found
  }

  /// Appends the basic external symbols of `row` to `buffer`.
  @inline(__always)  // called from a mutating method, a method call copies the whole solver
  func appendBasicExternals(of row: Int32, to buffer: inout [Int32]) {
    Self.appendBasicExternals(of: row, in: tableau, symbolKind, basicRow, to: &buffer)
  }

  /// ``appendBasicExternals(of:to:)`` for the static walks, with the tables passed in.
  static func appendBasicExternals(
    of row: Int32, in tableau: Tableau, _ symbolKind: ManualArray<SymbolKind>,
    _ basicRow: ManualArray<Int32>,
    to buffer: inout [Int32]
  ) {
    tableau.forEachCell(of: row) { symbol, _ in
      if isBasicExternal(symbol, symbolKind, basicRow) { buffer.append(symbol) }
    }
  }

  /// Appends the external subjects of the definitions that hold `symbol`. Static, with the
  /// tables it reads passed in, for the reason given at ``orderDefinitions``: as a method called
  /// once a definition from ``markDefinitions(downstreamOf:)``, it copied the whole solver.
  @inline(never)
  static func appendDefinitions(
    holding symbol: Int32, in tableau: Tableau, _ rowSubject: ManualArray<Int32>,
    _ symbolKind: ManualArray<SymbolKind>, to buffer: inout [Int32]
  ) {
    tableau.forEachRow(containing: symbol) { row, _ in
      if let defined = Self.definedVariable(by: row, rowSubject, symbolKind) {
        buffer.append(defined)
      }
    }
  }

  /// The external variable `row` defines, or nil when the row is not a definition. Static, with
  /// the tables passed in, for the static walks.
  @inline(__always)
  static func definedVariable(
    by row: Int32, _ rowSubject: ManualArray<Int32>, _ symbolKind: ManualArray<SymbolKind>
  ) -> Int32? {
    let subject = rowSubject[Int(row)]
    return subject >= 0 && symbolKind[Int(subject)] == .external ? subject : nil
  }

  /// A new row holding `row` fully expanded; the caller drops it.
  mutating func expandedCopy(of row: Int32) -> Int32 {
    let copy = makeRow(subject: RowRole.none)
    tableau.add(row: row, times: 1, to: copy)
    expandFully(copy)
    return copy
  }

  @inline(__always)  // called from mutating methods, a method call copies the solver
  func referencesBasicExternals(_ row: Int32) -> Bool {
    var found = false
    tableau.forEachCell(of: row) { symbol, _ in
      if !found && isBasicExternal(symbol) { found = true }
    }
    return found
  }

  /// Before `row` becomes the definition of `subject`: expands out of it every basic variable
  /// whose definition depends on `subject`, so that no cycle forms. Usually the subject is new
  /// and nothing depends on it.
  ///
  /// The definitions that can close a cycle are found by walking upstream from the row (what it
  /// refers to, usually a handful of definitions), not downstream from the subject (everything
  /// that depends on it: on a form, every row below).
  mutating func resolveCycles(in row: Int32, subject: Int32) {
    guard tableau.rowCount(containing: subject) > 1 else { return }  // only `row` holds it
    switch markDefinitions(upstreamOf: row, dependingOn: subject) {
    case false?: return
    case true?: break
    case nil:
      // Too much upstream (the row refers to the end of a long chain): mark everything
      // downstream of the subject instead.
      nextMarkEpoch()
      markDefinitions(downstreamOf: subject)
    }
    // Expand the marked ones out of the row.
    expand(row, downstreamOf: subject)
  }

  /// Marks (in `symbolMark`, under a new epoch) the definitions that `row` refers to, directly
  /// or not, and that depend on `subject`. Returns whether there are any, or nil when the walk
  /// upstream passes ``upstreamWalkLimit`` definitions.
  mutating func markDefinitions(upstreamOf row: Int32, dependingOn subject: Int32) -> Bool? {
    nextMarkEpoch()
    nextVisitEpoch()
    var stack = takeScratch()
    let found = Self.markUpstream(
      of: row, reaching: subject, in: tableau, symbolKind, basicRow, marks: symbolMark,
      markEpoch, visits: visitMark, visitEpoch, limit: upstreamWalkLimit, &stack)
    returnScratch(stack)
    return found
  }

  /// Starts a new marking: every symbol reads as unmarked in `symbolMark`.
  mutating func nextMarkEpoch() {
    markEpoch &+= 1
    if markEpoch == 0 {
      for index in symbolMark.indices { symbolMark[index] = 0 }
      markEpoch = 1
    }
    symbolMark.grow(to: symbolKind.count, with: 0)
  }

  /// Marks `symbol` and every definition that depends on it, directly or not.
  mutating func markDefinitions(downstreamOf symbol: Int32) {
    var frontier = takeScratch()
    var dependents = takeScratch()
    frontier.append(symbol)
    symbolMark[Int(symbol)] = markEpoch
    while let current = frontier.popLast() {
      dependents.removeAllKeepingCapacity()
      Self.appendDefinitions(
        holding: current, in: tableau, rowSubject, symbolKind, to: &dependents)
      for defined in dependents where symbolMark[Int(defined)] != markEpoch {
        symbolMark[Int(defined)] = markEpoch
        frontier.append(defined)
      }
    }
    returnScratch(dependents)
    returnScratch(frontier)
  }

  /// How many definitions ``resolveCycles(in:subject:)`` walks upstream of a row before it
  /// looks downstream of the subject instead.
  var upstreamWalkLimit: Int { 64 }

  /// Walks the definitions upstream of `row`, depth first, and marks (in `marks`) each whose
  /// definition mentions `subject` or a marked definition; returns whether any was, or nil
  /// past `limit` definitions (the marks are then incomplete). Static, with the tables it
  /// reads and writes passed in, for the reason given at ``orderDefinitions``.
  private static func markUpstream(
    of row: Int32, reaching subject: Int32, in tableau: Tableau,
    _ symbolKind: ManualArray<SymbolKind>,
    _ basicRow: ManualArray<Int32>, marks: ManualArray<UInt32>, _ markEpoch: UInt32,
    visits: ManualArray<UInt32>,
    _ visitEpoch: UInt32, limit: Int, _ stack: inout [Int32]
  ) -> Bool? {
    // `~symbol` on the stack means "symbol's dependencies are done".
    appendBasicExternals(of: row, in: tableau, symbolKind, basicRow, to: &stack)
    var found = false
    var visited = 0
    while let top = stack.popLast() {
      if top < 0 {
        let definition = basicRow[Int(~top)]
        var reaches = tableau.coefficient(of: subject, in: definition) != 0
        if !reaches {
          tableau.forEachCell(of: definition) { symbol, _ in
            if !reaches && isBasicExternal(symbol, symbolKind, basicRow)
              && marks[Int(symbol)] == markEpoch
            {
              reaches = true
            }
          }
        }
        if reaches {
          marks[Int(~top)] = markEpoch
          found = true
        }
        continue
      }
      guard visits[Int(top)] != visitEpoch else { continue }
      visits[Int(top)] = visitEpoch
      visited += 1
      if visited > limit { return nil }
      stack.append(~top)
      appendBasicExternals(of: basicRow[Int(top)], in: tableau, symbolKind, basicRow, to: &stack)
    }
    return found
  }

  /// Makes `subject` basic in `row`, keeping definitions as written: definitions that mention an
  /// external subject keep referring to it; every other row gets the row, expanded if needed.
  ///
  /// The expanded row is made only when a restricted or objective row needs it: a new variable's
  /// definition usually has no other row to update, and expanding it would cost the whole depth
  /// of the definitions it refers to (quadratic on deep trees).
  mutating func installKeepingDefinitions(_ row: Int32, subject: Int32) {
    let subjectIsExternal = symbolKind[Int(subject)] == .external
    var targets = takeScratch()
    tableau.forEachRow(containing: subject) { target, _ in
      if target != row { targets.append(target) }
    }
    var expanded = RowRole.none
    var objectiveChanged = false
    for target in targets {
      let targetSubject = rowSubject[Int(target)]
      let isDefinition = targetSubject >= 0 && symbolKind[Int(targetSubject)] == .external
      if isDefinition && subjectIsExternal { continue }
      let source: Int32
      if isDefinition {
        source = row
      } else {
        if expanded == RowRole.none {
          expanded = referencesBasicExternals(row) ? expandedCopy(of: row) : row
        }
        source = expanded
      }
      saveCells(of: target, replacing: subject, by: source)
      let coefficient = tableau.coefficient(of: subject, in: target)
      tableau.removeCell(for: subject, from: target)
      tableau.add(row: source, times: coefficient, to: target)
      if targetSubject >= 0 {
        noteConstantChanged(row: target, subject: targetSubject)
      } else if targetSubject == RowRole.objective {
        objectiveChanged = true
      }
    }
    returnScratch(targets)
    if objectiveChanged { markCandidates(inRow: expanded) }
    if expanded != RowRole.none && expanded != row { dropRow(expanded) }
  }

  // MARK: - Values

  /// The value of the variable with symbol `symbol`, evaluating definitions that changed.
  mutating func evaluate(variable: Int32) -> Double {
    guard needsEvaluation[Int(variable)] else { return cachedValue[Int(variable)] }
    // Usually what the definition refers to is current: then no stack is taken.
    if let value = Self.refreshFromCurrent(
      variable, in: tableau, symbolKind, basicRow, variableSymbol, symbolVariable,
      needsEvaluation, cachedValue)
    {
      return value
    }
    var stack = takeScratch()
    let value = Self.refreshStale(
      variable, in: tableau, symbolKind, basicRow, variableSymbol, symbolVariable,
      needsEvaluation, cachedValue, stack: &stack)
    returnScratch(stack)
    return value
  }

  /// Evaluates the stale `variable` when every variable its definition refers to is current,
  /// and caches its value (clearing its `needsEvaluation` flag); else returns `nil` and changes
  /// nothing, and ``refreshStale`` does the work. Usually the definition's variables are current
  /// (or were evaluated just before). Static, with the tables passed in, for the reason given
  /// at ``orderDefinitions``.
  ///
  /// The caches are written through the tables' storage, also from the non-mutating
  /// ``value(of:)``: a cached value is a function of the tableau, so copies that still share the
  /// storage (they share the tableau too) may both see it, and a copy that changes anything
  /// copies the storage first.
  @inline(__always)
  private static func refreshFromCurrent(
    _ variable: Int32, in tableau: Tableau, _ symbolKind: ManualArray<SymbolKind>,
    _ basicRow: ManualArray<Int32>, _ variableSymbol: ManualArray<Int32>,
    _ symbolVariable: ManualArray<Int32>, _ needsEvaluation: ManualArray<Bool>,
    _ cachedValue: ManualArray<Double>
  ) -> Double? {
    let symbol = variableSymbol[Int(variable)]
    guard symbol >= 0, basicRow[Int(symbol)] >= 0,
      let sum = currentSum(
        of: basicRow[Int(symbol)], in: tableau, symbolKind, basicRow, symbolVariable,
        needsEvaluation, cachedValue)
    else { return nil }
    cachedValue[Int(variable)] = sum
    needsEvaluation[Int(variable)] = false
    return sum
  }

  /// Evaluates the stale `variable` and the stale definitions it refers to, each once, depth
  /// first on `stack`, caching their values: what ``refreshFromCurrent`` leaves.
  private static func refreshStale(
    _ variable: Int32, in tableau: Tableau, _ symbolKind: ManualArray<SymbolKind>,
    _ basicRow: ManualArray<Int32>, _ variableSymbol: ManualArray<Int32>,
    _ symbolVariable: ManualArray<Int32>, _ needsEvaluation: ManualArray<Bool>,
    _ cachedValue: ManualArray<Double>, stack: inout [Int32]
  ) -> Double {
    stack.append(variable)
    while let current = stack.last {
      guard needsEvaluation[Int(current)] else {
        stack.removeLast()
        continue
      }
      let symbol = variableSymbol[Int(current)]
      guard symbol >= 0, basicRow[Int(symbol)] >= 0 else {
        cachedValue[Int(current)] = 0
        needsEvaluation[Int(current)] = false
        stack.removeLast()
        continue
      }
      let depth = stack.count
      let sum = cachedSum(
        of: basicRow[Int(symbol)], in: tableau, symbolKind, basicRow, symbolVariable,
        needsEvaluation, cachedValue, pushingStale: &stack)
      if stack.count == depth {
        cachedValue[Int(current)] = sum
        needsEvaluation[Int(current)] = false
        stack.removeLast()
      }
    }
    return cachedValue[Int(variable)]
  }

  /// The value of definition `row` when every variable it refers to is up to date, else nil.
  private static func currentSum(
    of row: Int32, in tableau: Tableau, _ symbolKind: ManualArray<SymbolKind>,
    _ basicRow: ManualArray<Int32>,
    _ symbolVariable: ManualArray<Int32>, _ needsEvaluation: ManualArray<Bool>,
    _ cachedValue: ManualArray<Double>
  ) -> Double? {
    var sum = tableau.constant(of: row)
    var isCurrent = true
    tableau.forEachCell(of: row) { inner, coefficient in
      guard isCurrent, isBasicExternal(inner, symbolKind, basicRow) else { return }
      let dependency = symbolVariable[Int(inner)]
      if needsEvaluation[Int(dependency)] {
        isCurrent = false
      } else {
        sum += coefficient * cachedValue[Int(dependency)]
      }
    }
    return isCurrent ? sum : nil
  }

  /// The value of definition `row` from the cached values of the variables it refers to; those
  /// whose values are stale are pushed onto `stack` instead (the sum is then incomplete).
  /// Static, with the tables it reads passed in, for the reason given at ``orderDefinitions``.
  private static func cachedSum(
    of row: Int32, in tableau: Tableau, _ symbolKind: ManualArray<SymbolKind>,
    _ basicRow: ManualArray<Int32>,
    _ symbolVariable: ManualArray<Int32>, _ needsEvaluation: ManualArray<Bool>,
    _ cachedValue: ManualArray<Double>,
    pushingStale stack: inout [Int32]
  ) -> Double {
    var sum = tableau.constant(of: row)
    tableau.forEachCell(of: row) { inner, coefficient in
      guard isBasicExternal(inner, symbolKind, basicRow) else { return }
      let dependency = symbolVariable[Int(inner)]
      if needsEvaluation[Int(dependency)] {
        stack.append(dependency)
      } else {
        sum += coefficient * cachedValue[Int(dependency)]
      }
    }
    return sum
  }

  /// The value of the external `symbol` for the non-mutating ``value(of:)``: cached, or
  /// evaluated and cached (see ``refreshFromCurrent``), so that reading every variable after a
  /// change costs what ``forEachChangedValue(_:)`` does, whatever the depth of the definitions.
  @inline(__always)
  func evaluateCaching(_ symbol: Int32) -> Double {
    let variable = symbolVariable[Int(symbol)]
    if !needsEvaluation[Int(variable)] { return cachedValue[Int(variable)] }
    return Self.evaluateStale(
      variable, in: tableau, symbolKind, basicRow, variableSymbol, symbolVariable,
      needsEvaluation, cachedValue)
  }

  /// ``refreshFromCurrent``, else ``refreshStale`` with a stack of its own: kept out of line so
  /// that the read of a cached value stays small where it is inlined.
  @inline(never)
  private static func evaluateStale(
    _ variable: Int32, in tableau: Tableau, _ symbolKind: ManualArray<SymbolKind>,
    _ basicRow: ManualArray<Int32>, _ variableSymbol: ManualArray<Int32>,
    _ symbolVariable: ManualArray<Int32>, _ needsEvaluation: ManualArray<Bool>,
    _ cachedValue: ManualArray<Double>
  ) -> Double {
    if let value = refreshFromCurrent(
      variable, in: tableau, symbolKind, basicRow, variableSymbol, symbolVariable,
      needsEvaluation, cachedValue)
    {
      return value
    }
    var stack: [Int32] = []
    return refreshStale(
      variable, in: tableau, symbolKind, basicRow, variableSymbol, symbolVariable,
      needsEvaluation, cachedValue, stack: &stack)
  }

  /// Marks the variables whose definitions refer, directly or not, to `symbol` as needing
  /// evaluation (and reporting). The set of such variables is kept closed downstream.
  mutating func propagateChange(from symbol: Int32) {
    var frontier = takeScratch()
    frontier.append(symbol)
    // In a transaction, each variable marked goes into the log (see `logStaleMark`), moved
    // out of the journal for the walk.
    var marks = ManualArray<Int32>()
    swap(&marks, &journal.valueMarks)
    Self.markDownstream(
      in: tableau, rowSubject, symbolKind, symbolVariable, &frontier,
      needs: needsEvaluation, dirty: isValueDirty, dirtyList: &dirtyVariables,
      logging: logsValues, marked: &marks)
    swap(&marks, &journal.valueMarks)
    returnScratch(frontier)
  }

  /// The walk of ``propagateChange(from:)``: static, with the tables it reads and writes passed
  /// in, for the reason given at ``orderDefinitions``.
  private static func markDownstream(
    in tableau: Tableau, _ rowSubject: ManualArray<Int32>, _ symbolKind: ManualArray<SymbolKind>,
    _ symbolVariable: ManualArray<Int32>, _ frontier: inout [Int32],
    needs: ManualArray<Bool>, dirty: ManualArray<Bool>, dirtyList: inout ManualArray<Int32>,
    logging: Bool, marked: inout ManualArray<Int32>
  ) {
    while let current = frontier.popLast() {
      // The definitions that hold `current`.
      tableau.forEachRow(containing: current) { row, _ in
        guard let defined = definedVariable(by: row, rowSubject, symbolKind) else { return }
        let variable = symbolVariable[Int(defined)]
        guard !needs[Int(variable)] else { return }
        if logging { marked.append(variable) }
        needs[Int(variable)] = true
        if !dirty[Int(variable)] {
          dirty[Int(variable)] = true
          dirtyList.append(variable)
        }
        frontier.append(defined)
      }
    }
  }

  /// A cleared scratch buffer from the pool (buffers are reused, so this rarely allocates).
  mutating func takeScratch() -> [Int32] {
    var buffer = scratchPool.popLast() ?? []
    buffer.removeAllKeepingCapacity()
    return buffer
  }

  mutating func returnScratch(_ buffer: [Int32]) {
    scratchPool.append(buffer)
  }
}
