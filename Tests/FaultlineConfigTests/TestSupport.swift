import Foundation
@testable import FaultlineConfig

/// Loads `json` and returns the error lines, or an empty array when it loads.
func configErrors(_ json: String) -> [String] {
    do {
        _ = try ConfigLoader.parse(Data(json.utf8), file: nil)
        return []
    } catch {
        return error.errors.map(\.description)
    }
}

/// Loads `json`, throwing its ConfigErrors when it does not load.
func loadConfig(_ json: String) throws -> ProxyConfig {
    try ConfigLoader.parse(Data(json.utf8), file: nil)
}

/// A minimal valid document with `extra` members spliced into the top level.
func minimal(_ extra: String = "", upstream: String = #"{"url": "http://127.0.0.1:8081"}"#) -> String {
    let tail = extra.isEmpty ? "" : ", \(extra)"
    return #"{"listeners": [{"address": "127.0.0.1:0"}], "upstreams": {"demo": \#(upstream)}\#(tail)}"#
}

/// A minimal document whose only route is `route` (a JSON object) over upstreams demo and staging.
func withRoute(_ route: String) -> String {
    #"""
    {"listeners": [{"address": "127.0.0.1:0"}],
     "upstreams": {"demo": {"url": "http://127.0.0.1:8081"}, "staging": {"url": "http://staging.example.com"}},
     "routes": [\#(route)]}
    """#
}

/// The repository root, found from this file's location.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()
