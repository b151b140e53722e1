import Foundation

extension ConfigLoader {
    /// The keys `POST /sessions` accepts.
    static let sessionRequestKeys = ["name", "ttl_s", "seed", "clients"]
    /// The largest `seed` a session accepts: 2^53, so it survives a JSON round trip through a double.
    public static let maxSessionSeed: UInt64 = 1 << 53
    /// The longest `name` a session accepts, in UTF-8 bytes.
    public static let maxSessionNameBytes = 200
    /// The most addresses a session's `clients` list may hold: more is refused before any is
    /// looked at, so a large body cannot hold the admin queue (nor a claim table grow past it).
    public static let maxSessionClients = 1024

    /// Parses the body of `POST /sessions` (every key optional; an empty body is an empty
    /// object). Errors name the field (`session.ttl_s: expected an integer 1...86400, got 0`).
    public static func parseSessionRequest(_ data: Data, defaultTTLSeconds: Int) throws(ConfigErrors) -> SessionRequest {
        let root: JSONValue
        // Stops at the first other byte: a 1 MiB body is not copied just to see it is not blank.
        if data.allSatisfy({ $0 == 9 || $0 == 10 || $0 == 13 || $0 == 32 }) {
            root = .object([:])
        } else {
            switch JSONValue.parse(data) {
            case .success(let value): root = value
            case .failure(let error): throw ConfigErrors(errors: [error], file: nil)
            }
        }
        var diagnostics = Diagnostics()
        guard let object = FieldReader(root, path: "session", known: sessionRequestKeys, diagnostics: &diagnostics) else {
            throw ConfigErrors(errors: diagnostics.errors, file: nil)
        }
        let name = object.string("name", expected: "a string of at most \(maxSessionNameBytes) bytes", &diagnostics) ?? ""
        if name.utf8.count > maxSessionNameBytes {
            diagnostics.add(object.path("name"), "expected at most \(maxSessionNameBytes) bytes, got \(name.utf8.count)")
        }
        let ttl = object.int("ttl_s", in: SessionsConfig.ttlRange, default: defaultTTLSeconds, &diagnostics)
        var seed: UInt64?
        if let value = object["seed"] {
            if case .number(let number) = value, let exact = number.uint64, exact <= maxSessionSeed {
                seed = exact
            } else {
                diagnostics.add(object.path("seed"), "expected an integer 0...\(maxSessionSeed), got \(value.rendered)")
            }
        }
        let clients = readClients(object, &diagnostics)
        guard diagnostics.errors.isEmpty else { throw ConfigErrors(errors: diagnostics.errors, file: nil) }
        return SessionRequest(name: name, ttlSeconds: ttl, seed: seed, clients: clients)
    }

    private static func readClients(_ object: FieldReader, _ diagnostics: inout Diagnostics) -> [String] {
        guard let value = object["clients"] else { return [] }
        let path = object.path("clients")
        guard case .array(let items) = value else {
            diagnostics.add(path, "expected an array of IP addresses, got \(value.rendered)")
            return []
        }
        guard items.count <= maxSessionClients else {
            diagnostics.add(path, "expected at most \(maxSessionClients) addresses, got \(items.count)")
            return []
        }
        var clients: [String] = []
        var seen: Set<String> = []
        for (index, item) in items.enumerated() {
            if case .string(let text) = item, IPLiteral.isIPv4(text) || IPLiteral.isIPv6(text) {
                if seen.insert(text).inserted { clients.append(text) }
            } else {
                diagnostics.add(Diagnostics.join(path, index), "expected an IPv4 or IPv6 address, got \(item.rendered)")
            }
        }
        return clients
    }
}
