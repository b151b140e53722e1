/// Real pins, computed once from three throwaway self-signed P-256 certificates with
/// `openssl x509 -in X.pem -noout -pubkey | openssl pkey -pubin -outform DER |
/// openssl dgst -sha256 -binary | base64`, with the same certificates' fingerprints.
enum PinVectors {
    static let a = "LS9vcySXBAyt8EaeQcIhUHY70NaslgUhcADhS19cUxo="
    /// Contains "/", so a bare pin must not be mistaken for an `algorithm/` prefix.
    static let b = "ISKrbu/7JEmyDFw1qVz3pJiAjLmEBrcegK7SXBA4sBs="
    static let c = "zfpoyFrYvQyElMxpNEekq2aIRETBKtPqRKsibQqWjLU="
    /// The SHA-256 digest behind `a`, as `openssl dgst -sha256 -binary | xxd -p` prints it.
    static let aHex = "2d2f6f732497040cadf0469e41c22150763bd0d6ac9605217000e14b5f5c531a"
    /// `openssl x509 -in a.pem -noout -fingerprint -sha256` (a certificate fingerprint, not a pin).
    static let aSHA256Fingerprint =
        "sha256 Fingerprint=E8:7E:E3:D1:B5:DE:5C:2D:5C:B3:06:2D:F8:E7:92:B3:B8:D5:A7:ED:83:0C:39:DC:D5:4D:F2:1F:EB:6C:F5:09"
    /// `openssl x509 -in a.pem -noout -fingerprint -sha1`.
    static let aSHA1Fingerprint = "sha1 Fingerprint=55:5D:08:ED:38:EC:A3:8D:93:59:8F:61:BD:F8:2B:05:6F:49:32:85"
    /// base64(SHA-1("abc")): 20 bytes.
    static let sha1Base64 = "qZk+NkcGgWq6PiVxeFDCbJzQ2J0="
}
