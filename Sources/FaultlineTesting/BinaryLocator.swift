import Foundation

// Launching is for Linux and macOS; iOS test targets `connect` instead.
#if FAULTLINE_LAUNCH
/// Finds the `faultline` executable: an explicit path, else `FAULTLINE_BIN`, else each
/// `PATH` entry in order.
enum BinaryLocator {
    static func locate(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        var searched: [String] = []
        let fileManager = FileManager.default
        func usable(_ path: String) -> Bool {
            var isDirectory: ObjCBool = false
            let exists = fileManager.fileExists(atPath: path, isDirectory: &isDirectory)
            if exists && isDirectory.boolValue {
                // The commonest slip: FAULTLINE_BIN=.build/debug instead of .build/debug/faultline.
                let inside = URL(fileURLWithPath: path).appendingPathComponent("faultline").path
                searched.append("\(path) (a directory: name the binary itself, e.g. \(inside))")
                return false
            }
            if exists && !fileManager.isExecutableFile(atPath: path) {
                searched.append("\(path) (not executable)")
                return false
            }
            searched.append(path)
            return exists
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
        var seen = Set<Substring>()
        // A directory listed twice in PATH is searched (and reported) once.
        let entries = (environment["PATH"] ?? "").split(separator: ":", omittingEmptySubsequences: true)
            .filter { seen.insert($0).inserted }
        for entry in entries {
            let candidate = URL(fileURLWithPath: String(entry)).appendingPathComponent("faultline").path
            if usable(candidate) { return candidate }
        }
        throw FaultlineError.binaryNotFound(searched: searched)
    }
}
#endif
