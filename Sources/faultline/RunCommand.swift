import Foundation
import FaultlineIO
import FaultlineProxy
import FaultlineDemoOrigin
import FaultlineConfig

/// `faultline run`: serves until SIGTERM/SIGINT (drain, exit 0); SIGHUP reloads the config file.
enum RunCommand {
    static let usage = """
    Usage: faultline run --config FILE [--listen ADDR] [--admin ADDR] [--workers N]
           faultline run --upstream URL [--listen ADDR] [--admin ADDR] [--workers N]
           faultline run --forward ADDR [--upstream-ca FILE] [--certs DIR] [--admin ADDR] [--workers N]

    Starts the proxy.

    With --config, serves that file (docs/config.md, config/faultline.schema.json): --listen
    replaces its first listener's address, --admin its admin API's address (or adds an admin
    API; the file's admin.token is kept) and --workers its worker count. --upstream is refused
    with --config: the file names its upstreams.

    Without a file (the one-line mode), --upstream URL (http[s]://host[:port]) is the only
    upstream, named "default", behind one catch-all route "default"; Host is rewritten to the
    upstream's; the proxy listens on --listen (default 127.0.0.1:8080). Every other setting
    has its default; there is no demo origin, no TLS listener and no file to reload. The admin
    API (faultline rules, faultline har, sessions) exists only with --admin ADDR, a loopback
    address such as 127.0.0.1:9901; the HAR capture and the request journal are kept only then.

    With --forward ADDR (a loopback address), Faultline is a forward proxy there (set it as a
    device's or client's HTTP and HTTPS proxy): absolute-form http:// requests go to the host
    they name, CONNECT tunnels are intercepted with the development CA in --certs DIR (default
    certs/ of the working directory, minted when absent) and every request runs through the
    routes, faults, sessions and logs. --upstream-ca FILE adds a CA trusted for the real hosts
    besides the system store. With --config, --certs and --upstream-ca apply to the file's
    forward-proxy listeners. See docs/forward-proxy.md.

    Prints "faultline: listening on ADDR" per listener (and "faultline: admin API listening on
    ADDR"). SIGHUP reloads FILE atomically (a bad file is refused and the running config
    stays); SIGTERM or SIGINT stop accepting, let in-flight exchanges finish
    (timeouts_ms.drain) and exit 0.

    Exit codes: 0 clean shutdown, 1 runtime failure (e.g. address in use), 2 usage error,
    3 invalid configuration.
    """

