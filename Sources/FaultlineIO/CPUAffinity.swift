private import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// The CPUs a process may run on, and binding a thread to one of them (`EventLoopGroup.pin`).
public enum CPUAffinity {
    /// The most CPUs the kernel's affinity calls describe here (glibc's `CPU_SETSIZE`).
    static let maxCPUs = 1024

    /// The CPUs the calling thread may run on, ascending: the affinity mask `taskset`, a
    /// container's cpuset or a parent process left it. Empty when the kernel does not say.
    public static func allowedCPUs() -> [Int] {
        var cpus = [Int32](repeating: 0, count: maxCPUs)
        let count = cpus.withUnsafeMutableBufferPointer { buffer in
            cl_allowed_cpus(buffer.baseAddress, Int32(buffer.count))
        }
        guard count > 0 else { return [] }
        return cpus.prefix(Int(count)).map { Int($0) }
    }

    /// Binds `thread` to `cpu` alone.
    static func pin(_ thread: Glibc.pthread_t, to cpu: Int) throws(IOError) {
        guard cpu >= 0 && cpu < maxCPUs, let number = Int32(exactly: cpu) else {
            throw IOError("bind a thread to CPU \(cpu)", code: EINVAL)
        }
        let status = cl_pin_thread(thread, number)
        guard status == 0 else { throw IOError("bind a thread to CPU \(cpu)", code: status) }
    }

    /// Lets `thread` run on every CPU the calling thread may run on again.
    static func unpin(_ thread: Glibc.pthread_t) {
        _ = cl_unpin_thread(thread)
    }

    /// Names `thread` for `top -H`, `ps -L` and `/proc/PID/task/TID/comm` (cut to 15 bytes).
    static func name(_ thread: Glibc.pthread_t, _ name: String) {
        _ = cl_name_thread(thread, name)
    }
}
