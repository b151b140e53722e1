import FaultlineTestSupport
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

/// The repository root.
let repositoryRoot = TestPaths.packageRoot

/// Errors of `json` parsed without checking that referenced files exist.
func configErrorsSkippingFiles(_ json: String) -> [String] {
    do {
        _ = try ConfigLoader.parse(Data(json.utf8), file: nil, checkFiles: false)
        return []
    } catch {
        return error.errors.map(\.description)
    }
}

/// The config and warnings of `json`, files unchecked, at a fixed "now".
func loadWithWarnings(_ json: String, now: Date = Date()) throws -> (config: ProxyConfig, warnings: [String]) {
    let (config, warnings) = try ConfigLoader.parseWithWarnings(Data(json.utf8), file: nil, checkFiles: false, now: now)
    return (config, warnings.map(\.description))
}

/// A minimal document with one https upstream "staging" whose members are `members`
/// (JSON object members, without braces) after its url.
func httpsUpstream(_ members: String = "", url: String = "https://staging.example.com") -> String {
    let tail = members.isEmpty ? "" : ", \(members)"
    return minimal(upstream: #"{"url": "\#(url)"\#(tail)}"#).replacingOccurrences(of: #""demo""#, with: #""staging""#)
}

/// A minimal document whose only listener has `tls` set to the JSON object `tls`.
func tlsListener(_ tls: String) -> String {
    #"{"listeners": [{"address": "127.0.0.1:0", "tls": \#(tls)}], "upstreams": {"demo": {"url": "http://127.0.0.1:8081"}}}"#
}
