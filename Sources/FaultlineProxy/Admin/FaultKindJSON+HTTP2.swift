import FaultlineConfig
import FaultlineHTTP

/// The parameter objects of the kinds that carry an HTTP/2 error code.
extension FaultKindJSON {
    /// An HTTP/2 error code as the config writes it: its name, or the number when it has none.
    struct ErrorCode: Encodable {
        let code: HTTP2ErrorCode

        init(_ code: HTTP2ErrorCode) {
            self.code = code
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if let name = code.name { try container.encode(name) } else { try container.encode(code.rawValue) }
        }
    }

    /// `reset`: how many response bytes go out first, and the RST_STREAM code.
    struct Reset: Encodable {
        let afterBytes: Int
        let errorCode: ErrorCode

        enum CodingKeys: String, CodingKey {
            case afterBytes = "after_bytes"
            case errorCode = "error_code"
        }
    }

    /// `rst_stream`: the RST_STREAM code.
    struct RSTStream: Encodable {
        let errorCode: ErrorCode

        enum CodingKeys: String, CodingKey {
            case errorCode = "error_code"
        }
    }

    /// `goaway`: the mode, and the code of an immediate one.
    struct GoAway: Encodable {
        let mode: String
        let errorCode: ErrorCode?

        enum CodingKeys: String, CodingKey {
            case mode
            case errorCode = "error_code"
        }
    }
}
