#include "live.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

live_settings *live_from_config(const config *c, live_settings *older, char *err, size_t err_len)
{
    live_settings *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    l->log_requests = c->log_requests;
    l->rate_register_per_ip = c->rate_register_per_ip;
    l->rate_register_per_prefix = c->rate_register_per_prefix;
    l->rate_seeds_per_player = c->rate_seeds_per_player;
    l->rate_scores_per_player = c->rate_scores_per_player;
    l->rate_per_ip = c->rate_per_ip;
    char msg[160];
    if (!netaddr_nets_parse(c->trusted_proxies, &l->trusted_proxies, msg, sizeof msg)) {
        snprintf(err, err_len, "trusted_proxies: %s", msg);
        free(l);
        return NULL;
    }
    char buf[sizeof c->cors_origins];
    snprintf(buf, sizeof buf, "%s", c->cors_origins);
    char *save = NULL;
    for (char *o = strtok_r(buf, ", \t", &save); o; o = strtok_r(NULL, ", \t", &save)) {
        if (strcmp(o, "*") == 0) {
            l->cors_any = true;
            continue;
        }
        bool scheme = strncmp(o, "https://", 8) == 0 || strncmp(o, "http://", 7) == 0;
        if (!scheme || strlen(o) >= LIVE_ORIGIN_LEN || strchr(o + 8, '/') || l->n_origins == LIVE_ORIGINS) {
            snprintf(err, err_len, "cors_origins: \"%s\" is not an origin (scheme://host[:port], at most %d)",
                     o, LIVE_ORIGINS);
            free(l);
            return NULL;
        }
        snprintf(l->origins[l->n_origins++], LIVE_ORIGIN_LEN, "%s", o);
    }
    l->older = older;
    return l;
}

void live_free_all(live_settings *newest)
{
    while (newest) {
        live_settings *older = newest->older;
        free(newest);
        newest = older;
    }
}

bool live_origin_allowed(const live_settings *l, const char *origin)
{
    if (!origin || !*origin)
        return false;
    if (l->cors_any)
        return true;
    for (int i = 0; i < l->n_origins; i++)
        if (strcmp(l->origins[i], origin) == 0)
            return true;
    return false;
}
