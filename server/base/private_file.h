/*
 * private_file: the rule for a secret's file, as ssh applies it to a
 * private key: owned by the user the process runs as (its effective uid)
 * and neither readable nor writable by group or others. It holds for the
 * admin token's file (config.c) and for the key files and their directory
 * (trust/keys.c). A symbolic link is followed: its target is what is
 * checked, and a refusal names both. The TLS private key (tls_key) follows
 * PostgreSQL's rule for its own server key instead: the same, or owned by
 * root and readable by its group at most (Debian's ssl-cert group, 0640).
 */
#ifndef REPLAYD_SERVER_PRIVATE_FILE_H
#define REPLAYD_SERVER_PRIVATE_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* The file open as fd (its target, when path is a link), named path in
 * the message. false with "PATH: mode 0644, must not be readable or
 * writable by group or others (chmod 600 PATH)" or the owner's like. */
bool private_file_fd(int fd, const char *path, char *err, size_t err_len);

/* The same for the file or directory at path (a link followed); a
 * directory's fix is chmod 700. */
bool private_file_path(const char *path, char *err, size_t err_len);

/* The TLS key's rule for the file at path (a link followed). */
bool private_file_tls_key(const char *path, char *err, size_t err_len);

#endif
