/// Decides what is secret and replaces it with `[REDACTED]`: header values, cookie
/// values, query and fragment parameters, URL userinfo, JSON and form body fields, and
/// free text. Built once from configuration and shared by every event loop. Matching is
/// case-insensitive and ignores `-` and `_` in names; parameter and field names are also
/// judged by their parts (`user[password]`, `token[]`) with control characters dropped,
/// and every name but a header's also by the header substrings. It applies in both
/// directions.
public struct Redactor: Sendable {
    /// Normalised header names whose values are redacted.
    let headerNames: Set<String>
    /// Normalised header names never redacted, even when a substring matches.
    let keptHeaderNames: Set<String>
    /// Normalised substrings; a header whose normalised name contains one is redacted.
    let headerSubstrings: [[UInt8]]
    /// Normalised query and fragment parameter names.
    let queryNames: Set<String>
    /// Normalised JSON and form field names.
    let bodyFieldNames: Set<String>
    /// Normalised names recognised in free text (`name=value`, `name: value`).
    let textNames: Set<String>
    /// Header names whose values are logged as they are: those `removeHeaders` keeps and the
    /// common ones these rules never redact (one lookup, the fast path of `redactHeader`).
    let verbatimHeaderNames: Set<String>
    /// The common ones of `verbatimHeaderNames` as they are spelled on the wire.
    let verbatimSpellings: VerbatimHeaderNames
    /// Query and fragment parameter names: the query and body names and the extra names,
    /// the header substrings, `remove…QueryParameters` kept.
    let queryRules: RedactionNameRules
    /// JSON and form field names: the body names, the header names (an echoed
    /// `"X-Api-Key": …`) and the extra names, the header substrings, `removeBodyFields` and
    /// `removeHeaders` kept.
    let bodyRules: RedactionNameRules
    /// Names in free text: every name above, the header substrings, `removeHeaders` kept.
    let textRules: RedactionNameRules

    /// The default rules with names added and removed. Each `add…` list extends the
    /// defaults in `RedactionDefaults`; each `remove…` list takes names out of them (and
    /// `removeHeaders` also exempts a header from the substring rule, e.g. a
    /// `X-Session-Trace` that is not a secret).
    public init(
        addHeaders: [String] = [], removeHeaders: [String] = [],
        addHeaderSubstrings: [String] = [], removeHeaderSubstrings: [String] = [],
        addQueryParameters: [String] = [], removeQueryParameters: [String] = [],
        addBodyFields: [String] = [], removeBodyFields: [String] = []
    ) {
        func build(_ defaults: [String], _ add: [String], _ remove: [String]) -> Set<String> {
            Set(defaults.map(RedactionName.normalize) + add.map(RedactionName.normalize))
                .subtracting(remove.map(RedactionName.normalize))
                .filter { !$0.isEmpty }
        }
        keptHeaderNames = Set(removeHeaders.map(RedactionName.normalize))
        headerNames = build(RedactionDefaults.headers, addHeaders, removeHeaders)
        headerSubstrings = build(RedactionDefaults.headerSubstrings, addHeaderSubstrings, removeHeaderSubstrings)
            .sorted().map { Array($0.utf8) }
        queryNames = build(RedactionDefaults.queryParameters, addQueryParameters, removeQueryParameters)
        bodyFieldNames = build(RedactionDefaults.bodyFields, addBodyFields, removeBodyFields)
        textNames = headerNames.union(queryNames).union(bodyFieldNames)
        let extra = Set(RedactionDefaults.extraNames.map(RedactionName.normalize))
        let fieldExtra = extra.union(RedactionDefaults.fieldOnlyNames.map(RedactionName.normalize))
        let keptQuery = Set(removeQueryParameters.map(RedactionName.normalize))
        let keptBody = Set(removeBodyFields.map(RedactionName.normalize)).union(keptHeaderNames)
        queryRules = RedactionNameRules(exact: queryNames.union(bodyFieldNames).union(fieldExtra).subtracting(keptQuery),
                                        kept: keptQuery, substrings: headerSubstrings)
        bodyRules = RedactionNameRules(exact: bodyFieldNames.union(headerNames).union(fieldExtra).subtracting(keptBody),
                                       kept: keptBody, substrings: headerSubstrings)
        textRules = RedactionNameRules(exact: textNames.union(extra).subtracting(keptHeaderNames), kept: keptHeaderNames,
                                       substrings: headerSubstrings)
        let sensitive = headerNames
        let substrings = headerSubstrings
        let plain: (String) -> Bool = { name in
            !sensitive.contains(name) && !Self.urlHeaders.contains(name)
                && !substrings.contains { ByteSearch.contains(Array(name.utf8), $0) }
        }
        verbatimHeaderNames = keptHeaderNames.union(Self.commonHeaders.filter(plain))
        verbatimSpellings = VerbatimHeaderNames(lowercaseSpellings: Self.commonHeaderSpellings, isVerbatim: plain)
    }

    /// Whether the value of header `name` is redacted (by name or by substring).
    public func isSensitiveHeader(_ name: String) -> Bool {
        let normalized = RedactionName.normalize(name)
        if keptHeaderNames.contains(normalized) { return false }
        if headerNames.contains(normalized) { return true }
        return containsSubstring(Array(normalized.utf8))
    }

    /// Whether query or fragment parameter `name` (already percent-decoded) is redacted.
    public func isSensitiveQueryParameter(_ name: String) -> Bool {
        queryRules.matches(name.utf8)
    }

    /// Whether JSON or form field `name` is redacted.
    public func isSensitiveBodyField(_ name: String) -> Bool {
        bodyRules.matches(name.utf8)
    }

    /// Whether a normalised name contains one of the header substrings.
    func containsSubstring(_ normalized: [UInt8]) -> Bool {
        headerSubstrings.contains { ByteSearch.contains(normalized, $0) }
    }

    /// Whether a normalised name contains one of the header substrings.
    func containsSubstring(_ normalized: String) -> Bool {
        var name = normalized
        return name.withUTF8 { bytes in headerSubstrings.contains { ByteSearch.contains(bytes, $0) } }
    }

    /// Whether `name` is a secret-looking name in free text: any header, query, body or
    /// extra name, or a name containing a header substring.
    func isSensitiveTextName(_ name: some Collection<UInt8>) -> Bool {
        textRules.matches(name)
    }
}
