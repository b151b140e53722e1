@testable import FaultlineProxy

extension UpstreamRequestHead {
    /// The HTTP/1 bytes, empty for a refused request or an HTTP/2 head.
    var http1Bytes: [UInt8] {
        if case .http1(let bytes) = self { return bytes }
        return []
    }

    /// Whether no head was built (a refused request).
    var isNone: Bool {
        if case .none = self { return true }
        return false
    }
}
