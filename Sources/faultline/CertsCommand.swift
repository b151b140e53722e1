import FaultlineTLS
import Foundation

/// `faultline certs init`: a development CA, a listener certificate and drill certificates.
enum CertsCommand {
    static let usage = """
    Usage: faultline certs init [--dir certs] [--names localhost,127.0.0.1,::1] [--drills] [--force]

    Creates, through OpenSSL's C API, in --dir (default certs):
      ca.pem, ca-key.pem        a development CA (EC P-256, 10 years); an existing one is kept
      proxy.pem, proxy-key.pem  a listener certificate for --names (DNS names and IP addresses),
                                signed by the CA, valid 397 days; re-issued every run, keeping its key
    With --drills, also certificates a client must refuse (each with its -key.pem):
      drill-other-key.pem   same names and CA, another key (a pinned client refuses it)
      drill-expired.pem     expired yesterday
      drill-wrong-host.pem  issued for \(CertificateDrill.wrongHostName)
      drill-untrusted.pem   signed by a throwaway CA
    --force makes a new CA and new keys. Private keys are written 0600; never commit them.
    Then prints how to trust the CA (curl, iOS simulator, Android emulator, a device) and the pins.

    Exit codes: 0 done, 1 a file could not be read or written, 2 usage error.
    """

    static func main(_ arguments: [String]) -> ExitStatus {
        guard let subcommand = arguments.first else {
            Console.err("faultline certs: expected init\n\n\(usage)")
            return .usage
        }
        switch subcommand {
        case "--help", "-h", "help":
            Console.out(usage)
            return .ok
        case "init":
            return initialize(Array(arguments.dropFirst()))
        default:
            Console.err("faultline certs: unknown subcommand \"\(subcommand)\"\n\n\(usage)")
            return .usage
        }
    }

    private static func initialize(_ arguments: [String]) -> ExitStatus {
        let parsed: Arguments
        switch Arguments.forCommand("faultline certs init", arguments, valued: ["dir", "names"], flags: ["drills", "force"],
                                    maxPositionals: 0, usage: usage) {
        case .proceed(let arguments): parsed = arguments
        case .stop(let status): return status
        }
        let directory = parsed["dir"] ?? "certs"
        let names = (parsed["names"] ?? "localhost,127.0.0.1,::1").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !names.isEmpty, directory != "" else {
            Console.err("faultline certs init: --names needs at least one name and --dir a path\n\n\(usage)")
            return .usage
        }
        let report: CertificateDirectoryReport
        do {
            report = try CertificateMinter.initDirectory(directory, names: names, drills: parsed.flags.contains("drills"),
                                                         force: parsed.flags.contains("force"), now: Date())
        } catch {
            Console.err("faultline certs init: \(error)")
            return .failure
        }
        CertsCommandGuide.lines(for: report, names: names).forEach(Console.out)
        return .ok
    }
}
