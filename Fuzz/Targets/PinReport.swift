import Foundation
@testable import FaultlineProxy

/// Pin failure reports posted to `POST /pins/reports` (TrustKit's or RFC 7469's JSON) through
/// `PinReportParser.parse`. Invariants: no input traps; a refusal is a 400 or, only for a body
/// over the limit, a 413, with a message; an accepted report keeps its limits (port 0...65535,
/// at most `maxCertificates` certificates and `maxPins` pins) and its matches are well formed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPinReport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    do throws(PinReportError) {
        let report = try PinReportParser.parse(body)
        FuzzCheck.require((0...65_535).contains(report.port), "pin report: port \(report.port)")
        FuzzCheck.require(report.validatedChain.count <= PinReportParser.maxCertificates,
                          "pin report: \(report.validatedChain.count) certificates")
        FuzzCheck.require(report.knownPins.count <= PinReportParser.maxPins, "pin report: \(report.knownPins.count) pins")
        for match in report.matches {
            FuzzCheck.require(!match.isEmpty, "pin report: an empty match")
        }
    } catch {
        FuzzCheck.require(error.status == 400 || (error.status == 413 && body.count > PinReportParser.bodyLimit),
                          "pin report: status \(error.status) for \(body.count) bytes")
        FuzzCheck.require(!error.message.isEmpty, "pin report: refused without a message")
    }
    return 0
}
