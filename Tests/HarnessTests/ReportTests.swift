import Foundation
import Harness
import Testing

@Suite("Statistics")
struct StatisticsTests {
  @Test func summaryOfKnownData() {
    let summary = TimingSummary([5, 1, 4, 2, 3, 10, 9, 8, 7, 6])
    #expect(summary.count == 10)
    #expect(summary.minimum == 1 && summary.maximum == 10)
    #expect(summary.median == 5)  // (5 + 6) / 2, rounded down
    #expect(summary.p90 == 9)
    let odd = TimingSummary([30, 10, 20])
    #expect(odd.median == 20 && odd.p90 == 30)
    #expect(TimingSummary([]).count == 0)
  }

  @Test func slopes() throws {
    let linear = try #require(logLogSlope([(100, 1), (1000, 10), (10000, 100)]))
    #expect(abs(linear - 1) < 1e-12)
    let quadratic = try #require(logLogSlope([(10, 3), (100, 300)]))
    #expect(abs(quadratic - 2) < 1e-12)
    #expect(logLogSlope([(10, 3)]) == nil)
    #expect(logLogSlope([(10, 0), (100, 5)]) == nil)
  }

  @Test func extrapolationCarriesTheLastPointAlongTheSlope() throws {
    // A quadratic series: 100 views cost 1, 1,000 views 100; at 10,000 views, 10,000.
    let quadratic = try #require(extrapolate([(100, 1), (1000, 100)], to: 10000))
    #expect(abs(quadratic.slope - 2) < 1e-9)
    #expect(abs(quadratic.value - 10000) < 1e-6)
    // A shrinking series is carried at slope 1 at least, a single point at slope 2.
    let shrinking = try #require(extrapolate([(100, 8), (1000, 4)], to: 10000))
    #expect(shrinking.slope == 1 && abs(shrinking.value - 40) < 1e-9)
    let single = try #require(extrapolate([(100, 3)], to: 1000))
    #expect(single.slope == 2 && abs(single.value - 300) < 1e-9)
    #expect(extrapolate([], to: 1000) == nil)
  }
}

@Suite("CSV and results files")
struct ResultsFileTests {
  func sample(_ phase: Phase = .resize, median: UInt64 = 1000) -> ResultRow {
    var row = ResultRow()
    row.runID = "r1"
    row.timestamp = "2026-11-21T00:00:00Z"
    row.commit = "abc"
    row.machine = "x86_64 2 cores"
    row.scene = .form
    row.variant = "standard"
    row.views = 100
    row.variables = 412
    row.constraints = 500
    row.solver = .sparse
    row.mode = .incremental
    row.phase = phase
    row.repetitions = 5
    row.medianNanoseconds = median
    row.minimumNanoseconds = median - 100
    row.p90Nanoseconds = median + 50
    row.maximumNanoseconds = median + 100
    row.allocations = 0
    row.allocatedBytes = 0
    row.retainedBytes = 123_456
    row.peakBytes = 0
    row.checksum = "deadbeef"
    row.cpuModel = "AMD EPYC 7B13"
    row.jemalloc = "5.3.0-0-g54eaed1d8b56b1aa528be3bdd1877e59c56fa90c"
    row.note = "a note, with a comma and \"quotes\"\nand a line break"
    return row
  }

