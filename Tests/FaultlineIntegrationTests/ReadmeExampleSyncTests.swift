import FaultlineTestSupport
import Foundation
import Testing

/// The README's complete FaultlineTesting example is compiled and run in CI as
/// `Tests/FaultlineTestingExamples/ReadmeExampleTests.swift`; this keeps the two identical,
/// so the example a user copies is one that builds and passes.
@Suite struct ReadmeExampleSyncTests {
    static let examplePath = "Tests/FaultlineTestingExamples/ReadmeExampleTests.swift"

    @Test func readmeShowsTheCompiledExampleVerbatim() throws {
        let root = TestPaths.packageRoot
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let file = try String(contentsOf: root.appendingPathComponent(Self.examplePath), encoding: .utf8)
        let block = try #require(Self.codeBlock(after: "<!-- \(Self.examplePath)", in: readme),
                                 "README.md has no ```swift block after a comment naming \(Self.examplePath)")
        #expect(block == file, "README.md's example and \(Self.examplePath) differ: copy the file into the README")
    }

    @Test func extractsTheBlockAfterTheMarker() {
        let text = "intro\n<!-- x.swift -->\n```swift\nlet a = 1\n\nlet b = 2\n```\nafter\n```swift\nother\n```\n"
        #expect(Self.codeBlock(after: "<!-- x.swift", in: text) == "let a = 1\n\nlet b = 2\n")
        #expect(Self.codeBlock(after: "<!-- y.swift", in: text) == nil)
    }

    /// The body of the first ```swift fence after the line starting with `marker`, each line
    /// ending in a newline.
    static func codeBlock(after marker: String, in text: String) -> String? {
        let lines = text.components(separatedBy: "\n")
        guard let markerLine = lines.firstIndex(where: { $0.hasPrefix(marker) }),
              let open = lines[(markerLine + 1)...].firstIndex(of: "```swift"),
              let close = lines[(open + 1)...].firstIndex(of: "```") else { return nil }
        return lines[(open + 1)..<close].map { $0 + "\n" }.joined()
    }
}
