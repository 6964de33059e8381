#include "private_file.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* path as a refusal names it: with its target when it is a link. */
static void describe(const char *path, char *out, size_t n)
{
    struct stat ls;
    char target[PATH_MAX];
    ssize_t len = -1;
    if (lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode))
        len = readlink(path, target, sizeof target - 1);
    if (len >= 0) {
        target[len] = '\0';
        snprintf(out, n, "%s (a link to %s)", path, target);
    } else {
        snprintf(out, n, "%s", path);
    }
}

/* root_group: a file owned by root may also be read by its group */
static bool check(const struct stat *st, const char *path, bool root_group, char *err, size_t err_len)
{
    bool dir = S_ISDIR(st->st_mode);
    bool owned = st->st_uid == geteuid();
    bool roots = root_group && st->st_uid == 0; /* root's group may read it */
    if (owned && !(st->st_mode & 077))
        return true;
    if (roots && !(st->st_mode & 037))
        return true;
    char name[2 * PATH_MAX + 16];
    describe(path, name, sizeof name);
    if (!owned && !roots)
        snprintf(err, err_len,
                 "%s: owned by uid %u, must be owned by the user replayd runs as (uid %u)%s: chown it",
                 name, (unsigned)st->st_uid, (unsigned)geteuid(), root_group ? " or by root" : "");
    else if (!owned)
        snprintf(err, err_len,
                 "%s: mode %04o, owned by root it may be readable by its group at most (chmod 640 %s)",
                 name, (unsigned)(st->st_mode & 07777), path);
    else
        snprintf(err, err_len,
                 "%s: mode %04o, must not be readable or writable by group or others (chmod %s %s)",
                 name, (unsigned)(st->st_mode & 07777), dir ? "700" : "600", path);
    return false;
}

bool private_file_fd(int fd, const char *path, char *err, size_t err_len)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(err, err_len, "%s: cannot stat: %s", path, strerror(errno));
        return false;
    }
    return check(&st, path, false, err, err_len);
}

static bool check_path(const char *path, bool root_group, char *err, size_t err_len)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, err_len, "%s: cannot stat: %s", path, strerror(errno));
        return false;
    }
    return check(&st, path, root_group, err, err_len);
}

bool private_file_path(const char *path, char *err, size_t err_len)
{
    return check_path(path, false, err, err_len);
}

bool private_file_tls_key(const char *path, char *err, size_t err_len)
{
    return check_path(path, true, err, err_len);
}
