/// A constraint's place in one item's list of the constraints that refer to it
/// (``LayoutItem/firstConstraint``).
struct ConstraintListLinks {
  /// The next constraint in the list; nil at the end.
  var next: Unmanaged<LayoutConstraint>?
  /// The previous one; at the list's head, the last (so that appending is O(1)).
  var previous: Unmanaged<LayoutConstraint>?
}

extension LayoutConstraint {
  /// The links of the end of the constraint that refers to `item` (the first end when both
  /// do: a constraint between an item and itself is listed once).
  ///
  /// - Complexity: O(1).
  @inline(__always)
  func listLinks(in item: UnsafeMutableRawPointer) -> ConstraintListLinks {
    firstItemReference.toOpaque() == item ? firstItemLinks : secondItemLinks
  }

  /// Sets the links of the end of the constraint that refers to `item`.
  @inline(__always)
  func setListLinks(_ links: ConstraintListLinks, in item: UnsafeMutableRawPointer) {
    if firstItemReference.toOpaque() == item {
      firstItemLinks = links
    } else {
      secondItemLinks = links
    }
  }

  /// Sets the next link of the end of the constraint that refers to `item`.
  @inline(__always)
  func setNext(_ next: Unmanaged<LayoutConstraint>?, in item: UnsafeMutableRawPointer) {
    if firstItemReference.toOpaque() == item {
      firstItemLinks.next = next
    } else {
      secondItemLinks.next = next
    }
  }

  /// Sets the previous link of the end of the constraint that refers to `item`.
  @inline(__always)
  func setPrevious(_ previous: Unmanaged<LayoutConstraint>?, in item: UnsafeMutableRawPointer) {
    if firstItemReference.toOpaque() == item {
      firstItemLinks.previous = previous
    } else {
      secondItemLinks.previous = previous
    }
  }
}

extension LayoutItem {
  /// Lists `constraint`, which refers to this item and is not listed yet, at the end.
  ///
  /// - Complexity: O(1).
  func appendToConstraintList(_ constraint: Unmanaged<LayoutConstraint>) {
    let me = Unmanaged.passUnretained(self).toOpaque()
    guard let head = firstConstraint else {
      constraint._withUnsafeGuaranteedRef {
        $0.setListLinks(ConstraintListLinks(next: nil, previous: constraint), in: me)
      }
      firstConstraint = constraint
      return
    }
    let last = head._withUnsafeGuaranteedRef { $0.listLinks(in: me).previous! }
    last._withUnsafeGuaranteedRef { $0.setNext(constraint, in: me) }
    constraint._withUnsafeGuaranteedRef {
      $0.setListLinks(ConstraintListLinks(next: nil, previous: last), in: me)
    }
    head._withUnsafeGuaranteedRef { $0.setPrevious(constraint, in: me) }
  }

  /// Takes `constraint`, which is listed, off the list.
  ///
  /// - Complexity: O(1).
  func removeFromConstraintList(_ constraint: Unmanaged<LayoutConstraint>) {
    let me = Unmanaged.passUnretained(self).toOpaque()
    let links = constraint._withUnsafeGuaranteedRef { $0.listLinks(in: me) }
    guard let head = firstConstraint else { return }
    if head.toOpaque() == constraint.toOpaque() {
      firstConstraint = links.next
      // The new head takes the last's link (the removed one was not the last, having a next).
      links.next?._withUnsafeGuaranteedRef { $0.setPrevious(links.previous, in: me) }
    } else {
      let previous = links.previous!
      previous._withUnsafeGuaranteedRef { $0.setNext(links.next, in: me) }
      // The removed one's next takes its previous; when it was the last, the head's link does.
      (links.next ?? head)._withUnsafeGuaranteedRef { $0.setPrevious(previous, in: me) }
    }
    constraint._withUnsafeGuaranteedRef { $0.setListLinks(ConstraintListLinks(), in: me) }
  }

  /// Calls `body` with each active constraint that refers to this item, in the order they were
  /// made. `body` may deactivate or uninstall the constraint it is given, as long as something
  /// else keeps it alive meanwhile, and must not drop the others.
  ///
  /// - Complexity: O(constraints that refer to the item, active or not), plus `body`'s.
  @inline(__always)
  func forEachActiveConstraint(_ body: (LayoutConstraint) -> Void) {
    let me = Unmanaged.passUnretained(self).toOpaque()
    var next = firstConstraint
    while let reference = next {
      reference._withUnsafeGuaranteedRef { constraint in
        next = constraint.listLinks(in: me).next
        if constraint.active { body(constraint) }
      }
    }
  }

  /// The active constraints that refer to this item, in the order they were made.
  ///
  /// - Complexity: O(constraints that refer to the item, active or not).
  var activeConstraints: [LayoutConstraint] {
    var result: [LayoutConstraint] = []
    forEachActiveConstraint { result.append($0) }
    return result
  }

  /// Whether some active constraint refers to this item.
  ///
  /// - Complexity: O(constraints that refer to the item, active or not).
  var hasActiveConstraints: Bool {
    let me = Unmanaged.passUnretained(self).toOpaque()
    var next = firstConstraint
    while let reference = next {
      let active = reference._withUnsafeGuaranteedRef { constraint in
        next = constraint.listLinks(in: me).next
        return constraint.active
      }
      if active { return true }
    }
    return false
  }
}
