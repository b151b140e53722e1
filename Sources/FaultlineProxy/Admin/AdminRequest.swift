import FaultlineHTTP

/// One decoded admin request.
struct AdminRequest: Sendable {
    let method: String
    let path: String
    let query: String
    let headers: HTTPHeaders
    let body: [UInt8]
}
