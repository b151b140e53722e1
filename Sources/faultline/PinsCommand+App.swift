import Foundation

extension PinsCommand {
    /// `faultline pins app --app LABEL=FILE… --chain LABEL=SOURCE…`: which app versions
    /// would refuse which chain, each judged with its platform's own rules.
    static func app(_ arguments: [String]) -> ExitStatus {
        let parsed: PinsAppArguments
        do {
            parsed = try PinsAppArguments(arguments, now: Date())
        } catch {
            Console.err("faultline pins app: \(error)\n\n\(appUsage)")
            return .usage
        }
        if parsed.help {
            Console.out(appUsage)
            return .ok
        }
        var subjects: [PinsAppSubject] = []
        var chains: [PinsAppChain] = []
        do {
            for app in parsed.apps { subjects += try PinsAppSubject.load(app) }
            let loader = PinsAppChainLoader(ca: parsed.ca, token: parsed.token, timeoutMs: parsed.timeoutMs)
            for chain in parsed.chains { chains += try loader.load(chain) }
        } catch {
            Console.err("faultline pins app: \(error)")
            return .usage
        }
        for subject in subjects {
            for warning in subject.warnings { Console.err("faultline pins app: \(subject.label): warning: \(warning)") }
        }
        let matrix = PinsAppMatrix(subjects: subjects, chains: chains, hosts: parsed.hosts, at: parsed.at, build: parsed.build)
        guard !matrix.cells.isEmpty else {
            Console.err("faultline pins app: no host to check: the apps name none; give --host NAME")
            return .usage
        }
        if parsed.json {
            Console.out(PinsCommandSupport.render(matrix.json))
        } else {
            matrix.lines.forEach(Console.out)
        }
        return matrix.status
    }
}
