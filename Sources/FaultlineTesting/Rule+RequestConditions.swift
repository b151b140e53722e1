extension Rule {
    /// Only requests with a header `name` (case-insensitive) whose value equals `value`
    /// exactly; a `value` containing `*` is a glob (`*` = any run of bytes). Several calls
    /// must all hold: `.header("x-test", "1").header("accept", "application/*")`.
    public func header(_ name: String, _ value: String) -> Rule {
        adding("headers", name.lowercased(), .string(value))
    }

    /// Only requests that carry (`present: true`) or lack (`present: false`) the header `name`.
    public func header(_ name: String, present: Bool) -> Rule {
        adding("headers", name.lowercased(), .bool(present))
    }

    /// Only requests whose query has parameter `name` equal to `value` as sent
    /// (percent-encoded); a `value` containing `*` is a glob.
    public func query(_ name: String, _ value: String) -> Rule {
        adding("query", name, .string(value))
    }

    /// Only requests whose query has (`present: true`) or lacks (`present: false`) parameter `name`.
    public func query(_ name: String, present: Bool) -> Rule {
        adding("query", name, .bool(present))
    }

    /// Only requests sending cookie `name` with `value` (a glob when it contains `*`).
    public func cookie(_ name: String, _ value: String) -> Rule {
        adding("cookies", name, .string(value))
    }

    /// Only requests sending (`present: true`) or not sending (`present: false`) cookie `name`.
    public func cookie(_ name: String, present: Bool) -> Rule {
        adding("cookies", name, .bool(present))
    }

    /// Only requests whose body is JSON (of at most `limits.max_match_body_bytes`) with the
    /// value at JSON Pointer `pointer` (RFC 6901: `"/user/tier"`, `"/items/0/sku"`, `~1` for
    /// `/`, `~0` for `~`) equal to `value`; a `value` containing `*` is a glob. Numbers compare
    /// numerically (`"42"` takes `42.0`), `true`/`false`/`null` as those words. A body over
    /// the limit or not JSON never matches. Several calls must all hold.
    public func json(_ pointer: String, _ value: String) -> Rule {
        adding("json", pointer, .string(value))
    }

    /// Only requests whose JSON body has (`present: true`) or lacks (`present: false`) a value
    /// at `pointer`.
    public func json(_ pointer: String, present: Bool) -> Rule {
        adding("json", pointer, .bool(present))
    }

    /// Only clients whose address falls in one of these CIDR blocks (`"127.0.0.0/8"`,
    /// `"::1/128"`, a bare address); a later call replaces the list.
    public func client(_ blocks: String...) -> Rule {
        var copy = self
        copy.match["client"] = .array(blocks.map { .string($0) })
        return copy
    }

    /// Only requests that `other`'s match does not take (its name, upstream and faults are
    /// ignored): `.pathPrefix("/api").not(.any.header("x-canary", present: true))`.
    public func not(_ other: Rule) -> Rule {
        var copy = self
        copy.match["not"] = .object(other.match)
        return copy
    }

    /// A copy with `key`'s object holding `name: value`.
    private func adding(_ key: String, _ name: String, _ value: JSONValue) -> Rule {
        var copy = self
        var fields: [String: JSONValue] = [:]
        if case .object(let existing)? = match[key] { fields = existing }
        fields[name] = value
        copy.match[key] = .object(fields)
        return copy
    }
}
