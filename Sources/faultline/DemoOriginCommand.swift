import FaultlineIO
import FaultlineProxy
import FaultlineDemoOrigin
import FaultlineConfig

/// `faultline demo-origin`: the built-in httpbin-like origin on its own.
enum DemoOriginCommand {
    static let usage = """
    Usage: faultline demo-origin [--listen ADDR] [--workers N]

    Serves the built-in demo origin (default 127.0.0.1:8081; port 0 picks a free one) and prints
    "faultline: demo origin listening on ADDR". Endpoints: /, /json, /64, /users?q=, /users/{id},
    /status/{code}, /delay/{ms}, /bytes/{n}, /stream/{n}, /sse/{n}, /echo, /headers, /ip, /ws,
    POST /token. /json and /users/{id} send an ETag and answer If-None-Match with 304; /sse/{n}
    resumes after the event a Last-Event-ID names.
    SIGTERM or SIGINT stop it. Exit codes: 0, 1 cannot bind, 2 usage error.
    """

    static func main(_ arguments: [String]) -> ExitStatus {
        let parsed: Arguments
        switch Arguments.forCommand("faultline demo-origin", arguments, valued: ["listen", "workers"], maxPositionals: 0,
                                    usage: usage) {
        case .proceed(let arguments): parsed = arguments
        case .stop(let status): return status
        }
        let workers = Int(parsed["workers"] ?? "1") ?? -1
        guard workers >= 1 && workers <= 256 else {
            Console.err("faultline demo-origin: --workers expects 1...256")
            return .usage
        }
        ProcessSignals.block()
        do {
            let spec = try SocketAddressSpec(parsing: parsed["listen"] ?? "127.0.0.1:8081")
            let address = try SocketAddress.resolve(host: spec.host, port: spec.port)
            let group = try EventLoopGroup(count: workers)
            let origin = try DemoOrigin(address: address, group: group)
            Console.err("faultline: demo origin listening on \(origin.boundAddress)")
            while true {
                switch ProcessSignals.next() {
                case .terminate, .interrupt:
                    origin.stop()
                    group.stop()
                    return .ok
                case .hangUp, nil:
                    continue
                }
            }
        } catch let error as ConfigError {
            Console.err("faultline demo-origin: --listen: \(error.message)")
            return .usage
        } catch {
            Console.err("faultline demo-origin: cannot start: \(error)")
            return .failure
        }
    }
}
