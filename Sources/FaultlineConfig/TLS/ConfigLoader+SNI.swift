extension ConfigLoader {
    /// The optional `sni` array of a listener's `tls`: one certificate per server name.
    static func readSNI(
        _ object: FieldReader, _ context: LoadContext, _ diagnostics: inout Diagnostics
    ) -> [SNICertificateConfig] {
        guard let value = object["sni"] else { return [] }
        let path = object.path("sni")
        guard case .array(let items) = value else {
            diagnostics.add(path, "expected an array of {server_name, certificate, key} objects, got \(value.rendered)")
            return []
        }
        var entries: [SNICertificateConfig] = []
        var firstUse: [HostPattern: String] = [:]
        for (index, item) in items.enumerated() {
            let itemPath = Diagnostics.join(path, index)
            guard let entry = FieldReader(item, path: itemPath, known: ConfigKeys.sniCertificate, diagnostics: &diagnostics) else {
                continue
            }
            let serverName = readSNIName(entry, &diagnostics)
            if let serverName {
                if let earlier = firstUse[serverName] {
                    diagnostics.add(
                        entry.path("server_name"),
                        "duplicate server name \(JSONValue.quoted(serverName.description)) (already used by \(earlier))")
                } else {
                    firstUse[serverName] = itemPath
                }
            }
            let certificate = readFile(entry, "certificate", required: true, mintable: true, context, &diagnostics)
            let key = readFile(entry, "key", required: true, mintable: true, context, &diagnostics)
            let drill = readDrill(entry, context, &diagnostics)
            if let serverName, let certificate, let key {
                entries.append(SNICertificateConfig(serverName: serverName, certificate: certificate, key: key, drill: drill))
            }
        }
        return entries
    }

    /// `server_name`: a host name or `*.domain`; IP literals never appear in SNI.
    private static func readSNIName(_ entry: FieldReader, _ diagnostics: inout Diagnostics) -> HostPattern? {
        let what = "a host name or \"*.domain\" wildcard"
        guard let text = entry.requiredString("server_name", expected: what, &diagnostics) else { return nil }
        guard let pattern = HostPattern(text) else {
            diagnostics.add(entry.path("server_name"), "expected \(what) without a port, got \(JSONValue.quoted(text))")
            return nil
        }
        if case .exact(let host) = pattern, host.hasPrefix("[") || IPLiteral.isIPv4(host) {
            diagnostics.add(
                entry.path("server_name"),
                "expected \(what) (clients never send an IP address as SNI), got \(JSONValue.quoted(text))")
            return nil
        }
        return pattern
    }
}
