import FaultlineConfig
import Foundation

/// The rule changes: each parses and checks first, then changes the overlay in one step.
extension AdminRouter {
    /// `POST /rules`: a new rule, at the start unless `"position": "end"`.
    func addRule(_ body: [UInt8]) -> AdminResponse {
        let parsed: (rule: RouteConfig, position: ConfigLoader.RulePosition?)
        do {
            parsed = try ConfigLoader.parseRuleWithPosition(
                Data(body), upstreams: server.snapshot.config.upstreams, baseDirectory: fileDirectory, confineFiles: true)
        } catch {
            return AdminRefusal(invalid: error).response
        }
        return change(answering: 201, rule: parsed.rule.name) { overlay, current throws(AdminRefusal) in
            try overlay.add(parsed.rule, at: parsed.position ?? .start, current: current)
        }
    }

    /// `PUT /rules/{name}`: replaces the rule whole (200), or adds it at the start (201).
    func replaceRule(_ name: String, _ body: [UInt8]) -> AdminResponse {
        let rule: RouteConfig
        do {
            rule = try ConfigLoader.parseRule(
                Data(body), upstreams: server.snapshot.config.upstreams, baseDirectory: fileDirectory, name: name,
                confineFiles: true)
        } catch {
            return AdminRefusal(invalid: error).response
        }
        var created = false
        let response = change(answering: 200, rule: name) { overlay, current throws(AdminRefusal) in
            created = overlay.replace(rule, current: current)
        }
        return created && response.status == 200 ? AdminResponse(status: 201, body: response.body) : response
    }

    /// The only directory a rule's `body_file` may point into: the config file's (relative
    /// paths start there). Nil without a config file: inline bodies only.
    private var fileDirectory: String? {
        server.snapshot.config.admin?.configDirectory
    }

    /// `DELETE /rules/{name}`: 204, or 404 when no rule has that name.
    func removeRule(_ name: String) -> AdminResponse {
        let response = change(answering: 204, rule: nil) { overlay, current throws(AdminRefusal) in
            try overlay.remove(name, current: current)
        }
        return response.status == 204 ? AdminResponse(status: 204, body: []) : response
    }

    /// `POST /rules/{name}[/faults/{fault}]/enable|disable`.
    func setEnabled(_ on: Bool, rule name: String, fault: String?) -> AdminResponse {
        change(answering: 200, rule: name) { overlay, current throws(AdminRefusal) in
            if let fault {
                try overlay.setEnabled(on, rule: name, fault: fault, current: current)
            } else {
                try overlay.setEnabled(on, rule: name, current: current)
            }
        }
    }

    /// Applies `edit` through the server state; answers `status` with the rule `name` as it
    /// now is, or the refusal (404/409 from the edit, 400 if the result does not compile).
    private func change(
        answering status: Int, rule name: String?,
        _ edit: (inout RuleOverlay, ProxyConfig) throws(AdminRefusal) -> Void
    ) -> AdminResponse {
        let current = server.snapshot.config
        var refusal: AdminRefusal?
        let snapshot: ConfigSnapshot
        do throws(ConfigErrors) {
            snapshot = try server.updateOverlay { overlay throws(ConfigErrors) in
                do throws(AdminRefusal) {
                    try edit(&overlay, current)
                } catch {
                    refusal = error
                    throw ConfigErrors(errors: [], file: nil)
                }
            }
        } catch {
            return (refusal ?? AdminRefusal(invalid: error)).response
        }
        guard let name else { return .json(status, AdminBody.Generation(configGeneration: snapshot.generation)) }
        let view = RuleViews(snapshot: snapshot, overlay: server.overlay, base: server.base)
        guard let rule = view.rule(named: name) else { return .json(status, AdminBody.RuleName(name: name)) }
        return .json(status, rule)
    }
}
