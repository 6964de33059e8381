#include "fairplay_book.h"

#include <stdlib.h>
#include <string.h>

struct fairplay_book_board {
    bool used;
    store_board key;
    int n;    /* paces held, up to FAIRPLAY_BOOK_RUNS */
    int next; /* the slot the next pace overwrites once full */
    int32_t pace[FAIRPLAY_BOOK_RUNS];
    int ln, lnext; /* search paces (find_log_mean) held, and the next slot */
    int32_t log_mean[FAIRPLAY_BOOK_RUNS];
    int64_t lsum, lsq; /* their sum and sum of squares */
    uint32_t gen;      /* bumped whenever another board takes the slot over */
};

struct fairplay_book_player {
    int64_t player_id; /* 0: unused (player ids start at 1) */
    int n, next;
    int32_t slack[FAIRPLAY_BOOK_HISTORY];
    int fn, fnext; /* search paces held, and the next slot */
    struct fairplay_book_pace {
        int32_t board;    /* its board's slot, -1: none */
        uint32_t gen;     /* ... while that board held it */
        int32_t log_mean; /* the run's search pace */
        int32_t se2;      /* its squared standard error */
        int32_t resid;    /* against the board's mean when it was recorded (FORM_NONE: none) */
        int32_t noise;    /* ... and that residual's variance without form */
        bool on_board;    /* its log_mean joined the board's */
    } pace[FAIRPLAY_BOOK_FORM_HISTORY];
};

bool fairplay_book_init(fairplay_book *b)
{
    memset(b, 0, sizeof *b);
    b->boards = calloc(FAIRPLAY_BOOK_BOARDS, sizeof *b->boards);
    b->players = calloc(FAIRPLAY_BOOK_PLAYERS, sizeof *b->players);
    if (!b->boards || !b->players || pthread_mutex_init(&b->lock, NULL) != 0) {
        free(b->boards);
        free(b->players);
        b->boards = NULL;
        b->players = NULL;
        return false;
    }
    return true;
}

void fairplay_book_free(fairplay_book *b)
{
    if (!b->boards)
        return;
    pthread_mutex_destroy(&b->lock);
    free(b->boards);
    free(b->players);
    b->boards = NULL;
    b->players = NULL;
}

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

static bool same_board(const store_board *a, const store_board *b)
{
    return a->day == b->day && a->g == b->g && a->level == b->level;
}

/* With the lock held: the board's slot, or NULL when another holds it
 * (create: the board takes the slot over). */
static fairplay_book_board *board_slot(fairplay_book *b, const store_board *key, bool create)
{
    uint64_t h = mix((uint64_t)(uintptr_t)key->g * 31 + (uint64_t)(uint32_t)key->day * 977 +
                     (uint64_t)key->level);
    fairplay_book_board *s = &b->boards[h % FAIRPLAY_BOOK_BOARDS];
    if (s->used && same_board(&s->key, key))
        return s;
    if (!create)
        return NULL;
    s->used = true;
    s->key = *key;
    s->n = s->next = s->ln = s->lnext = 0;
    s->lsum = s->lsq = 0;
    s->gen++;
    return s;
}

static fairplay_book_player *player_slot(fairplay_book *b, int64_t id, bool create)
{
    fairplay_book_player *s = &b->players[mix((uint64_t)id) % FAIRPLAY_BOOK_PLAYERS];
    if (s->player_id == id)
        return s;
    if (!create)
        return NULL;
    s->player_id = id;
    s->n = s->next = s->fn = s->fnext = 0;
    return s;
}

static int32_t clamp32(int64_t v)
{
    return v > INT32_MAX ? INT32_MAX : (int32_t)v;
}

