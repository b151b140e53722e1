import Foundation
import FaultlineHTTP
@testable import FaultlineConfig

/// What the proxy builds from an accepted configuration, run once per accepted input.
enum ConfigCompilation {
    static func exercise(_ config: ProxyConfig) {
        let table = RouteTable(config: config)
        let decider = FaultDecider(seed: config.seed ?? 1, routes: table.routes, clock: { 1_000_000 })
        for route in table.routes {
            for _ in 0..<3 {
                let decision = decider.decide(route: route)
                decider.finished(decision)
            }
        }
        _ = decider.stats()
        let host = Array("example.test".utf8)
        let method = Array("GET".utf8)
        let path = Array("/a/b".utf8)
        _ = host.withUnsafeBytes { host in
            method.withUnsafeBytes { method in path.withUnsafeBytes { path in table.match(host: host, method: method, path: path) } }
        }
        // The request-head conditions (headers, query, cookies, client, not) on a full head.
        var head = HTTPHead()
        head.method = "GET"
        head.target = Array("/a/b?x=1&flag&y=a%20b".utf8)
        head.headers.add(name: "Host", value: "example.test")
        head.headers.add(name: "X-Test", value: "1")
        head.headers.add(name: "Cookie", value: "a=1; session=abc")
        for client in ["127.0.0.1", "::1", "::ffff:10.0.0.1", ""] {
            _ = table.match(head, client: client)
        }
    }
}

/// The checks on a refusal, shared with the admin rule target.
enum ConfigErrorCheck {
    /// Keys a configuration file may have at the top (the loader's own list).
    static let topLevelKeys = Set(ConfigKeys.topLevel)

    /// A refusal lists at least one error, each with a message, and each naming a field
    /// (its path starts with `prefix` or a top-level key) when the document is a JSON object.
    static func check(_ error: ConfigErrors, document: Data, topLevelKeys: Set<String>, prefix: String? = nil) {
        FuzzCheck.require(!error.errors.isEmpty, "config: refused with no error\n  input: \(FuzzCheck.show(Array(document)))")
        let object = (try? JSONSerialization.jsonObject(with: document, options: [.fragmentsAllowed])) as? [String: Any]
        for item in error.errors {
            FuzzCheck.require(!item.message.isEmpty, "config: empty message at \(item.path)\n  input: \(FuzzCheck.show(Array(document)))")
            // Foundation's parser takes a trailing comma that the loader refuses as not JSON:
            // such a refusal is about the document, so it names a line and column, not a field.
            if item.path.isEmpty && item.message.hasPrefix("invalid JSON at line ") { continue }
            guard let object else { continue }
            // Keys may themselves contain "." or "[": match the document's keys as prefixes.
            let path = item.path
            let starts = { (key: String) in path == key || path.hasPrefix(key + ".") || path.hasPrefix(key + "[") }
            let named = prefix.map(starts) ?? (topLevelKeys.contains(where: starts) || object.keys.contains(where: starts))
            FuzzCheck.require(named, "config: error names no field: \(FuzzCheck.show(item.description))\n  input: \(FuzzCheck.show(Array(document)))")
        }
    }
}
