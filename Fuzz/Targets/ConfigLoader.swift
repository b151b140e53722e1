import Foundation
@testable import FaultlineConfig

/// Configuration files: JSON bytes through `ConfigLoader.parseWithWarnings` and, when the
/// file is accepted, through what the proxy compiles from it at start (route table, fault
/// decider, one decision per route). Invariants: no input traps; a refused file gets at
/// least one error; every error has a message, and names the field it is about (a path
/// starting at a top-level key) unless the document is not JSON or not an object.
///
/// Input: the file's bytes. Files are not opened (`checkFiles: false`): that check is I/O.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigLoader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    do throws(ConfigErrors) {
        let (config, warnings) = try ConfigLoader.parseWithWarnings(bytes, file: "fuzz.json", checkFiles: false)
        for warning in warnings {
            FuzzCheck.require(!warning.message.isEmpty, "config: empty warning message at \(warning.path)")
        }
        ConfigCompilation.exercise(config)
    } catch {
        ConfigErrorCheck.check(error, document: bytes, topLevelKeys: ConfigErrorCheck.topLevelKeys)
    }
    return 0
}
