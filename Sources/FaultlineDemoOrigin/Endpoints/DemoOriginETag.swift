/// Entity tags for the origin's fixed documents, so clients can revalidate with
/// `If-None-Match` and get a 304 (RFC 9110 sections 8.8.3 and 13.1.2).
enum DemoOriginETag {
    /// A strong tag derived from `body`: the first 16 hex digits of its SHA-256, quoted.
    static func tag(for body: [UInt8]) -> String {
        let digest = DemoOriginDigest()
        body.withUnsafeBytes { digest.update($0) }
        return "\"" + digest.finishHex().prefix(16) + "\""
    }

    /// Whether an `If-None-Match` value names `tag`: `*`, or a list of tags compared weakly
    /// (a `W/` prefix is ignored, as the RFC asks for this header).
    static func matches(ifNoneMatch value: String, tag: String) -> Bool {
        let candidates = value.split(separator: ",").map { $0.trimmingSpaces() }
        return candidates.contains { candidate in
            candidate == "*" || candidate.dropWeakPrefix() == tag.dropWeakPrefix()
        }
    }
}

private extension StringProtocol {
    func trimmingSpaces() -> Substring {
        var text = self[...]
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return Substring(text)
    }

    func dropWeakPrefix() -> Substring {
        hasPrefix("W/") ? Substring(dropFirst(2)) : Substring(self)
    }
}
