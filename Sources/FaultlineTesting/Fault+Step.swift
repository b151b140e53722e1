extension Fault {
    /// One step of a `sequence`: an integer literal is a status code (status faults only:
    /// it replaces the code), `.pass` lets the request through, `.fire` fires as configured.
    public enum Step: Sendable, Equatable, ExpressibleByIntegerLiteral {
        /// Answer with this status code instead of the fault's own.
        case status(Int)
        /// Do not fire for this request.
        case pass
        /// Fire as configured.
        case fire

        /// A status step: `503` in `[503, 503, .pass]`.
        public init(integerLiteral value: Int) {
            self = .status(value)
        }

        var json: JSONValue {
            switch self {
            case .status(let code): .int(code)
            case .pass: .string("pass")
            case .fire: .bool(true)
            }
        }
    }
}
