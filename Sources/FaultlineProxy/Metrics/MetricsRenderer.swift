/// Renders a `MetricsSnapshot` as the Prometheus text exposition format 0.0.4. Every name
/// starts with `faultline_`; counters end in `_total`, durations are in seconds; every
/// family is listed, even while it has no sample. docs/metrics.md lists them.
enum MetricsRenderer {
    /// The answer's body.
    static func render(_ metrics: MetricsSnapshot) -> String {
        var out = MetricsText()
        requests(metrics, &out)
        faults(metrics.faults, &out)
        upstreams(metrics.upstreams, &out)
        PinReportBoard.render(metrics.pinReports, into: &out)
        out.family("faultline_active_connections", .gauge, "Client connections open now (HTTP/1 and HTTP/2).")
        out.sample("faultline_active_connections", metrics.activeConnections)
        out.family("faultline_worker_connections", .gauge,
                   "Client connections each worker (event loop) holds now, including ones handed to it and not yet opened.")
        for (worker, count) in metrics.workerConnections.enumerated() {
            out.sample("faultline_worker_connections", [("worker", String(worker))], count)
        }
        out.family("faultline_sessions_active", .gauge, "Test sessions alive now.")
        out.sample("faultline_sessions_active", metrics.sessionsActive)
        scenarios(metrics, &out)
        http2(metrics.http2, &out)
        out.family("faultline_config_generation", .gauge, "Generation of the running configuration (reloads and rule changes add one).")
        out.sample("faultline_config_generation", metrics.configGeneration)
        out.family("faultline_build_info", .gauge, "Always 1; the version of the running binary is its label.")
        out.sample("faultline_build_info", [("version", metrics.version)], 1)
        return out.text
    }

    private static func requests(_ metrics: MetricsSnapshot, _ out: inout MetricsText) {
        out.family("faultline_requests_total", .counter,
                   "Requests that ended, by route (\"\" when no route took it) and the status the client got (\"none\" when it got none).")
        for route in metrics.routes {
            for (status, count) in route.statuses.sorted(by: { $0.key < $1.key }) {
                out.sample("faultline_requests_total", [("route", route.name), ("status", String(status))], count)
            }
            if route.otherStatuses > 0 {
                out.sample("faultline_requests_total", [("route", route.name), ("status", "other")], route.otherStatuses)
            }
            if route.noStatus > 0 {
                out.sample("faultline_requests_total", [("route", route.name), ("status", "none")], route.noStatus)
            }
        }
        out.family("faultline_requests_untracked_total", .counter,
                   "Requests counted in no route because an event loop held its most route names already.")
        out.sample("faultline_requests_untracked_total", metrics.untrackedRequests)
        let name = "faultline_request_duration_seconds"
        out.family(name, .histogram, "Time from a request's head to the end of its exchange, by route.")
        for route in metrics.routes {
            var cumulative = 0
            for (index, bound) in LatencyBuckets.labels.enumerated() {
                cumulative += route.buckets[index]
                out.sample(name + "_bucket", [("route", route.name), ("le", bound)], cumulative)
            }
            out.sample(name + "_bucket", [("route", route.name), ("le", "+Inf")], route.count)
            out.sample(name + "_sum", [("route", route.name)], Double(route.sumNanoseconds) / 1_000_000_000)
            out.sample(name + "_count", [("route", route.name)], route.count)
        }
    }

    private static func scenarios(_ metrics: MetricsSnapshot, _ out: inout MetricsText) {
        out.family("faultline_scenario_phase", .gauge, "The phase a global scenario is in (0-based index in its phases; -1 when not running).")
        for scenario in metrics.scenarios {
            out.sample("faultline_scenario_phase", [("scenario", scenario.name)], scenario.phase)
        }
        out.family("faultline_scenario_phase_transitions_total", .counter,
                   "Phases a global scenario began (each start, each phase change, each loop back to the first phase).")
        for scenario in metrics.scenarios {
            out.sample("faultline_scenario_phase_transitions_total", [("scenario", scenario.name)], scenario.transitions)
        }
        out.family("faultline_session_scenario_phase_transitions_total", .counter,
                   "Phases the scenarios of sessions began, all sessions together.")
        out.sample("faultline_session_scenario_phase_transitions_total", metrics.sessionScenarioTransitions)
    }

    private static func faults(_ scopes: [FaultSeries], _ out: inout MetricsText) {
        out.family("faultline_faults_fired_total", .counter, "Requests a fault fired on, by scope (global or session), rule and fault.")
        for scope in scopes {
            for key in scope.keys {
                out.sample("faultline_faults_fired_total", [("scope", scope.scope), ("route", key.route), ("fault", key.fault)],
                           scope.fired[key] ?? 0)
            }
        }
        out.family("faultline_faults_fired_untracked_total", .counter,
                   "Requests a fault of a session rule fired on, counted in no series because the session scope held its most series.")
        out.sample("faultline_faults_fired_untracked_total", scopes.reduce(0) { $0 + $1.untracked })
    }

    private static func upstreams(_ upstreams: [MetricsSnapshot.Upstream], _ out: inout MetricsText) {
        out.family("faultline_pin_verdicts_total", .counter,
                   "Pin checks of upstream TLS handshakes, by upstream, pin set (live or candidate) and verdict.")
        for upstream in upstreams {
            for (verdict, count) in upstream.events.pinVerdicts.sorted(by: { $0.key < $1.key }) {
                out.sample("faultline_pin_verdicts_total",
                           [("upstream", upstream.name), ("set", verdict.set), ("verdict", verdict.verdict)], count)
            }
        }
        out.family("faultline_upstream_connect_errors_total", .counter,
                   "Requests that failed because the upstream could not be connected to (refused, unreachable, no address).")
        for upstream in upstreams {
            out.sample("faultline_upstream_connect_errors_total", [("upstream", upstream.name)], upstream.events.connectErrors)
        }
        out.family("faultline_upstream_tls_errors_total", .counter, "Requests that failed because the upstream TLS handshake failed.")
        for upstream in upstreams {
            out.sample("faultline_upstream_tls_errors_total", [("upstream", upstream.name)], upstream.events.tlsErrors)
        }
        out.family("faultline_upstream_pool_idle_connections", .gauge,
                   "Idle HTTP/1 upstream connections kept for reuse, summed over the event loops (as of their last 100 ms sweep).")
        for upstream in upstreams {
            out.sample("faultline_upstream_pool_idle_connections", [("upstream", upstream.name)], upstream.idleConnections)
        }
    }

    private static func http2(_ counts: HTTP2Counters.Counts, _ out: inout MetricsText) {
        let rows: [(String, String, Int)] = [
            ("connections_accepted", "HTTP/2 client connections accepted (ALPN h2 or prior-knowledge h2c).", counts.connectionsAccepted),
            ("streams_opened", "HTTP/2 streams clients opened.", counts.streamsOpened),
            ("streams_reset_by_faultline", "HTTP/2 streams Faultline reset (RST_STREAM sent).", counts.streamsResetByFaultline),
            ("streams_reset_by_client", "HTTP/2 streams clients reset (RST_STREAM received).", counts.streamsResetByClient),
            ("goaways_sent", "GOAWAY frames Faultline sent to clients.", counts.goawaysSent),
        ]
        for (key, help, value) in rows {
            let name = "faultline_http2_\(key)_total"
            out.family(name, .counter, help)
            out.sample(name, value)
        }
    }
}
