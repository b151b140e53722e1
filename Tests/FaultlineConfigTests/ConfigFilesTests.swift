import Foundation
import Testing
@testable import FaultlineConfig

@Suite("Shipped config files")
struct ConfigFilesTests {
    private let configDirectory = repositoryRoot.appendingPathComponent("config")

    @Test func defaultConfigLoads() throws {
        // The TLS listener's certificate is minted on first run (scripts/run.sh), so a fresh
        // clone has no certs/proxy.pem: check everything but the files' existence.
        let url = configDirectory.appendingPathComponent("default.json")
        let config = try ConfigLoader.parse(try Data(contentsOf: url), file: url.path,
                                            baseDirectory: configDirectory.path, checkFiles: false)
        #expect(config.listeners.map(\.address.description) == ["127.0.0.1:8080", "127.0.0.1:8443"])
        #expect(config.listeners[1].tls?.certificate.hasSuffix("certs/proxy.pem") == true)
        #expect(config.admin?.address.description == "127.0.0.1:9901")
        #expect(config.demoOrigin?.address.description == "127.0.0.1:8081")
        #expect(config.upstreams.map(\.name) == ["demo"])
        #expect(config.upstream(named: "demo")?.hostHeaderValue == "127.0.0.1:8081")
        #expect(config.routes == [RouteConfig(name: "default", upstream: "demo")])
        let route = RouteTable(config: config).match(host: "localhost:8080", method: "GET", path: "/anything")
        #expect(route?.name == "default")
    }

    @Test func schemaListsEveryKeyTheLoaderKnows() throws {
        let data = try Data(contentsOf: configDirectory.appendingPathComponent("faultline.schema.json"))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema["additionalProperties"] as? Bool == false)
        let defs = try #require(schema["$defs"] as? [String: Any])

        func keys(_ object: [String: Any]?) -> Set<String> {
            Set(((object?["properties"]) as? [String: Any])?.keys.map { $0 } ?? [])
        }
        func closed(_ object: [String: Any]?) -> Bool {
            object?["additionalProperties"] as? Bool == false
        }
        #expect(keys(schema) == Set(ConfigKeys.topLevel))
        let pairs: [(String, [String])] = [
            ("listener", ConfigKeys.listener), ("admin", ConfigKeys.admin), ("demoOrigin", ConfigKeys.demoOrigin),
            ("upstream", ConfigKeys.upstream), ("upstreamTimeouts", ConfigKeys.upstreamTimeouts),
            ("route", ConfigKeys.route), ("routeMatch", ConfigKeys.routeMatch),
            ("clientTimeouts", ConfigKeys.clientTimeouts), ("limits", ConfigKeys.limits),
            ("listenerTLS", ConfigKeys.listenerTLS), ("sniCertificate", ConfigKeys.sniCertificate),
            ("drillCertificate", ConfigKeys.drillCertificate), ("upstreamTrust", ConfigKeys.upstreamTrust),
            ("pins", ConfigKeys.pins), ("appPinCandidate", ConfigKeys.appPinCandidate), ("har", ConfigLoader.harKeys),
            ("http2", ConfigLoader.http2Keys), ("http2StreamResets", ConfigLoader.http2ResetKeys),
            ("sessions", ConfigLoader.sessionsKeys), ("journal", ConfigLoader.journalKeys),
            ("forwardProxy", ConfigKeys.forward), ("forwardCA", ConfigKeys.forwardCA),
            ("forwardCredential", ConfigKeys.forwardCredential),
        ]
        for (name, known) in pairs {
            let definition = defs[name] as? [String: Any]
            #expect(keys(definition) == Set(known), "$defs.\(name)")
            #expect(closed(definition), "$defs.\(name) must set additionalProperties: false")
        }
    }

    @Test func docsExampleLoads() throws {
        let docs = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/config.md"), encoding: .utf8)
        let blocks = docs.components(separatedBy: "```json\n").dropFirst()
        let example = try #require(blocks.last?.components(separatedBy: "```").first)
        let config = try ConfigLoader.parse(Data(example.utf8), file: "docs/config.md")
        #expect(config.routes.map(\.name) == ["default"])
        #expect(config.upstream(named: "staging")?.hostHeaderValue == "staging.example.com")
    }

    @Test func pinnedUpstreamExampleLoads() throws {
        // The example names certs/… files that a real setup provides; only their existence is skipped.
        let examples = configDirectory.appendingPathComponent("examples")
        let data = try Data(contentsOf: examples.appendingPathComponent("pinned-upstream.json"))
        let (config, warnings) = try ConfigLoader.parseWithWarnings(
            data, file: "pinned-upstream.json", baseDirectory: examples.path, checkFiles: false,
            now: Date(timeIntervalSince1970: 1_767_225_600))
        #expect(warnings.isEmpty)
        let staging = try #require(config.upstream(named: "staging"))
        #expect(staging.isTLS)
        #expect(staging.tls?.trust == UpstreamTrustConfig(caFile: examples.path + "/certs/staging-ca.pem", system: true))
        let pins = try #require(staging.pins)
        #expect(pins.live.count == 2)
        #expect(pins.candidate.count == 2)
        #expect(pins.mode == .enforce)
        #expect(pins.expires != nil)
        #expect(config.listeners.map(\.isTLS) == [false, true, true])
        #expect(config.listeners[1].tls?.sni.count == 1)
        #expect(config.listeners[2].tls?.drill?.label == "expired")
        // With file checks on, every missing certificate is named.
        #expect(throws: ConfigErrors.self) {
            try ConfigLoader.parse(data, file: nil, baseDirectory: examples.path)
        }
    }

    @Test func docsHTTPSExampleLoads() throws {
        let docs = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/config.md"), encoding: .utf8)
        let blocks = docs.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "```").first ?? "" }
        let example = try #require(blocks.first { $0.contains("https://") })
        let config = try ConfigLoader.parse(Data(example.utf8), file: "docs/config.md", checkFiles: false)
        #expect(config.upstream(named: "staging")?.pins?.live.count == 2)
        #expect(config.listeners.last?.isTLS == true)
    }

    @Test func docsMentionEveryKey() throws {
        let docs = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/config.md"), encoding: .utf8)
        let all = ConfigKeys.topLevel + ConfigKeys.listener + ConfigKeys.admin + ConfigKeys.upstream
            + ConfigKeys.upstreamTimeouts + ConfigKeys.route + ConfigKeys.routeMatch
            + ConfigKeys.clientTimeouts + ConfigKeys.limits + ConfigKeys.listenerTLS + ConfigKeys.sniCertificate
            + ConfigKeys.drillCertificate + ConfigKeys.upstreamTrust + ConfigKeys.pins + ConfigLoader.harKeys
            + ConfigLoader.http2Keys + ConfigLoader.http2ResetKeys + ConfigLoader.sessionsKeys + ConfigLoader.journalKeys
        // A key is documented when it appears as `key` or as the tail of `parent.key`.
        let missing = Set(all).filter { !docs.contains("`\($0)`") && !docs.contains(".\($0)`") }
        #expect(missing.isEmpty, "docs/config.md does not document \(missing.sorted())")
    }
}
