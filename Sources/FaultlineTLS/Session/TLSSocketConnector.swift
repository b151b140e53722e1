import FaultlineIO

/// Blocking TCP connect with a timeout, trying every address of a name in turn
/// (`BlockingIO.connect`), its failures phrased as a probe's.
enum TLSSocketConnector {
    /// A connected socket and its numeric "address:port".
    static func connect(host: String, port: UInt16, timeoutMs: Int) throws(TLSProbeError) -> (Int32, String) {
        let bare = TLSClientContext.bareHost(host)
        do {
            let connected = try BlockingIO.connect(host: bare, port: port, timeoutMs: timeoutMs)
            return (connected.fd, connected.address)
        } catch {
            switch error {
            case .resolve(let why):
                throw .resolve("cannot resolve \(bare): \(why)")
            case .connect(let attempts):
                let failures = attempts.map { "\($0.address): \($0.timedOut ? "timed out after \(timeoutMs) ms" : $0.reason)" }
                throw .connect("cannot connect to \(bare):\(port): " + failures.joined(separator: "; "))
            }
        }
    }
}
