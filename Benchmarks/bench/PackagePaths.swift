import Foundation

/// The nearest folder above `binary` that holds a Package.swift, or nil.
func packageDirectory(of binary: URL) -> URL? {
  var folder = binary.deletingLastPathComponent()
  while folder.path != "/" {
    if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
      return folder
    }
    folder = folder.deletingLastPathComponent()
  }
  return nil
}

/// The package this bench was built in (`.build/release/bench` lies in it), or nil for a bench
/// outside any package.
let benchPackage: URL? = packageDirectory(
  of: URL(fileURLWithPath: CallgrindRun.currentExecutable()).standardizedFileURL)

/// `relative` (a default path such as `results/latest.csv`) in the package this bench was built
/// in, whatever the working directory, so that `bench report` run from elsewhere writes the
/// project's report and not a new `results/` folder where it stands; relative to the working
/// directory for a bench outside any package. Paths given on the command line are the user's
/// and stay relative to the working directory.
func packagePath(_ relative: String) -> String {
  guard let benchPackage,
    benchPackage.path
      != URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
      .standardizedFileURL.path
  else { return relative }
  return benchPackage.appendingPathComponent(relative).path
}
