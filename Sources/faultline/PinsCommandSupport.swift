import FaultlineConfig
import FaultlineTLS
import Foundation

/// Pieces shared by `pins compute` and `pins check`: targets, pin lists, JSON and chains.
enum PinsCommandSupport {
    /// `host:port` or `[v6]:port` split, or nil when `text` is not of that shape.
    static func hostPort(_ text: String) -> (host: String, port: UInt16)? {
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":"), let port = UInt16(rest.dropFirst()), port > 0, !host.isEmpty else { return nil }
            return (host, port)
        }
        guard let colon = text.lastIndex(of: ":") else { return nil }
        let host = String(text[..<colon])
        guard !host.isEmpty, !host.contains(":"), !host.contains("/"),
              let port = UInt16(text[text.index(after: colon)...]), port > 0 else { return nil }
        return (host, port)
    }

    /// Parses a comma-separated pin list with PinParser; the error names the option.
    static func pins(_ text: String, option: String) throws(UsageError) -> [SPKIPinValue] {
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !items.isEmpty else { throw UsageError("--\(option): give at least one pin") }
        var pins: [SPKIPinValue] = []
        for item in items {
            do {
                pins.append(try PinParser.parse(item))
            } catch {
                throw UsageError("--\(option): \(error.message)")
            }
        }
        return pins
    }

    /// The `--timeout-ms` value (default 10 s).
    static func timeout(_ parsed: Arguments) throws(UsageError) -> Int {
        guard let text = parsed["timeout-ms"] else { return 10_000 }
        guard let value = Int(text), value > 0, value <= 600_000 else {
            throw UsageError("--timeout-ms expects 1...600000, got \"\(text)\"")
        }
        return value
    }

    /// Whether `--format` asks for JSON (text otherwise).
    static func wantsJSON(_ parsed: Arguments) throws(UsageError) -> Bool {
        switch parsed["format"] ?? "text" {
        case "text": return false
        case "json": return true
        case let other: throw UsageError("--format expects text or json, got \"\(other)\"")
        }
    }

    /// Parses DER certificates from a probe.
    static func certificates(_ chain: [[UInt8]]) throws(CertificateError) -> [Certificate] {
        var certificates: [Certificate] = []
        for der in chain { certificates.append(try Certificate(derBytes: der)) }
        return certificates
    }

    /// A certificate as a JSON object.
    static func json(_ certificate: Certificate, index: Int, position: CertificatePosition, now: Date) -> [String: Any] {
        [
            "index": index, "position": position.rawValue, "subject": certificate.subject, "issuer": certificate.issuer,
            "not_before": certificate.notBeforeISO8601, "not_after": certificate.notAfterISO8601,
            "expired": certificate.isExpired(at: now), "key": certificate.publicKey.algorithm,
            "pin": certificate.spkiPin, "sha256_fingerprint": certificate.sha256Fingerprint,
            "subject_alt_names": certificate.subjectAlternativeNames,
        ]
    }

    /// A certificate as indented text lines.
    static func text(_ certificate: Certificate, index: Int, position: String, now: Date) -> [String] {
        var lines = [
            "#\(index) \(position)",
            "  subject:  \(certificate.subject)",
            "  issuer:   \(certificate.issuer)",
            "  validity: \(certificate.notBeforeISO8601) to \(certificate.notAfterISO8601)"
                + (certificate.isExpired(at: now) ? " (EXPIRED)" : certificate.isValid(at: now) ? "" : " (NOT YET VALID)"),
            "  key:      \(certificate.publicKey.algorithm)",
        ]
        let names = certificate.subjectAlternativeNames
        if !names.isEmpty { lines.append("  names:    \(names.joined(separator: ", "))") }
        lines.append("  pin:      sha256/\(certificate.spkiPin)")
        return lines
    }

    /// Pretty, key-sorted JSON with slashes unescaped (pins contain them).
    static func render(_ object: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object,
                                                     options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
