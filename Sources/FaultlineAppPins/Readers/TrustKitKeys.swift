/// TrustKit's key spellings: the stored strings (`TSKPublicKeyHashes`) and the constant
/// names developers paste into JSON (`kTSKPublicKeyHashes`).
enum TrustKitKeys {
    /// The exclusion flag as TrustKit stores it (the missing `T` is TrustKit's own spelling).
    static let exclude = "kSKExcludeSubdomainFromParentPolicy"

    /// The value of `key` under either spelling, with the spelling found.
    static func value(_ dictionary: [String: Any], _ key: String) -> (String, Any)? {
        for spelling in spellings(key) {
            if let value = dictionary[spelling] { return (spelling, value) }
        }
        return nil
    }

    private static func spellings(_ key: String) -> [String] {
        if key == exclude { return [exclude, "kTSKExcludeSubdomainFromParentPolicy", "TSKExcludeSubdomainFromParentPolicy"] }
        return [key, "k" + key]
    }
}
