/// The names redacted when the configuration adds and removes nothing (
/// "Logging and redaction"). Names are matched case-insensitively, ignoring `-` and `_`.
public enum RedactionDefaults {
    /// Header names whose whole value is redacted (Cookie and Set-Cookie keep cookie names).
    public static let headers: [String] = [
        "authorization", "proxy-authorization", "cookie", "set-cookie",
        "x-api-key", "api-key", "x-auth-token", "x-access-token", "x-csrf-token", "x-xsrf-token",
        "x-session-token", "x-amz-security-token", "x-goog-api-key",
    ]

    /// Any header whose name contains one of these is redacted too.
    /// Beyond the usual list: `authorization` (X-Forwarded-Authorization), `credential`
    /// and `cookie` (X-Original-Cookie) carry the same secrets under other names.
    public static let headerSubstrings: [String] = [
        "token", "secret", "password", "api-key", "apikey", "session", "authorization", "credential", "cookie",
    ]

    /// Query (and URL fragment) parameters whose values are redacted.
    public static let queryParameters: [String] = [
        "access_token", "id_token", "refresh_token", "token", "code", "client_secret", "api_key", "key",
        "password", "sig", "signature", "X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token",
        "AWSAccessKeyId", "X-Goog-Signature", "X-Goog-Credential",
    ]

    /// JSON and form body fields whose values are redacted, at any depth.
    public static let bodyFields: [String] = [
        "password", "passwd", "secret", "token", "access_token", "refresh_token", "id_token", "client_secret",
        "api_key", "apikey", "authorization", "credit_card", "card_number", "cvv", "ssn",
    ]

    /// Names redacted wherever a name is matched outside headers (query and fragment
    /// parameters, form and JSON fields, free text) beyond the lists above and the substring
    /// rule: short or compound names of secrets that no substring catches safely.
    public static let extraNames: [String] = [
        "jwt", "otp", "totp", "passcode", "passphrase", "private_key", "pwd",
    ]

    /// Extra names matched only as parameter and field names (query, form, JSON), not in
    /// free text, where `pin: …` is ordinary prose (Faultline's own pin messages).
    public static let fieldOnlyNames: [String] = ["pin"]

    /// The text that replaces every redacted value.
    public static let placeholder = "[REDACTED]"
}
