/*
 * store_signals: the one way the store's own passes (twins, parallel
 * play, the new-account hold) add a record to a score's signals or take
 * it back when the batch is undone.
 *
 * Ownership: sc->signals_json (the store's malloc'd text) is replaced by
 * new text on success and left as it was on failure; store_signal_set
 * takes the reference to value whatever happens.
 */
#include <stdlib.h>

#include <jansson.h>

#include "store_rules.h"

static json_t *signals_of(const store_score *sc)
{
    json_t *sig = json_loads(sc->signals_json ? sc->signals_json : "{}", 0, NULL);
    if (!json_is_object(sig)) {
        json_decref(sig);
        sig = json_object();
    }
    return sig;
}

static store_status replace(store_score *sc, json_t *sig)
{
    char *text = sig ? json_dumps(sig, JSON_COMPACT) : NULL;
    json_decref(sig);
    if (!text)
        return STORE_ERROR;
    free(sc->signals_json);
    sc->signals_json = text;
    return STORE_OK;
}

store_status store_signal_set(store_score *sc, const char *key, json_t *value)
{
    json_t *sig = signals_of(sc);
    if (!sig || !value || json_object_set_new(sig, key, value) != 0) {
        if (!sig || !value)
            json_decref(value);
        json_decref(sig);
        return STORE_ERROR;
    }
    return replace(sc, sig);
}

void store_signal_drop(store_score *sc, const char *key)
{
    json_t *sig = signals_of(sc);
    if (sig && json_object_del(sig, key) == 0)
        (void)replace(sc, sig);
    else
        json_decref(sig);
}
