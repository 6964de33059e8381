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
};

struct fairplay_book_player {
    int64_t player_id; /* 0: unused (player ids start at 1) */
    int n, next;
    int32_t slack[FAIRPLAY_BOOK_HISTORY];
    int fn, fnext; /* residuals held, and the next slot */
    int32_t resid[FAIRPLAY_BOOK_HISTORY];
    int32_t noise[FAIRPLAY_BOOK_HISTORY]; /* the residual's expected variance without form */
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

int64_t fairplay_book_form(fairplay_book *b, const store_board *board, int64_t player_id, int64_t log_mean,
                           int64_t se2, int64_t *resid, int64_t *noise)
{
    *resid = FAIRPLAY_BOOK_NO_RESIDUAL;
    *noise = -1;
    if (log_mean < 0 || se2 < 0)
        return -1;
    int64_t r[FAIRPLAY_BOOK_HISTORY + 1], e[FAIRPLAY_BOOK_HISTORY + 1];
    int n = 0;
    pthread_mutex_lock(&b->lock);
    const fairplay_book_board *s = board_slot(b, board, false);
    if (s && s->ln >= FAIRPLAY_BOOK_FORM_MIN_RUNS) {
        int64_t sum = 0, sq = 0, m = s->ln;
        for (int i = 0; i < s->ln; i++)
            sum += s->log_mean[i];
        for (int i = 0; i < s->ln; i++)
            sq += (s->log_mean[i] * m - sum) * (s->log_mean[i] * m - sum);
        *resid = log_mean - sum / m;
        /* the residual's noise: the run's own standard error squared, plus
         * the uncertainty of the board's mean (its variance over its runs) */
        *noise = se2 + sq / (m * m * (m - 1)) / m;
    }
    const fairplay_book_player *p = player_slot(b, player_id, false);
    for (int i = 0; p && i < p->fn; i++) {
        r[n] = p->resid[i];
        e[n++] = p->noise[i];
    }
    pthread_mutex_unlock(&b->lock);
    if (*resid == FAIRPLAY_BOOK_NO_RESIDUAL)
        return -1;
    r[n] = *resid;
    e[n++] = *noise;
    if (n < FAIRPLAY_BOOK_MIN_HISTORY)
        return -1;
    int64_t sum = 0, sq = 0, err = 0;
    for (int i = 0; i < n; i++) {
        sum += r[i];
        err += e[i];
    }
    for (int i = 0; i < n; i++)
        sq += (r[i] * n - sum) * (r[i] * n - sum); /* n^2 x the squared deviation */
    /* the variance across runs (n - 1 degrees of freedom) over the mean noise */
    int64_t between = sq / ((int64_t)n * n * (n - 1)), mean_noise = err / n;
    return mean_noise <= 0 ? 1000000 : between * 1000 / mean_noise;
}

void fairplay_book_add_form(fairplay_book *b, const store_board *board, int64_t player_id, int64_t log_mean,
                            int64_t resid, int64_t noise)
{
    pthread_mutex_lock(&b->lock);
    if (log_mean >= 0) {
        fairplay_book_board *s = board_slot(b, board, true);
        s->log_mean[s->lnext] = clamp32(log_mean);
        s->lnext = (s->lnext + 1) % FAIRPLAY_BOOK_RUNS;
        if (s->ln < FAIRPLAY_BOOK_RUNS)
            s->ln++;
    }
    if (resid != FAIRPLAY_BOOK_NO_RESIDUAL && noise >= 0) {
        fairplay_book_player *s = player_slot(b, player_id, true);
        s->resid[s->fnext] = resid < INT32_MIN ? INT32_MIN : clamp32(resid);
        s->noise[s->fnext] = clamp32(noise);
        s->fnext = (s->fnext + 1) % FAIRPLAY_BOOK_HISTORY;
        if (s->fn < FAIRPLAY_BOOK_HISTORY)
            s->fn++;
    }
    pthread_mutex_unlock(&b->lock);
}
