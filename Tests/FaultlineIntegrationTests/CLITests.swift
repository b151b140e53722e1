import Foundation
import Testing
import FaultlineTestSupport

/// The command line as a user meets it: help, version, config checking, exit codes.
@Suite(.timeLimit(.minutes(1)))
struct CLITests {
    @Test func versionAndHelpExitZero() async throws {
        let version = try await FaultlineProcess.command(["--version"])
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("faultline "))
        for arguments in [["--help"], ["run", "--help"], ["check-config", "--help"], ["demo-origin", "--help"]] {
            let help = try await FaultlineProcess.command(arguments)
            #expect(help.status == 0, "faultline \(arguments.joined(separator: " ")) exited \(help.status)")
            #expect(help.output.contains("Usage"), "no usage text for \(arguments): \(help.output)")
        }
    }

    @Test func unknownCommandIsAUsageError() async throws {
        let result = try await FaultlineProcess.command(["frobnicate"])
        #expect(result.status == 2)
        #expect(!result.output.isEmpty)
    }

    @Test func checkConfigAcceptsAValidFile() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("ok.json", ProxyConfig.single(port: 9).json)
        let result = try await FaultlineProcess.command(["check-config", path])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func checkConfigNamesTheFieldPathOfEachError() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("bad.json", """
        {"listeners": [{"address": "127.0.0.1:0"}],
         "upstreams": {"demo": {"url": "http://127.0.0.1:9", "timeouts_ms": {"connect": -5}}},
         "routes": [{"name": "r", "upstream": "x"}],
         "listner": []}
        """)
        let result = try await FaultlineProcess.command(["check-config", path])
        #expect(result.status == 3)
        #expect(result.output.contains("routes[0].upstream"), "\(result.output)")
        #expect(result.output.contains("unknown upstream \"x\""), "\(result.output)")
        #expect(result.output.contains("upstreams.demo.timeouts_ms.connect"), "\(result.output)")
        #expect(result.output.contains("listner"), "\(result.output)")
    }

    @Test func checkConfigReportsInvalidJSON() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("broken.json", "{\"listeners\": [")
        let result = try await FaultlineProcess.command(["check-config", path])
        #expect(result.status == 3)
        #expect(!result.output.isEmpty)
    }

    /// The container image's config takes its admin token from the environment: unset is
    /// refused naming the variable, set is accepted, and a token beside it is ambiguous.
    @Test func adminTokenFromTheEnvironment() async throws {
        let directory = try TemporaryDirectory()
        func config(_ admin: String) throws -> String {
            try directory.write("admin-\(admin.hashValue).json", """
            {"listeners": [{"address": "127.0.0.1:0"}], "admin": {"address": "0.0.0.0:0", \(admin)},
             "upstreams": {"demo": {"url": "http://127.0.0.1:9"}}}
            """)
        }
        let fromEnvironment = try config(#""token_env": "FAULTLINE_TEST_ADMIN_TOKEN""#)
        let both = try config(#""token": "t", "token_env": "FAULTLINE_TEST_ADMIN_TOKEN""#)
        let binary = TestPaths.faultline
        let unset = try await Blocking.run { try Command.shellResult("env -u FAULTLINE_TEST_ADMIN_TOKEN '\(binary)' check-config '\(fromEnvironment)'", in: nil) }
        #expect(unset.status == 3, "\(unset.output)")
        #expect(unset.output.contains("admin.token_env") && unset.output.contains("FAULTLINE_TEST_ADMIN_TOKEN"), "\(unset.output)")
        let set = try await Blocking.run { try Command.shellResult("FAULTLINE_TEST_ADMIN_TOKEN=s3 '\(binary)' check-config '\(fromEnvironment)'", in: nil) }
        #expect(set.status == 0, "\(set.output)")
        let ambiguous = try await Blocking.run { try Command.shellResult("FAULTLINE_TEST_ADMIN_TOKEN=s3 '\(binary)' check-config '\(both)'", in: nil) }
        #expect(ambiguous.status == 3 && ambiguous.output.contains("not both"), "\(ambiguous.output)")
    }

    @Test func checkConfigWithoutAFileIsAUsageError() async throws {
        let result = try await FaultlineProcess.command(["check-config"])
        #expect(result.status == 2)
    }

    @Test func runWithABadConfigExitsThree() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("bad.json", """
        {"listeners": [{"address": "127.0.0.1:0"}],
         "upstreams": {"demo": {"url": "http://127.0.0.1:9"}},
         "routes": [{"name": "r", "upstream": "nope"}]}
        """)
        let result = try await FaultlineProcess.command(["run", "--config", path])
        #expect(result.status == 3)
        #expect(result.output.contains("routes[0].upstream"), "\(result.output)")
        #expect(!result.output.contains("listening on"))
    }

    @Test func checkConfigRefusesALowerCaseMethodNamingTheUpperCaseOne() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("methods.json", """
        {"listeners": [{"address": "127.0.0.1:0"}], "upstreams": {"o": {"url": "http://127.0.0.1:9"}},
         "routes": [{"match": {"methods": ["GET", "post"]}, "upstream": "o"}]}
        """)
        let result = try await FaultlineProcess.command(["check-config", path])
        #expect(result.status == 3, "\(result.output)")
        #expect(result.output.contains(#"routes[0].match.methods[1]: expected an upper-case HTTP method (methods are case-sensitive), got "post"; did you mean "POST"?"#),
                "\(result.output)")
    }

    @Test func checkConfigIsStrictJSONNoTrailingCommaNoComment() async throws {
        let directory = try TemporaryDirectory()
        let comma = try directory.write("comma.json", """
        {"listeners": [{"address": "127.0.0.1:0"}],
         "upstreams": {"o": {"url": "http://127.0.0.1:9"},}}
        """)
        var result = try await FaultlineProcess.command(["check-config", comma])
        #expect(result.status == 3, "\(result.output)")
        #expect(result.output.contains("invalid JSON at line 2, column 50: a trailing comma"), "\(result.output)")
        let comment = try directory.write("comment.json", """
        {"listeners": [{"address": "127.0.0.1:0"}], // the proxy
         "upstreams": {"o": {"url": "http://127.0.0.1:9"}}}
        """)
        result = try await FaultlineProcess.command(["check-config", comment])
        #expect(result.status == 3, "\(result.output)")
        #expect(result.output.contains("invalid JSON"), "\(result.output)")
        // A comma inside a string is no trailing comma.
        let string = try directory.write("string.json", """
        {"listeners": [{"address": "127.0.0.1:0"}], "upstreams": {"o": {"url": "http://127.0.0.1:9"}},
         "routes": [{"name": "a,]", "upstream": "o"}]}
        """)
        result = try await FaultlineProcess.command(["check-config", string])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func checkConfigNamesBothFormsOfDelayAndStatus() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("forms.json", """
        {"listeners": [{"address": "127.0.0.1:0"}], "upstreams": {"o": {"url": "http://127.0.0.1:9"}},
         "routes": [{"upstream": "o", "faults": [{"delay": "200ms"}, {"status": "503"}]}]}
        """)
        let result = try await FaultlineProcess.command(["check-config", path])
        #expect(result.status == 3, "\(result.output)")
        #expect(result.output.contains(#"routes[0].faults[0].delay: expected milliseconds as an integer (200) or an object ({"ms": 200}"#),
                "\(result.output)")
        #expect(result.output.contains(#"got "200ms""#), "\(result.output)")
        #expect(result.output.contains(#"routes[0].faults[1].status: expected a status code as an integer (503) or an object ({"code": 503"#),
                "\(result.output)")
    }

    @Test func aRouteMayLeaveOutTheOnlyUpstream() async throws {
        let directory = try TemporaryDirectory()
        let one = try directory.write("one.json", """
        {"listeners": [{"address": "127.0.0.1:0"}], "upstreams": {"demo": {"url": "http://127.0.0.1:9"}},
         "routes": [{"name": "search", "match": {"path_prefix": "/users"}}, {"name": "rest"}]}
        """)
        var result = try await FaultlineProcess.command(["check-config", one])
        #expect(result.status == 0, "\(result.output)")
        let two = try directory.write("two.json", """
        {"listeners": [{"address": "127.0.0.1:0"}],
         "upstreams": {"demo": {"url": "http://127.0.0.1:9"}, "staging": {"url": "http://127.0.0.1:9"}},
         "routes": [{"name": "search"}]}
        """)
        result = try await FaultlineProcess.command(["check-config", two])
        #expect(result.status == 3, "\(result.output)")
        #expect(result.output.contains("routes[0].upstream: expected the name of an upstream, got nothing"), "\(result.output)")
    }
}
