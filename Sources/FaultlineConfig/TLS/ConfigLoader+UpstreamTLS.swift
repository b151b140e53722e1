import FaultlineTLS

extension ConfigLoader {
    /// The TLS settings of an https upstream; `urlHost` is nil when the URL was invalid,
    /// in which case the members are still checked but nothing is returned.
    static func readUpstreamTLS(
        _ object: FieldReader, urlHost: String?, _ context: inout LoadContext, _ diagnostics: inout Diagnostics
    ) -> UpstreamTLSConfig? {
        let serverName = readServerName(object, &diagnostics) ?? urlHost
        let trust = object.object("trust", known: ConfigKeys.upstreamTrust, &diagnostics)
            .map { readTrust($0, context, &diagnostics) } ?? UpstreamTrustConfig()
        let minVersion = object.choice("min_version", default: MinimumTLSVersion.tls12, &diagnostics)
        let verifyHostname = object.bool("verify_hostname", default: true, &diagnostics)
        if !verifyHostname {
            context.warn(
                object.path("verify_hostname"),
                "hostname verification is OFF: any certificate that chains to a trusted CA is accepted "
                    + "whatever name it was issued for, so a man in the middle goes unnoticed; use only with a test chain")
        }
        var pins: PinPolicy?
        var appPins: AppPinsConfig?
        if let pinsObject = object.object("pins", known: ConfigKeys.pins, &diagnostics) {
            if pinsObject["app"] != nil {
                appPins = readAppPins(pinsObject, defaultDomain: serverName, context, &diagnostics)
            } else {
                refuseAppPinKeys(pinsObject, &diagnostics)
                pins = readPins(pinsObject, &context, &diagnostics)
            }
        }
        guard let serverName else { return nil }
        return UpstreamTLSConfig(
            serverName: serverName, trust: trust, minVersion: minVersion, verifyHostname: verifyHostname, pins: pins,
            appPins: appPins)
    }

    /// Refuses the TLS-only members on an http upstream.
    static func refuseUpstreamTLSKeys(_ object: FieldReader, _ diagnostics: inout Diagnostics) {
        for key in ConfigKeys.upstreamTLS {
            let subject = key == "pins" ? "pins need" : "\(key) needs"
            object.refuseReserved(key, "\(subject) an https upstream", &diagnostics)
        }
    }

    /// `server_name`: a host name or IP literal (brackets optional for IPv6), lowercased,
    /// without a trailing dot; nil when absent or invalid.
    private static func readServerName(_ object: FieldReader, _ diagnostics: inout Diagnostics) -> String? {
        guard let text = object.string("server_name", expected: "a host name or IP literal", &diagnostics) else {
            return nil
        }
        var name = text.lowercased()
        if name.hasSuffix(".") && name.count > 1 { name.removeLast() }
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        guard IPLiteral.isIPv4(name) || IPLiteral.isIPv6(name) || HostSyntax.isHostName(name) else {
            diagnostics.add(
                object.path("server_name"), "expected a host name or IP literal without a port, got \(JSONValue.quoted(text))")
            return nil
        }
        return name
    }

    private static func readTrust(
        _ object: FieldReader, _ context: LoadContext, _ diagnostics: inout Diagnostics
    ) -> UpstreamTrustConfig {
        let caFile = readFile(object, "ca_file", required: false, context, &diagnostics)
        let system = object.bool("system", default: true, &diagnostics)
        if !system && object["ca_file"] == nil {
            diagnostics.add(object.path, "expected ca_file or system: true, got neither")
        }
        return UpstreamTrustConfig(caFile: caFile, system: system)
    }
}
