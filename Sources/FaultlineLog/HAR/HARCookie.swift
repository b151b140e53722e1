/// A HAR cookie, parsed from the (already redacted) `Cookie` and `Set-Cookie` values of a
/// record, so viewers list cookie names even though every value reads `[REDACTED]`.
struct HARCookie {
    let name: String
    let value: String
    var path: String?
    var domain: String?
    var httpOnly = false
    var secure = false

    /// The cookies of every `cookie` header: `a=b; c=d`. Pieces without `=` are skipped,
    /// since a HAR cookie needs a name.
    static func requestCookies(_ headers: [LogField]) -> [HARCookie] {
        var cookies: [HARCookie] = []
        for header in headers where header.name == "cookie" {
            for piece in header.value.split(separator: ";") {
                if let cookie = pair(piece) { cookies.append(cookie) }
            }
        }
        return cookies
    }

    /// One cookie per `set-cookie` header: `name=value` before the first `;`, with the
    /// Path, Domain, HttpOnly and Secure attributes. Expires is left out: HAR wants ISO
    /// 8601 and the header carries an IMF date.
    static func responseCookies(_ headers: [LogField]) -> [HARCookie] {
        var cookies: [HARCookie] = []
        for header in headers where header.name == "set-cookie" {
            let pieces = header.value.split(separator: ";", omittingEmptySubsequences: false)
            guard let first = pieces.first, var cookie = pair(first) else { continue }
            for attribute in pieces.dropFirst() {
                let trimmed = attribute.trimmingSpaces()
                let equals = trimmed.firstIndex(of: "=")
                let value = equals.map { String(trimmed[trimmed.index(after: $0)...]) }
                switch (equals.map { trimmed[..<$0] } ?? trimmed).lowercased() {
                case "path": cookie.path = value
                case "domain": cookie.domain = value
                case "httponly": cookie.httpOnly = true
                case "secure": cookie.secure = true
                default: break
                }
            }
            cookies.append(cookie)
        }
        return cookies
    }

    private static func pair(_ piece: Substring) -> HARCookie? {
        let trimmed = piece.trimmingSpaces()
        guard let equals = trimmed.firstIndex(of: "="), equals != trimmed.startIndex else { return nil }
        return HARCookie(name: String(trimmed[..<equals]), value: String(trimmed[trimmed.index(after: equals)...]))
    }

    /// Writes the HAR cookie object.
    func write(to writer: inout HARJSONWriter) {
        writer.object { item in
            item.member("name", name)
            item.member("value", value)
            item.optionalMember("path", path)
            item.optionalMember("domain", domain)
            if httpOnly {
                item.key("httpOnly")
                item.bool(true)
            }
            if secure {
                item.key("secure")
                item.bool(true)
            }
        }
    }
}
