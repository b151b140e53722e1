import Foundation
@testable import FaultlineConfig

/// Bodies of the session admin calls: `POST /sessions` through
/// `ConfigLoader.parseSessionRequest`, and `POST /sessions/{id}/rules` through
/// `ConfigLoader.parseSessionRule` (whose `upstream` is optional), an accepted rule then
/// compiled beside a file route as the session's rule set is. Invariants: no input traps; a
/// refused body gets errors whose paths start with `session` or `rule`; an accepted session
/// keeps its TTL, seed and name inside their limits; an accepted rule names a known upstream
/// or none, and carries the name from the URL when one was given.
///
/// Input: a byte choosing the call (bit 0: a rule; bit 1: the URL names the rule), then the body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSessionAdmin(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let isRule = input.flag()
    let urlName: String? = input.flag() ? "from-url" : nil
    let body = Data(input.rest())
    if isRule {
        checkRule(body, urlName: urlName)
    } else {
        checkSession(body)
    }
    return 0
}

private func checkSession(_ body: Data) {
    do throws(ConfigErrors) {
        let session = try ConfigLoader.parseSessionRequest(body, defaultTTLSeconds: SessionsConfig.defaultTTLSeconds)
        FuzzCheck.require(SessionsConfig.ttlRange.contains(session.ttlSeconds), "session: ttl \(session.ttlSeconds) out of range")
        FuzzCheck.require((session.seed ?? 0) <= ConfigLoader.maxSessionSeed, "session: seed \(session.seed ?? 0) above 2^53")
        FuzzCheck.require(session.name.utf8.count <= ConfigLoader.maxSessionNameBytes, "session: name of \(session.name.utf8.count) bytes")
    } catch {
        ConfigErrorCheck.check(error, document: body, topLevelKeys: [], prefix: "session")
    }
}

private func checkRule(_ body: Data, urlName: String?) {
    let upstreams = [UpstreamConfig(name: "origin", host: "127.0.0.1", port: 8081)]
    do throws(ConfigErrors) {
        let (rule, _) = try ConfigLoader.parseSessionRule(body, upstreams: upstreams, baseDirectory: nil, name: urlName,
                                                           confineFiles: true)
        if let urlName { FuzzCheck.require(rule.name == urlName, "session rule: name \(rule.name), URL says \(urlName)") }
        FuzzCheck.require(rule.upstream.isEmpty || rule.upstream == "origin", "session rule: unknown upstream \(rule.upstream)")
        // A rule without an upstream runs on the global route's: compile it as the session does.
        let compiled = RouteConfig(name: rule.name, match: rule.match, upstream: "origin", faults: rule.faults)
        let config = ProxyConfig(listeners: [ListenerConfig(address: sessionFixtureListen)], upstreams: upstreams,
                                 routes: [compiled, RouteConfig(name: "file-route", upstream: "origin")])
        ConfigCompilation.exercise(config)
    } catch {
        ConfigErrorCheck.check(error, document: body, topLevelKeys: [], prefix: "rule")
    }
}

/// The listener of the configuration a session rule is compiled in.
private let sessionFixtureListen: SocketAddressSpec = {
    do {
        return try SocketAddressSpec(parsing: "127.0.0.1:8080")
    } catch {
        FuzzCheck.fail("fixture address refused: \(error)")
    }
}()
