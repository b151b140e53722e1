import Foundation

extension ConfigLoader {
    /// A file path member (certificate, key, CA file): resolved against the config file's
    /// directory and, when the context asks, checked to be readable. Nil after reporting.
    /// `mintable` (a listener's certificate or key) adds, for a `proxy.pem` or `proxy-key.pem`
    /// that does not exist, the command that mints a development one: a fresh checkout has
    /// none (keys are never committed), and those are the names `certs init` writes.
    static func readFile(
        _ object: FieldReader, _ key: String, required: Bool, mintable: Bool = false, _ context: LoadContext,
        _ diagnostics: inout Diagnostics
    ) -> String? {
        guard let text = filePath(object, key, required: required, &diagnostics) else { return nil }
        let resolved = context.resolve(text)
        if context.checkFiles, let problem = ConfigFileCheck.problem(readingFileAt: resolved) {
            var message = "cannot read \(JSONValue.quoted(text)): \(problem)"
            let minted = ["proxy.pem", "proxy-key.pem"].contains(URL(fileURLWithPath: text).lastPathComponent)
            if mintable && minted && !FileManager.default.fileExists(atPath: resolved) {
                message += "; faultline certs init --dir \(displayDirectory(of: resolved)) mints a development CA and "
                    + "certificate there (ca.pem, proxy.pem, proxy-key.pem), as scripts/run.sh does on first run"
            }
            diagnostics.add(object.path(key), message)
            return nil
        }
        return resolved
    }

    /// The directory of `path`, relative to the working directory when inside it (`certs`
    /// for `config/../certs/proxy.pem`), else absolute.
    private static func displayDirectory(of path: String) -> String {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        if directory == here { return "." }
        let prefix = here.hasSuffix("/") ? here : here + "/"
        return directory.hasPrefix(prefix) ? String(directory.dropFirst(prefix.count)) : directory
    }

    /// A status fault's `body_file`: a regular file of at most `FaultBodyFile.maxBytes`,
    /// checked without opening it (a FIFO would block). Under confinement (admin API rules)
    /// its real path must lie inside the config directory and is what is kept, so a later
    /// read never follows a link out. Nil after reporting.
    static func readBodyFile(_ object: FieldReader, _ context: LoadContext, _ diagnostics: inout Diagnostics) -> String? {
        let key = "body_file"
        guard let text = filePath(object, key, required: false, &diagnostics) else { return nil }
        var path = context.resolve(text)
        switch context.confinement {
        case .unconfined:
            break
        case .inlineOnly:
            diagnostics.add(object.path(key), "cannot use \(JSONValue.quoted(text)): the configuration was not loaded from a file, so there is no config directory; admin rules take inline bodies (\"body\") only")
            return nil
        case .sessionRule:
            diagnostics.add(object.path(key), "cannot use \(JSONValue.quoted(text)): session rules take inline bodies only (\"body\"); body_file is for the config file and the global rules of POST /rules")
            return nil
        case .scenarioRule:
            diagnostics.add(object.path(key), "cannot use \(JSONValue.quoted(text)): scenario rules take inline bodies only (\"body\"), so a scenario file stands alone")
            return nil
        case .within(let directory):
            switch confined(path, within: directory) {
            case .success(let real): path = real
            case .failure(let problem):
                diagnostics.add(object.path(key), "cannot use \(JSONValue.quoted(text)): \(problem)")
                return nil
            }
        }
        if context.checkFiles, let problem = FaultBodyFile.problem(at: path) {
            diagnostics.add(object.path(key), "cannot read \(JSONValue.quoted(text)): \(problem)")
            return nil
        }
        return path
    }

    private static func filePath(
        _ object: FieldReader, _ key: String, required: Bool, _ diagnostics: inout Diagnostics
    ) -> String? {
        let what = "a file path"
        let value = required
            ? object.requiredString(key, expected: what, &diagnostics)
            : object.string(key, expected: what, &diagnostics)
        guard let text = value else { return nil }
        guard !text.isEmpty else {
            diagnostics.add(object.path(key), "expected \(what), got \"\"")
            return nil
        }
        return text
    }

    /// The real path of `path` (links and `..` resolved) if it lies inside the real path
    /// of `directory`; otherwise why not.
    private static func confined(_ path: String, within directory: String) -> Result<String, FaultBodyFile.Problem> {
        guard let root = realPath(directory) else {
            return .failure(FaultBodyFile.Problem(description: "the config directory \(JSONValue.quoted(directory)) cannot be resolved"))
        }
        guard let real = realPath(path) else {
            return .failure(FaultBodyFile.Problem(description: String(cString: strerror(errno))))
        }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard real.hasPrefix(prefix) else {
            return .failure(FaultBodyFile.Problem(description: "admin rules may only name files inside the config directory (\(root)); it resolves to \(real)"))
        }
        return .success(real)
    }

    private static func realPath(_ path: String) -> String? {
        FaultBodyFile.realPath(path)
    }
}
