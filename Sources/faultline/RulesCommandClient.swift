import FaultlineIO
import Foundation

/// A tiny blocking HTTP/1.1 client of the admin API: one request per connection
/// (`Connection: close`), plain HTTP to a loopback-style `http://host:port`, bounded by a timeout.
struct RulesCommandClient {
    /// An answer of the admin API.
    struct Response {
        let status: Int
        let body: Data
    }

    /// Why the admin API could not be asked (exit 2).
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let host: String
    let port: UInt16
    let token: String?
    let timeoutMs: Int

    /// Parses `http://host:port` (or bare `host:port`); nil if malformed.
    init?(address: String, token: String?, timeoutMs: Int = 10_000) {
        var rest = Substring(address)
        if rest.hasPrefix("http://") { rest = rest.dropFirst(7) }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("/"), let colon = rest.lastIndex(of: ":"),
              let port = UInt16(rest[rest.index(after: colon)...]), port > 0 else { return nil }
        var host = String(rest[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { return nil }
        self.host = host
        self.port = port
        self.token = token
        self.timeoutMs = timeoutMs
    }

    /// `http://host:port`, for messages.
    var url: String {
        "http://\(authority)"
    }

    /// `host:port`, the host in brackets when it is an IPv6 literal: the Host header.
    var authority: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Sends one request and reads the whole answer.
    func send(_ method: String, _ path: String, body: Data? = nil) throws(Failure) -> Response {
        let fd = try connect()
        defer { try? BlockingIO.close(fd) }
        // The admin API answers only a Host naming it (bracketed for IPv6), and changes only
        // through requests typed application/json, even bodiless ones (enable, reset).
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(authority)\r\nConnection: close\r\n"
        head += "Accept: application/json\r\nContent-Length: \(body?.count ?? 0)\r\n"
        if body != nil || method != "GET" { head += "Content-Type: application/json\r\n" }
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        let request = Data((head + "\r\n").utf8) + (body ?? Data())
        do {
            try BlockingIO.writeAll(fd, [UInt8](request), socket: true)
        } catch {
            throw Failure(description: "cannot send to \(url): \(error.reason)")
        }
        let answer: [UInt8]
        do {
            answer = try BlockingIO.readToEnd(fd)
        } catch {
            let why = error.wouldBlock ? "no answer within \(timeoutMs) ms" : error.reason
            throw Failure(description: "cannot read from \(url): \(why)")
        }
        return try parse(Data(answer))
    }

    private func connect() throws(Failure) -> Int32 {
        do {
            return try BlockingIO.connect(host: host, port: port, timeoutMs: timeoutMs).fd
        } catch {
            switch error {
            case .resolve(let why):
                throw Failure(description: "cannot resolve \(host): \(why)")
            case .connect(let attempts):
                let refused = attempts.contains(where: \.refused)
                throw Failure(description: "cannot connect to \(url): \(attempts.last?.reason ?? "no address")"
                              + (refused ? "\n" + Self.nothingListening : ""))
            }
        }
    }

    /// Why a refused connection usually happens, and what to start: the one-line mode has
    /// no admin API unless asked for one.
    static let nothingListening = """
      No admin API listens there. The proxy prints "faultline: admin API listening on ADDR" when it
      has one: config/default.json has one on 127.0.0.1:9901 (faultline run --config config/default.json),
      the one-line mode only with --admin (faultline run --upstream URL --admin 127.0.0.1:9901).
      Point --admin or $FAULTLINE_ADMIN at that address.
    """

    private func parse(_ data: Data) throws(Failure) -> Response {
        let separator = Data("\r\n\r\n".utf8)
        guard let end = data.range(of: separator) else {
            throw Failure(description: "\(url) sent no complete HTTP answer (\(data.count) bytes)")
        }
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
        let parts = head.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw Failure(description: "\(url) is not an HTTP server (it answered \"\(head.prefix(40))\")")
        }
        return Response(status: status, body: Data(data[end.upperBound...]))
    }
}
