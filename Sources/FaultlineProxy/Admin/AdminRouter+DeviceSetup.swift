import FaultlineTLS
import Foundation

/// The files a device needs to use Faultline as its proxy: the CA certificate (PEM and DER),
/// an iOS configuration profile holding it, and a PAC file. Only the certificate is ever read
/// and served, re-encoded from its parsed form, so a key kept in the same file never leaves
/// the machine. These four are answered without the bearer token (a phone's browser cannot
/// send one, and none holds anything secret; mitmproxy serves mitm.it the same way); the
/// Host check still applies, relaxed to any IP literal (`AdminHostCheck.allowsPublicFile`).
extension AdminRouter {
    /// The public device-setup files, by path.
    static let deviceSetupPaths: Set<String> = ["/ca.pem", "/ca.der", "/faultline.mobileconfig", "/proxy.pac"]

    /// Whether `request` asks for one of the device-setup files.
    static func isDeviceSetupFile(_ request: AdminRequest) -> Bool {
        request.method == "GET" && deviceSetupPaths.contains(request.path)
    }

    /// `GET /ca.pem`, `/ca.der`, `/faultline.mobileconfig`, `/proxy.pac`.
    func deviceSetup(_ name: String, _ request: AdminRequest) -> AdminResponse {
        guard request.method == "GET" else { return notAllowed(request, "GET") }
        let source = DeviceSetupSource(config: server.snapshot.config, bound: listenerAddresses)
        if name == "proxy.pac" { return proxyAutoConfig(source, request) }
        let certificate: Certificate
        switch loadCA(source.caCertificatePath) {
        case .success(let loaded): certificate = loaded
        case .failure(let refusal): return refusal.response
        }
        switch name {
        case "ca.pem":
            return file(Array(certificate.pem.utf8), type: "application/x-pem-file", download: "faultline-ca.pem")
        case "ca.der":
            return file(certificate.derBytes, type: "application/x-x509-ca-cert", download: "faultline-ca.cer")
        default:
            do {
                return file(try MobileConfigProfile.data(for: certificate), type: "application/x-apple-aspen-config",
                            download: "faultline.mobileconfig")
            } catch {
                return .error(500, "the configuration profile could not be written: \(error)")
            }
        }
    }

    /// The PAC file for the forward listener, naming it as the device reached the admin API
    /// (`DeviceProxyAddress`), or as `?proxy=HOST:PORT` says.
    private func proxyAutoConfig(_ source: DeviceSetupSource, _ request: AdminRequest) -> AdminResponse {
        var override: String?
        for pair in request.query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == "proxy" else {
                return AdminRefusal(400, "\(pair): unknown parameter (known: proxy)", field: String(parts.first ?? "")).response
            }
            let value = String(parts[1]).removingPercentEncoding ?? String(parts[1])
            guard let parsed = DeviceProxyAddress.parseOverride(value) else {
                return AdminRefusal(400, "proxy: expected HOST:PORT (a host name or IP literal, IPv6 in brackets, port 1-65535)",
                                    field: "proxy").response
            }
            override = parsed
        }
        guard let listener = source.listener else {
            return .error(404, "no forward listener is configured (a listener with \"mode\": \"forward\"), so there is no proxy "
                + "for a PAC file to name")
        }
        let proxy = override ?? DeviceProxyAddress.resolve(listenerHost: listener.ip, listenerPort: listener.port,
                                                            requestHost: request.headers.first("host"))
        let pac = ProxyAutoConfig(proxy: proxy, intercept: source.intercept, passThrough: source.passThrough)
        return file(Array(pac.script.utf8), type: "application/x-ns-proxy-autoconfig", download: nil)
    }

    /// The CA certificate at `path`: the first certificate of the file, which must be a CA.
    private func loadCA(_ path: String) -> Result<Certificate, AdminRefusal> {
        guard FileManager.default.fileExists(atPath: path) else {
            return .failure(AdminRefusal(404, "no CA certificate at \(path): start the forward listener (it creates one) "
                + "or run `faultline certs init`"))
        }
        let certificates: [Certificate]
        do {
            certificates = try Certificate.loadAll(path: path)
        } catch {
            return .failure(AdminRefusal(500, "the CA certificate could not be read: \(error.message)"))
        }
        guard let first = certificates.first, first.isCA else {
            return .failure(AdminRefusal(500, "\(path) does not start with a CA certificate"))
        }
        return .success(first)
    }

    private func file(_ body: [UInt8], type: String, download: String?) -> AdminResponse {
        var response = AdminResponse(status: 200, body: body, contentType: type)
        if let download { response.headers.append(("Content-Disposition", "attachment; filename=\"\(download)\"")) }
        return response
    }
}
