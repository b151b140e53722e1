import FaultlineAppPins
import FaultlineTLS
import Foundation

/// `pins compute <file | host:port> --emit PLATFORM [--position …] [--expires DATE] [--host NAME]`:
/// picks the certificate to pin from the chain (the verified chain of a live server, whose
/// root the trust store supplies; the certificates of a file), then prints the snippet.
enum PinSnippetCommand {
    /// What the command line asked for.
    struct Request {
        let platform: PinSnippetPlatform
        let position: CertificatePosition
        /// `yyyy-MM-dd`, for platforms with an expiration.
        let expires: String?
        let host: String?
    }

    /// Reads `--emit`, `--position`, `--expires` and `--host`; `now` decides the default
    /// expiration (a year from today, UTC) and what counts as past.
    static func request(_ parsed: Arguments, now: Date) throws(UsageError) -> Request {
        let emit = parsed["emit"] ?? ""
        guard let platform = PinSnippetPlatform(rawValue: emit) else {
            throw UsageError("--emit expects ios, android, okhttp or trustkit, got \"\(emit)\"")
        }
        guard parsed["format"] == nil else { throw UsageError("--emit prints a configuration block; --format does not apply") }
        let positionText = parsed["position"] ?? "leaf"
        guard let position = CertificatePosition(rawValue: positionText) else {
            throw UsageError("--position expects leaf, intermediate or root, got \"\(positionText)\"")
        }
        var expires: String?
        if platform.hasExpiration {
            expires = try expiration(parsed["expires"], now: now)
        } else if parsed["expires"] != nil {
            throw UsageError("--expires: \(platform.displayName) pins have no expiration date (Android and TrustKit have one)")
        }
        if let host = parsed["host"], !isHostName(host) {
            throw UsageError("--host expects a host name such as api.example.com, got \"\(host)\"")
        }
        return Request(platform: platform, position: position, expires: expires, host: parsed["host"]?.lowercased())
    }

    /// The snippet for the certificates of a file (or the key in it).
    static func emit(file path: String, _ request: Request) -> ExitStatus {
        let input: InspectedInput
        do {
            input = try CertificateInspector.inspect(path: path)
        } catch {
            Console.err("faultline pins compute: \(error)")
            return .usage
        }
        if input.certificates.isEmpty, let key = input.publicKey {
            guard request.position == .leaf, let host = request.host else {
                Console.err("faultline pins compute: \(path) holds a key, not a certificate: give --host, and no --position")
                return .usage
            }
            return write(PinSnippetInput(host: host, pin: key.spkiPin, position: .leaf, certificate: "the key in \(path)",
                                         origin: path, expires: request.expires), request)
        }
        return emit(chain: input.certificates, chainName: "file", origin: path, request)
    }

    /// The snippet for a live server's chain: the verified one, or the served one (with a
    /// warning) when it does not verify.
    static func emit(live result: TLSProbeResult, served: [Certificate], verified: [Certificate], host: String,
                     target: String, _ request: Request) -> ExitStatus {
        if let error = result.verifyError {
            Console.err("faultline pins compute: warning: the chain of \(target) did NOT verify (\(error)); pinning the served chain")
            return emit(chain: served, chainName: "served chain", origin: "\(target) (served chain, NOT verified)",
                        request, defaultHost: host)
        }
        return emit(chain: verified, chainName: "verified chain", origin: "\(target) (verified chain)", request, defaultHost: host)
    }

    private static func emit(chain: [Certificate], chainName: String, origin: String, _ request: Request,
                             defaultHost: String? = nil) -> ExitStatus {
        let positions = CertificatePosition.positions(of: chain)
        guard let index = positions.firstIndex(of: request.position) else {
            let hint = request.position == .root
                ? ": its last certificate is not self-signed (give a file that ends with the root, or host:port, whose verified chain ends at the trust store's root)"
                : ""
            Console.err("faultline pins compute: the \(chainName) has no \(request.position.rawValue) certificate\(hint)")
            return .usage
        }
        let certificate = chain[index]
        guard let host = request.host ?? defaultHost ?? hostName(of: chain[0]) else {
            Console.err("faultline pins compute: the leaf names no DNS host; give --host NAME")
            return .usage
        }
        let described = "the \(request.position.rawValue) key (\(certificate.subject), \(chainName) #\(index))"
        return write(PinSnippetInput(host: host, pin: certificate.spkiPin, position: request.position, certificate: described,
                                     origin: origin, expires: request.expires), request)
    }

    private static func write(_ input: PinSnippetInput, _ request: Request) -> ExitStatus {
        var text = PinSnippet.render(input, for: request.platform)
        text.removeLast()
        Console.out(text)
        return .ok
    }

    /// The first DNS name of the leaf's subjectAltName.
    private static func hostName(of leaf: Certificate) -> String? {
        leaf.subjectAlternativeNames.first { $0.hasPrefix("DNS:") && !$0.contains("*") }.map { String($0.dropFirst(4)).lowercased() }
    }

    /// `--expires`: a day after today (UTC); a year from today when absent.
    private static func expiration(_ text: String?, now: Date) throws(UsageError) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = "yyyy-MM-dd"
        guard let text else {
            return formatter.string(from: calendar.date(byAdding: .year, value: 1, to: now) ?? now)
        }
        guard let day = formatter.date(from: text), formatter.string(from: day) == text else {
            throw UsageError("--expires expects a date such as 2027-06-30 (yyyy-MM-dd), got \"\(text)\"")
        }
        guard day > calendar.startOfDay(for: now) else {
            throw UsageError("--expires \(text) is not after today: the pins would not be enforced at all")
        }
        return text
    }

    /// Labels of letters, digits, `-` and `_`, dot-separated: what every platform's entry takes.
    private static func isHostName(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 253 else { return false }
        return text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63
                && label.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
        }
    }
}
