import FaultlineHTTP
@testable import FaultlineProxy

/// An owner that ignores every call: the lifecycle only holds and hands it back.
final class StubUpstreamOwner: UpstreamLegOwner {
    func upstream(_ leg: UpstreamLeg, reported event: UpstreamLegEvent) {}
}

/// The events of an upstream connection's lifecycle, as the connection and the pool send them.
enum LifecycleEvent: CustomStringConvertible {
    case attach, connected, requestWritten
    case head(UpstreamConnectionLifecycle.Head)
    case messageEnded(reusable: Bool)
    case park
    case close(UpstreamCloseReason)

    /// One of each, in the order of the table's columns.
    static let all: [LifecycleEvent] = [
        .attach, .connected, .requestWritten, .head(.interim), .head(.switchingProtocols), .head(.final(keepAlive: true)),
        .messageEnded(reusable: true), .messageEnded(reusable: false), .park, .close(.byProxy),
    ]

    var description: String {
        switch self {
        case .attach: "attach"
        case .connected: "connected"
        case .requestWritten: "requestWritten"
        case .head(let head): "head(\(head))"
        case .messageEnded(let reusable): "messageEnded(reusable: \(reusable))"
        case .park: "park"
        case .close(let reason): "close(\(reason))"
        }
    }

    /// Sends the event; returns the transition's answer in short.
    func apply(to lifecycle: inout UpstreamConnectionLifecycle, owner: StubUpstreamOwner, pool: UpstreamPool) -> String {
        switch self {
        case .attach:
            return lifecycle.attach(owner: owner, bytesSent: 0) ? "ok" : "no"
        case .connected:
            return lifecycle.connected(pin: .match) === owner ? "tell" : "no"
        case .requestWritten:
            lifecycle.requestWritten()
            return "-"
        case .head(let head):
            return lifecycle.headArrived(head) ? "ok" : "no"
        case .messageEnded(let reusable):
            switch lifecycle.messageEnded(reusable: reusable) {
            case .interim: return "interim"
            case .response(let told): return told === owner ? "response" : "response(wrong owner)"
            case .ignored: return "ignored"
            }
        case .park:
            return lifecycle.park(in: pool, until: 10) ? "ok" : "no"
        case .close(let reason):
            switch lifecycle.close(reason) {
            case .tellOwner(let told): return told === owner ? "tellOwner" : "tellOwner(wrong owner)"
            case .leavePool(let left): return left === pool ? "leavePool" : "leavePool(wrong pool)"
            case .ignored: return "ignored"
            }
        }
    }
}

extension UpstreamConnectionLifecycle {
    /// The stage in short, as the table writes it.
    var label: String {
        func progress(_ exchange: UpstreamExchangeProgress) -> String {
            let response = switch exchange.response {
            case .awaitingHead: "awaitingHead"
            case .interim: "interim"
            case .receiving(let keepAlive): "receiving(\(keepAlive))"
            case .complete(let keepAlive): "complete(\(keepAlive))"
            }
            return "\(exchange.lease),\(exchange.request),\(response)"
        }
        switch self {
        case .connecting(_, let exchange): return "connecting(\(exchange.request))"
        case .serving(_, let exchange, _): return "serving(\(progress(exchange)))"
        case .idle: return "idle"
        case .tunnel: return "tunnel"
        case .closed: return "closed"
        }
    }

    /// Whether the stage is one that carries an owner.
    var isAttached: Bool {
        switch self {
        case .connecting, .serving, .tunnel: true
        case .idle, .closed: false
        }
    }
}
