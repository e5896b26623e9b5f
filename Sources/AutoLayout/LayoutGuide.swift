/// A rectangle that takes part in constraints without being a view: the cookbook's lighter
/// alternative to dummy spacer views. It belongs to an owning view and never enters the view
/// tree, so it has no frame to write, only a ``layoutFrame`` read from the solver.
open class LayoutGuide: LayoutItem {
  /// A name for the guide in descriptions.
  public var identifier: String
  /// The view that owns the guide (its constraints live in that view's tree); unowned: a view
  /// that goes sets it to `nil`.
  public internal(set) unowned(safe) var owningView: View?

  /// A guide named `identifier`; add it to a view with ``View/addLayoutGuide(_:)``.
  public init(identifier: String = "") {
    self.identifier = identifier
    super.init()
  }

  override var hostView: View? { owningView }

  public override var layoutDescription: String {
    let name = "\(String(describing: type(of: self))):\(address(of: self))"
    return identifier.isEmpty ? name : "\(name)'\(identifier)'"
  }

  /// The guide's rectangle in its owning view's bounds, as of the solver's current values.
  public var layoutFrame: Rect {
    guard let owner = owningView, let engine = owner.layoutEngine,
      let rect = engine.alignmentRect(of: self)
    else { return .zero }
    let origin: Point
    if owner.engineBlock >= 0, let ownerRect = engine.alignmentRect(of: owner) {
      let frame = owner.frameFromAlignmentRect(ownerRect)
      origin = frame.origin
    } else {
      origin = owner.absoluteFrameOrigin()
    }
    return Rect(
      x: rect.minX - origin.x, y: rect.minY - origin.y, width: rect.width, height: rect.height)
  }
}
