import Testing
@testable import FaultlineProxy

@Suite("Exchange actions stay small")
struct ExchangeActionLayoutTests {
    /// Every event returns its actions inline: a wide action would be copied on every body part.
    @Test func anActionFitsInFourWords() {
        #expect(MemoryLayout<ExchangeAction>.stride <= 32)
    }
}
