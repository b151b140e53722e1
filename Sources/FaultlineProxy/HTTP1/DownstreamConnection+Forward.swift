import FaultlineConfig
import FaultlineHTTP
import FaultlineIO

/// The forward-proxy side of an HTTP/1 client connection: who may use it, where an
/// absolute-form request goes, and what the upstream sees of it.
extension DownstreamConnection {
    /// Why a forward-proxy request is answered by Faultline.
    struct ForwardRefusal: Error {
        let response: LocalResponse
    }

    /// Checks a request to a forward-proxy listener and rewrites it for its destination: the
    /// target in origin form, one Host naming the destination (the absolute-form authority
    /// wins over a Host header, RFC 9112 §3.2.2), no Proxy-Authorization or Proxy-Connection.
    func admitForward(_ head: inout HTTPHead, config: ForwardProxyConfig) -> Result<ForwardDestination, ForwardRefusal> {
        if let response = ForwardGate(config: config).refusal(clientIP: clientIP, headers: head.headers) {
            return .failure(ForwardRefusal(response: response))
        }
        let parsed: (target: ForwardTarget, origin: [UInt8])
        switch ForwardTarget.absolute(head.target) {
        case .success(let value): parsed = value
        case .failure(let problem):
            return .failure(ForwardRefusal(response: LocalResponse(status: 400, message: "bad request: \(problem)", keepAlive: false)))
        }
        let destination: ForwardDestination
        switch resolveForward(parsed.target, tls: false, config: config) {
        case .success(let resolved): destination = resolved
        case .failure(let refusal): return .failure(refusal)
        }
        head.target = parsed.origin
        head.headers = Self.forwardedHeaders(head.headers, host: parsed.target.hostHeader)
        return .success(destination)
    }

    /// The destination, refused when it is known to be one of Faultline's own sockets or
    /// known not to resolve. A name not looked up yet is looked up off the loop when the
    /// upstream is contacted (`ForwardResolver`), and checked then.
    func resolveForward(_ target: ForwardTarget, tls: Bool, config: ForwardProxyConfig) -> Result<ForwardDestination, ForwardRefusal> {
        var address: SocketAddress?
        switch context.forwardResolver.known(target) {
        case .success(let known)?:
            address = known
        case .failure(let error)?:
            return .failure(ForwardRefusal(response: LocalResponse(
                status: 502, message: "cannot resolve \(target.host): \(error.reason)", keepAlive: false)))
        case nil:
            address = nil
        }
        if let address, let reason = context.selfReference(target, at: address) {
            return .failure(ForwardRefusal(response: LocalResponse(status: 403, message: "forbidden: \(reason)", keepAlive: false)))
        }
        return .success(ForwardDestination(target: target, address: address, tls: tls, caFile: config.upstreamCAPath))
    }

    /// `headers` without Host and the proxy's own fields, then `Host: host`.
    static func forwardedHeaders(_ headers: HTTPHeaders, host: String) -> HTTPHeaders {
        var result = HTTPHeaders()
        headers.forEachField { _, name, value in
            if !ASCII.equalsIgnoringCase(name, "host") && !ASCII.equalsIgnoringCase(name, "proxy-authorization")
                && !ASCII.equalsIgnoringCase(name, "proxy-connection") {
                result.add(name: name, value: value)
            }
            return true
        }
        result.add(name: "Host", value: host)
        return result
    }
}
