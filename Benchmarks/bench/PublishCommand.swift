import ArgumentParser
import Foundation
import Harness
import History

/// `bench publish`: the history store as a static site.
struct Publish: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write the history store as a static HTML dashboard.",
    discussion: """
      The site opens from the file system with no network: index.html (the latest run: its \
      environment, and each scene and phase by solver with the strategies' ratios; the latest \
      commits' regressions), regressions.html (every regression, as `bench history \
      regressions` prints them), and a page of trend charts for each scene variant and size: \
      one chart a phase, one series a solver and mode, one point a commit. The pages are \
      written beside the folder first and then moved in, so a failure leaves the old site whole.
      """)

  @OptionGroup var store: StoreOptions
  @Option(
    help: """
      The folder to write the site into: a new or empty folder, or one an earlier publish wrote \
      (it holds .bench-site), which is replaced.
      """)
  var output: String
  @OptionGroup var criteria: RegressionOptions

  func run() throws {
    let history = try store.open(.read, command: "publish")
    let site = try historyFailure("publish") { () throws(HistoryError) in
      try Dashboard(store: history, criteria: criteria.criteria)
    }
    do {
      try site.write(to: output)
    } catch  where error.isRefusal {
      throw BenchFailure(.badInput, "bench publish: \(error)")
    } catch {
      throw BenchFailure(.ioFailure, "bench publish: \(error)")
    }
    printOutput("\(output): \(site.pages.count) page(s), index.html first")
  }
}
