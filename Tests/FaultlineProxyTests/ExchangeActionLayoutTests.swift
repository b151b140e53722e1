import Testing
@testable import FaultlineProxy

@Suite("Exchange actions stay small")
struct ExchangeActionLayoutTests {
    /// Every event returns its actions inline: an action holding a reference would be
    /// retained, copied and released on every body part.
    @Test func anActionIsPlainDataOfAtMostThreeWords() {
        #expect(_isPOD(ExchangeAction.self))
        #expect(_isPOD(ExchangeActions.self))
        #expect(_isPOD(ExchangeState.self), "the state is read on every event")
        #expect(MemoryLayout<ExchangeAction>.stride <= 24)
    }
}
