/// `pins compute --emit`: a platform's pin configuration block for one host, with the live
/// pin, a backup-pin placeholder, the expiration where the platform has one, and that
/// platform's pitfalls as comments (docs/pinning.md, "Snippets").
public enum PinSnippet {
    /// Stands for the backup pin. `.` is in no base64 alphabet (okio's URL-safe one
    /// included), so every reader refuses the block until it is replaced.
    public static let backupPlaceholder = "REPLACE.WITH.BACKUP.PIN"

    /// The block for `platform`, ending with a newline.
    public static func render(_ input: PinSnippetInput, for platform: PinSnippetPlatform) -> String {
        let lines: [String]
        switch platform {
        case .ios: lines = PinSnippetATS.lines(input)
        case .android: lines = PinSnippetAndroid.lines(input)
        case .okhttp: lines = PinSnippetOkHttp.lines(input)
        case .trustkit: lines = PinSnippetTrustKit.lines(input)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `lines` as one XML comment, indented by two spaces; `--` (which may not appear in an
    /// XML comment) is split.
    static func xmlComment(_ lines: [String]) -> [String] {
        ["<!--"] + lines.map { "  " + $0.replacingOccurrences(of: "--", with: "- -") } + ["-->"]
    }

    /// The opening of an XML property list up to the comment.
    static let plistProlog = [
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
        "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">",
    ]
}
