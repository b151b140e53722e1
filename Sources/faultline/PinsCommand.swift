/// `faultline pins compute|check|app`: SPKI pins of files and live servers, a CI gate, and
/// apps' own pin configurations checked against chains.
enum PinsCommand {
    /// `faultline pins compute --help`, and what a mistake in its arguments prints.
    static let computeUsage = """
    Usage:
      faultline pins compute <file | host:port> [--format text|json] [--ca FILE] [--timeout-ms N]
      faultline pins compute <file | host:port> --emit ios|android|okhttp|trustkit
                           [--position leaf|intermediate|root] [--expires YYYY-MM-DD] [--host NAME] [--ca FILE]

    \(pinSpelling)

    Prints position, subject, issuer, validity and pin of every certificate of a PEM/DER
    certificate or chain, or the pin of a private key, public key or certificate request; for
    host:port, of the chain the server sends (whether or not it verifies, which it says).

    --emit: prints that platform's pin configuration block for the host (--host, else the target's host or
    the leaf's first DNS name) with the pin of the certificate at --position (default leaf; a live server's
    verified chain, whose root the trust store supplies), a backup-pin placeholder to replace, the
    expiration (Android, TrustKit; --expires, default a year from today) and the platform's pitfalls.

    Exit codes: 0 printed; 2 usage error, unreadable file, or connection/handshake error.
    """

    /// `faultline pins check --help`, and what a mistake in its arguments prints.
    static let checkUsage = """
    Usage:
      faultline pins check <host:port> --pins PIN,... [--candidate PIN,...] [--ca FILE]
                           [--require-candidate] [--format text|json] [--timeout-ms N]

    \(pinSpelling)

    Handshakes with host:port, verifies the chain (the system trust store, or only --ca FILE
    when given) and the host name, then checks the pins against the verified chain: which pin
    matched which certificate, the candidate (next) set in shadow, and warnings (a single pin,
    no pin outside the current chain).

    Exit codes: 0 pins pass; 1 pin mismatch, or the chain is not trusted (pins only narrow a
    trusted chain), or with --require-candidate the candidate set fails; 2 usage error, bad
    pin, or connection/handshake error.
    """

    /// `faultline pins app --help`, and what a mistake in its arguments prints.
    static let appUsage = """
    Usage:
      faultline pins app --app LABEL=FILE ... --chain LABEL=SOURCE ... [--host NAME ...]
                         [--at DATE] [--build release|debuggable] [--ca FILE] [--token T]
                         [--format text|json] [--timeout-ms N]

    Which app versions would refuse which chain, each judged with its own platform's rules
    (docs/pinning.md). FILE is an Info.plist (ATS NSPinnedDomains and/or TrustKit, XML or binary),
    network_security_config.xml (Android), TrustKit JSON, OkHttp CertificatePinner source or list,
    or a Faultline config (its upstreams' pins, with the proxy's rules). SOURCE is a PEM/DER chain
    file (verified path: as is when it ends at a self-signed root, else built to --ca or the
    system store), host:port (a handshake, verified with --ca or the system store), or admin or
    admin:URL (the chains the running proxy verified, from GET /pins; token --token or
    $FAULTLINE_ADMIN_TOKEN). Hosts: --host, else those the apps name (host:port and admin chains:
    their own host). --at evaluates expirations as of DATE (2027-06-01 or 2027-06-01T12:00:00Z);
    --build debuggable applies Android debug-overrides. Prints PASS, FAIL, NOT PINNED or
    PASS (report only) per app, host and chain, and the reason for each FAIL; the readers'
    warnings (a single pin with no backup, ignored debug overrides) go to standard error.

    Exit codes: 0 every app accepts every chain; 1 an app would refuse a chain (report-only
    failures do not count); 2 usage error, unreadable file or app configuration (the reader's
    error names file, key and line), or connection/handshake error.
    """

    /// How pins may be spelt, shared by the subcommands' help.
    private static let pinSpelling = """
    A pin is base64(SHA-256(DER SubjectPublicKeyInfo)), the value of
      openssl x509 -noout -pubkey | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64
    Pins may be written bare, sha256/… (OkHttp), sha256//… (curl) or pin-sha256="…" (HPKP).
    """

    /// `faultline pins --help`: every subcommand.
    static let usage = """
    Usage:
      faultline pins compute <file | host:port> [--format text|json] [--ca FILE] [--emit PLATFORM …]
      faultline pins check <host:port> --pins PIN,... [--candidate PIN,...] [--require-candidate] …
      faultline pins app --app LABEL=FILE ... --chain LABEL=SOURCE ... [--host NAME ...] …

    compute: the pins of a file's or a server's certificates, or a platform's pin configuration
    block (--emit). check: a CI gate, the pins against a server's verified chain. app: which app
    versions (their own pin configurations) would refuse which chain.
    faultline pins SUBCOMMAND --help gives each one's options and exit codes.

    \(pinSpelling)

    Exit codes: 0 pins pass (compute: printed); 1 pin mismatch, or an app would refuse a chain;
    2 usage error, unreadable file, bad pin, or connection/handshake error.
    """

    static func main(_ arguments: [String]) -> ExitStatus {
        guard let subcommand = arguments.first else {
            Console.err("faultline pins: expected compute, check or app\n\n\(usage)")
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
        case "app":
            return app(rest)
        default:
            Console.err("faultline pins: unknown subcommand \"\(subcommand)\"\n\n\(usage)")
            return .usage
        }
    }
}
