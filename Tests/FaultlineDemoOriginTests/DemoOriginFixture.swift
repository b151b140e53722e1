import FaultlineHTTP
import FaultlineIO
@testable import FaultlineDemoOrigin
#if canImport(Glibc)
import Glibc
#endif

/// A test failure with a message.
struct DemoOriginTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The origin every demo-origin test talks to: one per test process, two loops, loopback only.
enum DemoOriginFixture {
    private static let started: Result<DemoOrigin, any Error> = Result {
        let group = try EventLoopGroup(count: 2)
        guard let address = SocketAddress(ip: "127.0.0.1", port: 0) else { throw DemoOriginTestError("address") }
        return try DemoOrigin(address: address, group: group)
    }

    /// The shared origin's port.
    static func port() throws -> UInt16 {
        try started.get().boundAddress.port
    }

    /// A connected client.
    static func client() throws -> DemoOriginTestClient {
        try DemoOriginTestClient(port: port())
    }
}

/// A decoded response as the test client saw it.
struct DemoOriginTestResponse {
    var status = 0
    var headers = HTTPHeaders()
    var body: [UInt8] = []
    var chunked = false
    var contentLength: UInt64?

    /// The first value of header `name` (lowercase).
    func header(_ name: StaticString) -> String? { headers.first(name) }
    /// The body as text.
    var text: String { String(decoding: body, as: UTF8.self) }
}
