import Foundation

/// Reads small files (fault bodies) at snapshot time; never on the hot path.
enum FileBytes {
    static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }
}
