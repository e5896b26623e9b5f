/// A rectangle that takes part in constraints without being a view: the cookbook's lighter
/// alternative to dummy spacer views. It belongs to an owning view and never enters the view
/// tree, so it has no frame to write, only a ``layoutFrame`` read from the solver.
open class LayoutGuide: LayoutItem {
  /// A name for the guide in descriptions.
  public var identifier: String
  /// The view that owns the guide (its constraints live in that view's tree); `nil` until the
  /// guide is added to a view, and again once it is removed or the view goes.
  public var owningView: View? { owner }
  /// ``owningView`` as stored. Not public, so that the compiler sees every access and checks
  /// them statically: a public stored property of a class is checked for exclusive access at
  /// run time on every read (some 80 instructions), and a guide's owner is read at every step
  /// of each of its constraints' way into the engine. Unowned, and unchecked in release builds
  /// as ``LayoutConstraint/firstItem``'s references are: a view that goes sets it to `nil`.
  /// An `Unmanaged` in release builds: an optional `unowned(unsafe)` reference is retained and
  /// released around every read that unwraps it.
  #if DEBUG
    unowned(safe) var owner: View?
    var ownerReference: Unmanaged<View>? { owner.map { .passUnretained($0) } }
  #else
    var ownerReference: Unmanaged<View>?
    var owner: View? {
      get { ownerReference?.takeUnretainedValue() }
      set { ownerReference = newValue.map { .passUnretained($0) } }
    }
  #endif

  /// A guide named `identifier`; add it to a view with ``View/addLayoutGuide(_:)``.
  public init(identifier: String = "") {
    self.identifier = identifier
    super.init()
  }

  override var hostView: View? { owner }

  override func unretainedHostView() -> Unmanaged<View>? { ownerReference }

  public override var layoutDescription: String {
    let name = "\(String(describing: type(of: self))):\(address(of: self))"
    return identifier.isEmpty ? name : "\(name)'\(identifier)'"
  }

  /// The guide's rectangle in its owning view's bounds, as of the solver's current values.
  public var layoutFrame: Rect {
    guard let owner, let engine = owner.layoutEngine,
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
