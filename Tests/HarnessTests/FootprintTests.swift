import AutoLayout
import Harness
import Testing

/// What an object of the model costs the allocator (jemalloc, the process's): a layout of
/// 10,000 views holds tens of thousands of constraints, so a field that pushes one into the next
/// size class costs megabytes.
@Suite struct FootprintTests {
  @Test func aConstraintFitsA128ByteAllocation() {
    let first = View()
    let second = View()
    let between = first.widthAnchor.constraint(equalTo: second.widthAnchor, constant: 8)
    let alone = first.heightAnchor.constraint(equalToConstant: 20)
    alone.identifier = "height"
    // 120 bytes of fields, declared widest first; padding between narrow and wide ones would
    // take it to the 160-byte class.
    #expect(AllocatorStatistics.allocatedSize(of: between) == 128)
    #expect(AllocatorStatistics.allocatedSize(of: alone) == 128)
  }
}
