import Foundation

extension DelayFault.Distribution {
    /// One delay in milliseconds, drawing 64-bit values from `random` as needed: fixed
    /// draws nothing, uniform one value, lognormal two (Box-Muller), clamped to 0...maxMs.
    public func sample(_ random: () -> UInt64) -> Int {
        switch self {
        case .fixed(let ms):
            return ms
        case .uniform(let minMs, let maxMs):
            let span = UInt64(maxMs - minMs) + 1
            // Lemire's multiply-shift: unbiased enough for spans far below 2^64.
            let offset = random().multipliedFullWidth(by: span).high
            return minMs + Int(offset)
        case .lognormal(let medianMs, let sigma, let maxMs):
            // 1 - unit is in (0, 1], so the logarithm is finite.
            let radius = (-2 * log(1 - SeededRandom.unit(random()))).squareRoot()
            let normal = radius * cos(2 * Double.pi * SeededRandom.unit(random()))
            let value = Double(medianMs) * exp(sigma * normal)
            guard value.isFinite, value < Double(maxMs) else { return maxMs }
            return max(0, Int(value.rounded()))
        }
    }
}
