import Foundation
import Testing
import FaultlineLog
import FaultlineConfig

@Suite("log config")
struct LogConfigTests {
    @Test func defaultsWhenAbsent() throws {
        let config = try ConfigLoader.parse(Data(configWithLog("{}").utf8), file: nil)
        #expect(config.log == LogConfig())
        #expect(config.log.format == .auto && config.log.destination == .stdout && !config.log.headers && !config.log.bodies)
        #expect(config.replacingRoutes(config.routes).log == config.log)
        #expect(config.overriding(workers: 2, firstListenerAddress: nil).log == config.log)
    }

    @Test func everyKeyIsRead() throws {
        let json = configWithLog(#"""
            {"format": "text", "destination": "file", "path": "logs/f.jsonl", "headers": true, "bodies": true,
             "header_max_bytes": 1024, "body_max_bytes": 100, "body_types": ["Text/*", "application/json"],
             "tls_events": false, "pin_events": false, "fault_events": false, "off": true,
             "redact": {"headers": ["x-my-secret"], "headers_keep": ["x-session-trace"], "header_substrings": ["auth"],
                        "header_substrings_keep": ["session"], "query": ["sid"], "query_keep": ["code"],
                        "body_fields": ["pin"], "body_fields_keep": ["ssn"]}}
            """#)
        let config = try ConfigLoader.parse(Data(json.utf8), file: "/etc/faultline/f.json", baseDirectory: "/etc/faultline")
        #expect(config.log == LogConfig(
            off: true, format: .text, destination: .file, path: "/etc/faultline/logs/f.jsonl", headers: true, bodies: true,
            headerMaxBytes: 1024, bodyMaxBytes: 100, bodyTypes: ["text/*", "application/json"],
            tlsEvents: false, pinEvents: false, faultEvents: false,
            redact: LogConfigRedaction(
                headers: ["x-my-secret"], headersKeep: ["x-session-trace"], headerSubstrings: ["auth"],
                headerSubstringsKeep: ["session"], query: ["sid"], queryKeep: ["code"], bodyFields: ["pin"], bodyFieldsKeep: ["ssn"])))
        let policy = LogPolicy(config: config.log)
        #expect(policy.redactor.isSensitiveHeader("X-My-Secret"))
        #expect(policy.redactor.isSensitiveHeader("X-Auth-Thing"))
        #expect(!policy.redactor.isSensitiveHeader("X-Session-Id"))
        #expect(policy.redactor.isSensitiveQueryParameter("SID") && !policy.redactor.isSensitiveQueryParameter("code"))
        #expect(policy.redactor.isSensitiveBodyField("pin") && !policy.redactor.isSensitiveBodyField("ssn"))
    }

    @Test func errorsNameThePath() {
        let cases: [(String, [String])] = [
            (#""json""#, [#"log: expected an object, got "json""#]),
            (#"{"format": "xml"}"#, [#"log.format: expected "auto", "json" or "text", got "xml""#]),
            (#"{"destination": "file"}"#, [#"log.path: expected a file path (required with "destination": "file"), got nothing"#]),
            (#"{"path": "x.log"}"#, [#"log.path: only used with "destination": "file""#]),
            (#"{"destination": "file", "path": ""}"#, [#"log.path: expected a file path, got """#]),
            (#"{"headers": "yes"}"#, [#"log.headers: expected true or false, got "yes""#]),
            (#"{"body_max_bytes": -1}"#, ["log.body_max_bytes: expected an integer 0...16777216, got -1"]),
            (#"{"header_max_bytes": 1}"#, ["log.header_max_bytes: expected an integer 16...1048576, got 1"]),
            (#"{"body_types": ["json", 3]}"#, [
                #"log.body_types[0]: expected a media type such as "text/*" or "application/json", got "json""#,
                #"log.body_types[1]: expected a media type such as "text/*" or "application/json", got 3"#]),
            (#"{"body_types": "text/*"}"#,
             [#"log.body_types: expected an array of strings (a media type such as "text/*" or "application/json"), got "text/*""#]),
            (#"{"fromat": "json"}"#, [#"log.fromat: unknown key; did you mean "format"?"#]),
            (#"{"redact": {"headers": ["bad header"], "query": [""]}}"#, [
                #"log.redact.headers[0]: expected a header name, got "bad header""#,
                #"log.redact.query[0]: expected a non-empty name, got """#]),
            (#"{"redact": {"body_fields": ["PIN"], "body_fields_keep": ["pin"]}}"#,
             [#"log.redact.body_fields_keep[0]: "pin" is also in log.redact.body_fields; a name is either redacted or kept"#]),
            (#"{"redact": {"cookies": []}}"#, [
                "log.redact.cookies: unknown key (known: headers, headers_keep, header_substrings, header_substrings_keep, query, query_keep, body_fields, body_fields_keep)"]),
        ]
        for (log, expected) in cases {
            #expect(logConfigErrors(configWithLog(log)) == expected, "\(log)")
        }
    }

    @Test func schemaAndDocsCoverTheLogKeys() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("config/faultline.schema.json"))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let defs = try #require(schema["$defs"] as? [String: Any])
        func keys(_ name: String) -> [String] {
            (((defs[name] as? [String: Any])?["properties"]) as? [String: Any])?.keys.sorted() ?? []
        }
        let log = ["format", "destination", "path", "headers", "bodies", "header_max_bytes", "body_max_bytes",
                   "body_types", "tls_events", "pin_events", "fault_events", "redact", "off"]
        let redact = ["headers", "headers_keep", "header_substrings", "header_substrings_keep",
                      "query", "query_keep", "body_fields", "body_fields_keep"]
        #expect(keys("log") == log.sorted())
        #expect(keys("logRedact") == redact.sorted())
        let docs = try String(contentsOf: root.appendingPathComponent("docs/config.md"), encoding: .utf8)
        for key in log + redact { #expect(docs.contains("`\(key)`"), "docs/config.md does not document \(key)") }
        // The schema's documented example must load.
        let example = #"{"format": "json", "destination": "file", "path": "logs/faultline.jsonl", "headers": true, "bodies": true, "body_max_bytes": 4096, "redact": {"headers": ["x-my-secret"], "headers_keep": ["x-session-trace"], "body_fields": ["pin"]}}"#
        #expect(logConfigErrors(configWithLog(example)).isEmpty)
    }
}
