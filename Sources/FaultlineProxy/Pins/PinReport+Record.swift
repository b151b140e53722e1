import FaultlineLog

extension PinReport {
    /// The report's record of its own (kind `pin`, no verdict: the verdict was the app's):
    /// every text through the log's redaction as it is stored, certificates as positions,
    /// subjects and SPKI pins, never the certificates themselves.
    func record(summary: PinReportSummary, policy: LogPolicy) -> LogRecord {
        var record = LogRecord(kind: .pin)
        // A plain host name cannot carry a secret; anything else is only in the redacted attribute.
        if PinReportBoard.isHostName(hostname.lowercased()) { record.host = hostname.lowercased() }
        record.serverPort = port
        record.setMessage(message, policy: policy)
        let prefix = "faultline.pin.report."
        record.addAttribute(prefix + "format", source.format, policy: policy)
        record.addAttribute(prefix + "id", String(summary.id), policy: policy)
        record.addAttribute(prefix + "hostname", hostname, policy: policy)
        record.addAttribute(prefix + "noted_hostname", notedHostname, policy: policy)
        record.addAttribute(prefix + "date_time", dateTime, policy: policy)
        record.addAttribute(prefix + "include_subdomains", String(includeSubdomains), policy: policy)
        record.addAttribute(prefix + "known_pins", strings: knownPins.map { "sha256/" + $0.base64 }, policy: policy)
        record.addAttribute(prefix + "validated_chain", objects: Self.objects(validatedChain), policy: policy)
        if !matches.isEmpty { record.addAttribute(prefix + "matched", strings: matches, policy: policy) }
        switch source {
        case .trustKit(let app):
            record.addAttribute(prefix + "app_bundle_id", app.bundleID, policy: policy)
            record.addAttribute(prefix + "app_version", app.version, policy: policy)
            record.addAttribute(prefix + "app_platform", app.platform, policy: policy)
            if let version = app.platformVersion { record.addAttribute(prefix + "app_platform_version", version, policy: policy) }
            record.addAttribute(prefix + "app_vendor_id", app.vendorID, policy: policy)
            record.addAttribute(prefix + "trustkit_version", app.trustKitVersion, policy: policy)
            record.addAttribute(prefix + "enforce_pinning", String(app.enforcePinning), policy: policy)
            record.addAttribute(prefix + "validation_result", app.validationResult.name, policy: policy)
            if let date = app.knownPinsExpirationDate {
                record.addAttribute(prefix + "known_pins_expiration_date", date, policy: policy)
            }
        case .hpkp(let served, let expiration):
            record.addAttribute(prefix + "served_chain", objects: Self.objects(served), policy: policy)
            if let expiration { record.addAttribute(prefix + "effective_expiration_date", expiration, policy: policy) }
        }
        if let extra { record.addAttribute(prefix + "extra", json: extra, policy: policy) }
        return record
    }

    /// `pin failure report (trustkit) for api.example.com:443 from com.example.app 4.2: …`.
    private var message: String {
        var from = ""
        var outcome = matches.isEmpty ? "no known pin is in the validated chain" : "a known pin is in the validated chain"
        if case .trustKit(let app) = source {
            from = " from \(app.bundleID) \(app.version)"
            // TrustKit lets a connection through only for a pin mismatch on a report-only domain.
            let connected = app.validationResult == .failedNoMatchingPin && !app.enforcePinning
            outcome += "; \(app.validationResult.name), " + (connected ? "report only: the app connected" : "the app refused the connection")
        }
        return "pin failure report (\(source.format)) for \(hostname):\(port)\(from): \(outcome)"
    }

    private static func objects(_ chain: [PinReportCertificate]) -> [[(name: String, value: String)]] {
        chain.map { [("position", $0.position), ("subject", $0.subject), ("pin-sha256", String($0.pin.dropFirst("sha256/".count)))] }
    }
}
