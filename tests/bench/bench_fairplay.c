/*
 * bench_fairplay: the labelled corpus (tests/fairplay/) scored by the
 * server's own review code (server/trust/fairplay.c, server/trust/fairplay_book.c) on
 * default settings. Each corpus board is played like a daily: every
 * account plays the same level and seed once, in a shuffled order, and the
 * board's population and each account's history grow as the server's
 * would (a held run joins its player's history, not the board). Per
 * style it prints the runs, the suspicion's spread, the AUC against the human-like runs (the chance a
 * run of the style scores above a human-like one, ties half), the share
 * held at the default review_hold_threshold and the share ranked in a
 * board's top 10 (held runs are off the board). A run the corpus built
 * but the game or the time rule would reject counts as rejected and fails
 * the bench: the corpus holds only real runs.
 *
 * The server's twin rule is applied as the server applies it (server/api/
 * api_scores.c find_twin, server/store/store_twins.c, with twins.h's
 * functions and weight and the config's twin_correlation_permille): a run
 * whose shape (its progress moves) equals that of another account's
 * earlier run on the board, among the TWIN_CANDIDATES newest such runs,
 * and whose progress gaps rank-correlate at the threshold or more, is held
 * with TWIN_WEIGHT more suspicion; the run it twins gains TWIN_WEIGHT too
 * and is held as well.
 *
 * Built against an older server (no FAIRPLAY_W_AHEAD: before issue 25) it
 * scores with that server's features, without population or history; one
 * without twins.h's packed times (before issue 37's pair rule), without
 * the twin rule.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fairplay/corpus.h"
#ifdef FAIRPLAY_W_AHEAD
#include "../../server/trust/fairplay_book.h"
#endif
#if defined __has_include
#if __has_include("../../server/trust/twins.h")
#include "../../server/trust/twins.h"
#endif
#endif

#define HUMANS 48      /* half on a millisecond clock, half on 60 Hz frames */
#define PER_BOT 8      /* accounts per bot style */
#define SEEDS 2
#define TOP 10
#define BOT_STYLES (STYLE_COUNT - 2)
#define ACCOUNTS (HUMANS + BOT_STYLES * PER_BOT)

static const struct {
    const char *game;
    int level;
} board_levels[] = {
    { "schulte", 5 }, { "schulte", 11 }, { "schulte", 14 }, { "pipes", 8 },
    { "pipes", 15 },  { "target-sums", 8 }, { "target-sums", 15 },
};
#define LEVELS (int)(sizeof board_levels / sizeof board_levels[0])
#define BOARDS (LEVELS * SEEDS)

typedef struct account {
    int64_t id;
    profile p;
} account;

static corpus_run *runs; /* BOARDS x ACCOUNTS */
static int n_runs;
static long rejected[STYLE_COUNT];

#ifdef FAIRPLAY_W_AHEAD
static fairplay_book book;
#endif

#ifdef TWIN_TIME_BYTES
static uint8_t shapes[BOARDS * ACCOUNTS][TWIN_SHAPE_BYTES]; /* by index in runs */
/* By index in runs, 1 + an index in runs or 0: the run a copy was made
 * from, the run a twin was linked to (to say why a human-like run is held). */
static int copy_of[BOARDS * ACCOUNTS], twin_of[BOARDS * ACCOUNTS];

/* find_twin's choice for the run at seq of a board's submission order
 * (earlier holds the runs before it): of the other accounts' earlier runs
 * of its shape, newest first, the best-correlated at
 * twin_correlation_permille or more, or NULL. */
static corpus_run *find_twin(const config *c, const corpus_board *b, corpus_run *const *earlier, int seq,
                             const corpus_run *r, int *permille)
{
    const game *g = b->g;
    if (c->twin_correlation_permille <= 0 || twin_time_field(g, g->version) < 0)
        return NULL;
    const uint8_t *mine = shapes[r - runs];
    uint8_t ta[CORPUS_MAX_MOVES * TWIN_TIME_BYTES], tb[CORPUS_MAX_MOVES * TWIN_TIME_BYTES];
    size_t la = twin_times_pack(g, g->version, r->moves, r->outcomes, (size_t)r->n, ta);
    int best = -1001, compared = 0;
    corpus_run *pick = NULL;
    for (int k = seq - 1; k >= 0 && compared < TWIN_CANDIDATES; k--) {
        corpus_run *o = earlier[k];
        int corr;
        if (o->player_id == r->player_id || memcmp(shapes[o - runs], mine, TWIN_SHAPE_BYTES) != 0)
            continue;
        compared++;
        size_t lb = twin_times_pack(g, g->version, o->moves, o->outcomes, (size_t)o->n, tb);
        if (twin_times_correlation(ta, la, tb, lb, &corr) && corr >= c->twin_correlation_permille &&
            corr > best) {
            best = corr;
            pick = o;
        }
    }
    *permille = best;
    return pick;
}
#endif