    static func main(_ arguments: [String]) -> ExitStatus {
        let parsed: Arguments
        switch Arguments.forCommand("faultline run", arguments, valued: ["config", "listen", "upstream", "admin", "workers", "forward", "upstream-ca", "certs"],
                                    maxPositionals: 0, usage: usage) {
        case .proceed(let arguments): parsed = arguments
        case .stop(let status): return status
        }
        let modes = ["config", "upstream", "forward"].filter { parsed[$0] != nil }
        if modes.count > 1 && parsed["forward"] != nil {
            Console.err("faultline run: --forward is a mode of its own: give one of --config FILE, --upstream URL, --forward ADDR\n\n\(usage)")
            return .usage
        }
        if parsed["forward"] != nil && parsed["listen"] != nil {
            Console.err("faultline run: --forward names the proxy's address; --listen does not apply\n\n\(usage)")
            return .usage
        }
        if parsed["upstream"] != nil && (parsed["certs"] != nil || parsed["upstream-ca"] != nil) {
            Console.err("faultline run: --certs and --upstream-ca apply to a forward proxy (--forward, or --config with a forward listener)\n\n\(usage)")
            return .usage
        }
        switch (parsed["config"] ?? parsed["forward"], parsed["upstream"]) {
        case (nil, nil):
            Console.err("faultline run: give --config FILE, --upstream URL or --forward ADDR\n\n\(usage)")
            return .usage
        case (_?, _?):
            // Never ignore an argument: the file names its upstreams and routes.
            Console.err("faultline run: --upstream applies without --config only (the one-line mode); "
                + "with --config, set the upstream's url in the file (upstreams.NAME.url)\n\n\(usage)")
            return .usage
        default:
            break
        }
        var workers: Int?
        if let text = parsed["workers"] {
            guard let value = Int(text), value >= 0, value <= 256 else {
                Console.err("faultline run: --workers expects 0...256, got \"\(text)\"")
                return .usage
            }
            workers = value
        }
        let load = { () throws -> ProxyConfig in
            if let forward = parsed["forward"] {
                return try ConfigLoader.oneForward(listen: forward, admin: parsed["admin"], upstreamCA: parsed["upstream-ca"],
                                                   certs: parsed["certs"]).overriding(workers: workers, firstListenerAddress: nil)
            }
            return try loadConfig(path: parsed["config"], listen: parsed["listen"], upstream: parsed["upstream"],
                                  admin: parsed["admin"], workers: workers)
                .overridingForward(certs: parsed["certs"], upstreamCA: parsed["upstream-ca"])
        }
        let config: ProxyConfig
        do {
            config = try load()
        } catch {
            Console.err(describe(error, file: parsed["config"]))
            return .invalidConfig
        }
        guard ForwardCA.prepare(config) else { return .invalidConfig }
        // A proxy needs descriptors: the soft limit goes up to the hard one (max_connections
        // is then capped to what that allows, with a warning).
        DescriptorBudget.raiseSoftLimit()
        // Signals are taken by this thread only; every thread started later inherits the mask.
        ProcessSignals.block()
        let server: ProxyServer
        var origin: DemoOrigin?
        do {
            server = try ProxyServer(config: config, events: EventPrinter.print)
            if let demo = config.demoOrigin {
                let address = try SocketAddress.resolve(host: demo.address.host, port: demo.address.port)
                let started = try DemoOrigin(address: address, group: server.group)
                Console.err("faultline: demo origin listening on \(started.boundAddress)")
                origin = started
            }
        } catch let errors as ConfigErrors {
            // E.g. a log file that cannot be opened: a config problem, named by its field.
            Console.err(describe(errors, file: parsed["config"]))
            return .invalidConfig
        } catch {
            Console.err("faultline: cannot start: \(error)")
            return .failure
        }
        if config.admin == nil && parsed["config"] == nil && parsed["forward"] == nil {
            // The one-line mode: say what is missing rather than let `faultline rules` find out.
            Console.err("faultline: no admin API (faultline rules, faultline har and sessions need one): add --admin 127.0.0.1:9901")
        }
        while true {
            switch ProcessSignals.next() {
            case .hangUp:
                guard parsed["config"] != nil else {
                    Console.err("faultline: SIGHUP ignored: no config file to reload")
                    continue
                }
                do {
                    try server.reload(try load())
                } catch {
                    server.reportReloadFailure(describe(error, file: parsed["config"]))
                }
                // Log rotation: the file is reopened whether or not the new config was taken.
                do {
                    try server.reopenLog()
                } catch {
                    Console.err("faultline: log file not reopened, still writing to the old one: \(error)")
                }
            case .terminate, .interrupt:
                origin?.stop()
                server.drain(timeoutMilliseconds: server.snapshot.config.clientTimeouts.drainMs)
                return .ok
            case nil:
                continue
            }
        }
    }

    static func loadConfig(path: String?, listen: String?, upstream: String?, admin: String?, workers: Int?) throws -> ProxyConfig {
        guard let path else {
            let config = try ConfigLoader.oneRoute(listen: listen ?? "127.0.0.1:8080", upstreamURL: upstream ?? "", admin: admin)
            return config.overriding(workers: workers, firstListenerAddress: nil)
        }
        let (config, warnings) = try ConfigLoader.loadWithWarnings(path: path)
        for warning in warnings { Console.err("faultline: warning: \(warning)") }
        let listenOverride = try listen.map { try SocketAddressSpec(parsing: $0) }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let adminOverride = try admin.map { text throws(ConfigErrors) in
            try ConfigLoader.adminOverride(text, of: config, configDirectory: directory)
        }
        return config.overriding(workers: workers, firstListenerAddress: listenOverride, admin: adminOverride)
    }

    static func describe(_ error: any Error, file: String?) -> String {
        if let errors = error as? ConfigErrors {
            return file.map { errors.withFile($0).description } ?? errors.description
        }
        if let error = error as? ConfigError {
            return "--listen: \(error.message)"
        }
        return "\(error)"
    }
}
