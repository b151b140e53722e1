/// Which loop serves a connection. Each loop accepts on a listening socket of its own
/// (SO_REUSEPORT), and the kernel hashes each new connection to one of them however busy its
/// loop is: with two workers under ten HTTP/2 connections, the threads' CPU time split as
/// unevenly as 69/31, one core short while the other idled. A loop that accepts a connection therefore hands it to
/// the loop holding the fewest, as HAProxy's threads pass accepted connections to the least
/// loaded one.
extension LoopContext {
    /// The loop a connection this loop accepted goes to: this one, unless another holds at
    /// least two fewer connections. A hand-over costs that loop a wake-up, so loops may end
    /// up two apart rather than hand every other connection over while clients come and go.
    func loopForNewConnection() -> LoopContext {
        var chosen = self
        var fewest = assignedClients.load(ordering: .relaxed) - 1
        for sibling in siblings {
            let count = sibling.context.assignedClients.load(ordering: .relaxed)
            if count < fewest {
                chosen = sibling.context
                fewest = count
            }
        }
        return chosen
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
