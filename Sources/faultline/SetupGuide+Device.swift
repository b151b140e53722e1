/// A physical phone or tablet on the same network as this machine.
extension SetupGuide {
    func device() -> [String] {
        let lanHost = lan.first.map { String($0.prefix { $0 != " " }) }
        // What the phone types: a listener on one LAN address is named by it; on a wildcard, by
        // this machine's LAN address; a loopback one cannot be reached (said below).
        let proxyThere = proxy.isWildcard || proxy.isLoopback ? proxy.on(lanHost ?? "LAN-IP") : proxy
        let adminThere = admin.isWildcard || admin.isLoopback ? admin.on(lanHost ?? "LAN-IP") : admin
        var lines = ["Phone or tablet on this machine's network: proxy \(proxyThere.text), admin API http://\(adminThere.text)"]
        if lan.isEmpty {
            lines.append("No non-loopback address found on this machine: pass it with --lan IP (`ip -4 addr` lists them).")
        } else {
            lines.append("This machine's addresses: \(lan.joined(separator: ", ")); use the one on the phone's network")
            lines.append("(--lan IP picks another; in a container or VM, pass the host's LAN address).")
        }
        if proxy.isLoopback {
            lines += [
                "Warning: the forward listener is on loopback (\(proxy.text)), which a phone cannot reach. Bind it",
                "to 0.0.0.0:\(proxy.port) with proxy credentials or allowed client networks (Faultline refuses",
                "to be an open proxy), or use adb reverse over USB (Android, below).",
            ]
        }
        if admin.isLoopback {
            lines += [
                "Warning: the admin API is on loopback (\(admin.text)): the phone cannot fetch the profile, CA",
                "and PAC file. Bind it to 0.0.0.0:\(admin.port) with an admin.token (those files need no token),",
                "or copy \(caPath) to the phone yourself.",
            ]
        }
        lines += caLines
        lines.append("")
        lines += iosDevice(proxy: proxyThere, admin: adminThere)
        lines.append("")
        lines += androidDevice(proxy: proxyThere, admin: adminThere)
        lines += sessionLines(clientAddress: "PHONE-IP", note:
            "  PHONE-IP is the phone's own address: iOS Settings → Wi-Fi → (i) → IP Address; Android the\n"
            + "  network's details. A DHCP lease can change it: a session then needs the new one.")
        return lines
    }
}
