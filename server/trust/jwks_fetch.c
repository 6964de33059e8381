/* jwks_fetch: key sets from URLs, fetched and refreshed (see the header). */
#include "jwks_fetch.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curl/curl.h>
#include <jansson.h>

typedef struct source {
    char url[512];      /* "": this provider is not fetched */
    bool has_keys;      /* a file or a fetch gave it keys (for the log) */
    int64_t due_ms;     /* the next fetch, on the monotonic clock */
    int64_t backoff_s;  /* the wait after the next failure */
} source;

struct jwks_fetch {
    identity *id;
    source src[IDP_COUNT];
    int64_t min_s, max_s;
    CURL *curl; /* the thread's (the start's before it runs) */
    pthread_t thread;
    pthread_mutex_t lock; /* with wake: the thread's sleep */
    pthread_cond_t wake;
    atomic_bool stop;
    size_t len; /* of body */
    bool too_big;
    char body[JWKS_FETCH_MAX];
};

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

long jwks_max_age(const char *value)
{
    const char *s = value ? value : "";
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == ',')
            s++;
        size_t n = strcspn(s, ",");
        size_t m = n;
        while (m > 0 && (s[m - 1] == ' ' || s[m - 1] == '\t'))
            m--;
        if (m > 8 && strncasecmp(s, "max-age=", 8) == 0) {
            long v = 0;
            for (size_t i = 8; i < m; i++) {
                if (s[i] < '0' || s[i] > '9')
                    return -1;
                if (v <= JWKS_FETCH_MAX_AGE_MAX / 10)
                    v = v * 10 + (s[i] - '0');
                else
                    v = JWKS_FETCH_MAX_AGE_MAX + 1;
            }
            return v > JWKS_FETCH_MAX_AGE_MAX ? JWKS_FETCH_MAX_AGE_MAX : v;
        }
        s += n;
    }
    return -1;
}

static size_t on_body(char *data, size_t size, size_t n, void *user)
{
    jwks_fetch *f = user;
    size_t add = size * n;
    if (add > JWKS_FETCH_MAX - f->len) {
        f->too_big = true;
        return 0; /* libcurl stops: CURLE_WRITE_ERROR */
    }
    memcpy(f->body + f->len, data, add);
    f->len += add;
    return add;
}

/* A transfer under way ends when the server stops. */
static int on_progress(void *user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                       curl_off_t ulnow)
{
    (void)dltotal;
    (void)dlnow;
    (void)ultotal;
    (void)ulnow;
    jwks_fetch *f = user;
    return atomic_load(&f->stop) ? 1 : 0;
}

/* One GET of url into f->body: true on a 200 within the limits, with
 * *max_age from its Cache-Control (-1: none); false with why. */
static bool get(jwks_fetch *f, const char *url, long *max_age, char *why, size_t why_len)
{
    char cerr[CURL_ERROR_SIZE] = "";
    CURL *c = f->curl;
    curl_easy_reset(c);
    f->len = 0;
    f->too_big = false;
    *max_age = -1;
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, (long)JWKS_FETCH_TIMEOUT_S);
    curl_easy_setopt(c, CURLOPT_MAXFILESIZE, (long)JWKS_FETCH_MAX);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, f);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, f);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, cerr);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "replayd");
    CURLcode rc = curl_easy_perform(c);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, NULL);
    if (f->too_big || rc == CURLE_FILESIZE_EXCEEDED) {
        snprintf(why, why_len, "over %d bytes", JWKS_FETCH_MAX);
        return false;
    }
    if (rc != CURLE_OK) {
        snprintf(why, why_len, "%s", cerr[0] ? cerr : curl_easy_strerror(rc));
        return false;
    }
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    if (status != 200) {
        snprintf(why, why_len, "HTTP status %ld", status);
        return false;
    }
    struct curl_header *h;
    for (size_t i = 0; curl_easy_header(c, "Cache-Control", i, CURLH_HEADER, -1, &h) == CURLHE_OK; i++) {
        long m = jwks_max_age(h->value);
        if (m >= 0) {
            *max_age = m;
            break;
        }
        if (i + 1 >= h->amount)
            break;
    }
    return true;
}

/* One JSON line on stderr; o is taken. */
static void log_line(json_t *o)
{
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    if (text)
        fprintf(stderr, "%s\n", text);
    free(text);
    json_decref(o);
}

