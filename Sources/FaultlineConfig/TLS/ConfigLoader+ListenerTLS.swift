extension ConfigLoader {
    /// ALPN protocols a listener may offer in this version.
    static let supportedALPN = ["h2", "http/1.1"]

    /// A listener's `tls` object.
    static func readListenerTLS(
        _ object: FieldReader, _ context: LoadContext, _ diagnostics: inout Diagnostics
    ) -> ListenerTLSConfig? {
        let certificate = readFile(object, "certificate", required: true, mintable: true, context, &diagnostics)
        let key = readFile(object, "key", required: true, mintable: true, context, &diagnostics)
        let alpn = readALPN(object, &diagnostics)
        let minVersion = object.choice("min_version", default: MinimumTLSVersion.tls12, &diagnostics)
        let sni = readSNI(object, context, &diagnostics)
        let drill = readDrill(object, context, &diagnostics)
        guard let certificate, let key else { return nil }
        return ListenerTLSConfig(
            certificate: certificate, key: key, alpn: alpn, minVersion: minVersion, sni: sni, drill: drill)
    }

    /// The optional `drill` member of a listener's `tls` or of an SNI entry.
    static func readDrill(
        _ parent: FieldReader, _ context: LoadContext, _ diagnostics: inout Diagnostics
    ) -> DrillCertificateConfig? {
        guard let object = parent.object("drill", known: ConfigKeys.drillCertificate, &diagnostics) else { return nil }
        let certificate = readFile(object, "certificate", required: true, mintable: true, context, &diagnostics)
        let key = readFile(object, "key", required: true, mintable: true, context, &diagnostics)
        var label = DrillCertificateConfig.defaultLabel
        if let text = object.string("label", expected: "a non-empty string", &diagnostics) {
            if text.isEmpty {
                diagnostics.add(object.path("label"), "expected a non-empty string, got \"\"")
            } else {
                label = text
            }
        }
        guard let certificate, let key else { return nil }
        return DrillCertificateConfig(certificate: certificate, key: key, label: label)
    }

    private static func readALPN(_ object: FieldReader, _ diagnostics: inout Diagnostics) -> [String] {
        guard let value = object["alpn"] else { return ListenerTLSConfig.defaultALPN }
        let path = object.path("alpn")
        let allowed = supportedALPN.map { JSONValue.quoted($0) }.joined(separator: " or ")
        guard case .array(let items) = value, !items.isEmpty else {
            diagnostics.add(path, "expected a non-empty array of ALPN protocol names (\(allowed)), got \(value.rendered)")
            return ListenerTLSConfig.defaultALPN
        }
        var protocols: [String] = []
        for (index, item) in items.enumerated() {
            let itemPath = Diagnostics.join(path, index)
            guard case .string(let name) = item, supportedALPN.contains(name) else {
                diagnostics.add(itemPath, "expected \(allowed), got \(item.rendered)")
                continue
            }
            if protocols.contains(name) {
                diagnostics.add(itemPath, "duplicate protocol \(JSONValue.quoted(name))")
                continue
            }
            protocols.append(name)
        }
        return protocols
    }
}
