import Foundation
import FaultlineLog
import FaultlineConfig

extension LogPolicy {
    /// The mapping the proxy uses from the config section to a policy (FaultlineLog does
    /// not depend on FaultlineConfig).
    convenience init(config: LogConfig) {
        let redact = config.redact
        self.init(
            redactor: Redactor(
                addHeaders: redact.headers, removeHeaders: redact.headersKeep,
                addHeaderSubstrings: redact.headerSubstrings, removeHeaderSubstrings: redact.headerSubstringsKeep,
                addQueryParameters: redact.query, removeQueryParameters: redact.queryKeep,
                addBodyFields: redact.bodyFields, removeBodyFields: redact.bodyFieldsKeep),
            options: LogOptions(
                headers: config.headers, bodies: config.bodies, headerValueMaxBytes: config.headerMaxBytes,
                bodyMaxBytes: config.bodyMaxBytes, bodyTypes: config.bodyTypes))
    }
}

/// A minimal config document with `log` as its log section.
func configWithLog(_ log: String) -> String {
    #"{"listeners": [{"address": "127.0.0.1:0"}], "upstreams": {"demo": {"url": "http://127.0.0.1:8081"}}, "log": \#(log)}"#
}

/// The error lines of loading `json`, or [] when it loads.
func logConfigErrors(_ json: String) -> [String] {
    do {
        _ = try ConfigLoader.parse(Data(json.utf8), file: nil, checkFiles: false)
        return []
    } catch {
        return error.errors.map(\.description)
    }
}
