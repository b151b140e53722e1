/// A route's `headers`, `query`, `cookies`, `client`, `json` and `not` conditions, compiled once per
/// snapshot to byte arrays. Only routes that have such conditions own one; the lookup asks
/// it after host, method and path have matched, so other routes pay nothing.
final class RequestConditions: Sendable {
    /// One compiled field condition.
    struct Field: Sendable {
        enum Kind: Sendable { case equals, glob, present, absent }
        /// Headers: lowercased; query and cookies: as written.
        let name: [UInt8]
        let value: [UInt8]
        let kind: Kind

        init(_ condition: FieldCondition) {
            name = Array(condition.name.utf8)
            switch condition.condition {
            case .equals(let text): (value, kind) = (Array(text.utf8), .equals)
            case .glob(let text): (value, kind) = (Array(text.utf8), .glob)
            case .present: (value, kind) = ([], .present)
            case .absent: (value, kind) = ([], .absent)
            }
        }

        /// Whether one occurrence's value satisfies an `equals` or `glob` condition.
        func accepts(_ input: UnsafeRawBufferPointer) -> Bool {
            value.withUnsafeBytes { pattern in
                kind == .glob ? ByteMatch.glob(input, pattern, questionMarkIsWildcard: false) : ByteMatch.equals(input, pattern)
            }
        }

        /// The verdict given whether a field of that name was seen and whether one accepted.
        func verdict(seen: Bool, accepted: Bool) -> Bool {
            switch kind {
            case .present: seen
            case .absent: !seen
            case .equals, .glob: accepted
            }
        }
    }

    private let headers: [Field]
    private let query: [Field]
    private let cookies: [Field]
    private let client: [ClientNetwork]
    private let json: [JSONField]
    /// The `not` match: its host/method/path matcher (in the table's arena) and its own conditions.
    private let negated: CompiledMatcher?
    private let negatedConditions: RequestConditions?

    /// Compiles `match`'s request conditions; its `not` goes into `arena` like any matcher.
    init(_ match: RouteMatch, arena: inout PatternArena) {
        headers = match.headers.map(Field.init)
        query = match.query.map(Field.init)
        cookies = match.cookies.map(Field.init)
        client = match.client
        json = match.json.map(JSONField.init)
        if let inner = match.not {
            negated = CompiledMatcher(inner, arena: &arena)
            negatedConditions = inner.hasRequestConditions ? RequestConditions(inner, arena: &arena) : nil
        } else {
            negated = nil
            negatedConditions = nil
        }
    }

    /// Whether `request` meets every condition. Host, method and path are the lookup's
    /// (the `not` match checks them too).
    func matches(
        _ request: RouteRequest, host: UnsafeRawBufferPointer?, method: UnsafeRawBufferPointer,
        path: UnsafeRawBufferPointer, arena: UnsafeRawBufferPointer, methodSpans: UnsafeBufferPointer<ByteSpan>
    ) -> Bool {
        for field in headers where !RequestConditions.header(field, request) { return false }
        for field in query where !RequestConditions.parameter(field, request.query) { return false }
        for field in cookies where !RequestConditions.cookie(field, request) { return false }
        if !client.isEmpty {
            guard let address = ClientNetwork.address(request.client),
                  client.contains(where: { $0.contains(high: address.high, low: address.low) }) else { return false }
        }
        for field in json where !field.matches(request.body) { return false }
        if let negated, negated.matches(host: host, method: method, path: path, arena: arena, methodSpans: methodSpans) {
            guard let negatedConditions else { return false }
            if negatedConditions.matches(request, host: host, method: method, path: path, arena: arena, methodSpans: methodSpans) {
                return false
            }
        }
        return true
    }

    /// Header names compare case-insensitively; each field line is one occurrence.
    private static func header(_ field: Field, _ request: RouteRequest) -> Bool {
        var seen = false
        var accepted = false
        field.name.withUnsafeBytes { name in
            for entry in request.fields where ByteMatch.equalsIgnoringCase(request.name(entry), name) {
                seen = true
                if field.accepts(request.value(entry)) {
                    accepted = true
                    break
                }
            }
        }
        return field.verdict(seen: seen, accepted: accepted)
    }

    /// `a=1&b=2&flag`: a parameter without `=` has the empty value; bytes compare as sent.
    private static func parameter(_ field: Field, _ query: UnsafeRawBufferPointer) -> Bool {
        var seen = false
        var accepted = false
        field.name.withUnsafeBytes { name in
            RequestConditions.pairs(query, separator: UInt8(ascii: "&")) { key, value in
                guard ByteMatch.equals(key, name) else { return true }
                seen = true
                accepted = field.accepts(value)
                return !accepted
            }
        }
        return field.verdict(seen: seen, accepted: accepted)
    }

    private static let cookieName: [UInt8] = Array("cookie".utf8)

    /// Every `Cookie` field, split at `;` (HTTP/2 sends one field per cookie).
    private static func cookie(_ field: Field, _ request: RouteRequest) -> Bool {
        var seen = false
        var accepted = false
        field.name.withUnsafeBytes { name in
            RequestConditions.cookieName.withUnsafeBytes { cookieName in
                for entry in request.fields where !accepted && ByteMatch.equalsIgnoringCase(request.name(entry), cookieName) {
                    RequestConditions.pairs(request.value(entry), separator: UInt8(ascii: ";")) { key, value in
                        guard ByteMatch.equals(key, name) else { return true }
                        seen = true
                        accepted = field.accepts(value)
                        return !accepted
                    }
                }
            }
        }
        return field.verdict(seen: seen, accepted: accepted)
    }

    /// Calls `body` with each `key=value` pair of `input` (spaces around a pair trimmed)
    /// until it returns false.
    private static func pairs(
        _ input: UnsafeRawBufferPointer, separator: UInt8,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Bool
    ) {
        var start = 0
        while start <= input.count {
            var end = start
            while end < input.count && input[end] != separator { end += 1 }
            var first = start
            var last = end
            while first < last && input[first] == UInt8(ascii: " ") { first += 1 }
            while last > first && input[last - 1] == UInt8(ascii: " ") { last -= 1 }
            if first < last {
                var equals = first
                while equals < last && input[equals] != UInt8(ascii: "=") { equals += 1 }
                let key = UnsafeRawBufferPointer(rebasing: input[first..<equals])
                let value = equals < last ? UnsafeRawBufferPointer(rebasing: input[(equals + 1)..<last])
                                          : UnsafeRawBufferPointer(rebasing: input[last..<last])
                if !body(key, value) { return }
            }
            start = end + 1
        }
    }
}
