import Foundation
import FaultlineTLS

/// Reads an SPKI pin in the spellings teams paste: bare base64, `sha256/…` (OkHttp),
/// `sha256//…` (curl), `pin-sha256="…"` (HPKP, quotes optional), with surrounding
/// whitespace. Certificate fingerprints and other hash algorithms are refused with a
/// message that explains the difference.
public enum PinParser {
    /// Parses `text` into a pin.
    public static func parse(_ text: String) throws(PinParseError) -> SPKIPinValue {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let got = JSONValue.quoted(trimmed)
        if trimmed.isEmpty {
            throw PinParseError(message: "expected an SPKI pin such as sha256/<44 base64 characters>, got \"\"")
        }
        if let hash = PinFingerprint.hexFingerprintHash(trimmed) {
            throw PinParseError(message: PinFingerprint.refusal(got: got, hash: hash))
        }
        // A bare pin may contain "/" and, in theory, start like an algorithm name.
        if trimmed.utf8.count == 44, let data = Data(base64Encoded: trimmed), let pin = SPKIPinValue(digest: Array(data)) {
            return pin
        }
        var body = Substring(trimmed)
        if let (algorithm, rest) = try splitAlgorithm(body) {
            guard algorithm == "sha256" else {
                throw PinParseError(
                    message: "only sha256 pins are supported, got a \(algorithm) pin \(got)")
            }
            body = rest
            if let hash = PinFingerprint.hexFingerprintHash(String(body)) {
                throw PinParseError(message: PinFingerprint.refusal(got: got, hash: hash))
            }
        }
        return try decode(String(body), got: got)
    }

    /// Splits `sha256/x`, `sha256//x`, `pin-sha256="x"` or `pin-sha256=x` into the
    /// lowercased algorithm and the base64 part; nil for bare base64 (which may itself
    /// contain `/`, so only known algorithm names count as a prefix).
    private static func splitAlgorithm(_ text: Substring) throws(PinParseError) -> (String, Substring)? {
        if text.lowercased().hasPrefix("pin-") {
            guard let equals = text.firstIndex(of: "=") else { return nil }
            let algorithm = text[text.index(text.startIndex, offsetBy: 4)..<equals]
                .lowercased().trimmingCharacters(in: .whitespaces)
            var value = Substring(text[text.index(after: equals)...].trimmingCharacters(in: .whitespaces))
            if value.hasSuffix(";") { value = value.dropLast() }
            let quotes = (value.hasPrefix("\""), value.hasSuffix("\"") && value.count > 1)
            if quotes.0 != quotes.1 {
                throw PinParseError(message: "expected pin-sha256=\"<base64>\" with matching quotes, got \(JSONValue.quoted(String(text)))")
            }
            if quotes.0 { value = value.dropFirst().dropLast() }
            return (algorithm.replacingOccurrences(of: "-", with: ""), value)
        }
        guard let slash = text.firstIndex(of: "/") else { return nil }
        let algorithm = text[..<slash].lowercased()
        guard knownAlgorithms.contains(algorithm) else { return nil }
        var rest = text[text.index(after: slash)...]
        // curl's `sha256//x` has a second slash; but base64 may itself start with "/", so
        // `sha256/` + 44 characters is the OkHttp spelling whatever its first character.
        if rest.hasPrefix("/") && rest.utf8.count != 44 { rest = rest.dropFirst() }
        return (algorithm.replacingOccurrences(of: "-", with: ""), rest)
    }

    /// Hash names that may prefix a pin; any but sha256 is refused by name.
    private static let knownAlgorithms: Set<String> = [
        "sha256", "sha-256", "sha1", "sha-1", "sha224", "sha-224", "sha384", "sha-384", "sha512", "sha-512", "md5",
    ]

    private static func decode(_ text: String, got: String) throws(PinParseError) -> SPKIPinValue {
        guard !text.isEmpty, let data = Data(base64Encoded: text) else {
            throw PinParseError(
                message: "expected the base64 of a 32-byte SHA-256 digest (44 characters ending in \"=\"), got \(got)")
        }
        guard let pin = SPKIPinValue(digest: Array(data)) else {
            let hint = data.count == 20 ? " (20 bytes is the size of a SHA-1 digest)" : ""
            throw PinParseError(
                message: "\(got) decodes to \(data.count) bytes; a SHA-256 pin is 32 bytes\(hint)")
        }
        return pin
    }
}
