import Testing
@testable import FaultlineProxy

/// The per-loop request table behind `GET /metrics`: rows follow route names across
/// reloads, bounds hold, and the text format's escaping.
@Suite("Metrics table")
struct MetricsTableTests {
    private static func row(_ table: RouteMetricsTable, _ name: String) -> RouteTraffic? {
        table.traffic.first { $0.name == name }
    }

    @Test func countsStatusesBucketsAndSumsPerRoute() throws {
        var table = RouteMetricsTable(routes: ["users", "all"])
        table.record(routeIndex: 0, routeName: "users", status: 200, nanoseconds: 500_000)
        table.record(routeIndex: 0, routeName: "users", status: 503, nanoseconds: 3_000_000)
        table.record(routeIndex: 0, routeName: "users", status: 200, nanoseconds: 20_000_000_000)
        table.record(routeIndex: 1, routeName: "all", status: nil, nanoseconds: 1_000_000)
        table.record(routeIndex: -1, routeName: "", status: 404, nanoseconds: 0)
        let users = try #require(Self.row(table, "users"))
        #expect(users.statuses == [200: 2, 503: 1])
        #expect(users.count == 3)
        #expect(users.sumNanoseconds == 20_003_500_000)
        // 0.5 ms in the first bucket, 3 ms in the third (≤ 5 ms), 20 s beyond the last bound.
        #expect(users.buckets == [1, 0, 1] + Array(repeating: 0, count: LatencyBuckets.count - 3))
        let all = try #require(Self.row(table, "all"))
        #expect(all.noStatus == 1 && all.statuses.isEmpty && all.buckets[0] == 1)
        #expect(Self.row(table, "")?.statuses == [404: 1])
    }

    @Test func statusesBeyondTheSlotsGoToOther() throws {
        var table = RouteMetricsTable(routes: ["r"])
        for code in 200..<(200 + RouteMetricsTable.statusSlots + 3) {
            table.record(routeIndex: 0, routeName: "r", status: code, nanoseconds: 1)
        }
        table.record(routeIndex: 0, routeName: "r", status: 200, nanoseconds: 1)
        let row = try #require(Self.row(table, "r"))
        #expect(row.statuses.count == RouteMetricsTable.statusSlots)
        #expect(row.statuses[200] == 2)
        #expect(row.otherStatuses == 3)
    }

    @Test func aRebaseKeepsCountsByNameAndNeverMixesRoutes() throws {
        var table = RouteMetricsTable(routes: ["a", "b"])
        table.record(routeIndex: 0, routeName: "a", status: 200, nanoseconds: 1)
        table.record(routeIndex: 1, routeName: "b", status: 500, nanoseconds: 1)
        table.record(routeIndex: -1, routeName: "", status: 404, nanoseconds: 1)
        // The reload renumbers: "b" first, "a" gone, "c" new at a's old index.
        table = table.rebased(routes: ["b", "c"])
        #expect(Self.row(table, "a") == nil)
        #expect(Self.row(table, "b")?.statuses == [500: 1])
        #expect(Self.row(table, "c")?.count == 0)
        #expect(Self.row(table, "")?.statuses == [404: 1])
        // An exchange that started before the reload, on "a" at index 0, is not counted as "b".
        table.record(routeIndex: 0, routeName: "a", status: 200, nanoseconds: 1)
        // One on "b" at its old index 1 (now "c") lands in "b".
        table.record(routeIndex: 1, routeName: "b", status: 500, nanoseconds: 1)
        #expect(Self.row(table, "b")?.statuses == [500: 2])
        #expect(Self.row(table, "c")?.count == 0)
        #expect(Self.row(table, "a")?.statuses == [200: 1])
        // Extra rows last until the next rebase.
        #expect(Self.row(table.rebased(routes: ["b", "c"]), "a") == nil)
    }

    @Test func extraNamesAreBounded() {
        var table = RouteMetricsTable(routes: ["a"])
        for index in 0..<(RouteMetricsTable.maxExtraRows + 5) {
            table.record(routeIndex: 7, routeName: "session-rule-\(index)", status: 200, nanoseconds: 1)
        }
        #expect(table.names.count == 2 + RouteMetricsTable.maxExtraRows)
        #expect(table.untracked == 5)
    }

    @Test func labelValuesAndHelpAreEscaped() {
        #expect(MetricsText.escapeLabel("a\\b\"c\nd") == "a\\\\b\\\"c\\nd")
        #expect(MetricsText.escapeHelp("a\\b\"c\nd") == "a\\\\b\"c\\nd")
        var text = MetricsText()
        text.family("x_total", .counter, "X.")
        text.sample("x_total", [("route", "r\"1"), ("status", "200")], 3)
        #expect(text.text == "# HELP x_total X.\n# TYPE x_total counter\nx_total{route=\"r\\\"1\",status=\"200\"} 3\n")
    }
}
