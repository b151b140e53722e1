import FaultlineConfig
import Foundation

/// A session's rules: the rule JSON of `POST /rules`, `upstream` optional.
extension AdminRouter {
    /// `/sessions/{id}/rules[/{name}]`; `rest` is what follows `rules`.
    func sessionRules(_ method: String, _ session: Session, _ rest: [String], _ request: AdminRequest) -> AdminResponse {
        switch (method, rest.first) {
        case ("GET", nil): return .json(200, AdminBody.SessionRules(rules: SessionJSON.rules(of: session.ruleSet)))
        case ("POST", nil): return addSessionRule(session, request.body)
        case (_, nil): return notAllowed(request, "GET, POST")
        case ("GET", let name?):
            guard let rule = SessionJSON.rules(of: session.ruleSet).first(where: { $0.name == name }) else {
                return unknownRule(name, session)
            }
            return .json(200, rule)
        case ("PUT", let name?): return replaceSessionRule(session, name, request.body)
        case ("DELETE", let name?): return removeSessionRule(session, name)
        default: return notAllowed(request, "GET, PUT, DELETE")
        }
    }

    private func addSessionRule(_ session: Session, _ body: [UInt8]) -> AdminResponse {
        let parsed: (rule: RouteConfig, position: ConfigLoader.RulePosition?)
        let config = server.snapshot.config
        do {
            parsed = try ConfigLoader.parseSessionRule(Data(body), upstreams: config.upstreams, baseDirectory: nil,
                                                       confineFiles: true)
        } catch {
            return AdminRefusal(invalid: error).response
        }
        let rule = parsed.rule
        do throws(AdminRefusal) {
            try session.changeRules(config: config) { rules throws(AdminRefusal) in
                guard !rules.contains(where: { $0.name == rule.name }) else {
                    throw AdminRefusal(409, "session \(session.id) already has a rule \(JSONText.quoted(rule.name))",
                                       field: "rule.name")
                }
                try Self.checkRoom(rules)
                if parsed.position == .end { rules.append(rule) } else { rules.insert(rule, at: 0) }
            }
        } catch {
            return error.response
        }
        return showSessionRule(session, rule.name, status: 201)
    }

    private func replaceSessionRule(_ session: Session, _ name: String, _ body: [UInt8]) -> AdminResponse {
        let config = server.snapshot.config
        let rule: RouteConfig
        do {
            rule = try ConfigLoader.parseSessionRule(Data(body), upstreams: config.upstreams, baseDirectory: nil, name: name,
                                                     confineFiles: true).rule
        } catch {
            return AdminRefusal(invalid: error).response
        }
        var created = false
        do throws(AdminRefusal) {
            try session.changeRules(config: config) { rules throws(AdminRefusal) in
                if let index = rules.firstIndex(where: { $0.name == name }) {
                    rules[index] = rule
                } else {
                    try Self.checkRoom(rules)
                    rules.insert(rule, at: 0)
                    created = true
                }
            }
        } catch {
            return error.response
        }
        return showSessionRule(session, name, status: created ? 201 : 200)
    }

    private func removeSessionRule(_ session: Session, _ name: String) -> AdminResponse {
        var found = false
        session.changeRules(config: server.snapshot.config) { rules in
            let before = rules.count
            rules.removeAll { $0.name == name }
            found = rules.count < before
        }
        return found ? AdminResponse(status: 204, body: []) : unknownRule(name, session)
    }

    private static func checkRoom(_ rules: [RouteConfig]) throws(AdminRefusal) {
        guard rules.count < Session.maxRules else {
            throw AdminRefusal(409, "a session holds at most \(Session.maxRules) rules; remove one first")
        }
    }

    private func showSessionRule(_ session: Session, _ name: String, status: Int) -> AdminResponse {
        guard let rule = SessionJSON.rules(of: session.ruleSet).first(where: { $0.name == name }) else {
            return unknownRule(name, session)
        }
        return .json(status, rule)
    }

    private func unknownRule(_ name: String, _ session: Session) -> AdminResponse {
        AdminRefusal(404, "session \(session.id) has no rule \(JSONText.quoted(name))").response
    }
}
