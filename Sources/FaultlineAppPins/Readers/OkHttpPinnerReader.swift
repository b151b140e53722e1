import Foundation

/// Reads OkHttp `CertificatePinner` entries: `add("pattern", "sha256/…", …)` calls in
/// Kotlin or Java source (a tolerant scan: calls may span lines; calls without a pin
/// literal are someone else's `add`), or a plain list with `pattern sha256/… …` per line
/// (`#` starts a comment). Patterns and pins are checked the way `CertificatePinner.Pin`
/// checks them when the pinner is built.
public enum OkHttpPinnerReader {
    /// Reads the file at `path`: source for `.kt`, `.kts` and `.java`, a list otherwise.
    public static func read(path: String) throws(AppPinConfigurationError) -> AppPinConfiguration {
        try read(data: AppPinFile.contents(of: path), path: path)
    }

    /// `data`, read from `path`: the extension picks source or list.
    static func read(data: Data, path: String) throws(AppPinConfigurationError) -> AppPinConfiguration {
        let source = ["kt", "kts", "java"].contains((path as NSString).pathExtension.lowercased())
        return try read(text: String(decoding: data, as: UTF8.self), file: path, source: source)
    }

    /// Reads text held in memory; `source` picks the Kotlin/Java scan over the list format.
    public static func read(text: String, file: String, source: Bool) throws(AppPinConfigurationError) -> AppPinConfiguration {
        let calls = source ? OkHttpSourceScanner.calls(in: text) : listCalls(text)
        var builder = OkHttpEntryBuilder(file: file)
        for call in calls {
            try builder.add(call)
        }
        if builder.domains.isEmpty {
            builder.warnings.append("no CertificatePinner entries found")
        }
        return AppPinConfiguration(platform: .okHttp, file: file, domains: builder.domains, warnings: builder.warnings)
    }

    private static func listCalls(_ text: String) -> [OkHttpAddCall] {
        var calls: [OkHttpAddCall] = []
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," || $0 == "\r" }).map(String.init)
            guard let pattern = words.first else { continue }
            let arguments = [pattern] + words.dropFirst()
            calls.append(OkHttpAddCall(arguments: arguments.map { .literal($0, line: offset + 1) }, line: offset + 1))
        }
        return calls
    }
}
