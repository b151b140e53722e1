import Foundation
@testable import FaultlineConfig

/// A fresh directory under the system temporary directory, with empty files created at
/// the given relative paths; removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init(files: [String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-\(UUID().uuidString)")
        for file in files {
            let fileURL = url.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("-----BEGIN PLACEHOLDER-----\n".utf8).write(to: fileURL)
        }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The absolute path of `relative` inside the directory.
    func path(_ relative: String) -> String {
        url.appendingPathComponent(relative).path
    }

    /// Writes `json` as `name` and returns its path.
    func write(_ json: String, as name: String = "faultline.json") throws -> String {
        try Data(json.utf8).write(to: url.appendingPathComponent(name))
        return path(name)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

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
