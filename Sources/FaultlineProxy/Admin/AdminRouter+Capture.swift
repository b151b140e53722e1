import FaultlineLog

/// `GET /har`, `DELETE /har` and `GET /log`: the HAR capture and the log sink's health.
extension AdminRouter {
    func capture(_ method: String, _ request: AdminRequest) -> AdminResponse {
        let capture = server.snapshot.log.sharedCapture
        switch method {
        case "GET":
            // Already JSON and already redacted: every record was redacted when it was built.
            return AdminResponse(status: 200, body: capture.export(creatorVersion: FaultlineVersion.current))
        case "DELETE":
            return .json(200, ["cleared": capture.clear()])
        default:
            return notAllowed(request, "GET, DELETE")
        }
    }

    func logStatus(_ method: String, _ request: AdminRequest) -> AdminResponse {
        guard method == "GET" else { return notAllowed(request, "GET") }
        let log = server.snapshot.log
        var sink: [String: Any] = ["enabled": log.sink != nil]
        if let logSink = log.sink {
            sink["dropped"] = logSink.droppedCount
            sink["failed_writes"] = logSink.failedWriteCount
            sink["last_write_errno"] = Int(logSink.lastWriteErrno)
            sink["destination"] = log.config.destination.rawValue
            if let path = log.config.path { sink["path"] = path }
        }
        return .json(200, [
            "log": sink,
            "har": ["enabled": log.capture != nil, "entries": log.sharedCapture.count,
                    "evicted": log.sharedCapture.droppedCount],
        ])
    }
}
