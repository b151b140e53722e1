import Foundation
@testable import FaultlineConfig

/// Rules posted to the admin API: JSON bytes through `ConfigLoader.parseRuleWithPosition`
/// with and without a name from the URL, then compiled into a route table and fault
/// decider beside a file route, as an admin change is. Invariants: no input traps; a
/// refused rule gets errors whose paths start with `rule`; an accepted rule carries the
/// name from the URL when one was given.
///
/// Input: a byte choosing whether the URL names the rule, then the request body. Relative
/// file paths resolve against an empty temporary directory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAdminRule(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let urlName: String? = input.flag() ? "from-url" : nil
    let body = Data(input.rest())
    do throws(ConfigErrors) {
        let (rule, _) = try ConfigLoader.parseRuleWithPosition(
            body, upstreams: AdminRuleFixture.upstreams, baseDirectory: AdminRuleFixture.directory, name: urlName)
        if let urlName { FuzzCheck.require(rule.name == urlName, "admin rule: name \(rule.name), URL says \(urlName)") }
        let config = ProxyConfig(
            listeners: [ListenerConfig(address: AdminRuleFixture.listen)],
            upstreams: AdminRuleFixture.upstreams,
            routes: [rule, RouteConfig(name: "file-route", upstream: "origin")])
        ConfigCompilation.exercise(config)
    } catch {
        ConfigErrorCheck.check(error, document: body, topLevelKeys: [], prefix: "rule")
    }
    return 0
}

/// The running configuration a posted rule joins.
enum AdminRuleFixture {
    static let upstreams = [
        UpstreamConfig(name: "origin", host: "127.0.0.1", port: 8081),
        UpstreamConfig(name: "secure", scheme: "https", host: "localhost", port: 8443),
    ]
    static let listen: SocketAddressSpec = {
        do {
            return try SocketAddressSpec(parsing: "127.0.0.1:8080")
        } catch {
            FuzzCheck.fail("fixture address refused: \(error)")
        }
    }()
    /// An empty directory for relative `body_file` paths.
    static let directory: String = {
        let path = NSTemporaryDirectory() + "faultline-fuzz-admin-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()
}
