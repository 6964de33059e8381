/*
 * tracer.c: the -finstrument-functions hooks of the trace build
 * (make MODE=trace, tools/submission_trace/README.md). Linked into
 * bin/replayd only in that build; nothing of it is in the release build.
 *
 * Every instrumented function's entry and exit appends one record
 * (thread, enter/exit, function address, call site) to a preallocated
 * buffer, but only while tracing is on. SIGUSR1 turns it on; SIGUSR2
 * turns it off and writes the records to the file named by
 * $REPLAYD_TRACE_OUT (binary, struct trace_rec in order of the buffer;
 * written beside it and renamed, so it appears whole),
 * so start-up and the untraced requests are left out.
 *
 * The buffer is appended to with one atomic fetch-add: records of
 * different threads interleave, but each thread's records are in its own
 * order, which is all the analysis (analyze.py) reads.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NI __attribute__((no_instrument_function))

struct trace_rec {
    uint32_t tid;
    uint32_t kind; /* 1 enter, 2 exit */
    uint64_t fn;
    uint64_t site;
};

#define TRACE_CAP (4u << 20) /* 4M records, 96 MiB of address space */

static struct trace_rec *buf;
static atomic_size_t used;
static atomic_int on;
static char out_path[4096];
static char tmp_path[4100];
static _Thread_local uint32_t my_tid;

void __cyg_profile_func_enter(void *fn, void *site) NI;
void __cyg_profile_func_exit(void *fn, void *site) NI;

static inline void NI put(uint32_t kind, void *fn, void *site)
{
    if (!atomic_load_explicit(&on, memory_order_relaxed))
        return;
    size_t i = atomic_fetch_add_explicit(&used, 1, memory_order_relaxed);
    if (i >= TRACE_CAP)
        return;
    if (!my_tid)
        my_tid = (uint32_t)syscall(SYS_gettid);
    buf[i].tid = my_tid;
    buf[i].kind = kind;
    buf[i].fn = (uint64_t)(uintptr_t)fn;
    buf[i].site = (uint64_t)(uintptr_t)site;
}

void __cyg_profile_func_enter(void *fn, void *site)
{
    put(1, fn, site);
}

void __cyg_profile_func_exit(void *fn, void *site)
{
    put(2, fn, site);
}

/* write(2) only: this runs in a signal handler. */
static void NI dump(void)
{
    if (!out_path[0])
        return;
    int fd = open(tmp_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return;
    size_t n = atomic_load(&used);
    if (n > TRACE_CAP)
        n = TRACE_CAP;
    const char *p = (const char *)buf;
    size_t left = n * sizeof *buf;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w <= 0)
            break;
        p += w;
        left -= (size_t)w;
    }
    close(fd);
    rename(tmp_path, out_path); /* whole or absent, for the driver */
}

static void NI on_signal(int sig)
{
    if (sig == SIGUSR1) {
        atomic_store(&used, 0);
        atomic_store(&on, 1);
    } else {
        atomic_store(&on, 0);
        /* a thread that read "on" just before may still be writing its
         * record: give it a moment (the driver waits far longer anyway) */
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
        dump();
    }
}

__attribute__((constructor)) static void NI trace_init(void)
{
    const char *p = getenv("REPLAYD_TRACE_OUT");
    if (p && strlen(p) < sizeof out_path) {
        strcpy(out_path, p);
        strcpy(tmp_path, p);
        strcat(tmp_path, ".tmp");
    }
    buf = calloc(TRACE_CAP, sizeof *buf);
    if (!buf)
        abort();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGUSR1, &sa, NULL);
    sigaction(SIGUSR2, &sa, NULL);
}
