#ifndef FAULTLINE_CLINUX_H
#define FAULTLINE_CLINUX_H
/* Linux interfaces that Glibc's Swift overlay does not expose. */
/* _GNU_SOURCE would make these headers disagree with Glibc's Swift module, so functions
   that need it (accept4) are defined in CLinux.c and only declared here. */
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/ioctl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <signal.h>
#include <pthread.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <time.h>
#include <stdint.h>

int cl_accept4(int fd, struct sockaddr *addr, socklen_t *len);
/* The CPUs the calling thread may run on (its affinity mask), ascending, at most `capacity` of
   them written to `cpus`; returns how many, or -1 with errno set. */
int cl_allowed_cpus(int *cpus, int capacity);
/* Binds `thread` to the one CPU `cpu`; returns 0 or an errno value. */
int cl_pin_thread(pthread_t thread, int cpu);
/* Lets `thread` run on every CPU the calling thread may run on; returns 0 or an errno value. */
int cl_unpin_thread(pthread_t thread);
/* Names `thread` (as top -H and /proc/PID/task/TID/comm show it), cut to 15 bytes; returns 0
   or an errno value. */
int cl_name_thread(pthread_t thread, const char *name);
static inline int cl_socket_nonblocking(int domain, int type) {
    return socket(domain, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}
static inline int cl_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
static inline int cl_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static const uint32_t CL_EPOLLIN = EPOLLIN;
static const uint32_t CL_EPOLLOUT = EPOLLOUT;
static const uint32_t CL_EPOLLERR = EPOLLERR;
static const uint32_t CL_EPOLLHUP = EPOLLHUP;
static const uint32_t CL_EPOLLRDHUP = EPOLLRDHUP;
static const uint32_t CL_EPOLLET = EPOLLET;

static inline int cl_errno(void) { return errno; }
static inline int cl_send_nosignal(int fd, const void *buf, size_t len) {
    return (int)send(fd, buf, len, MSG_NOSIGNAL);
}
static inline ssize_t cl_writev(int fd, const struct iovec *iov, int count) {
    struct msghdr msg = {0};
    msg.msg_iov = (struct iovec *)iov;
    msg.msg_iovlen = (size_t)count;
    return sendmsg(fd, &msg, MSG_NOSIGNAL);
}
/* Abortive close: the peer sees RST instead of FIN. */
static inline int cl_set_linger_zero(int fd) {
    struct linger l = { .l_onoff = 1, .l_linger = 0 };
    return setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
}
static inline int cl_set_int_option(int fd, int level, int name, int value) {
    return setsockopt(fd, level, name, &value, sizeof value);
}
/* Bytes waiting in the receive buffer, or -1. */
static inline int cl_readable_bytes(int fd) {
    int count = 0;
    if (ioctl(fd, FIONREAD, &count) != 0) return -1;
    return count;
}
static inline int cl_socket_error(int fd) {
    int err = 0; socklen_t len = sizeof err;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) return errno;
    return err;
}
static inline uint64_t cl_monotonic_ns(void) {
    struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
/* Blocks SIGHUP, SIGTERM, SIGINT and SIGPIPE in the calling thread (and threads it
   starts later) so that one thread can take them with sigwait. */
static inline int cl_block_signals(void) {
    sigset_t set; sigemptyset(&set);
    sigaddset(&set, SIGHUP); sigaddset(&set, SIGTERM); sigaddset(&set, SIGINT); sigaddset(&set, SIGPIPE);
    return pthread_sigmask(SIG_BLOCK, &set, NULL);
}
/* Waits for SIGHUP, SIGTERM or SIGINT; returns the signal number. */
static inline int cl_wait_signal(void) {
    sigset_t set; sigemptyset(&set);
    sigaddset(&set, SIGHUP); sigaddset(&set, SIGTERM); sigaddset(&set, SIGINT);
    int sig = 0;
    if (sigwait(&set, &sig) != 0) return -1;
    return sig;
}
static const int CL_SIGHUP = SIGHUP;
static const int CL_SIGTERM = SIGTERM;
static const int CL_SIGINT = SIGINT;
#endif