int64_t fairplay_book_percentile(fairplay_book *b, const store_board *board, int64_t pace)
{
    if (pace < 0)
        return -1;
    int64_t slower2 = 0, n = 0; /* twice the slower count: a tie counts half */
    int32_t p = clamp32(pace);
    pthread_mutex_lock(&b->lock);
    const fairplay_book_board *s = board_slot(b, board, false);
    if (s) {
        n = s->n;
        for (int i = 0; i < s->n; i++)
            slower2 += s->pace[i] > p ? 2 : s->pace[i] == p ? 1 : 0;
    }
    pthread_mutex_unlock(&b->lock);
    return n < FAIRPLAY_BOOK_MIN_RUNS ? -1 : slower2 * 1000 / (2 * n);
}

int64_t fairplay_book_routine(fairplay_book *b, int64_t player_id, int64_t slack)
{
    if (slack < 0)
        return -1;
    int64_t v[FAIRPLAY_BOOK_HISTORY + 1];
    int n = 0;
    pthread_mutex_lock(&b->lock);
    const fairplay_book_player *s = player_slot(b, player_id, false);
    for (int i = 0; s && i < s->n; i++)
        v[n++] = s->slack[i];
    pthread_mutex_unlock(&b->lock);
    v[n++] = slack;
    if (n < FAIRPLAY_BOOK_MIN_HISTORY)
        return -1;
    int64_t sum = 0, sq = 0;
    for (int i = 0; i < n; i++)
        sum += v[i];
    int64_t mean = sum / n;
    for (int i = 0; i < n; i++)
        sq += (v[i] - mean) * (v[i] - mean);
    if (mean <= 0)
        return 0; /* every run at the floors: no spread at all */
    int64_t var = sq / n, sd = 0;
    for (int64_t bit = (int64_t)1 << 31; bit; bit >>= 1) /* the integer square root */
        if ((sd + bit) * (sd + bit) <= var)
            sd += bit;
    return sd * 1000 / mean;
}

void fairplay_book_add(fairplay_book *b, const store_board *board, int64_t player_id, int64_t pace,
                       int64_t slack)
{
    pthread_mutex_lock(&b->lock);
    if (pace >= 0) {
        fairplay_book_board *s = board_slot(b, board, true);
        s->pace[s->next] = clamp32(pace);
        s->next = (s->next + 1) % FAIRPLAY_BOOK_RUNS;
        if (s->n < FAIRPLAY_BOOK_RUNS)
            s->n++;
    }
    if (slack >= 0) {
        fairplay_book_player *s = player_slot(b, player_id, true);
        s->slack[s->next] = clamp32(slack);
        s->next = (s->next + 1) % FAIRPLAY_BOOK_HISTORY;
        if (s->n < FAIRPLAY_BOOK_HISTORY)
            s->n++;
    }
    pthread_mutex_unlock(&b->lock);
}

#define FORM_NONE INT32_MIN /* a history entry without a residual of its own */

/* With the lock held: the residual of a search pace against its board's
 * mean (without the pace itself when it is one of the board's), and that
 * residual's variance without form: se2 plus the squared standard error
 * of the board's mean. false below FAIRPLAY_BOOK_FORM_MIN_RUNS others. */
static bool residual(const fairplay_book_board *s, int64_t log_mean, int64_t se2, bool on_board,
                     int64_t *resid, int64_t *noise)
{
    int64_t m = s->ln, sum = s->lsum, sq = s->lsq;
    if (on_board && s->ln < FAIRPLAY_BOOK_RUNS) { /* still among the board's paces: leave it out */
        m--;
        sum -= log_mean;
        sq -= log_mean * log_mean;
    }
    if (m < FAIRPLAY_BOOK_FORM_MIN_RUNS)
        return false;
    int64_t dev2 = sq * m - sum * sum; /* m^2 x the variance of the board's paces */
    *resid = log_mean - sum / m;
    *noise = se2 + (dev2 > 0 ? dev2 / (m * (m - 1)) / m : 0);
    return true;
}

