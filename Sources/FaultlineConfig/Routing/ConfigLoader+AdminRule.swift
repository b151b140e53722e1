import Foundation

extension ConfigLoader {
    /// The keys of a rule sent to the admin API: a route's keys plus `position`.
    static let adminRuleKeys = ConfigKeys.route + ["position"]

    /// Parses one rule (a route object in the config file's format) with the same validation
    /// as the file; error paths start with `rule.` (`rule.faults[0].when.probability: expected
    /// 0...1, got 1.5`). `name`, when given (the name in a URL), may be left out of the body
    /// and must match it when present; otherwise the body must name the rule.
    ///
    /// With `confineFiles` (the admin API), a `body_file` must resolve (links and `..`
    /// included) inside `baseDirectory`, the config file's directory, and is kept as its real
    /// path; without a base directory only inline bodies are accepted.
    public static func parseRule(
        _ data: Data, upstreams: [UpstreamConfig], baseDirectory: String?, name: String? = nil, confineFiles: Bool = false
    ) throws(ConfigErrors) -> RouteConfig {
        try parseRule(data, upstreams: upstreams, baseDirectory: baseDirectory, name: name, known: ConfigKeys.route,
                      confinement: confinement(baseDirectory, confineFiles)).rule
    }

    /// Same as `parseRule(_:upstreams:baseDirectory:name:)`, also accepting `"position":
    /// "start"|"end"` beside the route's keys (nil when absent).
    public static func parseRuleWithPosition(
        _ data: Data, upstreams: [UpstreamConfig], baseDirectory: String?, name: String? = nil, confineFiles: Bool = false
    ) throws(ConfigErrors) -> (rule: RouteConfig, position: RulePosition?) {
        try parseRule(data, upstreams: upstreams, baseDirectory: baseDirectory, name: name, known: adminRuleKeys,
                      confinement: confinement(baseDirectory, confineFiles))
    }

    /// A rule of a session (`POST /sessions/{id}/rules`): the same keys, validation and
    /// `rule.` error paths as `parseRuleWithPosition`, except that `upstream` may be left out;
    /// the rule's `upstream` is then "" (the request goes where the global routes send it).
    /// With `confineFiles` (the admin API) it names no file at all: inline bodies only.
    public static func parseSessionRule(
        _ data: Data, upstreams: [UpstreamConfig], baseDirectory: String?, name: String? = nil, confineFiles: Bool = false
    ) throws(ConfigErrors) -> (rule: RouteConfig, position: RulePosition?) {
        try parseRule(data, upstreams: upstreams, baseDirectory: baseDirectory, name: name,
                      known: name == nil ? adminRuleKeys : ConfigKeys.route,
                      confinement: confineFiles ? .sessionRule : .unconfined, upstreamOptional: true)
    }

    private static func confinement(_ baseDirectory: String?, _ confine: Bool) -> FileConfinement {
        guard confine else { return .unconfined }
        return baseDirectory.map(FileConfinement.within) ?? .inlineOnly
    }

    private static func parseRule(
        _ data: Data, upstreams: [UpstreamConfig], baseDirectory: String?, name: String?, known: [String],
        confinement: FileConfinement, upstreamOptional: Bool = false
    ) throws(ConfigErrors) -> (rule: RouteConfig, position: RulePosition?) {
        let root: JSONValue
        switch JSONValue.parse(data) {
        case .success(let value): root = value
        case .failure(let error): throw ConfigErrors(errors: [error], file: nil)
        }
        let path = "rule"
        var diagnostics = Diagnostics()
        let context = LoadContext(baseDirectory: baseDirectory, checkFiles: true, now: Date(), confinement: confinement)
        let route = readRoute(root, path: path, upstreamNames: upstreams.map(\.name), known: known,
                              upstreamOptional: upstreamOptional || upstreams.isEmpty, context, &diagnostics)
        var position: RulePosition?
        if case .object(let fields) = root {
            let object = FieldReader(checked: fields, path: path)
            if known.contains("position") {
                position = fields["position"].map { _ in object.choice("position", default: RulePosition.start, &diagnostics) }
            }
            checkName(fields["name"], expected: name, path: object.path("name"), &diagnostics)
        }
        guard let route, diagnostics.errors.isEmpty else {
            throw ConfigErrors(errors: diagnostics.errors, file: nil)
        }
        let rule = name.map { RouteConfig(name: $0, match: route.match, upstream: route.upstream, faults: route.faults) } ?? route
        return (rule, position)
    }

    /// A rule must be named: by its body, or by the URL (then the body may only repeat it).
    private static func checkName(_ value: JSONValue?, expected: String?, path: String, _ diagnostics: inout Diagnostics) {
        switch (value, expected) {
        case (nil, nil):
            diagnostics.add(path, "expected a non-empty string (every runtime rule needs a name), got nothing")
        case (.string(let given)?, let expected?) where !given.isEmpty && given != expected:
            diagnostics.add(path, "expected \(JSONValue.quoted(expected)) (the name in the URL), got \(JSONValue.quoted(given))")
        default:
            break
        }
    }
}
