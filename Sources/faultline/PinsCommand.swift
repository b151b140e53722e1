/// `faultline pins compute|check`: SPKI pins of files and live servers, and a CI gate.
enum PinsCommand {
    static let usage = """
    Usage:
      faultline pins compute <file | host:port> [--format text|json] [--ca FILE] [--timeout-ms N]
      faultline pins compute <file | host:port> --emit ios|android|okhttp|trustkit
                           [--position leaf|intermediate|root] [--expires YYYY-MM-DD] [--host NAME] [--ca FILE]
      faultline pins check <host:port> --pins PIN,... [--candidate PIN,...] [--ca FILE]
                           [--require-candidate] [--format text|json] [--timeout-ms N]

    A pin is base64(SHA-256(DER SubjectPublicKeyInfo)), the value of
      openssl x509 -noout -pubkey | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64
    Pins may be written bare, sha256/… (OkHttp), sha256//… (curl) or pin-sha256="…" (HPKP).

    compute: prints position, subject, issuer, validity and pin of every certificate of a PEM/DER
    certificate or chain, or the pin of a private key, public key or certificate request; for
    host:port, of the chain the server sends (whether or not it verifies, which it says).

    --emit: prints that platform's pin configuration block for the host (--host, else the target's host or
    the leaf's first DNS name) with the pin of the certificate at --position (default leaf; a live server's
    verified chain, whose root the trust store supplies), a backup-pin placeholder to replace, the
    expiration (Android, TrustKit; --expires, default a year from today) and the platform's pitfalls.

    check: handshakes with host:port, verifies the chain (the system trust store, or only --ca FILE
    when given) and the host name, then checks the pins against the verified chain: which pin
    matched which certificate, the candidate (next) set in shadow, and warnings.

    Exit codes: 0 pins pass (compute: printed); 1 pin mismatch, or the chain is not trusted (pins only
    narrow a trusted chain), or with --require-candidate the candidate set fails; 2 usage error,
    unreadable file, bad pin, or connection/handshake error.
    """

    static func main(_ arguments: [String]) -> ExitStatus {
        guard let subcommand = arguments.first else {
            Console.err("faultline pins: expected compute or check\n\n\(usage)")
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        switch subcommand {
        case "--help", "-h", "help":
            Console.out(usage)
            return .ok
        case "compute":
            return compute(rest)
        case "check":
            return check(rest)
        default:
            Console.err("faultline pins: unknown subcommand \"\(subcommand)\"\n\n\(usage)")
            return .usage
        }
    }
}
