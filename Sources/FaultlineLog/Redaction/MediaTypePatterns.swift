import FaultlineHTTP

/// Content-type patterns (`text/*`, `application/json`…) compiled once, for the check that
/// runs on every exchange whose bodies may be logged: whether a body's type is one of them
/// (`application/json` also admits `+json` types, `application/xml` `+xml` types).
/// A type is matched on the header value's bytes, so nothing is made for a body that is not
/// captured: as Strings, the value and each pattern cost about two thousand instructions per
/// exchange.
public struct MediaTypePatterns: Sendable, Equatable {
    /// What a pattern admits besides its own essence.
    private enum Wider: Sendable, Equatable {
        case nothing
        /// `*/*`: every type.
        case everything
        /// `type/*`: every subtype; the pattern's bytes up to the slash are the prefix.
        case subtypes
        /// `application/json`: `+json` types too.
        case jsonSuffix
        /// `application/xml`: `+xml` types too.
        case xmlSuffix
    }

    private struct Pattern: Sendable, Equatable {
        /// The pattern, lowercase.
        let bytes: [UInt8]
        let wider: Wider

        /// Whether the essence `media` is this pattern's, or one it admits.
        func admits(_ media: UnsafeRawBufferPointer) -> Bool {
            bytes.withUnsafeBytes { own in
                if ASCII.equalsIgnoringCase(media, lowercase: own) { return true }
                switch wider {
                case .everything:
                    return true
                case .nothing:
                    return false
                case .subtypes:
                    // `text/*` admits `text/…`: the pattern without its star is the prefix.
                    let prefix = UnsafeRawBufferPointer(rebasing: own[..<(own.count - 1)])
                    return media.count >= prefix.count
                        && ASCII.equalsIgnoringCase(UnsafeRawBufferPointer(rebasing: media[..<prefix.count]), lowercase: prefix)
                case .jsonSuffix:
                    return MediaType.hasSuffix(media, "+json")
                case .xmlSuffix:
                    return MediaType.hasSuffix(media, "+xml")
                }
            }
        }
    }

    private let patterns: [Pattern]

    /// Compiles `patterns`, compared ignoring case.
    public init(_ patterns: [String]) {
        self.patterns = patterns.map { text in
            let bytes = Array(text.utf8).map(ASCII.lower)
            let wider: Wider
            if bytes.elementsEqual("*/*".utf8) {
                wider = .everything
            } else if bytes.count >= 2 && bytes[bytes.count - 2] == UInt8(ascii: "/") && bytes[bytes.count - 1] == UInt8(ascii: "*") {
                wider = .subtypes
            } else if bytes.elementsEqual("application/json".utf8) {
                wider = .jsonSuffix
            } else if bytes.elementsEqual("application/xml".utf8) {
                wider = .xmlSuffix
            } else {
                wider = .nothing
            }
            return Pattern(bytes: bytes, wider: wider)
        }
    }

    /// Whether the Content-Type value `contentType` (its `type/subtype`, before any
    /// parameter) matches one of the patterns.
    public func matches(_ contentType: UnsafeRawBufferPointer) -> Bool {
        let media = MediaType.essence(of: contentType)
        guard !media.isEmpty else { return false }
        for pattern in patterns where pattern.admits(media) { return true }
        return false
    }

    /// `matches(_:)` for a value held as a String; nil (no Content-Type) matches nothing.
    public func matches(_ contentType: String?) -> Bool {
        guard var text = contentType else { return false }
        return text.withUTF8 { matches(UnsafeRawBufferPointer($0)) }
    }
}
