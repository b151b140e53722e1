import Foundation
import Testing
@testable import FaultlineConfig

@Suite("Config validation errors")
struct ConfigValidationTests {
    @Test(arguments: [
        // Top level.
        ("[1, 2]", "expected a JSON object at the top level, got an array"),
        (minimal(#""workers": 300"#), "workers: expected an integer 0...256, got 300"),
        (minimal(#""workers": "4""#), #"workers: expected an integer 0...256, got "4""#),
        (minimal(#""workers": 1.5"#), "workers: expected an integer 0...256, got 1.5"),
        (minimal(#""workers": true"#), "workers: expected an integer 0...256, got true"),
        (minimal(#""worker_affinity": "always""#), #"worker_affinity: expected "auto" or "none", got "always""#),
        (minimal(#""worker_affinity": false"#), #"worker_affinity: expected "auto" or "none", got false"#),
        (minimal(#""seed": -1"#), "seed: expected an unsigned integer 0...18446744073709551615, got -1"),
        (minimal(#""seed": null"#), "seed: expected an unsigned integer 0...18446744073709551615, got null"),
        (minimal(#""log": "json""#), #"log: expected an object, got "json""#),
        (minimal(#""$schema": 1"#), "$schema: expected a string, got 1"),
        // Listeners.
        (#"{"upstreams": {"demo": {"url": "http://a"}}}"#, "listeners: expected a non-empty array of listeners, got nothing"),
        (#"{"listeners": [], "upstreams": {"demo": {"url": "http://a"}}}"#,
         "listeners: expected a non-empty array of listeners, got []"),
        (#"{"listeners": {}, "upstreams": {"demo": {"url": "http://a"}}}"#,
         "listeners: expected a non-empty array of listeners, got {}"),
        (#"{"listeners": ["127.0.0.1:80"], "upstreams": {"demo": {"url": "http://a"}}}"#,
         #"listeners[0]: expected an object, got "127.0.0.1:80""#),
        (#"{"listeners": [{}], "upstreams": {"demo": {"url": "http://a"}}}"#,
         "listeners[0].address: expected host:port, got nothing"),
        (#"{"listeners": [{"address": 8080}], "upstreams": {"demo": {"url": "http://a"}}}"#,
         "listeners[0].address: expected host:port, got 8080"),
        (#"{"listeners": [{"address": "8080"}], "upstreams": {"demo": {"url": "http://a"}}}"#,
         #"listeners[0].address: expected host:port, got "8080""#),
        (#"{"listeners": [{"address": "example.com:80"}], "upstreams": {"demo": {"url": "http://a"}}}"#,
         #"listeners[0].address: expected host:port with an IPv4/IPv6 literal or localhost as host, got "example.com:80""#),
        (#"{"listeners": [{"address": "127.0.0.1:65536"}], "upstreams": {"demo": {"url": "http://a"}}}"#,
         #"listeners[0].address: expected host:port with a port 0...65535, got "127.0.0.1:65536""#),
        (#"{"listeners": [{"address": "127.0.0.1:"}], "upstreams": {"demo": {"url": "http://a"}}}"#,
         #"listeners[0].address: expected host:port with a port 0...65535, got "127.0.0.1:""#),
        (#"{"listeners": [{"address": "::1:80"}], "upstreams": {"demo": {"url": "http://a"}}}"#,
         #"listeners[0].address: expected [IPv6]:port (IPv6 needs brackets), got "::1:80""#),
        (#"{"listeners": [{"address": "[::1]80"}], "upstreams": {"demo": {"url": "http://a"}}}"#,
         #"listeners[0].address: expected [IPv6]:port, got "[::1]80""#),
        (#"{"listeners": [{"address": "[fe80::zz]:80"}], "upstreams": {"demo": {"url": "http://a"}}}"#,
         #"listeners[0].address: expected [IPv6]:port with a valid IPv6 literal, got "[fe80::zz]:80""#),
        (#"{"listeners": [{"address": "127.0.0.1:80", "tls": "on"}], "upstreams": {"demo": {"url": "http://a"}}}"#,
         #"listeners[0].tls: expected an object, got "on""#),
        // Admin and demo origin.
        (minimal(#""admin": {"token": "t"}"#), "admin.address: expected host:port, got nothing"),
        (minimal(#""admin": {"address": "127.0.0.1:9901", "token": ""}"#), #"admin.token: expected a non-empty string, got """#),
        (minimal(#""admin": {"address": "127.0.0.1:9901", "token": 5}"#), "admin.token: expected a non-empty string, got 5"),
        (minimal(#""admin": "127.0.0.1:9901""#), #"admin: expected an object, got "127.0.0.1:9901""#),
        (minimal(#""demo_origin": {"address": "localhost"}"#), #"demo_origin.address: expected host:port, got "localhost""#),
        // Upstreams.
        (#"{"listeners": [{"address": "127.0.0.1:0"}]}"#, "upstreams: expected an object of named upstreams, got nothing"),
        (#"{"listeners": [{"address": "127.0.0.1:0"}], "upstreams": {}}"#, "upstreams: expected at least one upstream, got {}"),
        (#"{"listeners": [{"address": "127.0.0.1:0"}], "upstreams": []}"#,
         "upstreams: expected an object of named upstreams, got []"),
        (#"{"listeners": [{"address": "127.0.0.1:0"}], "upstreams": {"bad name": {"url": "http://a"}}}"#,
         #"upstreams: expected upstream names of letters, digits, "_", "." and "-", got "bad name""#),
        (minimal(upstream: "{}"), "upstreams.demo.url: expected an http:// or https:// URL, got nothing"),
        (minimal(upstream: #""http://a""#), #"upstreams.demo: expected an object, got "http://a""#),
        (minimal(upstream: #"{"url": "https://staging.example.com/v1"}"#),
         #"upstreams.demo.url: expected https://host[:port] without a path (the client's path is forwarded as is), got "https://staging.example.com/v1""#),
        (minimal(upstream: #"{"url": "https://user:pw@example.com"}"#),
         #"upstreams.demo.url: expected https://host[:port] without user info, got "https://***@example.com""#),
        (minimal(upstream: #"{"url": "ftp://example.com"}"#),
         #"upstreams.demo.url: expected an http:// or https:// URL, got "ftp://example.com""#),
        (minimal(upstream: #"{"url": "example.com:80"}"#),
         #"upstreams.demo.url: expected an http:// or https:// URL, got "example.com:80""#),
        (minimal(upstream: #"{"url": "http://example.com/api"}"#),
         #"upstreams.demo.url: expected http://host[:port] without a path (the client's path is forwarded as is), got "http://example.com/api""#),
        (minimal(upstream: #"{"url": "http://user:pw@example.com"}"#),
         #"upstreams.demo.url: expected http://host[:port] without user info, got "http://***@example.com""#),
        (minimal(upstream: #"{"url": "http://example.com/?a=1"}"#),
         #"upstreams.demo.url: expected http://host[:port] without a query, got "http://example.com/?a=1""#),
        (minimal(upstream: #"{"url": "http://example.com#top"}"#),
         #"upstreams.demo.url: expected http://host[:port] without a fragment, got "http://example.com#top""#),
        (minimal(upstream: #"{"url": "http://example.com:0"}"#),
         #"upstreams.demo.url: expected http://host[:port] with a port 1...65535, got "http://example.com:0""#),
        (minimal(upstream: #"{"url": "http://example.com:http"}"#),
         #"upstreams.demo.url: expected http://host[:port] with a port 1...65535, got "http://example.com:http""#),
        (minimal(upstream: #"{"url": "http://exa mple.com"}"#),
         #"upstreams.demo.url: expected http://host[:port] with a valid host, got "http://exa mple.com""#),
        (minimal(upstream: #"{"url": "http://"}"#), #"upstreams.demo.url: expected http://host[:port] with a valid host, got "http://""#),
        (minimal(upstream: #"{"url": "http://[::g]:80"}"#),
         #"upstreams.demo.url: expected http://host[:port] with a valid host, got "http://[::g]:80""#),
        (minimal(upstream: #"{"url": "http://a", "host_header": "rewrite"}"#),
         #"upstreams.demo.host_header: expected "preserve" or "upstream", got "rewrite""#),
        (minimal(upstream: #"{"url": "http://a", "timeouts_ms": {"connect": -5}}"#),
         "upstreams.demo.timeouts_ms.connect: expected an integer 1...86400000, got -5"),
        (minimal(upstream: #"{"url": "http://a", "timeouts_ms": {"response": 86400001}}"#),
         "upstreams.demo.timeouts_ms.response: expected an integer 1...86400000, got 86400001"),
        (minimal(upstream: #"{"url": "http://a", "timeouts_ms": {"idle": 0}}"#),
         "upstreams.demo.timeouts_ms.idle: expected an integer 1...86400000, got 0"),
        (minimal(upstream: #"{"url": "http://a", "timeouts_ms": 5}"#), "upstreams.demo.timeouts_ms: expected an object, got 5"),
        (minimal(upstream: #"{"url": "http://a", "max_idle_connections": 100001}"#),
         "upstreams.demo.max_idle_connections: expected an integer 0...100000, got 100001"),
        (minimal(upstream: #"{"url": "http://a", "trust": {"system": true}}"#), "upstreams.demo.trust: trust needs an https upstream"),
        (minimal(upstream: #"{"url": "http://a", "pins": {"sha256": []}}"#), "upstreams.demo.pins: pins need an https upstream"),
        (minimal(upstream: #"{"url": "http://a", "server_name": "a"}"#), "upstreams.demo.server_name: server_name needs an https upstream"),
        (minimal(upstream: #"{"url": "http://a", "min_version": "1.3"}"#), "upstreams.demo.min_version: min_version needs an https upstream"),
        (minimal(upstream: #"{"url": "http://a", "verify_hostname": true}"#),
         "upstreams.demo.verify_hostname: verify_hostname needs an https upstream"),
        // Client timeouts and limits.
        (minimal(#""timeouts_ms": {"client_header": 0}"#), "timeouts_ms.client_header: expected an integer 1...86400000, got 0"),
        (minimal(#""timeouts_ms": {"client_idle": "60s"}"#), #"timeouts_ms.client_idle: expected an integer 1...86400000, got "60s""#),
        (minimal(#""timeouts_ms": {"drain": 100000000}"#), "timeouts_ms.drain: expected an integer 1...86400000, got 100000000"),
        (minimal(#""limits": {"max_request_line_bytes": 10}"#), "limits.max_request_line_bytes: expected an integer >= 64, got 10"),
        (minimal(#""limits": {"max_header_bytes": 255}"#), "limits.max_header_bytes: expected an integer >= 256, got 255"),
        (minimal(#""limits": {"max_header_count": 0}"#), "limits.max_header_count: expected an integer 1...10000, got 0"),
        (minimal(#""limits": {"max_request_body_bytes": -1}"#), "limits.max_request_body_bytes: expected an integer >= 0, got -1"),
        (minimal(#""limits": {"max_connections": 0}"#), "limits.max_connections: expected an integer >= 1, got 0"),
        // Routes.
        (withRoute(#"{"match": {"methods": ["GET", "G T"]}, "upstream": "demo"}"#),
         #"routes[0].match.methods[1]: expected an HTTP method token, got "G T""#),
        (withRoute(#"{"match": {"methods": [7]}, "upstream": "demo"}"#),
         "routes[0].match.methods[0]: expected an HTTP method token, got 7"),
        (withRoute(#"{"match": {"methods": []}, "upstream": "demo"}"#),
         "routes[0].match.methods: expected a non-empty array of HTTP method tokens, got []"),
        (withRoute(#"{"match": {"methods": "GET"}, "upstream": "demo"}"#),
         #"routes[0].match.methods: expected a non-empty array of HTTP method tokens, got "GET""#),
        (withRoute(#"{"upstream": "stagin"}"#), #"routes[0].upstream: unknown upstream "stagin" (known: demo, staging)"#),
        (withRoute(#"{"name": "x"}"#), "routes[0].upstream: expected the name of an upstream, got nothing"),
        (withRoute(#"{"upstream": ["demo"]}"#), "routes[0].upstream: expected the name of an upstream, got an array"),
        (withRoute(#"{"upstream": "demo", "faults": [{"status": 700}]}"#),
         "routes[0].faults[0].status: expected 100...599, got 700"),
        (withRoute(#"{"upstream": "demo", "faults": {}}"#), "routes[0].faults: expected an array of faults, got {}"),
        (withRoute(#"{"upstream": "demo", "name": ""}"#), #"routes[0].name: expected a non-empty string, got """#),
        (withRoute(#"{"upstream": "demo", "name": 3}"#), "routes[0].name: expected a non-empty string, got 3"),
        (withRoute(#"{"upstream": "demo", "match": []}"#), "routes[0].match: expected an object, got []"),
        (withRoute(#"{"upstream": "demo", "match": {"path": "/a", "path_glob": "/b*"}}"#),
         "routes[0].match: expected at most one of path, path_prefix, path_glob, got path, path_glob"),
        (withRoute(#"{"upstream": "demo", "match": {"path_prefix": "users"}}"#),
         #"routes[0].match.path_prefix: expected a path starting with "/", got "users""#),
        (withRoute(#"{"upstream": "demo", "match": {"path": "/a b"}}"#),
         #"routes[0].match.path: expected a path of visible ASCII characters (percent-encode others), got "/a b""#),
        (withRoute(#"{"upstream": "demo", "match": {"path": "/search?q=1"}}"#),
         #"routes[0].match.path: expected a path without "?" (the query is not matched; use path_glob for a one-character wildcard), got "/search?q=1""#),
        (withRoute(#"{"upstream": "demo", "match": {"path_glob": 5}}"#),
         #"routes[0].match.path_glob: expected a path starting with "/", got 5"#),
        (withRoute(#"{"upstream": "demo", "match": {"host": "example.com:8080"}}"#),
         #"routes[0].match.host: expected a host name, IP literal or "*.domain" wildcard without a port, got "example.com:8080""#),
        (withRoute(#"{"upstream": "demo", "match": {"host": "*.*.example.com"}}"#),
         #"routes[0].match.host: expected a host name, IP literal or "*.domain" wildcard without a port, got "*.*.example.com""#),
        (withRoute(#"{"upstream": "demo", "match": {"host": ""}}"#),
         #"routes[0].match.host: expected a host name, IP literal or "*.domain" wildcard without a port, got """#),
        (withRoute(#"{"upstream": "demo", "match": {"host": true}}"#),
         #"routes[0].match.host: expected a host name or "*.domain" wildcard, got true"#),
        (withRoute(#""default""#), #"routes[0]: expected an object, got "default""#),
        (#"{"listeners": [{"address": "127.0.0.1:0"}], "upstreams": {"a": {"url": "http://a"}}, "routes": {}}"#,
         "routes: expected an array of routes, got {}"),
        (#"{"listeners": [{"address": "127.0.0.1:0"}], "upstreams": {"b": {"url": "http://b"}, "a": {"url": "http://a"}}}"#,
         "routes: expected at least one route when several upstreams are defined (a, b), got nothing"),
        (#"{"listeners": [{"address": "127.0.0.1:0"}], "upstreams": {"b": {"url": "http://b"}, "a": {"url": "http://a"}}, "routes": []}"#,
         "routes: expected at least one route when several upstreams are defined (a, b), got []"),
        // Unknown keys.
        (minimal(#""listener": []"#), #"listener: unknown key; did you mean "listeners"?"#),
        (minimal(#""Seed": 1"#), #"Seed: unknown key; did you mean "seed"?"#),
        (minimal(#""zzz": 1"#),
         "zzz: unknown key (known: workers, worker_affinity, listeners, admin, demo_origin, upstreams, routes, timeouts_ms, limits, seed, fault_headers, log, har, http2, sessions, journal, scenarios, $schema)"),
        (withRoute(#"{"upstream": "demo", "mach": {}}"#), #"routes[0].mach: unknown key; did you mean "match"?"#),
        (withRoute(#"{"upstream": "demo", "match": {"paht_prefix": "/"}}"#),
         #"routes[0].match.paht_prefix: unknown key; did you mean "path_prefix"?"#),
        (minimal(upstream: #"{"url": "http://a", "timeout_ms": {}}"#),
         #"upstreams.demo.timeout_ms: unknown key; did you mean "timeouts_ms"?"#),
        (minimal(#""limits": {"max_conections": 5}"#), #"limits.max_conections: unknown key; did you mean "max_connections"?"#),
    ])
    func reportsExactly(json: String, expected: String) {
        #expect(configErrors(json) == [expected])
    }

    @Test func methodErrorAtDeeperIndex() {
        let json = withRoute(#"""
            {"upstream": "demo"}, {"upstream": "demo", "name": "b"},
            {"upstream": "demo", "name": "c", "match": {"methods": ["G T"]}}
            """#)
        #expect(configErrors(json) == [#"routes[2].match.methods[0]: expected an HTTP method token, got "G T""#])
    }

    @Test func duplicateRouteNames() {
        let json = withRoute(#"""
            {"name": "users", "upstream": "demo"}, {"upstream": "demo"}, {"name": "users", "upstream": "staging"},
            {"name": "routes[1]", "upstream": "demo"}
            """#)
        #expect(configErrors(json) == [
            #"routes[2].name: duplicate route name "users" (already used by routes[0])"#,
            #"routes[3].name: duplicate route name "routes[1]" (already used by routes[1])"#,
        ])
    }

    @Test func collectsAllErrors() {
        let json = #"""
        {
          "workers": -1,
          "listeners": [{"address": "8080"}, {"address": "127.0.0.1:8080", "tls": {"certificate": "/nonexistent/x.pem"}}],
          "upstreams": {
            "demo": {"url": "https://x/y", "timeouts_ms": {"connect": -5}, "pins": {"sha256": ["sha1/qZk+NkcGgWq6PiVxeFDCbJzQ2J0="]}},
            "staging": {"url": "http://staging", "pins": {}}
          },
          "routes": [
            {"upstream": "stagin", "faults": [{}]},
            {"match": {"methods": ["G T"]}, "upstream": "demo"}
          ],
          "limits": {"max_header_count": 0},
          "colour": "red"
        }
        """#
        #expect(configErrors(json) == [
            #"colour: unknown key (known: workers, worker_affinity, listeners, admin, demo_origin, upstreams, routes, timeouts_ms, limits, seed, fault_headers, log, har, http2, sessions, journal, scenarios, $schema)"#,
            "workers: expected an integer 0...256, got -1",
            #"listeners[0].address: expected host:port, got "8080""#,
            #"listeners[1].tls.certificate: cannot read "/nonexistent/x.pem": No such file or directory"#,
            "listeners[1].tls.key: expected a file path, got nothing",
            #"upstreams.demo.url: expected https://host[:port] without a path (the client's path is forwarded as is), got "https://x/y""#,
            #"upstreams.demo.pins.sha256[0]: only sha256 pins are supported, got a sha1 pin "sha1/qZk+NkcGgWq6PiVxeFDCbJzQ2J0=""#,
            "upstreams.demo.timeouts_ms.connect: expected an integer 1...86400000, got -5",
            "upstreams.staging.pins: pins need an https upstream",
            #"routes[0].upstream: unknown upstream "stagin" (known: demo, staging)"#,
            "routes[0].faults[0]: expected one fault kind (delay, status, reset, close, hang, throttle, truncate, corrupt, rewrite, profile, rst_stream, goaway), got none",
            #"routes[1].match.methods[0]: expected an HTTP method token, got "G T""#,
            "limits.max_header_count: expected an integer 1...10000, got 0",
        ])
    }

    @Test func brokenUpstreamIsStillAKnownName() {
        // The route names an upstream that exists but is invalid: only the upstream is reported.
        let json = withRoute(#"{"upstream": "demo"}"#)
            .replacingOccurrences(of: "http://127.0.0.1:8081", with: "https://127.0.0.1:0")
        #expect(configErrors(json) == [#"upstreams.demo.url: expected https://host[:port] with a port 1...65535, got "https://127.0.0.1:0""#])
    }

    @Test func invalidJSONNamesFileLineAndColumn() {
        let text = "{\n  \"listeners\": [\n    {\"address\": \"127.0.0.1:80\"}\n  ],\n  \"seed\": ]\n}"
        do {
            _ = try ConfigLoader.parse(Data(text.utf8), file: "faultline.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.file == "faultline.json")
            #expect(error.errors.count == 1)
            #expect(error.description.hasPrefix("faultline.json: invalid JSON at line 5, column 11: Invalid value"))
        }
    }

    @Test func truncatedJSONPointsAtTheEnd() {
        let errors = configErrors("{\n  \"workers\": 1,\n")
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("invalid JSON at line 3, column 1") == true)
    }

    @Test func emptyInputIsInvalidJSON() {
        let errors = configErrors("")
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("invalid JSON") == true)
    }

    @Test func errorsDescriptionHasOneLinePerErrorPrefixedByFile() {
        let errors = ConfigErrors(
            errors: [ConfigError(path: "a", message: "one"), ConfigError(path: "", message: "two")],
            file: "f.json")
        #expect(errors.description == "f.json: a: one\nf.json: two")
        #expect(ConfigErrors(errors: errors.errors, file: nil).description == "a: one\ntwo")
    }
}