/* Fetches provider p's key set, hands it over, and sets when to try next. */
static void refresh(jwks_fetch *f, identity_provider p)
{
    source *s = &f->src[p];
    char why[CURL_ERROR_SIZE + 64];
    char perr[200];
    long max_age;
    bool ok = get(f, s->url, &max_age, why, sizeof why);
    if (ok && !identity_set_keys(f->id, p, f->body, f->len, perr, sizeof perr)) {
        snprintf(why, sizeof why, "not a key set: %s", perr);
        ok = false;
    }
    int64_t wait_s;
    if (ok) {
        /* before expiry: at 80% of max-age, within min and max */
        int64_t wait_ms = max_age < 0 ? f->max_s * 1000 : (int64_t)max_age * 800;
        if (wait_ms < f->min_s * 1000)
            wait_ms = f->min_s * 1000;
        if (wait_ms > f->max_s * 1000)
            wait_ms = f->max_s * 1000;
        s->has_keys = true;
        s->backoff_s = f->min_s;
        s->due_ms = mono_ms() + wait_ms;
        wait_s = (wait_ms + 999) / 1000;
        log_line(json_pack("{s:s, s:s, s:o, s:I}", "event", "jwks_refreshed", "provider",
                           identity_provider_name(p), "max_age",
                           max_age < 0 ? json_null() : json_integer(max_age), "next_in_s",
                           (json_int_t)wait_s));
        return;
    }
    if (atomic_load(&f->stop))
        return; /* aborted by jwks_fetch_stop: nothing to say */
    wait_s = s->backoff_s;
    s->backoff_s = s->backoff_s * 2 > f->max_s ? f->max_s : s->backoff_s * 2;
    s->due_ms = mono_ms() + wait_s * 1000;
    log_line(json_pack("{s:s, s:s, s:s, s:b, s:I}", "event", "jwks_refresh_failed", "provider",
                       identity_provider_name(p), "why", why, "keys_kept", s->has_keys,
                       "retry_in_s", (json_int_t)wait_s));
}

static void *run(void *arg)
{
    jwks_fetch *f = arg;
    pthread_mutex_lock(&f->lock);
    while (!atomic_load(&f->stop)) {
        int next = -1;
        for (int p = 0; p < IDP_COUNT; p++)
            if (f->src[p].url[0] && (next < 0 || f->src[p].due_ms < f->src[next].due_ms))
                next = p;
        if (next < 0)
            break;
        int64_t due = f->src[next].due_ms;
        if (mono_ms() >= due) {
            pthread_mutex_unlock(&f->lock);
            refresh(f, (identity_provider)next);
            pthread_mutex_lock(&f->lock);
            continue;
        }
        struct timespec ts = { .tv_sec = (time_t)(due / 1000), .tv_nsec = (long)(due % 1000) * 1000000 };
        pthread_cond_timedwait(&f->wake, &f->lock, &ts);
    }
    pthread_mutex_unlock(&f->lock);
    return NULL;
}

bool jwks_fetch_start(jwks_fetch **out, identity *id, const char *const urls[IDP_COUNT],
                      const char *const files[IDP_COUNT], int min_s, int max_s, char *err,
                      size_t err_len)
{
    *out = NULL;
    bool any = false;
    for (int p = 0; p < IDP_COUNT; p++) {
        if (!urls[p] || !urls[p][0])
            continue;
        any = true;
        if (strlen(urls[p]) >= sizeof ((source *)NULL)->url) {
            snprintf(err, err_len, "identity_%s_jwks_url: too long", identity_provider_name((identity_provider)p));
            return false;
        }
    }
    if (!any)
        return true;
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(err, err_len, "identity JWKS URLs: libcurl does not start");
        return false;
    }
    jwks_fetch *f = calloc(1, sizeof *f);
    if (!f || !(f->curl = curl_easy_init())) {
        free(f);
        curl_global_cleanup();
        snprintf(err, err_len, "identity JWKS URLs: out of memory");
        return false;
    }
    f->id = id;
    f->min_s = min_s < 1 ? 1 : min_s;
    f->max_s = max_s < f->min_s ? f->min_s : max_s;
    atomic_init(&f->stop, false);
    for (int p = 0; p < IDP_COUNT; p++) {
        source *s = &f->src[p];
        s->backoff_s = f->min_s;
        s->has_keys = files[p] && files[p][0];
        if (urls[p] && urls[p][0]) {
            snprintf(s->url, sizeof s->url, "%s", urls[p]);
            refresh(f, (identity_provider)p); /* before serving */
        }
    }
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&f->lock, NULL);
    pthread_cond_init(&f->wake, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&f->thread, NULL, run, f) != 0) {
        pthread_cond_destroy(&f->wake);
        pthread_mutex_destroy(&f->lock);
        curl_easy_cleanup(f->curl);
        free(f);
        curl_global_cleanup();
        snprintf(err, err_len, "identity JWKS URLs: cannot start a thread");
        return false;
    }
    *out = f;
    return true;
}

void jwks_fetch_stop(jwks_fetch *f)
{
    if (!f)
        return;
    pthread_mutex_lock(&f->lock);
    atomic_store(&f->stop, true);
    pthread_cond_signal(&f->wake);
    pthread_mutex_unlock(&f->lock);
    pthread_join(f->thread, NULL);
    pthread_cond_destroy(&f->wake);
    pthread_mutex_destroy(&f->lock);
    curl_easy_cleanup(f->curl);
    free(f);
    curl_global_cleanup();
}
