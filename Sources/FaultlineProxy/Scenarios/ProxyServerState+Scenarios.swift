import FaultlineLog

/// How scenario phase changes are reported: a log record of their own (`kind: scenario`)
/// and a console line.
extension ProxyServerState {
    /// Reports `transition` (called by the scenario reporter, on whichever thread changed the phase).
    func report(_ transition: ScenarioTransition) {
        let log = snapshot.log
        var record = LogRecord(kind: .scenario)
        record.session = transition.session
        record.setMessage(transition.message, policy: log.policy)
        record.addAttribute("faultline.scenario", transition.scenario, policy: log.policy)
        switch transition.change {
        case .entered(let index, let name, let cycle):
            record.addAttribute("faultline.scenario.phase", String(index), policy: log.policy)
            if let name { record.addAttribute("faultline.scenario.phase_name", name, policy: log.policy) }
            record.addAttribute("faultline.scenario.cycle", String(cycle), policy: log.policy)
            record.addAttribute("faultline.scenario.event", "phase", policy: log.policy)
        case .finished:
            record.addAttribute("faultline.scenario.event", "finished", policy: log.policy)
        case .stopped:
            record.addAttribute("faultline.scenario.event", "stopped", policy: log.policy)
        }
        log.write(event: record)
        events(.scenario(message: transition.message))
    }
}
