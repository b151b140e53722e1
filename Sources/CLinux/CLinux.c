#define _GNU_SOURCE
#include <sys/socket.h>
#include <sched.h>
#include <pthread.h>
#include <string.h>
#include <errno.h>
#include "CLinux.h"

int cl_accept4(int fd, struct sockaddr *addr, socklen_t *len) {
    return accept4(fd, addr, len, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int cl_allowed_cpus(int *cpus, int capacity) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    int count = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && count < capacity; cpu++) {
        if (CPU_ISSET(cpu, &set)) cpus[count++] = cpu;
    }
    return count;
}

int cl_pin_thread(pthread_t thread, int cpu) {
    if (cpu < 0 || cpu >= CPU_SETSIZE) return EINVAL;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(thread, sizeof set, &set);
}

int cl_unpin_thread(pthread_t thread) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return errno;
    return pthread_setaffinity_np(thread, sizeof set, &set);
}

int cl_name_thread(pthread_t thread, const char *name) {
    /* Linux keeps at most 15 bytes of a thread's name. */
    char shortened[16];
    strncpy(shortened, name, sizeof shortened - 1);
    shortened[sizeof shortened - 1] = 0;
    return pthread_setname_np(thread, shortened);
}
