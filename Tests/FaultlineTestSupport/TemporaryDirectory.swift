import Foundation

/// A directory for one test's files (configs, scripts, certificates, logs), removed when
/// dropped or by `remove()`. A test that only hands out paths keeps the object alive with
/// `defer { directory.remove() }`, so the files outlive their last use.
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// The directory's absolute path.
    public var path: String { url.path }

    /// Creates an empty directory named `prefix-UUID` under the system temporary directory.
    public init(prefix: String = "faultline-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The absolute path of `relative` inside the directory.
    public func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }

    /// Writes `data` atomically to `relative` (creating the directories on the way) and
    /// returns its path.
    @discardableResult
    public func write(_ relative: String, _ data: Data) throws -> String {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file, options: .atomic)
        return file.path
    }

    /// Writes `text` as UTF-8 to `relative` and returns its path.
    @discardableResult
    public func write(_ relative: String, _ text: String) throws -> String {
        try write(relative, Data(text.utf8))
    }

    /// Removes the directory and everything in it; harmless when already removed.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    deinit { remove() }
}
