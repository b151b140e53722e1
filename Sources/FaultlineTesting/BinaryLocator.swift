import Foundation

// Launching needs Foundation's Process (Linux, macOS); iOS test targets `connect` instead.
#if FAULTLINE_LAUNCH
/// Finds the `faultline` executable: an explicit path, else `FAULTLINE_BIN`, else each
/// `PATH` entry in order.
enum BinaryLocator {
    static func locate(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        var searched: [String] = []
        let fileManager = FileManager.default
        func usable(_ path: String) -> Bool {
            searched.append(path)
            var isDirectory: ObjCBool = false
            return fileManager.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
                && fileManager.isExecutableFile(atPath: path)
        }
        // A path the caller chose is the only one tried: falling back would hide a typo.
        if let explicit {
            if usable(explicit) { return explicit }
            throw FaultlineError.binaryNotFound(searched: searched)
        }
        if let fromEnvironment = environment["FAULTLINE_BIN"], !fromEnvironment.isEmpty {
            if usable(fromEnvironment) { return fromEnvironment }
            throw FaultlineError.binaryNotFound(searched: searched.map { "\($0) (FAULTLINE_BIN)" })
        }
        let entries = (environment["PATH"] ?? "").split(separator: ":", omittingEmptySubsequences: true)
        for entry in entries {
            let candidate = URL(fileURLWithPath: String(entry)).appendingPathComponent("faultline").path
            if usable(candidate) { return candidate }
        }
        throw FaultlineError.binaryNotFound(searched: searched)
    }
}
#endif
