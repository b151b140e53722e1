/// Which loop serves a connection. Each loop accepts on a listening socket of its own
/// (SO_REUSEPORT), and the kernel hashes each new connection to one of them however busy its
/// loop is: with two workers under ten HTTP/2 connections, the threads' CPU time split as
/// unevenly as 69/31, one core short while the other idled. A loop that accepts a connection therefore hands it to
/// the loop holding the fewest, as HAProxy's threads pass accepted connections to the least
/// loaded one.
extension LoopContext {
    /// The loop a connection this loop accepted goes to: this one, unless another holds
    /// fewer by at least `handOverSlack(holding:)`.
    func loopForNewConnection() -> LoopContext {
        var chosen = self
        let held = assignedClients.load(ordering: .relaxed)
        var fewest = held - Self.handOverSlack(holding: held) + 1
        for sibling in siblings {
            let count = sibling.context.assignedClients.load(ordering: .relaxed)
            if count < fewest {
                chosen = sibling.context
                fewest = count
            }
        }
        return chosen
    }

    /// How many fewer connections another loop must hold to be handed a new one, when this loop
    /// holds `held`. Up to fifteen, one: a few connections are balanced exactly, since each of
    /// ten HTTP/2 connections carries a tenth of the load, and with a slack of two (which lets
    /// ten split 6 to 4) one thread did 64-65 % of the work under h2load's ten in two of three
    /// runs. From sixteen, two: a hand-over costs the other loop a wake-up, and clients that
    /// come and go should not be handed across every other time.
    static func handOverSlack(holding held: Int) -> Int {
        held < 16 ? 1 : 2
    }

    /// Tells every loop of `contexts` about the others; call before any of them accepts.
    static func introduce(_ contexts: [LoopContext]) {
        for context in contexts {
            context.siblings = contexts.filter { $0 !== context }.map(LoopSibling.init)
        }
    }
}

/// Another loop of the process. Unowned: the server holds every loop's context until all
/// loops have stopped, and strong references both ways would keep them all alive after.
struct LoopSibling {
    unowned let context: LoopContext
}