int64_t fairplay_book_form(fairplay_book *b, const store_board *board, int64_t player_id, int64_t log_mean,
                           int64_t se2, int *runs)
{
    *runs = 0;
    if (log_mean < 0 || se2 < 0)
        return -1;
    int64_t r[FAIRPLAY_BOOK_FORM_HISTORY + 1], e[FAIRPLAY_BOOK_FORM_HISTORY + 1];
    int n = 0;
    pthread_mutex_lock(&b->lock);
    const fairplay_book_board *s = board_slot(b, board, false);
    if (s && residual(s, log_mean, se2, false, &r[n], &e[n]))
        n++;
    const fairplay_book_player *p = player_slot(b, player_id, false);
    for (int i = 0; p && i < p->fn; i++) {
        /* each earlier run against its board as the board stands now (its
         * mean better known than when the run was judged), else as it stood */
        const struct fairplay_book_pace *h = &p->pace[i];
        const fairplay_book_board *hb = h->board >= 0 ? &b->boards[h->board] : NULL;
        if (hb && hb->used && hb->gen == h->gen &&
            residual(hb, h->log_mean, h->se2, h->on_board, &r[n], &e[n]))
            n++;
        else if (h->resid != FORM_NONE) {
            r[n] = h->resid;
            e[n++] = h->noise;
        }
    }
    pthread_mutex_unlock(&b->lock);
    if (n < FAIRPLAY_BOOK_FORM_MIN_HISTORY)
        return -1;
    *runs = n;
    /* Cochran's Q: the residuals' squared deviations from their mean
     * weighted by 1/noise (2^30 / noise here), each over its own noise */
    int64_t wsum = 0, wrsum = 0;
    for (int i = 0; i < n; i++) {
        if (e[i] <= 0)
            e[i] = 1;
        wsum += ((int64_t)1 << 30) / e[i];
        wrsum += r[i] * (((int64_t)1 << 30) / e[i]);
    }
    int64_t mean = wsum > 0 ? wrsum / wsum : 0, q = 0;
    for (int i = 0; i < n; i++)
        q += (r[i] - mean) * (r[i] - mean) * 1000 / e[i];
    /* x 1000 per degree of freedom: near 1000 for runs drawn from one distribution */
    return q / (n - 1);
}

void fairplay_book_add_form(fairplay_book *b, const store_board *board, int64_t player_id, int64_t log_mean,
                            int64_t se2, bool ranked)
{
    if (log_mean < 0 || se2 < 0)
        return;
    pthread_mutex_lock(&b->lock);
    /* the board is remembered even for a held run: the run's residual
     * counts once its board knows enough ranked runs */
    fairplay_book_board *s = board_slot(b, board, true);
    struct fairplay_book_pace h = { (int32_t)(s - b->boards), s->gen, clamp32(log_mean), clamp32(se2), FORM_NONE,
                                    -1, false };
    int64_t resid, noise;
    if (residual(s, log_mean, se2, false, &resid, &noise)) {
        h.resid = resid < INT32_MIN + 1 ? INT32_MIN + 1 : clamp32(resid);
        h.noise = clamp32(noise);
    }
    if (ranked) {
        if (s->ln == FAIRPLAY_BOOK_RUNS) { /* the oldest pace makes way */
            int64_t old = s->log_mean[s->lnext];
            s->lsum -= old;
            s->lsq -= old * old;
        }
        s->log_mean[s->lnext] = h.log_mean;
        s->lsum += h.log_mean;
        s->lsq += (int64_t)h.log_mean * h.log_mean;
        s->lnext = (s->lnext + 1) % FAIRPLAY_BOOK_RUNS;
        if (s->ln < FAIRPLAY_BOOK_RUNS)
            s->ln++;
        h.on_board = true;
    }
    fairplay_book_player *p = player_slot(b, player_id, true);
    p->pace[p->fnext] = h;
    p->fnext = (p->fnext + 1) % FAIRPLAY_BOOK_FORM_HISTORY;
    if (p->fn < FAIRPLAY_BOOK_FORM_HISTORY)
        p->fn++;
    pthread_mutex_unlock(&b->lock);
}