  @Test func cellKeysReadBackWhatTheyWrite() {
    let row = sample(.churn, median: 5000)
    #expect(row.key.description == "form/standard/100/sparse/incremental/churn")
    #expect(CellKey(row.key.description) == row.key)
    #expect(row.seriesKey.description == "form/standard/sparse/incremental/churn")
    for text in [
      "", "form/standard/1000/sparse/incremental", "form/two/1000/sparse/incremental/churn",
      "form/standard/many/sparse/incremental/churn", "form/standard/1000/sparse/sideways/churn",
      "form/standard/1000/sparse/incremental/churn/extra",
    ] {
      #expect(CellKey(text) == nil, "\(text)")
    }
    // Tables list cells by scene, variant, phase, solver, mode, then size.
    var larger = row
    larger.views = 10_000
    var earlierPhase = larger
    earlierPhase.phase = .build
    #expect(
      [larger.key, row.key, earlierPhase.key].sorted() == [earlierPhase.key, row.key, larger.key])
  }

  @Test func quoting() {
    #expect(CSV.line(["a", "b,c", "d\"e", "f\ng"]) == "a,\"b,c\",\"d\"\"e\",\"f\ng\"\r\n")
  }

  @Test func roundTrip() throws {
    let rows = [sample(), sample(.churn, median: 5000)]
    let text = ResultsFile.text(rows)
    #expect(
      text.hasPrefix(
        "run_id,timestamp,commit,machine,toolchain,cpu_model,jemalloc,matrix,shard,scene,variant,"
          + "views,"))
    #expect(try ResultsFile.rows(text) == rows)
    // A byte order mark, as spreadsheet programs write one, is skipped.
    #expect(try ResultsFile.rows("\u{FEFF}" + text) == rows)
  }

  @Test func otherSchemasAndMalformedFilesAreRefused() {
    #expect(throws: ResultsFileError.self) { try ResultsFile.rows("") }
    #expect(throws: ResultsFileError.self) { try ResultsFile.rows("a,b,c\r\n1,2,3\r\n") }
    let good = ResultsFile.text([sample()])
    #expect(throws: ResultsFileError.self) {
      try ResultsFile.rows(good.replacingFirst("100,412", with: "many,412"))
    }
    #expect(throws: ResultsFileError.self) { try ResultsFile.rows(good + "\"unterminated") }
  }
}

@Suite("The regression gate")
struct ComparisonTests {
  let base = ResultsFileTests().sample()

  @Test func identicalRunsPass() {
    let comparison = Comparison(baseline: [base], current: [base])
    #expect(!comparison.hasRegression && comparison.matched == 1)
  }

  @Test func eachKindOfMetricIsCaught() {
    var checksum = base
    checksum.checksum = "feedface"
    var bytes = base
    bytes.allocatedBytes = 4096
    var allocations = base
    allocations.allocations = 100
    var instructions = base
    var instructionBase = base
    instructionBase.instructions = 1_000_000
    instructions.instructions = 1_100_000
    var slower = base
    slower.medianNanoseconds = 2000
    slower.minimumNanoseconds = 1900
    slower.maximumNanoseconds = 2100
    for (baseline, current, metric) in [
      (base, checksum, Metric.checksum), (base, bytes, .allocatedBytes),
      (instructionBase, instructions, .instructions), (base, slower, .medianTime),
    ] {
      let comparison = Comparison(baseline: [baseline], current: [current])
      #expect(comparison.hasRegression, "\(metric)")
      #expect(
        comparison.findings.contains { $0.metric == .metric(metric) && $0.regression },
        "\(metric)")
      #expect(comparison.markdown.contains("REGRESSION"))
    }
    // Allocation request counts are reported, not gated: jemalloc's thread caches batch them.
    let counted = Comparison(baseline: [base], current: [allocations])
    #expect(!counted.hasRegression)
    #expect(counted.findings.contains { $0.metric == .metric(.allocations) && !$0.regression })
  }

  @Test func aFasterOrSmallerCellIsAnImprovement() {
    var before = base
    before.allocatedBytes = 10_000
    (before.medianNanoseconds, before.minimumNanoseconds, before.maximumNanoseconds) = (
      3000, 2900, 3100
    )
    var smaller = before
    smaller.allocatedBytes = 5_000
    var faster = before
    (faster.medianNanoseconds, faster.minimumNanoseconds, faster.maximumNanoseconds) = (
      1000, 990, 1010
    )
    for current in [smaller, faster] {
      let comparison = Comparison(baseline: [before], current: [current])
      #expect(comparison.outcome() == .improvementsOnly)
      #expect(comparison.markdown.contains("improvement(s), no regression"))
    }
    #expect(Comparison(baseline: [base], current: [base]).outcome() == .unchanged)
  }

  @Test func filesThatCannotBeComparedAreSaidSo() {
    var other = base
    other.phase = .churn
    func problems(_ comparison: Comparison, allowingSubset: Bool = false) -> [String] {
      if case .unusable(let problems) = comparison.outcome(allowingSubset: allowingSubset) {
        return problems
      }
      return []
    }
    // Nothing in common (a header-only current file).
    #expect(
      problems(Comparison(baseline: [base], current: []))
        .contains("no cell is in both files: nothing was compared"))
    // Cells in both files, but measured in neither.
    var skipped = base
    skipped.status = .skipped
    #expect(
      problems(Comparison(baseline: [skipped], current: [skipped]))
        == ["no cell is measured in both files: nothing was compared"])
    // A truncated run: a cell the baseline measured is missing, unless a subset is allowed.
    let truncated = Comparison(baseline: [base, other], current: [base])
    #expect(problems(truncated).first?.hasPrefix("the current run lacks 1 cell(s)") == true)
    #expect(truncated.outcome(allowingSubset: true) == .unchanged)
    // A cell twice.
    #expect(
      problems(Comparison(baseline: [base], current: [base, base]))
        == ["\(base.key) appears more than once in the current run"])
    // A measured row without its checksum.
    var blank = base
    blank.checksum = nil
    #expect(
      problems(Comparison(baseline: [base], current: [blank]))
        == ["\(base.key) is measured in the current run but has no checksum"])
  }

  @Test func aMissingColumnIsNamed() {
    let text = ResultRow.columns.filter { $0 != "allocated_bytes" }.joined(separator: ",") + "\n"
    #expect {
      try ResultsFile.rows(text)
    } throws: { error in
      "\(error)".contains("the header lacks allocated_bytes")
    }
  }

  @Test func noisyTimingsPass() {
    // 30% slower, but the ranges overlap: noise, not a regression.
    var noisy = base
    noisy.medianNanoseconds = 1300
    noisy.minimumNanoseconds = 1050
    noisy.maximumNanoseconds = 1500
    #expect(!Comparison(baseline: [base], current: [noisy]).hasRegression)
    // Ignoring time entirely (CI on another machine).
    var slower = base
    slower.medianNanoseconds = 5000
    slower.minimumNanoseconds = 4900
    #expect(
      !Comparison(baseline: [base], current: [slower], timeThreshold: .infinity).hasRegression)
  }
}

