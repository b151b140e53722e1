#if canImport(Glibc)
import Glibc
#endif

/// Client addresses in the one text form the proxy gives its peers (inet_ntop's), so a
/// session claiming `0:0:0:0:0:0:0:1` finds requests from `::1`.
enum ClientAddressText {
    /// The canonical text of IP literal `text`; `text` itself when it is not one.
    static func canonical(_ text: String) -> String {
        var v4 = in_addr()
        var v6 = in6_addr()
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        if inet_pton(AF_INET, text, &v4) == 1, inet_ntop(AF_INET, &v4, &buffer, socklen_t(buffer.count)) != nil {
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        if inet_pton(AF_INET6, text, &v6) == 1, inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil {
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return text
    }
}
