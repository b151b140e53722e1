// swift-tools-version:6.0
import PackageDescription

/// Faultline: an HTTP reverse proxy for reproducing outages, verifying certificate pins
/// and logging traffic with secrets redacted. Layers point downward only
/// (docs/architecture.md, "Layering rule" and "Module graph"; scripts/check-layering.sh checks it).
/// Release builds emit each function in a section of its own, so that the link below can lay
/// them out in the order of scripts/link-order.txt.
let functionSections = SwiftSetting.unsafeFlags(["-Xfrontend", "-function-sections"], .when(platforms: [.linux], configuration: .release))
let strict: [SwiftSetting] = [.swiftLanguageMode(.v6), functionSections]
/// Release builds skip dynamic exclusivity checks on the hot path (debug builds and tests keep them).
let hotPath: [SwiftSetting] = strict + [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

/// The release binary is linked by lld with the functions start-up and the request paths run laid
/// side by side at the front of its code (scripts/link-order.sh writes the list), and with its
/// relative relocations packed (DT_RELR): the kernel then maps in about 8 MiB less of the binary
/// per process (docs/bench.md, "Memory per scenario").
let releaseLink = LinkerSetting.unsafeFlags(
    ["-use-ld=lld",
     "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/scripts/link-order.txt",
     "-Xlinker", "--no-warn-symbol-ordering",
     "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
    .when(platforms: [.linux], configuration: .release))

let package = Package(
    name: "Faultline",
    // The proxy itself is Linux-only (epoll); FaultlineTesting also builds on macOS and iOS,
    // where its Duration-based API needs macOS 13 and iOS 16.
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "faultline", targets: ["faultline"]),
        // Drives the binary from XCTest and Swift Testing: launch, sessions, rules, the journal.
        .library(name: "FaultlineTesting", targets: ["FaultlineTesting"]),
    ],
    targets: [
        // C at the edge: system headers and libraries, imported privately by one module each.
        .target(name: "CLinux"),
        .target(
            name: "CLLHTTP",
            cSettings: [.define("LLHTTP_STRICT_MODE", to: "1"), .unsafeFlags(["-I/usr/share/include/llhttp", "-w"])]
        ),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl",
                       providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CNghttp2", pkgConfig: "libnghttp2",
                       providers: [.apt(["libnghttp2-dev"])]),

        // Imports point downward only (scripts/check-layering.sh enforces it): Sync (the one lock
        // type) at the bottom; IO and HTTP on it; TLS on IO, Log and HTTP2 on HTTP; Config on TLS
        // (it owns the pin values); the demo origin on IO, HTTP and TLS; app pins on TLS; Proxy
        // above them; the CLI on top, with no C module.
        .target(name: "FaultlineSync", swiftSettings: hotPath),
        .target(name: "FaultlineIO", dependencies: ["CLinux", "FaultlineSync"], swiftSettings: hotPath),
        .target(name: "FaultlineHTTP", dependencies: ["CLLHTTP"], swiftSettings: hotPath),
        .target(name: "FaultlineLog", dependencies: ["FaultlineHTTP", "FaultlineSync"], swiftSettings: hotPath),
        .target(name: "FaultlineTLS", dependencies: ["FaultlineIO", "FaultlineSync", "COpenSSL"], swiftSettings: hotPath),
        // HTTP/2 framing on nghttp2's session API, in memory only (no sockets), for both roles.
        .target(name: "FaultlineHTTP2", dependencies: ["FaultlineHTTP", "CNghttp2"], swiftSettings: hotPath),
        .target(name: "FaultlineConfig", dependencies: ["FaultlineTLS", "FaultlineHTTP", "FaultlineSync"], swiftSettings: hotPath),
        .target(name: "FaultlineDemoOrigin", dependencies: ["FaultlineIO", "FaultlineHTTP", "FaultlineTLS"], swiftSettings: hotPath),
        // Apps' own pin configurations (ATS, Android, TrustKit, OkHttp) and each platform's matching rules.
        .target(name: "FaultlineAppPins", dependencies: ["FaultlineTLS"], swiftSettings: strict),
        .target(name: "FaultlineProxy",
                dependencies: ["FaultlineIO", "FaultlineHTTP", "FaultlineHTTP2", "FaultlineConfig", "FaultlineTLS", "FaultlineLog",
                               "FaultlineAppPins", "FaultlineSync"],
                swiftSettings: hotPath),
        .executableTarget(name: "faultline",
                          dependencies: ["FaultlineProxy", "FaultlineDemoOrigin", "FaultlineConfig", "FaultlineIO", "FaultlineTLS", "FaultlineLog",
                                         "FaultlineAppPins"],
                          swiftSettings: strict, linkerSettings: [releaseLink]),

        // A client of the binary (processes and the admin API), not of its code: Foundation only.
        // `launch` exists where Foundation has Process; elsewhere (an iOS simulator's test
        // target) the library connects to a proxy running on a Linux host or in a container.
        .target(name: "FaultlineTesting",
                swiftSettings: strict + [.define("FAULTLINE_LAUNCH", .when(platforms: [.linux, .macOS]))]),

        // Helpers every test target shares: temporary directories, processes, sockets, clients.
        .target(name: "FaultlineMemoryIO", dependencies: ["FaultlineIO"], path: "Tests/FaultlineMemoryIO", swiftSettings: strict),
        .target(name: "FaultlineTestSupport", dependencies: ["COpenSSL", "FaultlineTesting"], path: "Tests/FaultlineTestSupport", swiftSettings: strict),
        .testTarget(name: "FaultlineHTTPTests", dependencies: ["FaultlineHTTP", "FaultlineTestSupport"], swiftSettings: strict),
        .testTarget(name: "FaultlineHTTP2Tests", dependencies: ["FaultlineHTTP2", "FaultlineHTTP", "FaultlineTestSupport"], swiftSettings: strict),
        .testTarget(name: "FaultlineIOTests", dependencies: ["FaultlineIO", "FaultlineMemoryIO", "FaultlineTestSupport"], swiftSettings: strict),
        .testTarget(name: "FaultlineConfigTests", dependencies: ["FaultlineConfig", "FaultlineTLS", "FaultlineHTTP", "FaultlineTestSupport"], swiftSettings: strict),
        .testTarget(name: "FaultlineLogTests", dependencies: ["FaultlineLog", "FaultlineConfig", "FaultlineTestSupport"], swiftSettings: strict),
        .testTarget(name: "FaultlineTLSTests", dependencies: ["FaultlineTLS", "FaultlineIO", "FaultlineTestSupport"], swiftSettings: strict),
        .testTarget(name: "FaultlineAppPinsTests", dependencies: ["FaultlineAppPins", "FaultlineTLS", "FaultlineTestSupport"], swiftSettings: strict),
        .testTarget(name: "FaultlineDemoOriginTests", dependencies: ["FaultlineDemoOrigin", "FaultlineIO", "FaultlineHTTP", "FaultlineTestSupport"], swiftSettings: strict),
        .testTarget(name: "FaultlineProxyTests", dependencies: ["FaultlineProxy", "FaultlineIO", "FaultlineMemoryIO", "FaultlineHTTP", "FaultlineConfig", "FaultlineTLS", "FaultlineLog", "FaultlineTestSupport"], swiftSettings: strict),
        // Depends on the executable so that building the tests builds the binary they run, and on
        // FaultlineAppPins to read the pin snippets the binary prints back with each platform's rules.
        .testTarget(name: "FaultlineIntegrationTests", dependencies: ["faultline", "URLSessionProbe", "FaultlineTestSupport", "FaultlineAppPins", "FaultlineTLS"], swiftSettings: strict),
        .testTarget(name: "FaultlineTestingTests", dependencies: ["FaultlineTesting", "faultline", "FaultlineTestSupport"], swiftSettings: strict),
        // The examples users copy: FaultlineTesting only, the binary found through FAULTLINE_BIN.
        .testTarget(name: "FaultlineTestingExamples", dependencies: ["FaultlineTesting"], swiftSettings: strict),
        // URLSession in a process of its own, run by the tests inside a private trust store.
        .executableTarget(name: "URLSessionProbe", path: "Tests/URLSessionProbe", swiftSettings: strict),
    ]
)
