/// Name normalisation shared by every redaction rule: ASCII lowercase with `-` and `_`
/// removed, so `X-Api-Key`, `x_api_key` and `XAPIKEY` are one name and `accessToken`
/// matches `access_token`.
enum RedactionName {
    /// The normalised form of `name`.
    static func normalize(_ name: some Sequence<UInt8>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.underestimatedCount)
        for byte in name where byte != UInt8(ascii: "-") && byte != UInt8(ascii: "_") {
            bytes.append(byte >= 65 && byte <= 90 ? byte + 32 : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The normalised form of `name`.
    static func normalize(_ name: String) -> String {
        normalize(name.utf8)
    }

    /// `name` in ASCII lowercase, for the redacted-field list.
    static func lower(_ name: some Sequence<UInt8>) -> String {
        String(decoding: name.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
