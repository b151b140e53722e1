/*
 * Heap allocation counter for bench/profile.sh, loaded with LD_PRELOAD into a proxy.
 *
 * Interposes malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign and free, counts
 * the calls (relaxed atomics: the counts are read as running totals, never to order anything)
 * and forwards them to the C library. A detached thread writes the process's running totals,
 * "ALLOCS FREES\n", to $ALLOCCOUNT_DIR/<pid> every 100 ms; profile.sh reads the files before
 * and after a wrk run and divides the difference by the requests wrk made.
 *
 *   gcc -O2 -shared -fPIC -o alloccount.so alloccount.c -ldl -pthread
 *
 * Forked children (nginx's workers) get their own file: an atfork handler starts them at zero
 * and restarts the writer thread, which fork does not copy. The directory is read once, in the
 * constructor, because nginx clears the environment of its workers.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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
static void write_totals(int fd) {
    char line[64];
    int n = snprintf(line, sizeof line, "%20llu %20llu\n",
                     atomic_load_explicit(&allocs, memory_order_relaxed),
                     atomic_load_explicit(&frees, memory_order_relaxed));
    if (n > 0) (void)!pwrite(fd, line, (size_t)n, 0);
}

static void *writer(void *unused) {
    (void)unused;
    char path[600];
    snprintf(path, sizeof path, "%s/%ld", out_dir, (long)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return NULL;
    unsigned long long last = ~0ULL;
    const struct timespec period = {0, 100 * 1000 * 1000};
    for (;;) {
        /* Only when something changed: an idle proxy under strace sees just the sleeps. */
        unsigned long long now = atomic_load_explicit(&allocs, memory_order_relaxed)
                               + atomic_load_explicit(&frees, memory_order_relaxed);
        if (now != last) {
            write_totals(fd);
            last = now;
        }
        nanosleep(&period, NULL);
    }
    return NULL;
}

static void start_writer(void) {
    pthread_t t;
    pthread_attr_t attr;
    if (!out_dir[0]) return;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, writer, NULL) == 0) {
        /* profile.sh knows the thread by this name. */
        pthread_setname_np(t, "alloccount");
    }
    pthread_attr_destroy(&attr);
}

static void in_child(void) {
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
