import Foundation
import FaultlineTestSupport

/// `GET /metrics` read back through the Python `prometheus_client` parser (the reference
/// reader of the text format), which also checks the naming conventions; the samples then
/// come back as JSON for exact assertions.
struct MetricsScrape: Sendable {
    /// One sample: its name (with `_total`, `_bucket`… as written), labels and value.
    struct Sample: Sendable {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    /// Family names (as the parser reports them) and their types.
    let families: [String: String]
    let samples: [Sample]
    /// The answer's Content-Type.
    let contentType: String

    /// The value of the sample `name` whose labels are exactly `labels`.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    /// Every sample named `name`.
    func all(_ name: String) -> [Sample] {
        samples.filter { $0.name == name }
    }

    /// Scrapes the admin API on `adminPort` and checks the answer with the parser.
    static func read(adminPort: Int) async throws -> MetricsScrape {
        let reply = try await TLSCurl.get("http://127.0.0.1:\(adminPort)/metrics")
        guard reply.exitCode == 0, reply.status == 200 else { throw TestFailure("GET /metrics: \(reply)") }
        let directory = try TemporaryDirectory()
        let script = try directory.write("check_metrics.py", checker)
        let input = try directory.write("metrics.txt", reply.body)
        let result = try await Blocking.run {
            try Command.launch([TestPaths.python3, script, input], timeout: .seconds(30))
        }
        guard result.status == 0 else {
            throw TestFailure("the metrics do not pass the parser's checks: \(result.error)\n\(reply.body)")
        }
        let object = try JSONObject.parse(Array(result.output.utf8))
        let families = (object["families"] as? [[String]] ?? []).reduce(into: [String: String]()) { $0[$1[0]] = $1[1] }
        let samples = (object["samples"] as? [[Any]] ?? []).compactMap { row -> Sample? in
            guard row.count == 3, let name = row[0] as? String, let labels = row[1] as? [String: String] else { return nil }
            return Sample(name: name, labels: labels, value: (row[2] as? NSNumber)?.doubleValue ?? .nan)
        }
        return MetricsScrape(families: families, samples: samples, contentType: reply.contentType)
    }

    /// Scrapes until `condition` holds (within 10 s): values a loop publishes on its sweep.
    static func read(adminPort: Int, until what: String, _ condition: (MetricsScrape) -> Bool) async throws -> MetricsScrape {
        let end = ContinuousClock.now + .seconds(10)
        while true {
            let scrape = try await read(adminPort: adminPort)
            if condition(scrape) { return scrape }
            guard ContinuousClock.now < end else { throw TestFailure("timed out waiting for \(what) in /metrics: \(scrape.samples)") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Parses the text with `prometheus_client`, checks the conventions (every name prefixed,
    /// counters' samples end in `_total`, histograms in `_seconds` with `_bucket`, `_sum` and
    /// `_count`, `le` ascending and ending in `+Inf`, buckets cumulative and `+Inf` equal to
    /// `_count`), prints the families and samples as JSON; exits 1 naming each violation.
    static let checker = #"""
    import json, math, sys
    from prometheus_client.parser import text_string_to_metric_families

    text = open(sys.argv[1]).read()
    problems = []
    out = {"families": [], "samples": []}
    for family in text_string_to_metric_families(text):
        out["families"].append([family.name, family.type])
        if not family.name.startswith("faultline_"):
            problems.append("unprefixed family " + family.name)
        if family.type == "counter":
            for s in family.samples:
                if not s.name.endswith("_total"):
                    problems.append("counter sample without _total: " + s.name)
        if family.type == "histogram":
            if not family.name.endswith("_seconds"):
                problems.append("histogram not in seconds: " + family.name)
            series = {}
            for s in family.samples:
                suffix = s.name[len(family.name):]
                if suffix not in ("_bucket", "_sum", "_count"):
                    problems.append("histogram sample " + s.name)
                    continue
                key = tuple(sorted((k, v) for k, v in s.labels.items() if k != "le"))
                entry = series.setdefault(key, {"buckets": [], "sum": None, "count": None})
                if suffix == "_bucket":
                    entry["buckets"].append((s.labels["le"], s.value))
                else:
                    entry[suffix[1:]] = s.value
            for key, entry in series.items():
                bounds = [float(le) for le, _ in entry["buckets"]]
                values = [value for _, value in entry["buckets"]]
                if not bounds or bounds[-1] != math.inf:
                    problems.append("no +Inf bucket for %r" % (key,))
                if any(b <= a for a, b in zip(bounds, bounds[1:])):
                    problems.append("le not ascending for %r: %r" % (key, bounds))
                if any(b < a for a, b in zip(values, values[1:])):
                    problems.append("buckets not cumulative for %r: %r" % (key, values))
                if entry["count"] is None or not values or entry["count"] != values[-1]:
                    problems.append("_count differs from +Inf for %r" % (key,))
                if entry["sum"] is None or entry["sum"] < 0:
                    problems.append("bad _sum for %r" % (key,))
        for s in family.samples:
            if math.isnan(s.value):
                problems.append("NaN in " + s.name)
            out["samples"].append([s.name, s.labels, s.value])
    if problems:
        sys.stderr.write("\n".join(problems) + "\n")
        sys.exit(1)
    print(json.dumps(out))
    """#
}
