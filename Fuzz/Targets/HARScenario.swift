import Foundation
@testable import FaultlineConfig

/// HAR files through `HARInput.read` and `HARScenarioBuilder.build`, as
/// `faultline scenario from-har` reads them. Invariants: no input traps or hangs (nesting,
/// sizes and entry counts are bounded before decoding); a refusal says why; a scenario built
/// from any HAR is one the scenario loader accepts.
///
/// Input: a byte of option choices, then the HAR document.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHARScenario(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let choices = input.byte()
    var options = HARScenarioOptions(name: "fuzz")
    options.onlyFailures = choices & 1 != 0
    if choices & 2 != 0 { options.compress = Double(choices >> 4 | 1) }
    if choices & 4 != 0 { options.maxGapMs = Int(choices) }
    if choices & 8 != 0 { options.hosts = ["*.example.com"] }
    options.maxBodyBytes = Int(choices)
    let document = input.rest()
    let har: HARInput
    do {
        har = try HARInput.read(document)
    } catch {
        FuzzCheck.require(!error.message.isEmpty, "HAR refusal without a reason")
        return 0
    }
    do {
        let result = try HARScenarioBuilder.build(har, options: options)
        do {
            _ = try ScenarioConfig.load(json: result.json, upstreams: nil)
        } catch {
            FuzzCheck.fail("a built scenario was refused: \(error)\n\(String(decoding: result.json, as: UTF8.self))")
        }
    } catch {
        FuzzCheck.require(!error.message.isEmpty, "build refusal without a reason")
    }
    return 0
}
