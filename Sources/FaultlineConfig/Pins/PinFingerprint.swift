/// Recognises hex certificate fingerprints pasted where an SPKI pin belongs (from
/// `openssl x509 -fingerprint`, browsers or keychain tools) and explains the difference.
enum PinFingerprint {
    /// "SHA-256" or "SHA-1" when `text` is a hex fingerprint of that length, optionally
    /// with colons or spaces between bytes and an `… Fingerprint=` label; nil otherwise.
    static func hexFingerprintHash(_ text: String) -> String? {
        var body = Substring(text)
        if let equals = body.firstIndex(of: "="), body[..<equals].lowercased().hasSuffix("fingerprint") {
            body = body[body.index(after: equals)...]
        }
        let digits = body.filter { $0 != ":" && $0 != " " }
        guard digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        switch digits.count {
        case 64: return "SHA-256"
        case 40: return "SHA-1"
        default: return nil
        }
    }

    /// The message refusing a fingerprint: what a pin is, and the commands that give one.
    static func refusal(got: String, hash: String) -> String {
        "\(got) looks like a hex \(hash) certificate fingerprint, not an SPKI pin. "
            + "A pin is base64(SHA-256(SubjectPublicKeyInfo)) and survives certificate renewal with the same key; "
            + "get it with: faultline pins compute cert.pem (or: openssl x509 -in cert.pem -noout -pubkey "
            + "| openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64)"
    }
}
