import FaultlineHTTP

/// The parts of a request the `headers`, `query`, `cookies` and `client` conditions read,
/// as borrowed buffers straight from the parsed head: building one copies nothing.
struct RouteRequest {
    /// The header block's bytes (`HTTPHeaders.bytes`).
    let headerBytes: UnsafeRawBufferPointer
    /// The header fields, offsets into `headerBytes`.
    let fields: UnsafeBufferPointer<HTTPHeaders.Field>
    /// The query (after `?`, empty without one).
    let query: UnsafeRawBufferPointer
    /// The client's address as the proxy reports it (`127.0.0.1`, `::1`).
    let client: String
    /// The body read for `json` conditions; nil when it was not read.
    var body: MatchBody? = nil

    /// A request with no headers, query or known client (lookups by host, method and path only).
    static var empty: RouteRequest {
        RouteRequest(headerBytes: UnsafeRawBufferPointer(start: nil, count: 0),
                                    fields: UnsafeBufferPointer(start: nil, count: 0),
                                    query: UnsafeRawBufferPointer(start: nil, count: 0), client: "")
    }

    func name(_ field: HTTPHeaders.Field) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: headerBytes[Int(field.start)..<Int(field.nameEnd)])
    }

    func value(_ field: HTTPHeaders.Field) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: headerBytes[Int(field.valueStart)..<Int(field.valueEnd)])
    }
}
