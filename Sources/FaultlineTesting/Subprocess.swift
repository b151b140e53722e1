import Foundation

// Launching is for Linux and macOS; iOS test targets `connect` instead. On Linux children
// start through posix_spawn directly, not Foundation's `Process`: this toolchain's
// `Process.run()` reads past a directory entry while listing /proc/self/fd and crashed a
// whole test run under load (a defect fixed in later Foundation releases).
#if FAULTLINE_LAUNCH && os(Linux)
/// One child process, started with posix_spawn: its standard streams are the descriptors
/// given (or /dev/null), every other descriptor of this process is closed in the child, and
/// signal dispositions and the signal mask are reset to the defaults. Its exit is collected
/// by polling `waitpid` for its own pid only, so other code's children are never reaped.
/// Shared with the project's own test support (package access), not part of the library.
package final class Subprocess: @unchecked Sendable {
    // Unchecked: the one mutable field, `ending`, is only touched under `lock`.
    private enum Ending {
        case running
        /// Exit status, or 128 + the signal that ended it (as a shell reports it).
        case exited(Int32)
    }

    /// The child's process id.
    package let pid: pid_t
    private let lock = NSLock()
    private var ending = Ending.running

    /// Starts `executable` (a path, not searched in PATH) with `arguments`, in `directory`
    /// when given. `stdin`, `stdout` and `stderr` are descriptors of this process that the
    /// child gets as 0, 1 and 2 (nil: /dev/null); the caller still owns and closes them.
    package init(executable: String, arguments: [String], directory: String? = nil,
                 stdin: Int32? = nil, stdout: Int32? = nil, stderr: Int32? = nil) throws(SubprocessError) {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        guard posix_spawn_file_actions_init(&actions) == 0 else { throw SubprocessError("posix_spawn_file_actions_init failed") }
        defer { posix_spawn_file_actions_destroy(&actions) }
        guard posix_spawnattr_init(&attributes) == 0 else { throw SubprocessError("posix_spawnattr_init failed") }
        defer { posix_spawnattr_destroy(&attributes) }

        for (target, source) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            let status = if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            }
            guard status == 0 else { throw SubprocessError("cannot set up descriptor \(target): errno \(status)") }
        }
        // A descriptor of a test (a client socket, another child's pipe) held open by a child
        // would keep its peer from ever seeing it close.
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }
        if let directory {
            guard let addChdir = Self.addChdir else { throw SubprocessError("cannot start in \(directory): posix_spawn cannot change directory here") }
            let status = addChdir(&actions, directory)
            guard status == 0 else { throw SubprocessError("cannot start in \(directory): errno \(status)") }
        }
        // The test process may ignore SIGPIPE or block signals; the child starts as a shell would start it.
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = argv.withUnsafeBufferPointer { argv in
            guard let start = argv.baseAddress else { return EINVAL }
            return posix_spawn(&pid, executable, &actions, &attributes, start, environ)
        }
        guard status == 0 else {
            throw SubprocessError("cannot run \(executable): \(String(cString: strerror(status)))")
        }
        self.pid = pid
    }

    /// Whether the child still runs (collects its exit status once it has ended).
    package var isRunning: Bool { exitStatus == nil }

    /// The exit status, or 128 + the signal that ended the child; nil while it runs.
    package var exitStatus: Int32? {
        lock.withLock {
            if case .exited(let status) = ending { return status }
            var raw: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(pid, &raw, WNOHANG) } while result < 0 && errno == EINTR
            guard result == pid else { return nil }
            // WIFEXITED / WTERMSIG, which Swift does not import as functions.
            let signal = raw & 0x7f
            let status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
            ending = .exited(status)
            return status
        }
    }

    /// Sends `signal` while the child runs; once its exit is collected its pid may belong to
    /// another process, so nothing is sent then.
    package func send(_ signal: Int32) {
        lock.withLock {
            if case .running = ending { _ = kill(pid, signal) }
        }
    }

    /// Blocks until the child has exited, or `timeout` passed; returns its exit status, nil
    /// when it still runs.
    @discardableResult
    package func waitForExit(timeout: Duration) -> Int32? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            if let status = exitStatus { return status }
            if clock.now >= deadline { return nil }
            usleep(5_000)
        }
    }

    /// A pipe whose two ends are closed on exec, so that only the child given an end (as a
    /// standard stream) holds it. (Between `pipe` and `fcntl` another thread's child could
    /// inherit the ends, but every child this type starts closes all descriptors above 2.)
    package static func pipe() throws(SubprocessError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { throw SubprocessError("pipe failed: errno \(errno)") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    // glibc 2.34's closefrom and 2.29's chdir file actions are not in the headers Swift
    // imports (they need _GNU_SOURCE), so they are looked up by name.
    private typealias FileAction = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias PathFileAction = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let addCloseFrom: FileAction? = symbol("posix_spawn_file_actions_addclosefrom_np")
    private static let addChdir: PathFileAction? = symbol("posix_spawn_file_actions_addchdir_np")

    private static func symbol<Function>(_ name: String) -> Function? {
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(address, to: Function.self)
    }
}
#endif
