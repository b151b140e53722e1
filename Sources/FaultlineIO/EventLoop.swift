private import CLinux
import FaultlineSync
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One thread, one epoll set: every connection registered here lives and dies on this loop.
///
/// Only `execute(_:)` and `stop()` may be called from other threads; everything else runs on
/// the loop's own thread. That confinement is why the class is `@unchecked Sendable`.
public final class EventLoop: @unchecked Sendable {
    private struct Slot {
        var handler: EventHandler
        var generation: UInt32
    }

    /// Index of this loop in its group.
    public let index: Int
    /// Monotonic time in nanoseconds, read once per wake-up; what state machines use as "now".
    public private(set) var now: UInt64
    /// A buffer reads land in; whoever reads must finish with the bytes before returning.
    public let readBuffer: UnsafeMutableRawBufferPointer

    private var plaintextScratch: [UInt8] = []
    private let epollFD: Int32
    private let wakeFD: Int32
    private var slots: [Slot?] = []
    private var generation: UInt32 = 0
    private var timers = TimerQueue()
    private var turnEnd: [TurnEndHandler] = []
    private var turnEndRunning: [TurnEndHandler] = []
    private var yieldBeforeSleep = YieldBeforeSleep()
    private let pending = TracedMutex<[@Sendable () -> Void]>([])
    private let stopRequested = Atomic<Bool>(false)
    /// Where `StreamSocket.connect` connects on this loop when set: an in-memory network
    /// (tests). Nil in production: the kernel's.
    package weak var network: (any StreamNetwork)?

