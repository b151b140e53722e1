import FaultlineHTTP
import FaultlineIO
import FaultlineLog
import Testing
@testable import FaultlineProxy

/// The upstream connection's lifecycle without sockets: every event in every stage (table
/// driven), and properties over seeded random event sequences.
@Suite("Upstream connection lifecycle")
struct UpstreamConnectionLifecycleTests {
    typealias Lifecycle = UpstreamConnectionLifecycle
    typealias Progress = UpstreamExchangeProgress

    /// The stages every event is tried in.
    static func stages(owner: StubUpstreamOwner, pool: UpstreamPool) -> [(String, Lifecycle)] {
        func progress(_ lease: Progress.Lease, _ request: Progress.Request, _ response: Progress.Response) -> Progress {
            var progress = Progress(bytesSentBefore: 0, lease: lease)
            progress.request = request
            progress.response = response
            return progress
        }
        return [
            ("connecting(sending)", Lifecycle(connectingFor: owner, bytesSent: 0)),
            ("connecting(sent)", .connecting(owner: owner, exchange: progress(.fresh, .sent, .awaitingHead))),
            ("serving(fresh,sending,awaitingHead)", .serving(owner: owner, exchange: progress(.fresh, .sending, .awaitingHead), pin: nil)),
            ("serving(fresh,sent,receiving(true))", .serving(owner: owner, exchange: progress(.fresh, .sent, .receiving(keepAlive: true)), pin: nil)),
            ("serving(pooled,sent,complete(true))", .serving(owner: owner, exchange: progress(.pooled, .sent, .complete(keepAlive: true)), pin: .match)),
            ("serving(fresh,sending,complete(true))", .serving(owner: owner, exchange: progress(.fresh, .sending, .complete(keepAlive: true)), pin: nil)),
            ("serving(fresh,sent,interim)", .serving(owner: owner, exchange: progress(.fresh, .sent, .interim), pin: nil)),
            ("idle", .idle(pool: pool, deadline: 5, pin: .match)),
            ("tunnel", .tunnel(owner: owner)),
            ("closed", .closed(.byProxy, last: nil)),
        ]
    }

    /// One row per stage, one column per event of `LifecycleEvent.all`: what the transition
    /// answered, then the stage it left ("=" when unchanged).
    static let table: [String: [String]] = [
        "connecting(sending)": ["no =", "tell serving(fresh,sending,awaitingHead)", "- connecting(sent)", "no =", "no =", "no =",
                                "ignored =", "ignored =", "no =", "tellOwner closed"],
        "connecting(sent)": ["no =", "tell serving(fresh,sent,awaitingHead)", "- =", "no =", "no =", "no =",
                             "ignored =", "ignored =", "no =", "tellOwner closed"],
        "serving(fresh,sending,awaitingHead)": ["no =", "no =", "- serving(fresh,sent,awaitingHead)",
                                                "ok serving(fresh,sending,interim)", "ok tunnel", "ok serving(fresh,sending,receiving(true))",
                                                "ignored =", "ignored =", "no =", "tellOwner closed"],
        "serving(fresh,sent,receiving(true))": ["no =", "no =", "- =", "no =", "no =", "no =",
                                                "response serving(fresh,sent,complete(true))",
                                                "response serving(fresh,sent,complete(false))", "no =", "tellOwner closed"],
        "serving(pooled,sent,complete(true))": ["no =", "no =", "- =", "no =", "no =", "no =",
                                                "ignored =", "ignored =", "ok idle", "tellOwner closed"],
        "serving(fresh,sending,complete(true))": ["no =", "no =", "- serving(fresh,sent,complete(true))", "no =", "no =", "no =",
                                                  "ignored =", "ignored =", "no =", "tellOwner closed"],
        "serving(fresh,sent,interim)": ["no =", "no =", "- =", "no =", "no =", "no =",
                                        "interim serving(fresh,sent,awaitingHead)", "interim serving(fresh,sent,awaitingHead)",
                                        "no =", "tellOwner closed"],
        "idle": ["ok serving(pooled,sending,awaitingHead)", "no =", "- =", "no =", "no =", "no =",
                 "ignored =", "ignored =", "no =", "leavePool closed"],
        "tunnel": ["no =", "no =", "- =", "no =", "no =", "no =", "ignored =", "ignored =", "no =", "tellOwner closed"],
        "closed": ["no =", "no =", "- =", "no =", "no =", "no =", "ignored =", "ignored =", "no =", "ignored ="],
    ]

    @Test func everyEventInEveryStage() {
        let owner = StubUpstreamOwner()
        let pool = UpstreamPool()
        for (name, start) in Self.stages(owner: owner, pool: pool) {
            let row = Self.table[name] ?? []
            #expect(row.count == LifecycleEvent.all.count, "row \(name)")
            for (event, expected) in zip(LifecycleEvent.all, row) {
                var lifecycle = start
                let answer = event.apply(to: &lifecycle, owner: owner, pool: pool)
                let after = lifecycle.label
                #expect("\(answer) \(after == name ? "=" : after)" == expected, "\(event) in \(name)")
                #expect((lifecycle.owner != nil) == lifecycle.isAttached, "\(event) in \(name): owner only while attached")
            }
        }
    }

    @Test func failuresAreClassifiedByStage() {
        let owner = StubUpstreamOwner()
        let refused = IOError("connect", code: 111)
        let handshake = IOError.secureChannel("certificate verify failed", peer: nil)
        let connecting = Lifecycle(connectingFor: owner, bytesSent: 0)
        #expect(connecting.failure(for: refused).error == .upstreamConnect)
        #expect(connecting.failure(for: handshake).error == .upstreamTLS)
        var serving = connecting
        _ = serving.connected(pin: nil)
        #expect(serving.failure(for: refused).error == .upstreamIO)
        #expect(serving.failure(for: handshake).error == .upstreamIO)
    }

    @Test func aClosedConnectionKeepsWhatItsLastExchangeSent() {
        let pool = UpstreamPool()
        var lifecycle = Lifecycle.idle(pool: pool, deadline: 1, pin: .report)
        let attached = lifecycle.attach(owner: StubUpstreamOwner(), bytesSent: 42)
        #expect(attached)
        #expect(lifecycle.pinResult == .report)
        _ = lifecycle.close(.failed(.closedEarly))
        #expect(lifecycle.exchange?.lease == .pooled && lifecycle.exchange?.bytesSentBefore == 42)
        #expect(lifecycle.exchange?.sawResponseBytes == false)
        #expect(lifecycle.owner == nil && lifecycle.pinResult == nil && !lifecycle.isReusable)
    }
}
