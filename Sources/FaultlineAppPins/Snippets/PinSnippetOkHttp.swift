/// OkHttp: a Kotlin `CertificatePinner` with one `add` call for the host.
enum PinSnippetOkHttp {
    static func lines(_ input: PinSnippetInput) -> [String] {
        var notes = input.header("OkHttp CertificatePinner")
        notes += [
            "It is not base64: OkHttp (and Faultline's readers) refuse this pinner until it is replaced.",
            "Pitfalls (docs/pinning.md, OkHttp CertificatePinner):",
            "- Pins are compared with the cleaned chain (the verified path to a trusted root, root included),",
            "  not with the chain as the server sends it.",
            "- \"\(input.host)\" pins that name only; \"*.\(input.host)\" matches exactly one label below it;",
            "  \"**.\(input.host)\" matches the name itself and every name below it, at any depth.",
            "- OkHttp pins have no expiration: they stay until an app update ships new ones.",
        ]
        return notes.map { "// " + $0 } + [
            "val certificatePinner = CertificatePinner.Builder()",
            "    .add(",
            "        \"\(input.host)\",",
            "        \"sha256/\(input.pin)\", // live: the \(input.position.rawValue) key",
            "        \"sha256/\(PinSnippet.backupPlaceholder)\", // backup: a spare key kept offline",
            "    )",
            "    .build()",
        ]
    }
}
