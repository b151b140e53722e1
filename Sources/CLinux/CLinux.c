#define _GNU_SOURCE
#include <sys/socket.h>
#include "CLinux.h"

int cl_accept4(int fd, struct sockaddr *addr, socklen_t *len) {
    return accept4(fd, addr, len, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
