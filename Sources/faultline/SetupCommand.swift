import FaultlineConfig
import FaultlineIO
import FaultlineTLS
import Foundation

/// `faultline setup ios-simulator | android-emulator | device`: the steps and commands that
/// make a simulator, an emulator or a phone use Faultline's forward proxy, with the addresses
/// to type. Prints only; changes nothing on this machine or the device.
enum SetupCommand {
    static let usage = """
    Usage: faultline setup ios-simulator | android-emulator | device [--config FILE] [--proxy ADDR] [--admin ADDR]
                           [--certs DIR] [--lan IP]

    Prints the steps and commands that send a target's traffic through Faultline's forward
    proxy and make it trust Faultline's CA, with the addresses the target must use:
      ios-simulator     the simulator shares the Mac's network: the Mac's proxy settings, the
                        simulator's keychain (xcrun simctl)
      android-emulator  10.0.2.2 is the emulator's name for this machine's loopback: adb
                        settings, the user CA and the debug-overrides config, the system store
                        (including Android 14's APEX store)
      device            a phone on the same network: its Wi-Fi proxy or PAC URL, the profile
                        (iOS) or CA certificate (Android) fetched from the admin API
    Every target also shows how the device gets a session of its own (by its client address).

    Options (addresses as Faultline listens on this machine):
      --config FILE  take the defaults below from this config: its first forward listener's
                     address and CA certificate, its admin address
      --proxy ADDR   the forward listener (default 127.0.0.1:8888, as `run --forward`)
      --admin ADDR   the admin API, which serves /ca.pem, /ca.der, /faultline.mobileconfig
                     and /proxy.pac without the token (default 127.0.0.1:9901)
      --certs DIR    the CA's directory (default certs): DIR/ca.pem is what the target trusts
      --lan IP       this machine's address on the device's network (default: the first
                     non-loopback IPv4 address of an interface that is up; container
                     bridges and tunnels last)

    Exit codes: 0 printed, 2 usage error, 3 invalid configuration (--config).
    """

    static func main(_ arguments: [String]) -> ExitStatus {
        let parsed: Arguments
        switch Arguments.forCommand("faultline setup", arguments, valued: ["config", "proxy", "admin", "certs", "lan"],
                                    maxPositionals: 1, usage: usage) {
        case .proceed(let arguments): parsed = arguments
        case .stop(let status): return status
        }
        guard let targetName = parsed.positionals.first else {
            Console.err("faultline setup: expected ios-simulator, android-emulator or device\n\n\(usage)")
            return .usage
        }
        guard let target = SetupTarget(rawValue: targetName) else {
            Console.err("faultline setup: unknown target \"\(targetName)\" (expected ios-simulator, android-emulator or device)\n\n\(usage)")
            return .usage
        }
        var defaults = (proxy: "127.0.0.1:8888", admin: "127.0.0.1:9901", caPath: "certs/ca.pem")
        if let path = parsed["config"] {
            // Only addresses and paths are read: the files the config names need not exist
            // yet (the forward listener mints its CA on start).
            guard let data = FileManager.default.contents(atPath: path) else {
                Console.err("faultline setup: cannot read \(path)")
                return .invalidConfig
            }
            let config: ProxyConfig
            do {
                config = try ConfigLoader.parse(Data(data), file: path,
                                                baseDirectory: URL(fileURLWithPath: path).deletingLastPathComponent().path,
                                                checkFiles: false)
            } catch {
                Console.err(error.withFile(path).description)
                return .invalidConfig
            }
            if let forward = config.listeners.first(where: { $0.forward != nil }) {
                defaults.proxy = forward.address.description
                defaults.caPath = forward.forward?.caCertificatePath ?? defaults.caPath
            } else {
                Console.err("faultline setup: \(path) has no forward listener (\"mode\": \"forward\"); using --proxy or \(defaults.proxy)")
            }
            if let admin = config.admin { defaults.admin = admin.address.description }
        }
        let proxy: SetupAddress
        let admin: SetupAddress
        do {
            proxy = try SetupAddress(parsing: parsed["proxy"] ?? defaults.proxy, option: "proxy")
            admin = try SetupAddress(parsing: parsed["admin"] ?? defaults.admin, option: "admin")
        } catch {
            Console.err("faultline setup: \(error)\n\n\(usage)")
            return .usage
        }
        var lan = lanAddresses()
        if let given = parsed["lan"] {
            guard let address = try? SetupAddress(parsing: "\(given):1", option: "lan"), address.isIPLiteral else {
                Console.err("faultline setup: --lan expects an IP address, not \"\(given)\"\n\n\(usage)")
                return .usage
            }
            lan = ["\(address.host) (--lan)"]
        }
        var caPath = defaults.caPath
        if var directory = parsed["certs"] {
            while directory.count > 1 && directory.hasSuffix("/") { directory.removeLast() }
            caPath = "\(directory)/ca.pem"
        }
        let ca = (try? Certificate.loadAll(path: caPath))?.first
        let guide = SetupGuide(proxy: proxy, admin: admin, caPath: caPath, ca: ca, lan: lan)
        guide.lines(for: target).forEach(Console.out)
        return .ok
    }
}

extension SetupCommand {
    /// Bridges of containers and VMs, and tunnels: a phone on the Wi-Fi does not reach them.
    static let virtualInterfacePrefixes = ["docker", "br-", "veth", "virbr", "cni", "podman", "lxc", "tun", "tap", "wg", "zt"]

    /// This machine's IPv4 addresses, described (`192.168.1.20 (wlan0)`), physical interfaces first.
    static func lanAddresses() -> [String] {
        let entries = InterfaceAddresses.nonLoopback().filter { !$0.isIPv6 }
        let isVirtual = { (entry: InterfaceAddresses.Entry) in virtualInterfacePrefixes.contains { entry.interface.hasPrefix($0) } }
        return (entries.filter { !isVirtual($0) } + entries.filter(isVirtual)).map { "\($0.ip) (\($0.interface))" }
    }
}

/// What `faultline setup` explains.
enum SetupTarget: String {
    case iosSimulator = "ios-simulator"
    case androidEmulator = "android-emulator"
    case device
}
