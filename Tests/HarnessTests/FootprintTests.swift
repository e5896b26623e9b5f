import AutoLayout
import Harness
import Testing

/// What an object of the model costs the allocator (jemalloc, the process's): a layout of
/// 10,000 views holds tens of thousands of constraints, so a field that pushes one into the next
/// size class costs megabytes.
@Suite struct FootprintTests {
  @Test func aConstraintFitsA112ByteAllocation() {
    let first = View()
    let second = View()
    let between = first.widthAnchor.constraint(equalTo: second.widthAnchor, constant: 8)
    let alone = first.heightAnchor.constraint(equalToConstant: 20)
    alone.identifier = "height"
    // 112 bytes of fields, declared widest first, with a one-byte kind (the system kinds read
    // their data from their view) and the identifier boxed; padding between narrow and wide
    // fields, or a payload in the kind, would take it to the 128-byte class.
    #expect(AllocatorStatistics.allocatedSize(of: between) == 112)
    #expect(AllocatorStatistics.allocatedSize(of: alone) == 112)
  }

  @Test func aViewAndItsControlsFitA320ByteAllocation() {
    // A view holds its content-size rows' four ids and two lengths itself (32 bytes, where
    // two references to constraint objects were 16), and what most views leave at their
    // defaults in a box of its own: a plain view, a label, a text field and a button stay in
    // jemalloc's 320-byte class rather than its 384-byte one.
    #expect(AllocatorStatistics.allocatedSize(of: View()) == 320)
    #expect(AllocatorStatistics.allocatedSize(of: Label("Name")) == 320)
    #expect(AllocatorStatistics.allocatedSize(of: TextField("Enter name")) == 320)
    #expect(AllocatorStatistics.allocatedSize(of: Button("OK")) == 320)
  }
}
