/// How far the request has come from the client.
enum RequestProgress: Equatable {
    /// Body bytes are still coming; `received` counts them against the body limit.
    case receiving(received: UInt64)
    /// The request ended.
    case complete
}
