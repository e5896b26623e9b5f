import Cassowary
import Testing

@Suite struct PriorityTests {
  @Test func validRange() {
    #expect(Priority.required.isRequired)
    #expect(Priority(1000).isValid)
    #expect(Priority(0.001).isValid)
    #expect(!Priority(0).isValid)
    #expect(!Priority(1000.5).isValid)
    #expect(!Priority(-1).isValid)
    #expect(!Priority(.nan).isValid)
    #expect(!Priority(.infinity).isValid)
    #expect(!Priority(999.999).isRequired)
  }

  @Test func descriptionIsAutoLayoutsSpelling() {
    #expect(Priority(250).description == "250")
    #expect(Priority(999.5).description == "999.5")
  }
}
