extension ConfigLoader {
    /// `headers`, `query` or `cookies`: an object of name → string (exact, or a glob with
    /// `*`), `true` (present) or `false` (absent). Header names are tokens, lowercased.
    static func readFieldConditions(_ object: FieldReader, _ key: String, _ diagnostics: inout Diagnostics) -> [FieldCondition] {
        guard let value = object[key] else { return [] }
        let path = object.path(key)
        let what = key == "headers" ? "header name" : key == "query" ? "query parameter" : "cookie name"
        guard case .object(let fields) = value, !fields.isEmpty else {
            diagnostics.add(path, "expected a non-empty object of \(what) → value, true (present) or false (absent), got \(value.rendered)")
            return []
        }
        var conditions: [FieldCondition] = []
        for name in fields.keys.sorted() {
            guard let item = fields[name] else { continue }
            let itemPath = Diagnostics.join(path, name)
            guard validName(name, key: key) else {
                let rule = key == "headers" ? "an HTTP token" : "non-empty, without \"=\", \"&\", \";\", spaces or control characters"
                diagnostics.add(itemPath, "expected a \(what) that is \(rule), got \(JSONValue.quoted(name))")
                continue
            }
            let condition: ValueCondition
            switch item {
            case .bool(let present):
                condition = present ? .present : .absent
            case .string(let text) where text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }):
                condition = ValueCondition(text: text)
            default:
                diagnostics.add(itemPath, "expected a string without control characters (exact, or a glob with \"*\"), true (present) or false (absent), got \(item.rendered)")
                continue
            }
            conditions.append(FieldCondition(name: key == "headers" ? name.lowercased() : name, condition: condition))
        }
        return conditions
    }

    private static func validName(_ name: String, key: String) -> Bool {
        if key == "headers" { return HTTPToken.isToken(name) }
        return !name.isEmpty && name.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x20 && scalar.value != 0x7F && scalar != "=" && scalar != "&" && scalar != ";"
        }
    }

    /// `client` (a route's match) or `clients` (a forward listener's allow-list): a non-empty
    /// array of CIDR blocks or addresses, IPv4 or IPv6; empty when the key is absent.
    static func readClientNetworks(_ object: FieldReader, _ key: String, _ diagnostics: inout Diagnostics) -> [ClientNetwork] {
        guard let value = object[key] else { return [] }
        let path = object.path(key)
        guard case .array(let items) = value, !items.isEmpty else {
            diagnostics.add(path, "expected a non-empty array of CIDR blocks such as \"10.0.0.0/8\" or \"::1/128\", got \(value.rendered)")
            return []
        }
        var networks: [ClientNetwork] = []
        for (index, item) in items.enumerated() {
            if case .string(let text) = item, let network = ClientNetwork(text) {
                networks.append(network)
            } else {
                diagnostics.add(Diagnostics.join(path, index),
                                "expected an IPv4 or IPv6 address with an optional /prefix length (0-32, 0-128), got \(item.rendered)")
            }
        }
        return networks
    }
}

extension ConfigLoader {
    /// `json`: an object of JSON Pointer (RFC 6901) → string (exact, or a glob with `*`),
    /// `true` (present) or `false` (absent), checked on the request body (docs/config.md,
    /// "Matching on a JSON body").
    static func readJSONConditions(_ object: FieldReader, _ diagnostics: inout Diagnostics) -> [FieldCondition] {
        guard let value = object["json"] else { return [] }
        let path = object.path("json")
        guard case .object(let fields) = value, !fields.isEmpty else {
            diagnostics.add(path, "expected a non-empty object of JSON Pointer → value, true (present) or false (absent), got \(value.rendered)")
            return []
        }
        var conditions: [FieldCondition] = []
        for pointer in fields.keys.sorted() {
            guard let item = fields[pointer] else { continue }
            let itemPath = Diagnostics.join(path, pointer)
            guard JSONPointer(pointer) != nil else {
                diagnostics.add(itemPath, "expected a JSON Pointer such as \"/user/tier\" (empty, or \"/\"-separated tokens with \"~\" only as \"~0\" or \"~1\"), got \(JSONValue.quoted(pointer))")
                continue
            }
            switch item {
            case .bool(let present):
                conditions.append(FieldCondition(name: pointer, condition: present ? .present : .absent))
            case .string(let text):
                conditions.append(FieldCondition(name: pointer, condition: ValueCondition(text: text)))
            default:
                diagnostics.add(itemPath, "expected a string (exact, or a glob with \"*\"), true (present) or false (absent), got \(item.rendered)")
            }
        }
        return conditions
    }
}
