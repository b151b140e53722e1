import Testing
@testable import FaultlineProxy
import FaultlineLog

/// The bounded journal ring: numbering, eviction with a dropped count, filters, resizing.
@Suite("Request journal")
struct RequestJournalTests {
    private static func entry(_ path: String, status: Int? = 200, route: String = "r", method: String = "GET",
                              start: UInt64 = 2_000_000) -> JournalEntry {
        var record = LogRecord(kind: .exchange)
        record.setTarget(path, policy: LogPolicy())
        record.statusCode = status
        record.route = route
        record.method = method
        return JournalEntry(record: record, startNs: start, session: nil, sessionUnknown: false, connectionRequest: 1, connection: 1)
    }

    @Test func keepsTheNewestAndCountsTheDropped() {
        let journal = RequestJournal(capacity: 3, origin: 1_000_000)
        for index in 1...5 { journal.append(Self.entry("/p\(index)")) }
        let (entries, dropped) = journal.entries(matching: JournalFilter())
        #expect(entries.map(\.path) == ["/p3", "/p4", "/p5"])
        #expect(entries.map(\.seq) == [3, 4, 5])
        #expect(entries.first?.startMs == 1.0)
        #expect(dropped == 2)
        journal.resize(to: 2)
        #expect(journal.entries(matching: JournalFilter()).entries.map(\.path) == ["/p4", "/p5"])
        #expect(journal.entries(matching: JournalFilter()).dropped == 3)
        journal.clear()
        #expect(journal.count == 0)
        journal.append(Self.entry("/again"))
        #expect(journal.entries(matching: JournalFilter()).entries.map(\.seq) == [1])
    }

    @Test func retriesOfTheSameRequestAreCountedAmongTheEntriesKept() {
        let journal = RequestJournal(capacity: 3, origin: 0)
        for path in ["/a", "/a", "/b", "/a"] { journal.append(Self.entry(path)) }
        // Capacity 3: the first /a was pushed out, so the last /a has one earlier /a left.
        #expect(journal.entries(matching: JournalFilter()).entries.map(\.retry) == [1, 0, 1])
        journal.resize(to: 5)
        journal.append(Self.entry("/a"))
        #expect(journal.entries(matching: JournalFilter()).entries.map(\.retry) == [1, 0, 1, 2])
    }

    @Test func capacityZeroKeepsNothing() {
        let journal = RequestJournal(capacity: 0, origin: 0)
        #expect(!journal.isOn)
        journal.append(Self.entry("/x"))
        #expect(journal.count == 0)
    }

    @Test func filters() {
        let journal = RequestJournal(capacity: 10, origin: 0)
        journal.append(Self.entry("/users/1?token=abc", status: 503, route: "users"))
        journal.append(Self.entry("/users/2", route: "users", method: "POST"))
        journal.append(Self.entry("/json", status: nil, route: "all"))
        func paths(_ filter: JournalFilter) -> [String?] { journal.entries(matching: filter).entries.map(\.path) }
        #expect(paths(JournalFilter(path: "/users/1")) == ["/users/1"])
        #expect(paths(JournalFilter(path: "/users/*")) == ["/users/1", "/users/2"])
        #expect(paths(JournalFilter(path: "/users")) == [])
        #expect(paths(JournalFilter(route: "all")) == ["/json"])
        #expect(paths(JournalFilter(method: "post")) == ["/users/2"])
        #expect(paths(JournalFilter(status: 503)) == ["/users/1"])
        #expect(paths(JournalFilter(limit: 1)) == ["/json"])
        #expect(journal.entries(matching: JournalFilter()).entries.first?.query == "token=[REDACTED]")
    }

    @Test func filterQueries() throws {
        let filter = try AdminRouter.journalFilter("route=a%20b&path=/x*&method=GET&status=404&limit=3").get()
        #expect(filter == JournalFilter(route: "a b", path: "/x*", method: "GET", status: 404, limit: 3))
        #expect((try? AdminRouter.journalFilter("status=0").get()) == nil)
        #expect((try? AdminRouter.journalFilter("nope=1").get()) == nil)
    }
}
