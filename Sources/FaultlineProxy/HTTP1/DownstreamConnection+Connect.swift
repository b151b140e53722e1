import FaultlineConfig
import FaultlineHTTP
import FaultlineIO
import Synchronization

/// CONNECT on a forward-proxy listener: checked (credentials, allow-list, a strict
/// authority, not Faultline itself, the tunnel bound), then handed to a tunnel (a
/// pass-through host) or to interception.
extension DownstreamConnection {
    func beginConnect(_ head: HTTPHead, config: ForwardProxyConfig) {
        let initial = pipelined
        pipelined.removeAll()
        if let response = ForwardGate(config: config).refusal(clientIP: clientIP, headers: head.headers) {
            refuseConnect(head, response)
            return
        }
        let target: ForwardTarget
        switch ForwardTarget.connect(head.target) {
        case .success(let parsed): target = parsed
        case .failure(let problem):
            refuseConnect(head, LocalResponse(status: 400, message: "bad request: \(problem)", keepAlive: false))
            return
        }
        let destination: ForwardDestination
        switch resolveForward(target, tls: true, config: config) {
        case .success(let resolved): destination = resolved
        case .failure(let refusal):
            refuseConnect(head, refusal.response)
            return
        }
        let state = context.state
        guard state.forwardTunnels.add(1, ordering: .relaxed).newValue <= config.maxTunnels else {
            state.forwardTunnels.subtract(1, ordering: .relaxed)
            refuseConnect(head, LocalResponse(
                status: 503, message: "too many open tunnels (forward.max_tunnels = \(config.maxTunnels))", keepAlive: false))
            return
        }
        if config.intercepts(host: target.host) && !state.interceptRefusals.passesThrough(target.host) {
            intercept(head, destination: destination, config: config, initial: initial)
            return
        }
        startTunnel(head, destination: destination, initial: initial, release: { state.forwardTunnels.subtract(1, ordering: .relaxed) })
    }

    /// Answers 200, then speaks TLS on the same descriptor with a leaf minted for the host:
    /// a new HTTP/1 connection (HTTP/2 by ALPN) whose every request goes to `destination`.
    private func intercept(_ head: HTTPHead, destination: ForwardDestination, config: ForwardProxyConfig, initial: [UInt8]) {
        let state = context.state
        let release = { () -> Void in state.forwardTunnels.subtract(1, ordering: .relaxed) }
        guard let interceptor = context.snapshot.interceptor(certificate: config.caCertificatePath, key: config.caKeyPath),
              let session = interceptor.makeSession(host: destination.target.host) else {
            release()
            refuseConnect(head, LocalResponse(
                status: 502, message: "cannot mint a certificate for \(destination.target.host)", keepAlive: false))
            return
        }
        let interception = ForwardInterception(destination: destination, session: session,
                                               passThroughAfterRefusals: config.passThroughAfterRefusals, release: release)
        socket.write(Array("HTTP/1.1 200 Connection Established\r\n\r\n".utf8))
        // Bytes sent before the 200 (a ClientHello sent early) cannot be handed to the new
        // socket: such a client is closed rather than served half a handshake.
        guard initial.isEmpty, let fd = socket.detach() else {
            closeNow()
            return
        }
        deadline.disarm()
        phase = .closed
        do {
            let connection = try DownstreamConnection(fd: fd, peer: socket.peer, context: context, tls: nil,
                                                      interception: interception)
            context.connectionUpgraded(from: self, to: connection)
        } catch {
            Sockets.close(fd)
            context.connectionClosed(self)
        }
    }

    /// A refused CONNECT gets its own record, like any request Faultline answers.
    private func refuseConnect(_ head: HTTPHead, _ response: LocalResponse) {
        startTrace(head, log: context.snapshot.log)
        writeLocalAndClose(response)
    }

    /// The route and faults of the CONNECT (its Host is the authority, its target not a
    /// path, so only host, method, header and client conditions can match), then the tunnel.
    private func startTunnel(_ received: HTTPHead, destination: ForwardDestination, initial: [UInt8],
                             release: @escaping () -> Void) {
        var head = received
        head.headers = Self.forwardedHeaders(head.headers, host: destination.target.description)
        let snapshot = context.snapshot
        let session = membership(of: head).session
        var route: CompiledRoute?
        var decider = snapshot.faults
        if let session, let matched = session.ruleSet.route(head, client: clientIP, global: snapshot.routes) {
            route = matched
            decider = session.ruleSet.decider
        } else {
            route = snapshot.routes.match(head, client: clientIP)
        }
        var plan = TunnelPlan()
        var finishDecision: () -> Void = {}
        if let route {
            let decision = decider.decide(route: route)
            if !decision.isEmpty {
                plan = TunnelPlan(FaultPlan(decision, routeName: route.name))
                finishDecision = { decider.finished(decision) }
            }
        }
        deadline.disarm()
        phase = .closed
        let timeouts = UpstreamTimeouts()
        let tunnel = ForwardTunnel(client: socket, initial: initial, context: context, setup: ForwardTunnel.Setup(
            target: destination.target, address: destination.address, clientIP: clientIP, clientPort: clientPort,
            route: route?.name, plan: plan, idleMs: timeouts.tunnelIdleMs, connectMs: timeouts.connectMs,
            onEnd: { finishDecision(); release() }))
        context.connectionUpgraded(from: self, to: tunnel)
        tunnel.start()
    }
}
