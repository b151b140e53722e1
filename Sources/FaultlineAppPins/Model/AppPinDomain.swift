public import Foundation

/// One entry of an app configuration: the hosts it applies to and what it requires of them.
/// Platform-neutral; fields a platform lacks keep their defaults.
public struct AppPinDomain: Sendable, Hashable {
    /// The hosts covered.
    public let pattern: HostPattern
    /// The pins, each with the positions it may match.
    public let pins: [AppPin]
    /// The pin kinds the entry declares even when their lists are empty (ATS blocks every
    /// connection for a declared but empty `NSPinnedLeafIdentities`).
    public let declaredScopes: Set<AppPinScope>
    /// After this instant the pins are no longer enforced (Android `expiration`, TrustKit
    /// `TSKExpirationDate`), nil for none.
    public let expiration: Date?
    /// False for report-only entries (TrustKit `TSKEnforcePinning` false).
    public let enforce: Bool
    /// Where pin failures are reported (TrustKit `TSKReportUris`).
    public let reportURIs: [String]
    /// The Android trust anchors in effect for this entry (own, inherited or base), nil for
    /// the platform default (the system store).
    public let trustAnchors: [AppTrustAnchor]?
    /// TrustKit `kSKExcludeSubdomainFromParentPolicy`: this name is left unpinned.
    public let excludedFromParent: Bool
    /// Where the entry sits in the file, as the error messages spell it.
    public let keyPath: String
    /// The line of the entry, when known.
    public let line: Int?

    /// Creates an entry.
    public init(pattern: HostPattern, pins: [AppPin], declaredScopes: Set<AppPinScope>? = nil, expiration: Date? = nil,
                enforce: Bool = true, reportURIs: [String] = [], trustAnchors: [AppTrustAnchor]? = nil,
                excludedFromParent: Bool = false, keyPath: String, line: Int? = nil) {
        self.pattern = pattern
        self.pins = pins
        self.declaredScopes = declaredScopes ?? Set(pins.map(\.scope))
        self.expiration = expiration
        self.enforce = enforce
        self.reportURIs = reportURIs
        self.trustAnchors = trustAnchors
        self.excludedFromParent = excludedFromParent
        self.keyPath = keyPath
        self.line = line
    }

    /// The pins of one scope.
    public func pins(_ scope: AppPinScope) -> [AppPin] {
        pins.filter { $0.scope == scope }
    }
}
