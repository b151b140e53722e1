/// How a client connection closes.
enum ClientClose: Equatable {
    /// After what is queued has been sent (FIN).
    case graceful
    /// At once, dropping what is queued.
    case now
    /// At once with RST.
    case reset
}
