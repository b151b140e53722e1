import FaultlineConfig

/// The read-only rule endpoints and the counter reset.
extension AdminRouter {
    /// `GET /rules`: every rule in match order, and the runtime changes a reload left stale.
    func listRules() -> AdminResponse {
        let snapshot = server.snapshot
        let overlay = server.overlay
        return .json(200, AdminBody.RuleList(configGeneration: snapshot.generation,
                                             rules: RuleViews(snapshot: snapshot, overlay: overlay, base: server.base).all(),
                                             stale: overlay.stale(base: server.base)))
    }

    /// `GET /rules/{name}`.
    func showRule(_ name: String) -> AdminResponse {
        let snapshot = server.snapshot
        let known = snapshot.config.routes.map(\.name)
        guard let view = RuleViews(snapshot: snapshot, overlay: server.overlay, base: server.base).rule(named: name) else {
            return AdminRefusal(404, "no rule named \"\(name)\" (known: \(known.isEmpty ? "none" : known.joined(separator: ", ")))",
                                field: "name").response
        }
        return .json(200, view)
    }

    /// `GET /stats`: counters per rule and fault, the seed that replays the decisions, and
    /// the HTTP/2 counters.
    func stats() -> AdminResponse {
        let snapshot = server.snapshot
        let overlay = server.overlay
        let stats = snapshot.faults.stats()
        let views = RuleViews(snapshot: snapshot, overlay: overlay, base: server.base)
        let base = server.base
        let rules = snapshot.config.routes.enumerated().map { index, route in
            let rows = stats.filter { $0.routeIndex == index }
            let switches = overlay.ownSwitches(of: route, base: base)
            return AdminBody.RuleCounters(
                name: route.name, source: views.source(of: route.name), enabled: overlay.isEnabled(route.name),
                fired: rows.reduce(0) { $0 + $1.fired },
                faults: route.faults.enumerated().map { faultIndex, fault in
                    let row = rows.first { $0.faultIndex == faultIndex }
                    return AdminBody.FaultCounters(name: fault.name, kind: fault.kind.keyword, enabled: switches[faultIndex],
                                                   matched: row?.matched ?? 0, fired: row?.fired ?? 0, active: row?.active ?? 0)
                })
        }
        return .json(200, AdminBody.Stats(configGeneration: snapshot.generation, seed: String(snapshot.faults.seed), rules: rules,
                                          http2: server.http2Counters.counts))
    }

    /// `POST /rules/reset`: every fault starts afresh (counts, sequences, windows).
    func resetCounters() -> AdminResponse {
        let snapshot = server.snapshot
        snapshot.faults.resetCounters()
        return .json(200, AdminBody.Reset(reset: true, configGeneration: snapshot.generation))
    }
}
