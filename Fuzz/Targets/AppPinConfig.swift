import Foundation
import FaultlineTLS
@testable import FaultlineAppPins

/// Apps' pin configurations from hostile bytes: an Info.plist (XML or binary) through the ATS
/// and TrustKit readers, a network_security_config.xml through the Android reader, Kotlin or
/// Java source and plain lists through the OkHttp reader; an accepted configuration is then
/// evaluated for a few host names against a fixed chain. Invariants: no input traps; a refusal
/// names the file; evaluation gives a verdict with a non-empty reason.
///
/// Input: a byte choosing the reader (low 3 bits: 0 ATS, 1 Android, 2 TrustKit, 3 OkHttp
/// source, 4 OkHttp list; 5 to 7 the format detected from the content, as `pins app` reads
/// a file, with the name `fuzz-input.kt`, `fuzz-input` or `fuzz-input.xml`), then the file's bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppPinConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let choice = input.byte() % 8
    let bytes = Data(input.rest())
    let file = choice < 5 ? "fuzz-input" : ["fuzz-input.kt", "fuzz-input", "fuzz-input.xml"][Int(choice) - 5]
    let configurations: [AppPinConfiguration]
    do throws(AppPinConfigurationError) {
        switch choice {
        case 0: configurations = [try ATSPlistReader.read(data: bytes, file: file)]
        case 1: configurations = [try AndroidConfigReader.read(data: bytes, file: file)]
        case 2: configurations = [try TrustKitReader.read(data: bytes, file: file)]
        case 3, 4:
            configurations = [try OkHttpPinnerReader.read(text: String(decoding: bytes, as: UTF8.self), file: file, source: choice == 3)]
        default: configurations = try AppPinReader.read(data: bytes, file: file)
        }
    } catch {
        FuzzCheck.require(error.file == file, "app pins: error names \(error.file), not the file read")
        FuzzCheck.require(error.description.hasPrefix(file), "app pins: message does not start with the file: \(error.description)")
        return 0
    }
    for configuration in configurations {
        evaluate(configuration)
    }
    return 0
}

/// Every host's verdict has a reason.
private func evaluate(_ configuration: AppPinConfiguration) {
    for host in AppPinFixture.hosts {
        let verdict = AppPinEvaluator.evaluate(configuration, host: host, chain: AppPinFixture.chain, at: AppPinFixture.date)
        FuzzCheck.require(!verdict.reason.isEmpty, "app pins: verdict without a reason for \(host)")
    }
}

/// The chain and hosts every accepted configuration is evaluated with.
enum AppPinFixture {
    static let hosts = ["api.example.com", "example.com", "a.b.example.com", "localhost", ""]
    static let date = Date(timeIntervalSince1970: 1_800_000_000)
    static let chain: AppChain = {
        let certificates = [(CertificatePosition.leaf, UInt8(1)), (.intermediate, 2), (.root, 3)].compactMap { position, fill in
            SPKIPinValue(digest: [UInt8](repeating: fill, count: 32)).map {
                AppChainCertificate(pin: $0, position: position, subject: "CN=fuzz \(fill)")
            }
        }
        return AppChain(served: certificates, verified: certificates)
    }()
}
