private import CLinux

/// epoll's constants, read once from the C shim.
enum EPOLLValues {
    static let input = CL_EPOLLIN
    static let output = CL_EPOLLOUT
    static let error = CL_EPOLLERR
    static let hangup = CL_EPOLLHUP
    static let readHangup = CL_EPOLLRDHUP
}