    /// Creates a loop; call `run()` on the thread that will own it.
    public init(index: Int, readBufferSize: Int = 64 * 1024) throws(IOError) {
        self.index = index
        epollFD = cl_epoll_create()
        guard epollFD >= 0 else { throw IOError.last("epoll_create1") }
        wakeFD = cl_eventfd()
        guard wakeFD >= 0 else {
            let error = IOError.last("eventfd")
            close(epollFD)
            throw error
        }
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readBufferSize, alignment: 16)
        now = cl_monotonic_ns()
        var event = epoll_event()
        event.events = CL_EPOLLIN
        event.data.u64 = UInt64.max
        epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event)
    }

    deinit {
        close(epollFD)
        close(wakeFD)
        readBuffer.deallocate()
    }

    // MARK: Registration

    /// Watches `fd` for `events` and calls `handler` when they are ready.
    public func register(_ fd: Int32, handler: EventHandler, events: UInt32) throws(IOError) {
        let index = Int(fd)
        if index >= slots.count { slots.append(contentsOf: repeatElement(nil, count: index - slots.count + 64)) }
        generation &+= 1
        slots[index] = Slot(handler: handler, generation: generation)
        var event = epoll_event()
        event.events = events
        event.data.u64 = UInt64(generation) << 32 | UInt64(UInt32(bitPattern: fd))
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0 else {
            slots[index] = nil
            throw IOError.last("epoll_ctl add")
        }
    }

    /// Changes the events watched on a registered `fd`.
    public func modify(_ fd: Int32, events: UInt32) {
        guard Int(fd) < slots.count, let slot = slots[Int(fd)] else { return }
        var event = epoll_event()
        event.events = events
        event.data.u64 = UInt64(slot.generation) << 32 | UInt64(UInt32(bitPattern: fd))
        epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event)
    }

    /// Stops watching `fd`; call before closing it.
    public func deregister(_ fd: Int32) {
        guard Int(fd) < slots.count, slots[Int(fd)] != nil else { return }
        slots[Int(fd)] = nil
        epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, nil)
    }

    /// Forgets `fd`, which the caller closes right after: closing removes it from the epoll
    /// set (nothing here duplicates descriptors), so the EPOLL_CTL_DEL call is saved. Events
    /// already returned for it are dropped by the registration generation.
    public func forgetClosing(_ fd: Int32) {
        guard Int(fd) < slots.count else { return }
        slots[Int(fd)] = nil
    }

    // MARK: Scratch buffers

    /// Lends the loop's plaintext buffer (TLS decryption), empty; give it back when done.
    /// Reentrant use gets a fresh buffer instead.
    public func takePlaintextScratch() -> [UInt8] {
        var buffer: [UInt8] = []
        swap(&buffer, &plaintextScratch)
        return buffer
    }

    /// Returns the buffer lent by `takePlaintextScratch`, keeping its capacity; `buffer` is
    /// left empty. (Taken `inout` so that emptying it never copies a shared buffer.)
    public func returnPlaintextScratch(_ buffer: inout [UInt8]) {
        buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
        swap(&buffer, &plaintextScratch)
    }

    // MARK: Timers

    /// Calls `callback` on this loop after `milliseconds`.
    @discardableResult
    public func schedule(afterMilliseconds milliseconds: Int, _ callback: @escaping () -> Void) -> TimerID {
        timers.schedule(at: now &+ UInt64(max(0, milliseconds)) &* 1_000_000, callback)
    }

    /// Calls `callback` on this loop at monotonic time `deadline` (nanoseconds).
    @discardableResult
    public func schedule(atNanoseconds deadline: UInt64, _ callback: @escaping () -> Void) -> TimerID {
        timers.schedule(at: deadline, callback)
    }

    /// Cancels a timer; harmless if it already fired.
    public func cancel(_ timer: TimerID) {
        timers.cancel(timer)
    }

    /// Calls `handler.turnDidEnd()` once this turn's events, timers and tasks are handled
    /// (once per call: the caller keeps itself from asking twice in one turn).
    public func atTurnEnd(_ handler: TurnEndHandler) {
        turnEnd.append(handler)
    }

    // MARK: Cross-thread

    /// Runs `task` on this loop's thread; callable from any thread.
    public func execute(_ task: @escaping @Sendable () -> Void) {
        pending.withLock { $0.append(task) }
        wake()
    }

    /// Makes `run()` return after the current iteration; callable from any thread.
    public func stop() {
        stopRequested.store(true, ordering: .releasing)
        wake()
    }

    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    // MARK: Running

    /// Runs until `stop()`; call on the loop's own thread.
    public func run() {
        let capacity = 256
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
        defer { events.deallocate() }
        while !stopRequested.load(ordering: .acquiring) {
            let count = waitForEvents(events, capacity: capacity)
            now = cl_monotonic_ns()
            if count > 0 {
                for index in 0..<Int(count) {
                    dispatch(events[index])
                }
            }
            runExpiredTimers()
            runPendingTasks()
            runTurnEnd()
        }
        discardWork()
    }

    /// Drops every registration, timer, turn-end handler and queued task. Handlers and timer
    /// callbacks hold the loop (and the objects around it) strongly: dropping them once the
    /// loop has stopped ends those cycles, so a process that exits after a drain (or a test
    /// done with a loop it drove by `runTurn`) leaves nothing behind for a leak checker.
    package func discardWork() {
        slots.removeAll()
        turnEnd.removeAll()
        timers = TimerQueue()
        pending.withLock { tasks in tasks.removeAll() }
    }

    /// One turn without epoll, for a loop that is never `run()` (tests drive it, with its
    /// sockets on in-memory transports): `now` becomes `time`, then the timers due by then,
    /// the tasks from `execute` and the turn-end handlers run, as at the end of a turn of `run()`.
    package func runTurn(at time: UInt64) {
        now = max(now, time)
        for callback in timers.popExpired(now: now) {
            callback()
        }
        runPendingTasks()
        runTurnEnd()
    }

    /// When the next timer is due (monotonic ns), if one is scheduled.
    package var nextTimerDeadline: UInt64? { timers.nextDeadline() }

    /// Calls the turn-end handlers, and those they register in turn; the two arrays swap so
    /// that no turn allocates.
    private func runTurnEnd() {
        while !turnEnd.isEmpty {
            swap(&turnEnd, &turnEndRunning)
            for handler in turnEndRunning { handler.turnDidEnd() }
            turnEndRunning.removeAll(keepingCapacity: true)
        }
    }

    /// The next turn's events. With none ready, the loop yields its core once before it
    /// sleeps: whoever else is runnable there (a client, an origin, another loop) runs now and
    /// often produces the events this loop waits for, which it then collects without going to
    /// sleep and being woken. A sleep and a wake-up cost both sides more than the two system
    /// calls this adds when nothing comes. With the core to itself the yield returns at once
    /// and buys nothing; beside a busy process it stalls the loop for that process's time
    /// slice: either way `YieldBeforeSleep` then has the loop sleep without it for a while.
    /// A timer already due is work: the loop then takes its turn without yielding, so the
    /// timer does not wait behind another thread's time slice.
    private func waitForEvents(_ events: UnsafeMutablePointer<epoll_event>, capacity: Int) -> Int32 {
        guard yieldBeforeSleep.shouldYield() else {
            return epoll_wait(epollFD, events, Int32(capacity), waitTimeout())
        }
        let ready = epoll_wait(epollFD, events, Int32(capacity), 0)
        guard ready == 0, waitTimeout() != 0 else { return ready }
        let yieldStart = cl_monotonic_ns()
        sched_yield()
        let yieldEnd = cl_monotonic_ns()
        let duration = yieldEnd >= yieldStart ? yieldEnd - yieldStart : 0
        // Only a long yield's outcome depends on what is ready: one system call after it.
        let arrived = YieldBeforeSleep.mayHaveStalled(duration) ? epoll_wait(epollFD, events, Int32(capacity), 0) : 0
        yieldBeforeSleep.yielded(YieldBeforeSleep.outcome(duration: duration, eventsReady: Int(max(arrived, 0))))
        return arrived > 0 ? arrived : epoll_wait(epollFD, events, Int32(capacity), waitTimeout())
    }

    private func waitTimeout() -> Int32 {
        guard let deadline = timers.nextDeadline() else { return -1 }
        let current = cl_monotonic_ns()
        if deadline <= current { return 0 }
        // Round up so a timer never fires early.
        return Int32(min((deadline - current + 999_999) / 1_000_000, 60_000))
    }

    private func dispatch(_ event: epoll_event) {
        let data = event.data.u64
        if data == UInt64.max {
            var value: UInt64 = 0
            _ = read(wakeFD, &value, 8)
            return
        }
        let fd = Int(UInt32(truncatingIfNeeded: data))
        let eventGeneration = UInt32(truncatingIfNeeded: data >> 32)
        // A stale event for a closed and reused descriptor carries the old generation.
        guard fd < slots.count, let slot = slots[fd], slot.generation == eventGeneration else { return }
        slot.handler.handleEvents(event.events)
    }

    private func runExpiredTimers() {
        guard !timers.isEmpty else { return }
        now = cl_monotonic_ns()
        for callback in timers.popExpired(now: now) {
            callback()
        }
    }

    private func runPendingTasks() {
        let tasks = pending.withLock { tasks -> [@Sendable () -> Void] in
            let taken = tasks
            tasks.removeAll()
            return taken
        }
        for task in tasks { task() }
    }
}
