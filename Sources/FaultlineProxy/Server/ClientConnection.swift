/// A client connection a loop keeps, whatever protocol it speaks (HTTP/1 or HTTP/2): the loop
/// sweeps its deadlines and asks it to drain.
protocol ClientConnection: AnyObject {
    /// Enforces the connection's deadlines (and its streams'); called by the loop's sweep.
    func checkDeadline(now: UInt64)
    /// Process shutdown: finish what is in flight, accept nothing new, then close.
    func drain()
}