/* Scores a run as the server would at its turn on the board: features,
 * population and history, suspicion, hold; a ranked run joins the book. */
static void score(const config *c, const corpus_board *b, int board_no, corpus_run *const *earlier, int seq)
{
    corpus_run *r = earlier[seq];
    int64_t s = 0;
    bool hold = false; /* held whatever the suspicion (a twin) */
#ifdef FAIRPLAY_W_AHEAD
    fairplay_points pts;
    json_t *f = fairplay_features(c, b->g, b->lv, b->g->version, r->moves, (size_t)r->n, r->outcomes,
                                  &r->rep.result, r->elapsed_ms, &pts);
    store_board sb = { 20000 + board_no, NULL, 0 }; /* a daily board of its own */
    int64_t pace = fairplay_pace_of(f, r->rep.result.completed), slack = fairplay_slack_of(f);
    fairplay_population(f, fairplay_book_percentile(&book, &sb, pace),
                        fairplay_book_routine(&book, r->player_id, slack), &pts);
    s = fairplay_total(f, &pts);
    json_t *signals = json_pack("{s:O}", "features", f);
#ifdef TWIN_TIME_BYTES
    int corr;
    corpus_run *of = find_twin(c, b, earlier, seq, r, &corr);
    if (of) { /* both runs of the pair are held; the earlier one gains suspicion too */
        json_object_set_new(signals, "twin",
                            json_pack("{s:I,s:I,s:i}", "of_seq", (json_int_t)(of - runs), "player_id",
                                      (json_int_t)of->player_id, "correlation_permille", corr));
        s += TWIN_WEIGHT;
        of->suspicion += TWIN_WEIGHT;
        of->held = true;
        of->reason = "twin";
        twin_of[r - runs] = (int)(of - runs) + 1;
        hold = true;
    }
#endif
    char *dump = signals ? json_dumps(signals, JSON_COMPACT) : NULL;
    r->reason = fairplay_hold_reason(dump, false);
    free(dump);
    json_decref(signals);
#else
    (void)board_no;
    (void)seq;
    json_t *f = fairplay_features(c, b->g, b->lv, b->g->version, r->moves, (size_t)r->n, r->rep.applied,
                                  &r->rep.result, r->elapsed_ms, &s);
    r->reason = "";
#endif
    if (getenv("FAIRPLAY_DUMP")) { /* the labelled corpus, one run a line */
        char *line = json_dumps(f, JSON_COMPACT);
        fprintf(stderr, "%s board %d player %lld score %lld elapsed %lld %s\n", style_names[r->st], board_no,
                (long long)r->player_id, (long long)r->rep.result.score, (long long)r->elapsed_ms, line);
        free(line);
    }
    json_decref(f);
    r->suspicion = s;
    r->held = (c->review_hold_threshold > 0 && s >= c->review_hold_threshold) || hold;
#ifdef FAIRPLAY_W_AHEAD
    fairplay_book_add(&book, &sb, r->player_id, r->held ? -1 : pace, slack);
#endif
}

