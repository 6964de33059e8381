/*
 * store_log: the store's one error line, {"event":"store_error","where":
 * ...,"detail":...} on stderr (store_backend.h). A leaf: the backends, the
 * rules and store.c log through it and it calls nothing of theirs.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "store_backend.h"

void store_log_error(const char *where, const char *detail)
{
    json_t *line = json_pack("{s:s,s:s,s:s}", "event", "store_error", "where", where, "detail",
                             detail ? detail : "");
    char *text = line ? json_dumps(line, JSON_COMPACT) : NULL;
    if (text)
        fprintf(stderr, "%s\n", text);
    free(text);
    json_decref(line);
}
