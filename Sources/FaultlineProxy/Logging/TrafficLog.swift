import FaultlineLog
import FaultlineConfig

/// Where the records of one config snapshot go: the sink (kept from the previous snapshot
/// when its destination and format did not change, so a reload never reopens or loses
/// lines), the redaction policy built from `log`, and the HAR capture, which outlives
/// every snapshot. Immutable, shared by all loops.
final class TrafficLog: Sendable {
    /// The log sink; nil when `log.off`.
    let sink: LogSink?
    /// The HAR capture when `har.enabled`, else nil.
    let capture: HARCapture?
    /// The capture object itself, kept even while disabled so the next snapshot inherits it.
    let sharedCapture: HARCapture
    /// The policy records are built with: what the log line wants united with what the HAR
    /// capture wants, so each exchange is redacted once.
    let policy: LogPolicy
    /// The section it was built from.
    let config: LogConfig
    /// What the log line keeps of a record built with `policy`.
    private let lineHeaders: Bool
    private let lineBodies: Bool
    private let lineBodyMaxBytes: Int
    /// What the HAR entry keeps of a record built with `policy`.
    private let harBodies: Bool
    private let harBodyMaxBytes: Int

    /// Whether exchanges need a record at all (a line or a HAR entry).
    var isEnabled: Bool { sink != nil || capture != nil }
    /// Whether pin checks, TLS failures and fired faults get records of their own.
    var pinEvents: Bool { sink != nil && config.pinEvents }
    var tlsEvents: Bool { sink != nil && config.tlsEvents }
    var faultEvents: Bool { sink != nil && config.faultEvents }

    /// Opens the sink `config.log` names (or takes `previous`'s) and sizes the capture.
    /// Throws, naming the path and the system's reason, when a log file cannot be opened.
    init(config: ProxyConfig, previous: TrafficLog?) throws(LogSinkError) {
        let log = config.log
        let har = config.har
        self.config = log
        if log.off {
            sink = nil
        } else if let previous, let sink = previous.sink, previous.config.sameDestination(as: log) {
            self.sink = sink
        } else {
            sink = try LogSink(destination: log.destination(), format: log.format.rawValue)
        }
        let shared = previous?.sharedCapture ?? HARCapture(maxEntries: har.maxEntries, maxBytes: har.maxBytes)
        shared.setLimits(maxEntries: har.maxEntries, maxBytes: har.maxBytes)
        sharedCapture = shared
        capture = har.enabled ? shared : nil
        let logging = !log.off
        lineHeaders = logging && log.headers
        lineBodies = logging && log.bodies
        lineBodyMaxBytes = log.bodyMaxBytes
        let harBodies = har.enabled && har.bodies
        self.harBodies = harBodies
        harBodyMaxBytes = har.bodyMaxBytes
        let redact = log.redact
        policy = LogPolicy(
            redactor: Redactor(
                addHeaders: redact.headers, removeHeaders: redact.headersKeep,
                addHeaderSubstrings: redact.headerSubstrings, removeHeaderSubstrings: redact.headerSubstringsKeep,
                addQueryParameters: redact.query, removeQueryParameters: redact.queryKeep,
                addBodyFields: redact.bodyFields, removeBodyFields: redact.bodyFieldsKeep),
            options: LogOptions(
                headers: lineHeaders || har.enabled, bodies: lineBodies || harBodies,
                headerValueMaxBytes: log.headerMaxBytes,
                bodyMaxBytes: max(lineBodies ? log.bodyMaxBytes : 0, harBodies ? har.bodyMaxBytes : 0),
                bodyTypes: log.bodyTypes))
    }

    /// Hands an exchange record, trimmed to what each wants, to the capture and the sink.
    /// The record was built for the wider of the two; the narrower gets a trimmed copy, and
    /// the sink the record itself (consumed: this is the caller's last use of it).
    func write(exchange record: consuming LogRecord) {
        if let capture {
            let wider = policy.options.bodies && (!harBodies || harBodyMaxBytes < policy.options.bodyMaxBytes)
            if wider {
                capture.append((copy record).trimmed(headers: true, bodies: harBodies, bodyMaxBytes: harBodyMaxBytes))
            } else {
                capture.append(record)
            }
        }
        guard let sink else { return }
        if capture == nil {
            sink.write(record)
        } else if !lineBodies {
            // The record is shared with the capture: the line leaves out what it does not show.
            sink.write(record, scope: LogLineScope(headers: lineHeaders, bodies: false))
        } else {
            sink.write(record.trimmed(headers: lineHeaders, bodies: lineBodies, bodyMaxBytes: lineBodyMaxBytes))
        }
    }

    /// Writes a pin, TLS, fault or error record.
    func write(event record: LogRecord) {
        sink?.write(record)
    }

    /// Reopens a log file after rotation (SIGHUP); other destinations have nothing to do.
    func reopen() throws(LogSinkError) {
        try sink?.reopen()
    }
}

extension LogConfig {
    /// Where the sink writes.
    func destination() -> LogDestination {
        switch destination {
        case .stdout: .stdout
        case .stderr: .stderr
        case .file: .file(path: path ?? "faultline.log")
        }
    }

    /// Whether a sink opened for `other` would be the same one.
    func sameDestination(as other: LogConfig) -> Bool {
        !off && destination == other.destination && path == other.path && format == other.format
    }
}
