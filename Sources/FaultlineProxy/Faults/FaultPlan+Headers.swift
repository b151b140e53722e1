import FaultlineHTTP
import FaultlineConfig

extension FaultPlan {
    /// Per-request control by header (opt-in): a delay in milliseconds and/or a status code.
    mutating func applyRequestHeaders(_ headers: HTTPHeaders, controls: FaultHeadersConfig) {
        for index in 0..<headers.count {
            let (name, value) = (headers.name(at: index), headers.value(at: index))
            if name.lowercased() == controls.delayHeader.lowercased(), let ms = Int(value), ms >= 0, ms <= 600_000 {
                requestDelayMs += ms
                names.append("header/delay")
            } else if name.lowercased() == controls.statusHeader.lowercased(), let code = Int(value), (200...599).contains(code) {
                terminal = .status(StatusFault(code: code, body: .text("fault injected by \(controls.statusHeader)\n")))
                names.append("header/status")
            }
        }
    }
}
