/// Why the registry refuses to create a session.
enum SessionRefusal: Error, Sendable {
    /// `sessions.max` live sessions exist already.
    case limit(Int)
    /// Another live session claims this client address.
    case clientClaimed(address: String, by: String)

    /// The message the admin API answers with.
    var message: String {
        switch self {
        case .limit(let max):
            "too many sessions: \(max) are live (sessions.max); end one (DELETE /sessions/{id}) or raise the limit"
        case .clientClaimed(let address, let owner):
            "client address \(address) is already claimed by session \(owner)"
        }
    }
}
