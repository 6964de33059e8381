/*
 * fail_sync: an LD_PRELOAD shim for fault-injection tests. While the file
 * named by REPLAYD_FAULT_FILE exists, fsync and fdatasync fail with EIO, as
 * a dying disk would; otherwise they pass through. Built by the test that
 * uses it (tests/http/faults.test.mjs).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

static int faulting(void)
{
    const char *path = getenv("REPLAYD_FAULT_FILE");
    return path && access(path, F_OK) == 0;
}

int fsync(int fd)
{
    static int (*real)(int);
    if (faulting()) {
        errno = EIO;
        return -1;
    }
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    return real(fd);
}

int fdatasync(int fd)
{
    static int (*real)(int);
    if (faulting()) {
        errno = EIO;
        return -1;
    }
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    return real(fd);
}
