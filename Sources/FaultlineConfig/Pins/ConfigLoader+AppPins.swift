import FaultlineTLS

extension ConfigLoader {
    /// Pins that name an app configuration (`"app"`) rather than list values: the reference
    /// is checked here (the file must be readable), the file itself is read when the proxy
    /// compiles the snapshot. `defaultDomain` is the upstream's server name.
    static func readAppPins(
        _ object: FieldReader, defaultDomain: String?, _ context: LoadContext, _ diagnostics: inout Diagnostics
    ) -> AppPinsConfig? {
        let mode = object.choice("mode", default: PinMode.enforce, &diagnostics)
        for key in ["sha256", "expires", "on_expiry"] {
            object.refuseReserved(key, "not with app: the app file's own pins and expirations apply", &diagnostics)
        }
        let live = readAppReference(object, defaultDomain: defaultDomain, context, &diagnostics)
        var candidate: AppPinReference?
        if let value = object["candidate"] {
            let path = object.path("candidate")
            if case .object = value {
                if let reader = FieldReader(value, path: path, known: ConfigKeys.appPinCandidate, diagnostics: &diagnostics) {
                    candidate = readAppReference(reader, defaultDomain: live?.domain ?? defaultDomain, context, &diagnostics)
                }
            } else {
                diagnostics.add(path, "with app, candidate names another app file to check in shadow "
                                    + "({\"app\": \"…\", \"domain\": \"…\"}), got \(value.rendered)")
            }
        }
        guard let live else { return nil }
        return AppPinsConfig(mode: mode, live: live, candidate: candidate)
    }

    /// Refuses the app members in a pins object that lists its pins.
    static func refuseAppPinKeys(_ object: FieldReader, _ diagnostics: inout Diagnostics) {
        for key in ["domain", "platform", "build"] {
            object.refuseReserved(key, "applies to pins that name an app file (\"app\")", &diagnostics)
        }
    }

    /// `app`, `domain`, `platform` and `build` of `object`; nil after reporting.
    private static func readAppReference(
        _ object: FieldReader, defaultDomain: String?, _ context: LoadContext, _ diagnostics: inout Diagnostics
    ) -> AppPinReference? {
        var written: String?
        if case .string(let text)? = object["app"] { written = text }
        let file = readFile(object, "app", required: true, context, &diagnostics)
        let domain = readAppDomain(object, defaultDomain: defaultDomain, &diagnostics)
        var platform: AppPinPlatformName?
        if object["platform"] != nil {
            platform = object.choice("platform", default: AppPinPlatformName.ats, &diagnostics)
        }
        let build = object.choice("build", default: AppPinBuildName.release, &diagnostics)
        guard let file, let domain else { return nil }
        return AppPinReference(file: file, written: written, domain: domain, platform: platform, build: build,
                               path: object.path)
    }

    /// `domain`: a host name, lowercased without a trailing dot; the upstream's server name
    /// when absent.
    private static func readAppDomain(
        _ object: FieldReader, defaultDomain: String?, _ diagnostics: inout Diagnostics
    ) -> String? {
        guard let text = object.string("domain", expected: "a host name", &diagnostics) else {
            return object["domain"] == nil ? defaultDomain : nil
        }
        var name = text.lowercased()
        if name.hasSuffix(".") && name.count > 1 { name.removeLast() }
        guard HostSyntax.isHostName(name) else {
            diagnostics.add(object.path("domain"), "expected a host name such as \"api.example.com\", got \(JSONValue.quoted(text))")
            return nil
        }
        return name
    }
}
