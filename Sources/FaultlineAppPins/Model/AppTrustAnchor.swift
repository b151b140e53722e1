/// A trust anchor source of an Android configuration (`<certificates src=…>`) and whether
/// chains ending at it skip pin checks (`overridePins`).
public struct AppTrustAnchor: Sendable, Hashable {
    /// Where the anchor certificates come from.
    public let source: AppTrustAnchorSource
    /// Whether a chain anchored here bypasses the pin-set.
    public let overridePins: Bool
    /// The line in the configuration file, when known.
    public let line: Int?

    /// Creates an anchor entry.
    public init(source: AppTrustAnchorSource, overridePins: Bool, line: Int? = nil) {
        self.source = source
        self.overridePins = overridePins
        self.line = line
    }
}
