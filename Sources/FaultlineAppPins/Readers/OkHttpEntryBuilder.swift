import FaultlineTLS

/// Turns `add` calls into entries, one per call, refusing what `CertificatePinner.Pin`
/// refuses (a `*` anywhere but a leading `*.` or `**.`, a pin without `sha256/` or `sha1/`,
/// a hash that is not base64).
struct OkHttpEntryBuilder {
    let file: String
    var domains: [AppPinDomain] = []
    var warnings: [String] = []

    init(file: String) {
        self.file = file
    }

    mutating func add(_ call: OkHttpAddCall) throws(AppPinConfigurationError) {
        guard case .literal(let rawPattern, _)? = call.arguments.first else {
            if case .expression(let text, _)? = call.arguments.first {
                warnings.append("add(\(text), …): the pattern is not a string literal; entry skipped (line \(call.line))")
            }
            return
        }
        let keyPath = "add(\"\(rawPattern)\")"
        let pattern = try Self.pattern(rawPattern, error: { error(keyPath, $0, line: call.line) })
        var pins: [AppPin] = []
        for (index, argument) in call.arguments.dropFirst().enumerated() {
            let pinPath = "\(keyPath)[\(index + 1)]"
            switch argument {
            case .expression(let text, let line):
                warnings.append("\(pinPath): \(text) is not a string literal; pin skipped (line \(line))")
            case .literal(let text, let line):
                if let pin = try pin(text, path: pinPath, line: line) { pins.append(pin) }
            }
        }
        domains.append(AppPinDomain(pattern: pattern, pins: pins, declaredScopes: [.anyInChain], keyPath: keyPath, line: call.line))
    }

    private mutating func pin(_ text: String, path: String, line: Int) throws(AppPinConfigurationError) -> AppPin? {
        let algorithm: String
        if text.hasPrefix("sha256/") {
            algorithm = "sha256"
        } else if text.hasPrefix("sha1/") {
            algorithm = "sha1"
        } else {
            throw error(path, "pins must start with 'sha256/' or 'sha1/': \"\(text)\"", line: line)
        }
        guard let bytes = PinText.lenientBase64(String(text.dropFirst(algorithm.count + 1))) else {
            throw error(path, "invalid pin hash: \"\(text)\"", line: line)
        }
        if algorithm == "sha1" {
            warnings.append("\(path): a sha1/ pin; only SHA-256 pins are compared here, so this one never matches (line \(line))")
            return nil
        }
        guard let value = SPKIPinValue(digest: bytes) else {
            warnings.append("\(path): decodes to \(bytes.count) bytes, not 32; OkHttp accepts it but it never matches (line \(line))")
            return nil
        }
        return AppPin(value: value, scope: .anyInChain, line: line)
    }

    private func error(_ path: String, _ problem: String, line: Int) -> AppPinConfigurationError {
        AppPinConfigurationError(file: file, keyPath: path, problem: problem, location: .line(line))
    }

    /// OkHttp's pattern forms: `host`, `*.domain` (exactly one label), `**.domain` (any
    /// depth, the domain itself included).
    static func pattern(_ text: String, error: (String) -> AppPinConfigurationError) throws(AppPinConfigurationError) -> HostPattern {
        let lower = HostPattern.normalize(text)
        if lower.hasPrefix("**.") {
            let domain = String(lower.dropFirst(3))
            guard !domain.contains("*"), !domain.isEmpty else { throw error("unexpected pattern: \(text)") }
            return .domainAndSubdomains(domain)
        }
        if lower.hasPrefix("*.") {
            let domain = String(lower.dropFirst(2))
            guard !domain.contains("*"), !domain.isEmpty else { throw error("unexpected pattern: \(text)") }
            return .oneLabelBelow(domain)
        }
        guard !lower.contains("*") else { throw error("unexpected pattern: \(text)") }
        guard !lower.isEmpty, !lower.contains(" "), !lower.hasPrefix(".") else { throw error("invalid pattern: \(text)") }
        return .exact(lower)
    }
}
