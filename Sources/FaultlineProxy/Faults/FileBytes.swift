import FaultlineConfig

/// Reads small files (fault bodies) at snapshot time; never on the hot path, never on an
/// event loop. Regular files of at most `FaultBodyFile.maxBytes` only, opened non-blocking,
/// so a FIFO or a device put in place of a checked file cannot block or exhaust memory.
enum FileBytes {
    /// `within`: the directory an admin API rule's file must stay in (checked on the open file).
    static func read(_ path: String, within root: String? = nil) -> Result<[UInt8], FaultBodyFile.Problem> {
        FaultBodyFile.read(path, within: root)
    }
}
