/// A named bad-network preset, expanded to the parameters the proxy applies. Rates are
/// in bytes per second (0 = unlimited); latency is added in each direction.
public struct NetworkProfile: Sendable, Equatable {
    /// The preset's config name ("3g", "very-bad", "100-loss").
    public let name: String
    /// Latency added each way, in milliseconds.
    public let latencyMs: Int
    /// Download rate in bytes per second; 0 = unlimited.
    public let downBps: Int
    /// Upload rate in bytes per second; 0 = unlimited.
    public let upBps: Int
    /// Share of requests lost, 0...1, emulated as stalls or resets; 1 = nothing gets through.
    public let lossRate: Double

    /// Creates a profile from explicit parameters.
    public init(name: String, latencyMs: Int, downBps: Int, upBps: Int, lossRate: Double) {
        self.name = name
        self.latencyMs = latencyMs
        self.downBps = downBps
        self.upBps = upBps
        self.lossRate = lossRate
    }

    /// 3G: 780 kbit/s down, 330 kbit/s up, 100 ms each way.
    public static let threeG = NetworkProfile(name: "3g", latencyMs: 100, downBps: 97_500, upBps: 41_250, lossRate: 0)
    /// A very bad link: 1 Mbit/s both ways, 500 ms each way, 10 % of requests lost.
    public static let veryBad = NetworkProfile(
        name: "very-bad", latencyMs: 500, downBps: 125_000, upBps: 125_000, lossRate: 0.1)
    /// Nothing gets through: every request hangs until the client gives up.
    public static let totalLoss = NetworkProfile(name: "100-loss", latencyMs: 0, downBps: 0, upBps: 0, lossRate: 1)

    /// Every preset, in the order messages list them.
    public static let presets = [threeG, veryBad, totalLoss]

    /// The preset called `name`, if any.
    public static func named(_ name: String) -> NetworkProfile? {
        presets.first { $0.name == name }
    }
}
