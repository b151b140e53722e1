import FaultlineConfig

/// The parameter objects of each fault kind, in the config file's keys.
extension FaultKindJSON {
    /// `delay`: a phase and either `ms`, `uniform` or `lognormal`.
    struct Delay: Encodable {
        let phase: String
        let ms: Int?
        let uniform: Uniform?
        let lognormal: Lognormal?

        init(_ delay: DelayFault) {
            phase = delay.phase.rawValue
            switch delay.distribution {
            case .fixed(let ms): (self.ms, uniform, lognormal) = (ms, nil, nil)
            case .uniform(let low, let high): (ms, uniform, lognormal) = (nil, Uniform(minMs: low, maxMs: high), nil)
            case .lognormal(let median, let sigma, let cap):
                (ms, uniform, lognormal) = (nil, nil, Lognormal(medianMs: median, sigma: sigma, maxMs: cap))
            }
        }
    }

    /// A delay drawn uniformly between two bounds.
    struct Uniform: Encodable {
        let minMs: Int
        let maxMs: Int

        enum CodingKeys: String, CodingKey {
            case minMs = "min_ms"
            case maxMs = "max_ms"
        }
    }

    /// A delay drawn from a capped lognormal distribution.
    struct Lognormal: Encodable {
        let medianMs: Int
        let sigma: Double
        let maxMs: Int

        enum CodingKeys: String, CodingKey {
            case medianMs = "median_ms"
            case sigma
            case maxMs = "max_ms"
        }
    }

    /// `status`: the code, headers, body or body file, and whether the upstream is asked.
    struct Status: Encodable {
        let code: Int
        let upstream: Bool
        let headers: [String: String]?
        let contentType: String?
        let body: String?
        let bodyFile: String?

        enum CodingKeys: String, CodingKey {
            case code
            case upstream
            case headers
            case contentType = "content_type"
            case body
            case bodyFile = "body_file"
        }

        init(_ status: StatusFault) {
            code = status.code
            upstream = status.upstream
            headers = status.headers.isEmpty ? nil : FaultKindJSON.headers(status.headers)
            contentType = status.contentType
            switch status.body {
            case .empty: (body, bodyFile) = (nil, nil)
            case .text(let text): (body, bodyFile) = (text, nil)
            case .file(let path): (body, bodyFile) = (nil, path)
            }
        }
    }

    /// `close`: how many response bytes go out first.
    struct AfterBytes: Encodable {
        let afterBytes: Int

        enum CodingKeys: String, CodingKey {
            case afterBytes = "after_bytes"
        }
    }

    /// `hang`: how it ends, and after how long if bounded.
    struct Hang: Encodable {
        let then: String
        let ms: Int?
    }

    /// `throttle`: bytes per second each way, and the chunk size.
    struct Throttle: Encodable {
        let downBytesPerSecond: Int
        let upBytesPerSecond: Int
        let chunkBytes: Int

        enum CodingKeys: String, CodingKey {
            case downBytesPerSecond = "down_bytes_per_second"
            case upBytesPerSecond = "up_bytes_per_second"
            case chunkBytes = "chunk_bytes"
        }
    }

    /// `truncate`: how many body bytes are kept.
    struct Truncate: Encodable {
        let keepBytes: Int

        enum CodingKeys: String, CodingKey {
            case keepBytes = "keep_bytes"
        }
    }

    /// `corrupt`: how the answer is broken.
    struct Corrupt: Encodable {
        let mode: String
    }

    /// `rewrite`: the new status and the headers added and removed.
    struct Rewrite: Encodable {
        let status: Int?
        let addHeaders: [String: String]?
        let removeHeaders: [String]?

        enum CodingKeys: String, CodingKey {
            case status
            case addHeaders = "add_headers"
            case removeHeaders = "remove_headers"
        }

        init(_ rewrite: RewriteFault) {
            status = rewrite.status
            addHeaders = rewrite.addHeaders.isEmpty ? nil : FaultKindJSON.headers(rewrite.addHeaders)
            removeHeaders = rewrite.removeHeaders.isEmpty ? nil : rewrite.removeHeaders
        }
    }
}
