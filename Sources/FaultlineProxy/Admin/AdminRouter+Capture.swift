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
            return .json(200, AdminBody.Cleared(cleared: capture.clear()))
        default:
            return notAllowed(request, "GET, DELETE")
        }
    }

    func logStatus(_ method: String, _ request: AdminRequest) -> AdminResponse {
        guard method == "GET" else { return notAllowed(request, "GET") }
        let log = server.snapshot.log
        var sink = AdminBody.Sink(enabled: false)
        if let logSink = log.sink {
            sink = AdminBody.Sink(enabled: true, dropped: logSink.droppedCount, failedWrites: logSink.failedWriteCount,
                                  lastWriteErrno: Int(logSink.lastWriteErrno), destination: log.config.destination.rawValue,
                                  path: log.config.path)
        }
        let capture = AdminBody.Capture(enabled: log.capture != nil, entries: log.sharedCapture.count, evicted: log.sharedCapture.droppedCount)
        return .json(200, AdminBody.LogStatus(log: sink, har: capture))
    }
}
