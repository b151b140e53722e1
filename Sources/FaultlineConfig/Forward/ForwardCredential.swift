/// One user accepted in `Proxy-Authorization: Basic` by a forward-proxy listener. The
/// password comes from an environment variable so it never sits in the config file.
public struct ForwardCredential: Sendable, Equatable {
    /// The user name.
    public let user: String
    /// The password, read from `passwordEnv` when the config was loaded.
    public let password: String
    /// The environment variable the password came from (for messages).
    public let passwordEnv: String

    /// Creates a credential.
    public init(user: String, password: String, passwordEnv: String) {
        self.user = user
        self.password = password
        self.passwordEnv = passwordEnv
    }
}
