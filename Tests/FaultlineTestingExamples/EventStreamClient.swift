import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server answered something other than an event stream (no reconnection helps).
struct NotAnEventStream: Error {
    let status: Int?
}

/// One server-sent event.
struct ServerSentEvent: Equatable, Sendable {
    let id: String?
    let data: String
}

/// Reads a `text/event-stream` to its end; when the connection breaks, reconnects with
/// `Last-Event-ID` set to the last event fully received, as browsers' `EventSource` does,
/// so no event is lost or delivered twice.
struct EventStreamClient: Sendable {
    let configuration: URLSessionConfiguration
    var maxReconnects = 3
    var reconnectDelay: Duration = .milliseconds(100)

    /// The events, and the `Last-Event-ID` each connection sent (nil: none).
    func events(from url: URL) async throws -> (events: [ServerSentEvent], lastEventIDsSent: [String?]) {
        var parser = EventStreamParser()
        var sent: [String?] = []
        while true {
            var request = URLRequest(url: url)
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            if let last = parser.lastEventID { request.setValue(last, forHTTPHeaderField: "Last-Event-ID") }
            sent.append(parser.lastEventID)
            do {
                for try await chunk in EventStreamConnection.open(request, configuration: configuration) {
                    parser.feed(chunk)
                }
                return (parser.events, sent)
            } catch is URLError where sent.count <= maxReconnects {
                // A broken connection: what was half received is dropped; resume after the last whole event.
                parser.connectionBroke()
                try await Task.sleep(for: reconnectDelay)
            }
        }
    }
}

/// The event stream format (WHATWG HTML, "Server-sent events"), enough of it for `id` and `data`.
struct EventStreamParser {
    private(set) var events: [ServerSentEvent] = []
    /// The id of the last event dispatched: what a reconnection sends.
    private(set) var lastEventID: String?
    private var line: [UInt8] = []
    private var pendingID: String?
    private var pendingData: [String] = []

    mutating func feed(_ bytes: Data) {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                process(String(decoding: line, as: UTF8.self))
                line.removeAll(keepingCapacity: true)
            } else {
                line.append(byte)
            }
        }
    }

    /// Forgets the incomplete line and event of a connection that broke.
    mutating func connectionBroke() {
        line.removeAll()
        pendingID = nil
        pendingData.removeAll()
    }

    private mutating func process(_ text: String) {
        guard !text.isEmpty else { return dispatch() }
        guard !text.hasPrefix(":") else { return }
        let (field, value) = text.firstIndex(of: ":").map { colon -> (Substring, Substring) in
            let value = text[text.index(after: colon)...]
            return (text[..<colon], value.hasPrefix(" ") ? value.dropFirst() : value)
        } ?? (text[...], "")
        switch field {
        case "id": pendingID = String(value)
        case "data": pendingData.append(String(value))
        default: break
        }
    }

    private mutating func dispatch() {
        if let pendingID { lastEventID = pendingID }
        if !pendingData.isEmpty {
            events.append(ServerSentEvent(id: pendingID ?? lastEventID, data: pendingData.joined(separator: "\n")))
        }
        pendingID = nil
        pendingData.removeAll()
    }
}

/// One streaming connection: the body's pieces as they arrive, ending with the response or
/// its error.
final class EventStreamConnection: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Unchecked: only the continuation is stored, and it is Sendable.
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation

    private init(_ continuation: AsyncThrowingStream<Data, any Error>.Continuation) {
        self.continuation = continuation
    }

    static func open(_ request: URLRequest, configuration: URLSessionConfiguration) -> AsyncThrowingStream<Data, any Error> {
        AsyncThrowingStream { continuation in
            let session = URLSession(configuration: configuration, delegate: EventStreamConnection(continuation), delegateQueue: nil)
            let task = session.dataTask(with: request)
            continuation.onTermination = { _ in
                task.cancel()
                session.finishTasksAndInvalidate()
            }
            task.resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        guard http?.statusCode == 200, http?.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("text/event-stream") == true else {
            continuation.finish(throwing: NotAnEventStream(status: http?.statusCode))
            return completionHandler(.cancel)
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        continuation.finish(throwing: error)
    }
}
