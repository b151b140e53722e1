/// The top-level `log` section: what each exchange's record captures, how it is
/// encoded, where it goes, and which names are redacted (see docs/config.md, "log").
public struct LogConfig: Sendable, Equatable {
    /// Default `body_types`.
    public static let defaultBodyTypes = ["text/*", "application/json", "application/x-www-form-urlencoded", "application/xml"]

    /// Logging switched off entirely.
    public let off: Bool
    /// Encoding: auto (text on a terminal, else JSON), json or text.
    public let format: LogConfigFormat
    /// Where records go.
    public let destination: LogConfigDestination
    /// The log file, resolved against the config file's directory; set iff destination is file.
    public let path: String?
    /// Whether request and response headers are logged (redacted).
    public let headers: Bool
    /// Whether bodies of `bodyTypes` are logged (capped, redacted).
    public let bodies: Bool
    /// Longest header value kept in a record.
    public let headerMaxBytes: Int
    /// Longest body kept in a record.
    public let bodyMaxBytes: Int
    /// Content types whose bodies are logged (`text/*` patterns).
    public let bodyTypes: [String]
    /// Whether TLS events get records of their own.
    public let tlsEvents: Bool
    /// Whether pin checks get records of their own.
    public let pinEvents: Bool
    /// Whether fired faults get records of their own.
    public let faultEvents: Bool
    /// Names added to and removed from the redaction defaults.
    public let redact: LogConfigRedaction

    /// Creates the section; the defaults log every exchange to stdout, without headers or bodies.
    public init(
        off: Bool = false, format: LogConfigFormat = .auto, destination: LogConfigDestination = .stdout,
        path: String? = nil, headers: Bool = false, bodies: Bool = false, headerMaxBytes: Int = 4096,
        bodyMaxBytes: Int = 8192, bodyTypes: [String] = LogConfig.defaultBodyTypes,
        tlsEvents: Bool = true, pinEvents: Bool = true, faultEvents: Bool = true,
        redact: LogConfigRedaction = LogConfigRedaction()
    ) {
        self.off = off
        self.format = format
        self.destination = destination
        self.path = path
        self.headers = headers
        self.bodies = bodies
        self.headerMaxBytes = headerMaxBytes
        self.bodyMaxBytes = bodyMaxBytes
        self.bodyTypes = bodyTypes
        self.tlsEvents = tlsEvents
        self.pinEvents = pinEvents
        self.faultEvents = faultEvents
        self.redact = redact
    }
}
