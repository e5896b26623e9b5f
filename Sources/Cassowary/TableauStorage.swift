/// Where a solver keeps its tableau: rows of `constant + Σ coefficient × symbol`.
///
/// The Cassowary algorithm in ``Solver`` is written once against this protocol; the storages
/// differ in how a row's cells and a symbol's rows are found. ``SparseTableau`` keeps flat cell
/// pools with a column index, so a pivot costs O(cells touched); ``DenseTableau`` keeps a matrix
/// of rows × columns, the textbook baseline.
public protocol TableauStorage {
  /// Whether the solver keeps a basic variable's row as written (`x = c + Σ`, which may refer to
  /// other basic variables, acyclically) and evaluates values through those references, rather
  /// than substituting every row into every other (Cassowary's restricted form). Keeping rows as
  /// written stops chains of constraints (a form's stacked rows) from filling rows in
  /// quadratically; the dense baseline keeps the textbook form.
  static var keepsDefinitionsAsWritten: Bool { get }

  /// Whether ``rowCount(containing:)`` is O(1) (a column index); without one it scans every row.
  static var indexesColumns: Bool { get }

  /// Makes room for `rows` rows and `symbols` symbols, or throws when it cannot.
  mutating func reserve(rows: Int, symbols: Int) throws(SolverError)
  /// A new, empty row with constant 0.
  mutating func makeRow() -> Int32
  /// A new, empty row that will hold a cell of most symbols (an objective row), where the
  /// storage should find a symbol's cell without scanning.
  mutating func makeIndexedRow() -> Int32
  /// Returns an empty or unwanted row to the free pool.
  mutating func releaseRow(_ row: Int32)
  /// Removes every cell of `row` and sets its constant to 0.
  mutating func clearRow(_ row: Int32)

  /// The constant of `row`.
  func constant(of row: Int32) -> Double
  /// Sets the constant of `row`.
  mutating func setConstant(_ value: Double, of row: Int32)
  /// The coefficient of `symbol` in `row` (0 when absent).
  func coefficient(of symbol: Int32, in row: Int32) -> Double
  /// Adds `coefficient` to the cell of `symbol` in `row`; a cell that cancels is removed.
  mutating func add(_ coefficient: Double, for symbol: Int32, to row: Int32)
  /// Appends to `row`, which holds no cells, a cell of `coefficients[i]` for each `symbols[i]`,
  /// in order: what ``add(_:for:to:)`` for each would leave, given distinct symbols and no zero
  /// coefficient.
  mutating func appendCells(
    symbols: UnsafeBufferPointer<Int32>, coefficients: UnsafeBufferPointer<Double>,
    to row: Int32)
  /// Removes the cell of `symbol` from `row`, if any.
  mutating func removeCell(for symbol: Int32, from row: Int32)
  /// `target += factor × source`, constants included; cells that cancel are removed.
  mutating func add(row source: Int32, times factor: Double, to target: Int32)
  /// Multiplies every cell and the constant of `row` by `factor`.
  mutating func scale(row: Int32, by factor: Double)
  /// For every row but `source` that holds `symbol`: removes that cell and adds the cell's
  /// coefficient times `source`. Appends each changed row to `changed`.
  mutating func substitute(_ symbol: Int32, with source: Int32, changed: inout [Int32])
  /// Replaces each of `symbols` in `row`, in that order, by its definition: the row
  /// `definitions[symbol]`, times the symbol's coefficient in `row` at that moment (a symbol whose
  /// coefficient is then 0, or what rounding left of a cancellation, is left alone and its cell
  /// removed). A definition may bring in a symbol replaced later.
  mutating func substituteDefinitions(
    of symbols: [Int32], in row: Int32, definitions: some Definitions)

  /// The number of cells in `row`.
  func cellCount(of row: Int32) -> Int
  /// Calls `body` with each cell of `row`.
  func forEachCell(of row: Int32, _ body: (Int32, Double) -> Void)
  /// Calls `body` with each row holding `symbol`, and the symbol's coefficient there.
  func forEachRow(containing symbol: Int32, _ body: (Int32, Double) -> Void)
  /// Adds `factor` times its coefficient of `symbol` to the constant of each row holding
  /// `symbol` for which `isIncluded` is true: a change of variables on `symbol` in one pass.
  mutating func shiftConstants(
    ofRowsHolding symbol: Int32, by factor: Double, where isIncluded: (Int32) -> Bool)
  /// The number of rows holding `symbol` (its column length).
  func rowCount(containing symbol: Int32) -> Int
  /// Called when `symbol` is retired; it holds no cells by then.
  mutating func releaseSymbol(_ symbol: Int32)

  /// The non-zero cells in all rows.
  var totalCells: Int { get }
  /// Bytes held by the storage's arrays (capacity, not only what is in use).
  var bytes: Int { get }
  /// Makes room for `rows` rows and `symbols` symbols in all, for a build that knows its size
  /// before it starts: the tables then never grow by doubling while it runs. A hint: it changes
  /// no row, symbol or value.
  mutating func reserveCapacity(rows: Int, symbols: Int)
  /// Gives back space that rows and columns grew into and no longer use, once it is much larger
  /// than what is in use (amortized O(1) per call).
  mutating func compactIfWasteful()
  /// Gives back whatever space growth left unused beyond a small allowance, so that a layout
  /// just built holds about what it needs; called when an outermost batch that added or removed
  /// many constraints closes (amortized O(1) per cell added or removed since the last call).
  mutating func trimExcess()
  /// Returns storage to its empty state, releasing memory.
  mutating func removeAll()
}

extension TableauStorage {
  /// Sets the coefficient of `symbol` in `row` to exactly `value` (0 removes the cell).
  mutating func setCoefficient(_ value: Double, for symbol: Int32, in row: Int32) {
    removeCell(for: symbol, from: row)
    if value != 0 { add(value, for: symbol, to: row) }
  }

  /// A storage that finds any cell without scanning makes no difference for such rows.
  public mutating func makeIndexedRow() -> Int32 { makeRow() }

  /// One cell at a time.
  public mutating func appendCells(
    symbols: UnsafeBufferPointer<Int32>, coefficients: UnsafeBufferPointer<Double>,
    to row: Int32
  ) {
    for index in symbols.indices { add(coefficients[index], for: symbols[index], to: row) }
  }

  /// One symbol at a time: its cell is removed and its definition added.
  public mutating func substituteDefinitions(
    of symbols: [Int32], in row: Int32, definitions: some Definitions
  ) {
    substituteDefinitionsOneAtATime(of: symbols, in: row, definitions: definitions)
  }

  /// ``substituteDefinitions(of:in:definitions:)`` one symbol at a time: its cell is removed and
  /// its definition added.
  mutating func substituteDefinitionsOneAtATime(
    of symbols: [Int32], in row: Int32, definitions: some Definitions
  ) {
    for symbol in symbols {
      let coefficient = coefficient(of: symbol, in: row)
      guard coefficient != 0 else { continue }
      removeCell(for: symbol, from: row)
      add(row: definitions[Int(symbol)], times: coefficient, to: row)
    }
  }
}

/// Which row defines each symbol, indexed by symbol id (the solver's table of basic rows).
public protocol Definitions {
  /// The row defining `symbol`.
  subscript(symbol: Int) -> Int32 { get }
}

extension Array: Definitions where Element == Int32 {}
extension ManualArray: Definitions where Element == Int32 {}
