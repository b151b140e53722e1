import Testing
@testable import FaultlineProxy

/// Properties of the upstream connection's lifecycle over seeded random event sequences:
/// never reusable after a close or failure, never parked mid-message, an owner only while
/// connecting, serving or tunnelling (and always the exchange's own).
@Suite("Upstream connection lifecycle properties over random event sequences")
struct UpstreamConnectionLifecyclePropertyTests {
    /// What the test saw of the current exchange, from the transitions' answers alone.
    struct Model {
        var owner: StubUpstreamOwner?
        var requestWritten = false
        var finalKeepAlive = false
        /// The final response ended, and the connection may be trusted after it.
        var endedCleanly = false
        var closed = false

        mutating func startExchange(_ owner: StubUpstreamOwner) {
            self.owner = owner
            requestWritten = false
            finalKeepAlive = false
            endedCleanly = false
        }
    }

    /// A random event, weighted so that many sequences get as far as the pool (a close or a
    /// 101 ends a sequence's interesting part, so they are rare).
    static func randomEvent(_ rng: inout SeededGenerator) -> LifecycleEvent {
        switch Int.random(in: 0..<32, using: &rng) {
        case 0..<3: .attach
        case 3..<7: .connected
        case 7..<12: .requestWritten
        case 12..<14: .head(.interim)
        case 14: .head(.switchingProtocols)
        case 15..<20: .head(.final(keepAlive: Int.random(in: 0..<4, using: &rng) != 0))
        case 20..<26: .messageEnded(reusable: Int.random(in: 0..<4, using: &rng) != 0)
        case 26..<31: .park
        default: [.close(.byProxy), .close(.byUpstream), .close(.failed(.closedEarly))][Int.random(in: 0..<3, using: &rng)]
        }
    }

    @Test func propertiesHoldOverRandomSequences() {
        var rng = SeededGenerator(seed: 0x0F_A017_11E5)
        let pool = UpstreamPool()
        var violations: [String] = []
        var parks = 0
        var refusedMidMessage = 0
        for sequence in 0..<2_000 {
            let first = StubUpstreamOwner()
            var lifecycle = UpstreamConnectionLifecycle(connectingFor: first, bytesSent: 0)
            var model = Model()
            model.startExchange(first)
            for step in 0..<Int.random(in: 1...60, using: &rng) {
                // Each attach brings a new exchange, hence a new owner.
                let owner = lifecycle.owner as? StubUpstreamOwner ?? StubUpstreamOwner()
                let event = Self.randomEvent(&rng)
                let before = lifecycle.label
                let wasReusable = lifecycle.isReusable
                let answer = event.apply(to: &lifecycle, owner: owner, pool: pool)
                let at = "sequence \(sequence) step \(step): \(event) in \(before) answered \(answer)"
                switch (event, answer) {
                case (.attach, "ok"):
                    model.startExchange(owner)
                case (.requestWritten, _) where model.owner != nil:
                    model.requestWritten = true
                case (.head(.final(let keepAlive)), "ok"):
                    model.finalKeepAlive = keepAlive
                case (.head(.switchingProtocols), "ok"):
                    model.endedCleanly = false
                case (.messageEnded(let reusable), "response"):
                    model.endedCleanly = model.finalKeepAlive && reusable
                case (.park, "no"):
                    if case .serving = lifecycle { refusedMidMessage += 1 }
                case (.park, "ok"):
                    parks += 1
                    if !(model.requestWritten && model.endedCleanly) || !wasReusable {
                        violations.append("\(at): parked mid-message")
                    }
                    model.owner = nil
                case (.close, _):
                    model.owner = nil
                    model.closed = true
                default:
                    break
                }
                if answer.contains("wrong") { violations.append("\(at): told a stranger") }
                if model.closed {
                    if !lifecycle.isClosed { violations.append("\(at): reopened after close") }
                    if lifecycle.isReusable { violations.append("\(at): reusable after close") }
                    if case .attach = event, answer == "ok" { violations.append("\(at): attached after close") }
                }
                if lifecycle.isReusable && !(model.requestWritten && model.endedCleanly) {
                    violations.append("\(at): reusable before a clean end")
                }
                switch lifecycle {
                case .connecting(let held, _), .serving(let held, _, _), .tunnel(let held):
                    if held !== model.owner { violations.append("\(at): holds an owner not its exchange's") }
                case .idle, .closed:
                    if lifecycle.owner != nil { violations.append("\(at): an owner while \(lifecycle.label)") }
                }
            }
        }
        #expect(violations.isEmpty, "\(violations.prefix(5))")
        // The sequences must actually reach the pool, or the property says nothing.
        #expect(parks > 100)
        #expect(refusedMidMessage > 100)
    }
}