extension String {
  func replacingFirst(_ target: String, with replacement: String) -> String {
    guard let range = range(of: target) else { return self }
    return replacingCharacters(in: range, with: replacement)
  }
}

@Suite("The JSON document")
struct ResultsDocumentTests {
  func document(_ rows: [ResultRow]) -> ResultsDocument {
    ResultsDocument(
      context: ResultsDocument.Context(
        runID: "r1", timestamp: "2026-11-21T00:00:00Z", commit: "abc", machine: "x86_64",
        toolchain: ResultsDocument.toolchain, jemalloc: "5.3.0",
        options: ResultsDocument.Options(.quick)),
      rows: rows, slopes: [])
  }

  @Test func figuresAreNumbersAndWhatWasNotMeasuredIsNull() throws {
    var measured = ResultsFileTests().sample()
    measured.samples = [[900, 1000, 1100]]
    var skipped = ResultsFileTests().sample(.churn)
    skipped.status = .skipped
    skipped.repetitions = 0
    skipped.medianNanoseconds = nil
    skipped.minimumNanoseconds = nil
    skipped.p90Nanoseconds = nil
    skipped.maximumNanoseconds = nil
    skipped.allocatedBytes = nil
    skipped.checksum = nil
    let text = try document([measured, skipped]).jsonText()
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(object["schemaVersion"] as? Int == ResultsDocument.currentSchemaVersion)
    let context = try #require(object["context"] as? [String: Any])
    #expect(context["commit"] as? String == "abc")
    #expect((context["options"] as? [String: Any])?["rounds"] as? Int == 3)
    let rows = try #require(object["rows"] as? [[String: Any]])
    // The CSV's field names, every one of them.
    #expect(Set(rows[0].keys) == Set(ResultRow.columns))
    #expect(rows[0]["median_ns"] as? Int == 1000)
    #expect(rows[0]["samples_ns"] as? [[Int]] == [[900, 1000, 1100]])
    #expect(rows[0]["instructions"] is NSNull)
    #expect(rows[0]["shard"] is NSNull)
    #expect(rows[1]["median_ns"] is NSNull)
    #expect(rows[1]["allocated_bytes"] is NSNull && rows[1]["checksum"] is NSNull)
    // It reads back as written.
    let decoded = try JSONDecoder().decode(ResultsDocument.self, from: Data(text.utf8))
    #expect(decoded == document([measured, skipped]))
  }
}

