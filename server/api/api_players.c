/* api_players: registration (the name and the bearer token are made by
 * api_player_new.c: the name checked and NFC-normalised by names.c, the
 * token shown once and stored only as a keyed BLAKE2b hash); the request
 * is suspended until the new player's row committed. */
#include <stdlib.h>
#include <string.h>

#include <stdio.h>

#include "api.h"
#include "../http/netaddr.h"
#include "../trust/names.h"

/* What a registration keeps until its commit: the write, the name it
 * points to, and the bearer token to show once. */
typedef struct registration {
    store_write w;
    char name[STORE_NAME_MAX + 1];
    char token[API_PLAYER_TOKEN_LEN];
} registration;

static void registration_free(void *p)
{
    registration *reg = p;
    if (reg)
        sodium_memzero(reg->token, sizeof reg->token);
    free(reg);
}

static void player_committed(request *r)
{
    registration *reg = r->work;
    if (reg->w.status != STORE_OK) {
        api_store_error(r, reg->w.status);
        return;
    }
    const store_player *p = &reg->w.u.player.created;
    reply_json(r, 201, json_pack("{s:I,s:s,s:s}", "player_id", (json_int_t)p->id, "name", p->name,
                                 "token", reg->token));
}

/* The client's network prefix as text: IPv4 /24 ("192.0.2.0/24"), IPv6
 * /64 ("2001:db8:1:2::/64"); "" for an address that does not parse. */
static void client_prefix(const char *ip, char out[64])
{
    netaddr a;
    out[0] = '\0';
    if (!ip || !netaddr_parse(ip, &a))
        return;
    bool v4 = netaddr_is_v4(&a);
    memset(a.b + (v4 ? 15 : 8), 0, v4 ? 1 : 8);
    char text[NETADDR_TEXT];
    netaddr_format(&a, text);
    snprintf(out, 64, "%s/%d", text, v4 ? 24 : 64);
}

void api_players_create(request *r)
{
    if (!ratelimit_allow(&r->app->limits, "register", r->ip, r->live->rate_register_per_ip,
                         r->started_us)) {
        reply_rate_limited(r, r->live->rate_register_per_ip, "too many registrations from this address");
        return;
    }
    /* one machine has a network of addresses (an IPv6 /64 is one customer) */
    char prefix[NETADDR_TEXT + 4];
    netaddr_prefix_of(r->ip, prefix);
    if (!ratelimit_allow(&r->app->limits, "register_net", prefix, r->live->rate_register_per_prefix,
                         r->started_us)) {
        reply_rate_limited(r, r->live->rate_register_per_prefix,
                           "too many registrations from this network (its /24 or /64)");
        return;
    }
    json_t *doc = req_json_object(r);
    if (!doc)
        return;
    char net[64];
    client_prefix(r->ip, net);
    if (json_object_get(doc, "identity")) {
        api_identity_sign_in(r, doc, net); /* Sign in with Apple or Google */
        return;
    }
    const json_t *name = json_object_get(doc, "name");
    if (json_object_size(doc) != 1 || !json_is_string(name)) {
        json_decref(doc);
        reply_error(r, 400, "bad_request", "expected {\"name\": string} (or {\"identity\": {...}})");
        return;
    }
    char normal[NAMES_MAX_BYTES + 1];
    bool named = api_player_name(r, name, normal);
    json_decref(doc);
    if (!named)
        return;
    registration *reg = calloc(1, sizeof *reg);
    if (!reg) {
        reply_error(r, 500, "internal", "out of memory");
        return;
    }
    req_own(r, reg, registration_free);
    memcpy(reg->name, normal, sizeof reg->name);

    api_new_player_token(r, reg->token, reg->w.u.player.token_hash);
    reg->w.kind = STORE_WRITE_PLAYER;
    reg->w.u.player.name = reg->name;
    reg->w.u.player.now = now_ms();
    memcpy(reg->w.u.player.prefix, net, sizeof net);
    api_write(r, &reg->w, player_committed);
}

