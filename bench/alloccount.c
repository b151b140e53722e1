/*
 * Heap allocation counter for bench/profile.sh, loaded with LD_PRELOAD into a proxy.
 *
 * Interposes malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign and free, counts
 * the calls (relaxed atomics: the counts are read as running totals, never to order anything)
 * and forwards them to the C library.
 *
 * The totals are written on request, not periodically, so the counter makes no system call
 * while strace counts the proxy's: a detached thread (named "alloccount", every signal
 * blocked) waits in read() on the FIFO $ALLOCCOUNT_DIR/<pid>.fifo; each time something is
 * written to it (`echo > <pid>.fifo`), the thread rewrites $ALLOCCOUNT_DIR/<pid> with
 * "SEQUENCE ALLOCS FREES\n", SEQUENCE counting the requests. profile.sh asks before and after a
 * wrk run and divides the difference by the requests wrk made.
 *
 *   gcc -O2 -shared -fPIC -o alloccount.so alloccount.c -ldl -pthread
 *
 * Forked children (nginx's workers) get their own files: an atfork handler starts them at zero
 * and restarts the thread, which fork does not copy. The directory is read once, in the
 * constructor, because nginx clears the environment of its workers.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static void *(*real_memalign)(size_t, size_t);
static void (*real_free)(void *);

static _Atomic unsigned long long allocs;
static _Atomic unsigned long long frees;
static char out_dir[512];

/* dlsym itself may allocate (calloc for its error state) before the real functions are
 * known: those calls are served from this arena and their blocks are never freed. */
static _Alignas(64) char arena[64 * 1024];
static size_t arena_used;
static int resolving;

static int from_arena(const void *p) {
    return (const char *)p >= arena && (const char *)p < arena + sizeof(arena);
}

static void *arena_alloc(size_t size) {
    size_t start = (arena_used + 15) & ~(size_t)15;
    if (size > sizeof(arena) - start) return NULL;
    arena_used = start + size;
    return arena + start;
}

static void resolve(void) {
    if (real_malloc || resolving) return;
    resolving = 1;
    real_calloc = dlsym(RTLD_NEXT, "calloc");
    real_realloc = dlsym(RTLD_NEXT, "realloc");
    real_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
    real_aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
    real_memalign = dlsym(RTLD_NEXT, "memalign");
    real_free = dlsym(RTLD_NEXT, "free");
    real_malloc = dlsym(RTLD_NEXT, "malloc");
    resolving = 0;
}

static inline void count_alloc(void) { atomic_fetch_add_explicit(&allocs, 1, memory_order_relaxed); }

void *malloc(size_t size) {
    resolve();
    if (!real_malloc) return arena_alloc(size);
    count_alloc();
    return real_malloc(size);
}

void *calloc(size_t n, size_t size) {
    resolve();
    if (!real_calloc) {
        if (size && n > SIZE_MAX / size) return NULL;
        return arena_alloc(n * size);   /* static storage: already zero */
    }
    count_alloc();
    return real_calloc(n, size);
}

void *realloc(void *p, size_t size) {
    resolve();
    if (from_arena(p) || !real_realloc) {
        void *q = malloc(size);
        if (q && p) {
            size_t tail = (size_t)(arena + sizeof(arena) - (char *)p);   /* the block's upper bound */
            memcpy(q, p, size < tail ? size : tail);
        }
        return q;
    }
    count_alloc();
    return real_realloc(p, size);
}

int posix_memalign(void **out, size_t align, size_t size) {
    resolve();
    if (!real_posix_memalign) return ENOMEM;
    count_alloc();
    return real_posix_memalign(out, align, size);
}

void *aligned_alloc(size_t align, size_t size) {
    resolve();
    if (!real_aligned_alloc) return NULL;
    count_alloc();
    return real_aligned_alloc(align, size);
}

void *memalign(size_t align, size_t size) {
    resolve();
    if (!real_memalign) return NULL;
    count_alloc();
    return real_memalign(align, size);
}

void free(void *p) {
    if (!p || from_arena(p)) return;
    resolve();
    if (!real_free) return;
    atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
    real_free(p);
}

/* Rewrites the whole file in place (fixed width, so a shorter number leaves no digits behind). */
static void write_totals(int fd, unsigned long long seq) {
    char line[96];
    int n = snprintf(line, sizeof line, "%20llu %20llu %20llu\n", seq,
                     atomic_load_explicit(&allocs, memory_order_relaxed),
                     atomic_load_explicit(&frees, memory_order_relaxed));
    if (n > 0) (void)!pwrite(fd, line, (size_t)n, 0);
}

/* The thread's two descriptors, opened before it starts (see start_writer). */
struct channel { int fifo; int totals; };
static struct channel chan = {-1, -1};

static void *writer(void *arg) {
    struct channel *c = arg;
    char buf[64];
    unsigned long long seq = 0;
    write_totals(c->totals, seq);
    for (;;) {
        /* The FIFO is open for reading and writing, so read() waits for a poke instead of
         * returning end-of-file when a poker closes it. Pokes that arrive together coalesce. */
        ssize_t n = read(c->fifo, buf, sizeof buf);
        if (n > 0) write_totals(c->totals, ++seq);
        else if (n < 0 && errno != EINTR) return NULL;
    }
}

static void start_writer(void) {
    char path[600], fifo[640];
    pthread_t t;
    pthread_attr_t attr;
    sigset_t all, old;
    if (!out_dir[0]) return;
    /* Opened here, by the caller, so they are open before a forked nginx worker switches to
     * an unprivileged user (it could not create them in the directory afterwards). */
    snprintf(path, sizeof path, "%s/%ld", out_dir, (long)getpid());
    snprintf(fifo, sizeof fifo, "%s.fifo", path);
    unlink(fifo);   /* a reused pid's leftover */
    if (mkfifo(fifo, 0600) != 0) return;
    chan.fifo = open(fifo, O_RDWR | O_CLOEXEC);
    chan.totals = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (chan.fifo < 0 || chan.totals < 0) return;
    /* The thread inherits a full signal mask: the proxy's signals (nginx's master waits for
     * them in sigsuspend) must never be delivered to it. */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, writer, &chan) == 0) {
        /* profile.sh knows the thread by this name. */
        pthread_setname_np(t, "alloccount");
    }
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void in_child(void) {
    /* The parent's descriptors: the child gets its own files. */
    if (chan.fifo > 0) close(chan.fifo);
    if (chan.totals > 0) close(chan.totals);
    chan.fifo = chan.totals = -1;
    atomic_store_explicit(&allocs, 0, memory_order_relaxed);
    atomic_store_explicit(&frees, 0, memory_order_relaxed);
    start_writer();
}

__attribute__((constructor)) static void alloccount_init(void) {
    resolve();
    const char *dir = getenv("ALLOCCOUNT_DIR");
    if (!dir || !dir[0] || strlen(dir) >= sizeof out_dir) return;
    strcpy(out_dir, dir);
    pthread_atfork(NULL, NULL, in_child);
    start_writer();
}
