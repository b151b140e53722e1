/// Levenshtein distance for "did you mean" suggestions on misspelled keys.
enum EditDistance {
    /// Edit distance between `a` and `b`, compared case-insensitively.
    static func between(_ a: String, _ b: String) -> Int {
        let lhs = Array(a.lowercased().utf8)
        let rhs = Array(b.lowercased().utf8)
        if lhs.isEmpty { return rhs.count }
        if rhs.isEmpty { return lhs.count }
        var previous = Array(0...rhs.count)
        var current = [Int](repeating: 0, count: rhs.count + 1)
        for i in 1...lhs.count {
            current[0] = i
            for j in 1...rhs.count {
                let cost = lhs[i - 1] == rhs[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[rhs.count]
    }

    /// The candidate closest to `word` within distance 2, if any; ties go to the earlier one.
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = between(word, candidate)
            if distance <= 2, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }
}
