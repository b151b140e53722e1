/// Something that asked its loop to be called once the current turn's events are handled
/// (`EventLoop.atTurnEnd`): work that many events of one turn produce, such as output for one
/// socket, is then done once per turn instead of once per event.
public protocol TurnEndHandler: AnyObject {
    /// Called on the loop's thread after the turn's events, timers and tasks.
    func turnDidEnd()
}