/* Builds one board's runs: the people first (the copies need theirs). */
static int build_board(const config *c, const corpus_board *b, int board_no, const account *acc,
                       corpus_run *out)
{
    int n = 0, humans = 0;
    for (int a = 0; a < ACCOUNTS; a++) {
        const account *ac = &acc[a];
        draw d = { 0x5eedULL * (uint64_t)(board_no + 1) * 1000003ULL + (uint64_t)ac->id };
        corpus_run *r = &out[n];
        memset(r, 0, sizeof *r);
#ifdef TWIN_TIME_BYTES
        copy_of[r - runs] = 0;
#endif
        r->st = ac->p.st;
        r->board = board_no;
        r->player_id = ac->id;
        bool ok;
        if (ac->p.st == STYLE_COPY_NOISE || ac->p.st == STYLE_TWIN) {
            const corpus_run *src = &out[draw_int(&d, 0, humans - 1)];
            ok = ac->p.st == STYLE_TWIN ? corpus_retime(b, c, src, 0.7, 0, &d, r)
                                        : corpus_retime(b, c, src, 1.0, 15, &d, r);
#ifdef TWIN_TIME_BYTES
            copy_of[r - runs] = (int)(src - runs) + 1;
#endif
        } else {
            ok = corpus_play(b, c, &ac->p, &d, r);
        }
        if (!ok) {
            if (getenv("FAIRPLAY_DUMP"))
                fprintf(stderr, "REJECTED %s board %d player %lld: move %zu of %d (%s), claimed %lld elapsed %lld\n",
                        style_names[ac->p.st], board_no, (long long)ac->id, r->rep.rejected_move, r->n,
                        r->rep.rejected ? b->g->outcomes[r->rep.rejected_outcome].code : r->reason ? r->reason : "time",
                        (long long)r->rep.result.duration_ms, (long long)r->elapsed_ms);
            rejected[ac->p.st]++;
            continue;
        }
        if (style_human(ac->p.st))
            humans++;
        n++;
    }
    return n;
}

static int by_order(const void *a, const void *b)
{
    const corpus_run *x = *(corpus_run *const *)a, *y = *(corpus_run *const *)b;
    return (x->order > y->order) - (x->order < y->order);
}

