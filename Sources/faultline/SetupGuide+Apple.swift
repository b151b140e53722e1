/// The iOS simulator, and the iOS part of a physical device.
extension SetupGuide {
    func iosSimulator() -> [String] {
        // The simulator is a process on the Mac: loopback is the Mac's, and it uses the Mac's proxy settings.
        let proxyHere = proxy.isWildcard ? proxy.on("127.0.0.1") : proxy
        let adminHere = admin.isWildcard ? admin.on("127.0.0.1") : admin
        var lines = [
            "iOS simulator: proxy \(proxyHere.text), admin API http://\(adminHere.text)",
            "The simulator shares the Mac's network: it reaches Faultline at the Mac's own addresses and",
            "follows the Mac's proxy settings (run Faultline on the Mac in a container publishing both ports,",
            "e.g. -p \(proxy.port):\(proxy.port) -p \(admin.port):\(admin.port), or use the Linux machine's address instead).",
        ]
        lines += caLines
        lines += [
            "",
            "1. Trust the CA (once per simulator; boot it first), on the Mac:",
            "     xcrun simctl keychain booted add-root-cert \(caPath)",
            "   (the Mac has no copy? curl -o faultline-ca.pem http://\(adminHere.text)/ca.pem and add that file;",
            "    or drag http://\(adminHere.text)/faultline.mobileconfig onto the simulator, install it in Settings →",
            "    General → VPN & Device Management, then turn on full trust in Settings → General → About →",
            "    Certificate Trust Settings)",
            "2. Send the Mac's traffic through Faultline (the simulator follows; the network service may be",
            "   \"Ethernet\" etc.: networksetup -listallnetworkservices):",
            "     networksetup -setwebproxy Wi-Fi \(bare(proxyHere.host)) \(proxyHere.port)",
            "     networksetup -setsecurewebproxy Wi-Fi \(bare(proxyHere.host)) \(proxyHere.port)",
            "   or only the hosts Faultline intercepts (the rest stays DIRECT), by PAC file:",
            "     networksetup -setautoproxyurl Wi-Fi http://\(adminHere.text)/proxy.pac",
            "   Undo: networksetup -setwebproxystate Wi-Fi off; networksetup -setsecurewebproxystate Wi-Fi off;",
            "         networksetup -setautoproxystate Wi-Fi off",
            "3. Check: Safari in the simulator opens an https:// page and Faultline logs the exchange.",
        ]
        lines += sessionLines(clientAddress: "127.0.0.1", note:
            "  Every client on this machine comes from 127.0.0.1 too (curl, the Mac's own apps through the proxy):\n"
            + "  the session catches them all; the session header (X-Faultline-Session) tells tests apart.")
        return lines
    }

    /// The steps on an iPhone or iPad that reaches Faultline at `proxy` and `admin`.
    func iosDevice(proxy: SetupAddress, admin: SetupAddress) -> [String] {
        [
            "iPhone / iPad:",
            "  1. In Safari on the device open http://\(admin.text)/faultline.mobileconfig → Allow; then",
            "     Settings → General → VPN & Device Management → Faultline development CA → Install.",
            "  2. Settings → General → About → Certificate Trust Settings → turn on full trust for",
            "     \"Faultline development CA\" (without it apps do not trust the profile's CA).",
            "  3. Settings → Wi-Fi → (i) next to the network → Configure Proxy:",
            "       Manual: Server \(bare(proxy.host)), Port \(proxy.port) (Authentication: the proxy credentials, if set)",
            "       or Automatic: URL http://\(admin.text)/proxy.pac",
            "  Undo: Configure Proxy → Off, and remove the profile in VPN & Device Management.",
        ]
    }

    /// A host without IPv6 brackets, as settings fields want it.
    func bare(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}
