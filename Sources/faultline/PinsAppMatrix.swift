import FaultlineAppPins
import Foundation

/// The `pins app` matrix: every app × host × chain with the verdict of the app's platform
/// rules. Hosts: `--host` for every chain when given; otherwise the hosts the apps' entries
/// name, except for a chain with a host of its own (host:port, admin), checked on that host.
struct PinsAppMatrix {
    /// One app × host × chain.
    struct Cell {
        let subject: Int
        let host: String
        let chain: Int
        let verdict: AppPinVerdict
        /// For a FAIL on a chain other than the first: which keys are new compared with it.
        let change: String?
    }

    let subjects: [PinsAppSubject]
    let chains: [PinsAppChain]
    let at: Date
    let build: AppBuildVariant
    /// The row hosts, in order of first mention.
    let hosts: [String]
    let cells: [Cell]

    init(subjects: [PinsAppSubject], chains: [PinsAppChain], hosts given: [String], at: Date, build: AppBuildVariant) {
        self.subjects = subjects
        self.chains = chains
        self.at = at
        self.build = build
        var appHosts: [String] = []
        for host in subjects.flatMap(\.hosts) where !appHosts.contains(host) { appHosts.append(host) }
        let chainHosts = chains.map { chain in given.isEmpty ? chain.host.map { [$0] } ?? appHosts : given }
        var hosts: [String] = []
        for host in chainHosts.flatMap({ $0 }) where !hosts.contains(host) { hosts.append(host) }
        self.hosts = hosts
        var cells: [Cell] = []
        for (subjectIndex, subject) in subjects.enumerated() {
            for host in hosts {
                for (chainIndex, chain) in chains.enumerated() where chainHosts[chainIndex].contains(host) {
                    let verdict = subject.evaluate(host: host, chain: chain.chain, at: at, build: build)
                    let change = verdict.outcome == .fail && chainIndex > 0 ? chain.change(from: chains[0]) : nil
                    cells.append(Cell(subject: subjectIndex, host: host, chain: chainIndex, verdict: verdict, change: change))
                }
            }
        }
        self.cells = cells
    }

    /// Cells where an app would refuse the connection.
    var failures: [Cell] {
        cells.filter { $0.verdict.outcome.blocks }
    }

    /// Report-only failures (counted as passing), and NOT PINNED verdicts of an entry that
    /// does cover the host (expired, excluded, no pins): worth a line, unlike hosts an app
    /// simply does not name.
    var notes: [Cell] {
        cells.filter { $0.verdict.outcome == .reportOnlyFailure || ($0.verdict.outcome == .notPinned && $0.verdict.entry != nil) }
    }

    /// 0 when no app would refuse a chain, 1 otherwise; report-only failures do not count.
    var status: ExitStatus {
        failures.isEmpty ? .ok : .failure
    }

    /// `ios-4.1 on api.example.com, candidate chain`.
    func place(_ cell: Cell) -> String {
        "\(subjects[cell.subject].label) on \(cell.host), \(chains[cell.chain].label) chain"
    }

    /// The reason with the chain change appended, as a FAIL line shows it.
    func reason(_ cell: Cell) -> String {
        cell.verdict.reason + (cell.change.map { "; \($0)" } ?? "")
    }

    /// `2027-06-01T00:00:00Z`.
    var atText: String {
        ISO8601DateFormatter().string(from: at)
    }
}
