import FaultlineConfig

/// The parameters of each fault kind in the config file's format.
enum FaultKindJSON {
    /// The value under the kind's keyword.
    static func parameters(_ kind: FaultKind) -> Any {
        switch kind {
        case .delay(let delay): return self.delay(delay)
        case .status(let status): return self.status(status)
        case .reset(let reset): return ["after_bytes": reset.afterBytes]
        case .close(let close): return ["after_bytes": close.afterBytes]
        case .hang(let hang):
            var object: [String: Any] = ["then": hang.then.rawValue]
            if let ms = hang.ms { object["ms"] = ms }
            return object
        case .throttle(let throttle):
            return ["down_bytes_per_second": throttle.downBytesPerSecond,
                    "up_bytes_per_second": throttle.upBytesPerSecond, "chunk_bytes": throttle.chunkBytes]
        case .truncate(let truncate): return ["keep_bytes": truncate.keepBytes]
        case .corrupt(let corrupt): return ["mode": corrupt.mode.rawValue]
        case .rewrite(let rewrite):
            var object: [String: Any] = [:]
            if let status = rewrite.status { object["status"] = status }
            if !rewrite.addHeaders.isEmpty { object["add_headers"] = headers(rewrite.addHeaders) }
            if !rewrite.removeHeaders.isEmpty { object["remove_headers"] = rewrite.removeHeaders }
            return object
        case .profile(let profile): return profile.name
        }
    }

    private static func delay(_ delay: DelayFault) -> [String: Any] {
        var object: [String: Any] = ["phase": delay.phase.rawValue]
        switch delay.distribution {
        case .fixed(let ms): object["ms"] = ms
        case .uniform(let low, let high): object["uniform"] = ["min_ms": low, "max_ms": high]
        case .lognormal(let median, let sigma, let cap): object["lognormal"] = ["median_ms": median, "sigma": sigma, "max_ms": cap]
        }
        return object
    }

    private static func status(_ status: StatusFault) -> [String: Any] {
        var object: [String: Any] = ["code": status.code, "upstream": status.upstream]
        if !status.headers.isEmpty { object["headers"] = headers(status.headers) }
        if let contentType = status.contentType { object["content_type"] = contentType }
        switch status.body {
        case .empty: break
        case .text(let text): object["body"] = text
        case .file(let path): object["body_file"] = path
        }
        return object
    }

    private static func headers(_ fields: [FaultHeader]) -> [String: String] {
        Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }
}
