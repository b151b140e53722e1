/// What a record captures beyond the always-logged fields, and the size caps that keep
/// a record bounded whatever the traffic.
public struct LogOptions: Sendable, Equatable {
    /// Default body types: text and the structured text formats.
    public static let defaultBodyTypes = ["text/*", "application/json", "application/x-www-form-urlencoded", "application/xml"]

    /// Whether request and response headers are logged (redacted).
    public var headers: Bool
    /// Whether request and response bodies are logged (capped, redacted).
    public var bodies: Bool
    /// Longest header value kept, in bytes; longer values end in a truncation marker.
    public var headerValueMaxBytes: Int
    /// Longest body kept, in bytes.
    public var bodyMaxBytes: Int
    /// Content types whose bodies are logged (`text/*` style patterns), lowercase.
    public var bodyTypes: [String] {
        didSet { bodyTypePatterns = MediaTypePatterns(bodyTypes) }
    }
    /// `bodyTypes` compiled, for the check each exchange makes.
    public private(set) var bodyTypePatterns: MediaTypePatterns
    /// Most header fields kept per message; the rest are counted.
    public var maxHeaders: Int
    /// Longest path or query kept, in bytes.
    public var urlMaxBytes: Int

    /// Creates options; the defaults log neither headers nor bodies.
    public init(
        headers: Bool = false, bodies: Bool = false, headerValueMaxBytes: Int = 4096, bodyMaxBytes: Int = 8192,
        bodyTypes: [String] = LogOptions.defaultBodyTypes, maxHeaders: Int = 100, urlMaxBytes: Int = 8192
    ) {
        self.headers = headers
        self.bodies = bodies
        self.headerValueMaxBytes = max(0, headerValueMaxBytes)
        self.bodyMaxBytes = max(0, bodyMaxBytes)
        self.bodyTypes = bodyTypes.map { $0.lowercased() }
        bodyTypePatterns = MediaTypePatterns(self.bodyTypes)
        self.maxHeaders = max(0, maxHeaders)
        self.urlMaxBytes = max(0, urlMaxBytes)
    }
}