@Suite("Charts")
struct ChartTests {
  func row(
    _ views: Int, _ solver: ResultRow.Solver, bytes: UInt64?, status: ResultRow.Status = .ok
  ) -> ResultRow {
    var row = ResultsFileTests().sample(.firstSolve, median: 1000 * UInt64(views))
    row.views = views
    row.solver = solver
    row.allocatedBytes = bytes
    row.status = status
    row.note = status == .ok ? "" : "over the 30 s cell budget"
    return row
  }

  /// The text of every `<text>` element.
  func texts(_ svg: String) -> [String] {
    svg.components(separatedBy: "<text").dropFirst().compactMap { element in
      element.split(separator: ">", maxSplits: 1).last?.components(separatedBy: "</text")
        .first
    }
  }

  @Test func axesReadInTheirUnits() {
    let rows = [
      row(100, .sparse, bytes: 1_500), row(1000, .sparse, bytes: 150_000),
      row(10000, .sparse, bytes: 15_000_000),
    ]
    let bytes = texts(Chart(rows: rows, phase: .firstSolve, metric: .allocated).svg)
    // 1,500 B to 15,000,000 B: from 1 KiB (at or below the least) to 100 MiB (at or above the
    // most), in binary units.
    for label in ["1 KiB", "10 KiB", "100 KiB", "1 MiB", "10 MiB", "100 MiB", "100", "1k", "10k"] {
      #expect(bytes.contains(label), "\(label)")
    }
    #expect(!bytes.contains { $0.contains("kB") || $0.contains("MB") || $0.contains("1000") })
    #expect(!bytes.contains { $0.contains("e-") || $0.contains("e+") })
    // Medians of 100 µs to 10 ms.
    let times = texts(Chart(rows: rows, phase: .firstSolve, metric: .time).svg)
    for label in ["100 µs", "1 ms", "10 ms"] { #expect(times.contains(label), "\(label)") }
  }

  @Test func bytesReadInBinaryUnits() {
    let bytes = Chart.Metric.allocated
    #expect(bytes.label(1_048_576) == "1 MiB")
    #expect(bytes.label(1024) == "1 KiB" && bytes.label(10 * 1024) == "10 KiB")
    #expect(bytes.label(1536) == "1.5 KiB" && bytes.label(512) == "512 B")
    #expect(bytes.label(100 * 1_073_741_824) == "100 GiB" && bytes.label(0) == "0 B")
    #expect(Chart.Metric.time.label(1_000_000) == "1 ms")
  }

  @Test func aSeriesOfZerosIsDrawnInItsOwnBand() {
    let rows = [
      row(100, .sparse, bytes: 0), row(1000, .sparse, bytes: 0),
      row(100, .dense, bytes: 2_000), row(1000, .dense, bytes: 20_000),
    ]
    let chart = Chart(rows: rows, phase: .firstSolve, metric: .allocated)
    #expect(chart.panels.first?.series.map(\.name) == ["sparse incremental", "dense incremental"])
    let svg = chart.svg
    #expect(texts(svg).contains("0 B"))
    #expect(svg.contains("stroke=\"\(Chart.style(of: "sparse incremental").color)\""))
    // A panel of zeros alone is drawn too.
    let zeros = Chart(rows: Array(rows.prefix(2)), phase: .firstSolve, metric: .allocated)
    #expect(zeros.panels.count == 1 && zeros.svg.contains(">0 B</text>"))
  }

  @Test func aSeriesLooksTheSameInEveryChartAndSkipsAreMarked() {
    let sparse = Chart.style(of: "sparse incremental")
    let dense = Chart.style(of: "dense incremental")
    #expect(sparse != dense)
    let rows = [
      row(100, .sparse, bytes: 1_000), row(1000, .sparse, bytes: 10_000),
      row(100, .dense, bytes: 2_000), row(1000, .dense, bytes: nil, status: .skipped),
    ]
    let svg = Chart(rows: rows, phase: .firstSolve, metric: .allocated).svg
    #expect(svg.contains("stroke=\"\(dense.color)\""))
    #expect(svg.contains("<title>dense incremental at 1000 views: skipped: over the 30 s cell"))
    // Drawn with only the sparse rows, sparse keeps its colour.
    let alone = Chart(rows: Array(rows.prefix(2)), phase: .firstSolve, metric: .allocated).svg
    #expect(alone.contains("stroke=\"\(sparse.color)\"") && !alone.contains(dense.color))
  }
}
