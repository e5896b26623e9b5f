import AutoLayout
import Cassowary
import Testing

/// A root view the size of a phone in portrait, with the cookbook's margins (16 on the sides)
/// and a 20-point status bar as its safe area's top: the top layout guide's bottom is at 20.
func makeRoot(_ solver: SolverStrategy, width: Double = 375, height: Double = 667) -> View {
  let root = View(frame: Rect(x: 0, y: 0, width: width, height: height))
  root.preferredSolver = solver
  root.layoutMargins = EdgeInsets(top: 0, left: 16, bottom: 0, right: 16)
  root.safeAreaInsets = EdgeInsets(top: 20, left: 0, bottom: 0, right: 0)
  return root
}

/// Rotates `root` to `width` × `height` and lays it out.
func resize(_ root: View, width: Double, height: Double) {
  root.frame = Rect(x: 0, y: 0, width: width, height: height)
  root.layoutIfNeeded()
}

/// Expects `view.frame` to be (`x`, `y`, `width`, `height`) within 1e-6.
func expectFrame(
  _ view: View, _ x: Double, _ y: Double, _ width: Double, _ height: Double,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let frame = view.frame
  let expected = Rect(x: x, y: y, width: width, height: height)
  let close =
    abs(frame.minX - x) < 1e-6 && abs(frame.minY - y) < 1e-6 && abs(frame.width - width) < 1e-6
    && abs(frame.height - height) < 1e-6
  #expect(close, "frame \(frame) is not \(expected)", sourceLocation: sourceLocation)
}

/// Collects the engine's log instead of printing it.
final class LogCollector {
  var messages: [String] = []

  func attach(to root: View) {
    root.layoutEngine?.logHandler = { [unowned self] in self.messages.append($0) }
  }
}
