extension HTTPHead {
    /// For a request whose target is in absolute form (`http://user@host:80/p?q#f`), the
    /// origin form a server is sent (`/p?q`): no scheme, no authority, so no userinfo ever
    /// leaves, and no fragment (RFC 9112 §3.2.2, RFC 9110 §4.2.4). Nil for any other form.
    public var originFormTarget: [UInt8]? {
        guard let colon = target.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              target[..<colon].allSatisfy({ (($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z")) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }),
              target[colon...].starts(with: "://".utf8)
        else { return nil }
        let authority = colon + 3
        let pathStart = target[authority...].firstIndex {
            $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
        } ?? target.endIndex
        var origin = Array(target[pathStart...])
        if let hash = origin.firstIndex(of: UInt8(ascii: "#")) { origin.removeSubrange(hash...) }
        if origin.first != UInt8(ascii: "/") { origin.insert(UInt8(ascii: "/"), at: 0) }
        return origin
    }
}
