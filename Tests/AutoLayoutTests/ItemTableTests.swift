import Glibc
import Testing

@testable import AutoLayout

/// Items are rows of their thread's item table, named by ids that do not keep them alive: an
/// anchor reads its item while it lives and reads as gone after, never as the item that took
/// its row next; rows come back to their table from whichever thread the item went on.
@Suite struct ItemTableTests {
  @Test func anAnchorReadsItsItemUntilItGoes() {
    var view: View? = View()
    let anchor = view!.leadingAnchor
    let height = view!.heightAnchor
    #expect(anchor.item === view)
    #expect(height.item === view)
    #expect(anchor.description.contains("View:0x"))
    view = nil
    #expect(anchor.item == nil)
    #expect(height.item == nil)
    #expect(anchor.description == #"<XAxisAnchor:(gone) "(gone).leading">"#)
  }

  @Test func aRowTakenAgainDoesNotReviveAnOldAnchor() {
    var first: View? = View()
    let oldAnchor = first!.topAnchor
    let row = first!.row
    first = nil
    // The row given back on this thread is the next one its table hands out.
    let second = Label("next")
    #expect(second.row == row)
    #expect(oldAnchor.item == nil)
    #expect(second.topAnchor.item === second)
    #expect(oldAnchor.itemID != second.topAnchor.itemID)
  }

  @Test func aGuideIsARowToo() {
    let view = View()
    var guide: LayoutGuide? = LayoutGuide()
    view.addLayoutGuide(guide!)
    let anchor = guide!.widthAnchor
    #expect(anchor.item === guide)
    view.removeLayoutGuide(guide!)
    guide = nil
    #expect(anchor.item == nil)
  }

  @Test func rowsFreedOnAnotherThreadGoBackToTheirTable() {
    let table = ItemTable.current
    // Rows this thread's table hands out before any is freed elsewhere.
    let box = Handed((0..<50).map { _ in View() })
    let rows = Set(box.value.map(\.row))
    let anchors = box.value.map(\.widthAnchor)
    let before = table.rowCounts
    runOnNewThread { box.value.removeAll() }
    #expect(box.value.isEmpty)
    #expect(anchors.allSatisfy { $0.item == nil })
    #expect(table.rowCounts.inUse == before.inUse - 50)
    // Once its own list is empty, the table takes the rows freed elsewhere back rather than
    // make new ones.
    var next: [View] = []
    repeat { next.append(View()) } while !rows.contains(next.last!.row) && next.count <= before.made
    #expect(rows.contains(next.last!.row))
    #expect(table.rowCounts.made == before.made)
  }

  @Test func eachThreadHasItsOwnTableAndLeavesItToTheNext() {
    let mine = ObjectIdentifier(ItemTable.current)
    let theirs = Handed<[ObjectIdentifier]>([])
    let kept = Handed<[View]>([])
    runOnNewThread {
      theirs.value.append(ObjectIdentifier(ItemTable.current))
      kept.value = (0..<10).map { _ in View() }
    }
    #expect(theirs.value.count == 1)
    #expect(theirs.value[0] != mine)
    // The views outlive the thread that made them; their rows stay theirs.
    #expect(kept.value.allSatisfy { $0.heightAnchor.item === $0 })
    kept.value.removeAll()
  }
}

/// A value handed to another thread and read back after it ended.
private final class Handed<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}

/// Runs `body` on a thread of its own and waits for it to end.
private func runOnNewThread(_ body: @escaping @Sendable () -> Void) {
  let context = Unmanaged.passRetained(Handed(body)).toOpaque()
  var thread = pthread_t()
  let status = pthread_create(
    &thread, nil,
    { raw in
      let box = Unmanaged<Handed<@Sendable () -> Void>>.fromOpaque(raw!).takeRetainedValue()
      box.value()
      return nil
    }, context)
  precondition(status == 0, "pthread_create failed: \(status)")
  pthread_join(thread, nil)
}