static int by_rank(const void *a, const void *b)
{
    const corpus_run *x = *(corpus_run *const *)a, *y = *(corpus_run *const *)b;
    if (x->rep.result.score != y->rep.result.score)
        return x->rep.result.score < y->rep.result.score ? 1 : -1;
    return (x->order > y->order) - (x->order < y->order);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    config c;
    config_defaults(&c);
    account acc[ACCOUNTS];
    draw d = { 25 };
    for (int a = 0; a < ACCOUNTS; a++) {
        style st = a < HUMANS ? (a % 2 ? STYLE_HUMAN_FRAMES : STYLE_HUMAN_MS)
                              : (style)(STYLE_FLOOR + (a - HUMANS) / PER_BOT);
        acc[a] = (account){ a + 1, profile_draw(st, &d) };
    }
    runs = calloc((size_t)BOARDS * ACCOUNTS, sizeof *runs);
    corpus_run **board_runs = calloc(ACCOUNTS, sizeof *board_runs);
#ifdef FAIRPLAY_W_AHEAD
    if (!fairplay_book_init(&book))
        return 1;
#endif
    if (!runs || !board_runs)
        return 1;
    bool top[BOARDS * ACCOUNTS];
    memset(top, 0, sizeof top);
    for (int bi = 0; bi < BOARDS; bi++) {
        corpus_board b;
        const game *g = game_find(board_levels[bi / SEEDS].game);
        if (!g || !corpus_board_init(&b, g, board_levels[bi / SEEDS].level, 1000u + 7919u * (uint32_t)bi)) {
            fprintf(stderr, "bench_fairplay: board %d could not be built\n", bi);
            return 1;
        }
        corpus_run *mine = &runs[n_runs];
        int n = build_board(&c, &b, bi, acc, mine);
        draw order = { 77u + (uint64_t)bi };
        for (int i = 0; i < n; i++) { /* a shuffled submission order */
            board_runs[i] = &mine[i];
            mine[i].order = (int)(draw_next(&order) % 1000000);
        }
        qsort(board_runs, (size_t)n, sizeof *board_runs, by_order);
#ifdef TWIN_TIME_BYTES
        for (int i = 0; i < n; i++)
            twin_shape_hash(g, g->version, mine[i].moves, mine[i].outcomes, (size_t)mine[i].n,
                            shapes[&mine[i] - runs]);
#endif
        for (int i = 0; i < n; i++)
            score(&c, &b, bi, board_runs, i);
        qsort(board_runs, (size_t)n, sizeof *board_runs, by_rank);
        for (int i = 0, ranked = 0; i < n && ranked < TOP; i++)
            if (!board_runs[i]->held) {
                top[board_runs[i] - runs] = true;
                ranked++;
            }
        n_runs += n;
        corpus_board_free(&b);
    }
    printf("fairplay corpus: %d boards (", BOARDS);
    for (int l = 0; l < LEVELS; l++)
        printf("%s%s %d", l ? ", " : "", board_levels[l].game, board_levels[l].level);
    printf("; %d seeds each), %d human-like accounts, %d per bot style; review_hold_threshold %d\n", SEEDS,
           HUMANS, PER_BOT, c.review_hold_threshold);
    printf("%-13s %5s %8s %8s %8s %8s %6s %6s %6s  %s\n", "style", "runs", "rejected", "susp_min", "susp_med",
           "susp_max", "AUC", "held", "top10", "held for");
    int64_t *sus = malloc((size_t)n_runs * sizeof *sus);
    bool fail = false;
    for (int st = 0; st < STYLE_COUNT; st++) {
        int n = 0, held = 0, topped = 0;
        double wins = 0;
        long pairs = 0;
        int reason_count[8] = { 0 };
        const char *reason_word[8] = { NULL };
        for (int i = 0; i < n_runs; i++) {
            const corpus_run *r = &runs[i];
            if ((int)r->st != st)
                continue;
            sus[n++] = r->suspicion;
            held += r->held;
            topped += top[i];
            for (int k = 0; r->held && k < 8; k++)
                if (!reason_word[k] || strcmp(reason_word[k], r->reason) == 0) {
                    reason_word[k] = r->reason;
                    reason_count[k]++;
                    break;
                }
            if (style_human((style)st))
                continue;
            for (int j = 0; j < n_runs; j++) {
                if (!style_human(runs[j].st))
                    continue;
                wins += r->suspicion > runs[j].suspicion ? 1.0 : r->suspicion == runs[j].suspicion ? 0.5 : 0;
                pairs++;
            }
        }
        fail = fail || rejected[st] > 0;
        if (n == 0) {
            printf("%-13s %5d %8ld\n", style_names[st], 0, rejected[st]);
            continue;
        }
        qsort(sus, (size_t)n, sizeof *sus, cmp_i64);
        char auc[16] = "-";
        if (pairs)
            snprintf(auc, sizeof auc, "%.3f", wins / (double)pairs);
        printf("%-13s %5d %8ld %8lld %8lld %8lld %6s %5.1f%% %5.1f%% ", style_names[st], n, rejected[st],
               (long long)sus[0], (long long)sus[n / 2], (long long)sus[n - 1], auc, 100.0 * held / n,
               100.0 * topped / n);
        for (int k = 0; k < 8 && reason_word[k]; k++)
            printf(" %s %d", reason_word[k][0] ? reason_word[k] : "?", reason_count[k]);
        printf("\n");
    }
#ifdef TWIN_TIME_BYTES
    /* both runs of a pair are held: a human-like run is held as a twin
     * either as the later run or as the earlier one */
    int links = 0, humans_held = 0, by_own_copy = 0, humans = 0, held_otherwise = 0;
    bool *own = calloc((size_t)n_runs, sizeof *own); /* paired with a copy of itself */
    for (int i = 0; i < n_runs; i++) {
        if (!twin_of[i])
            continue;
        links++;
        int pair[2] = { i, twin_of[i] - 1 };
        for (int k = 0; k < 2; k++)
            if (style_human(runs[pair[k]].st)) {
                humans_held++;
                bool mine = copy_of[pair[1 - k]] == pair[k] + 1;
                by_own_copy += mine;
                if (own && mine)
                    own[pair[k]] = true;
            }
    }
    for (int i = 0; own && i < n_runs; i++)
        if (style_human(runs[i].st)) {
            humans++;
            held_otherwise += runs[i].held && !own[i];
        }
    free(own);
    printf("twin rule (twin_correlation_permille %d): %d links; %d human-like runs held as twins, %d of them "
           "paired with a copy of their own run\n",
           c.twin_correlation_permille, links, humans_held, by_own_copy);
    printf("human-like runs held other than in a pair with a copy of their own run: %d of %d (%.1f%%)\n",
           held_otherwise, humans, humans ? 100.0 * held_otherwise / humans : 0.0);
#endif
    free(sus);
    free(runs);
    free(board_runs);
#ifdef FAIRPLAY_W_AHEAD
    fairplay_book_free(&book);
#endif
    if (fail)
        fprintf(stderr, "bench_fairplay: the corpus built runs the server would reject\n");
    return fail ? 1 : 0;
}
