/*
 * bench_fairplay: the labelled corpus (tests/fairplay/) scored by the
 * server's own review code (server/trust/fairplay.c, server/trust/fairplay_book.c) on
 * default settings. Each corpus board is played like a daily: every
 * account plays the same level and seed once, in a shuffled order, and the
 * board's population and each account's history grow as the server's
 * would (a held run joins its player's history, not the board); a person
 * plays each run in their form of the day (styles.h, profile_for_run).
 * Per style it prints the runs, the suspicion's spread, the AUC against
 * the human-like runs (the chance a run of the style scores above a
 * human-like one, ties half), the same AUC over the runs from each
 * account's 4th board on (AUC4+: where a signal across a player's runs has
 * the history it needs; the boards are played in order), the share
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
 * The form across runs (fairplay_form, fairplay_book_form) is scored as
 * the server scores it; FAIRPLAY_NO_FORM=1 in the environment leaves it
 * out, for the figures without it. After the table, the streak of issue
 * 37 (streak(): fresh accounts playing eight runs in a row on one
 * populated board).
 *
 * FAIRPLAY_SEED=n (n > 0) in the environment draws another corpus from the
 * same models (other accounts, levels' seeds and orders), to check that a
 * figure is not one corpus's luck; unset or 0, the corpus is the one the
 * docs quote.
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
#define HISTORY_FROM 3 /* the "AUC 4+" column: runs after an account's first 3 boards */
/* The streak (issue 37): on a populated Schulte level-7 board, fresh
 * accounts each play STREAK runs in a row, STREAKERS careful bots and
 * STREAKERS people. */
#define STREAK 8
#define STREAKERS 8
#define STREAK_RUNS (HUMANS + 2 * STREAKERS * STREAK)
#define ALL_RUNS (BOARDS * ACCOUNTS + STREAK_RUNS)

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
static uint64_t reseed; /* FAIRPLAY_SEED: 0, the corpus as it always was */
static long rejected[STYLE_COUNT];

#ifdef FAIRPLAY_W_AHEAD
static fairplay_book book;
#endif

#ifdef TWIN_TIME_BYTES
static uint8_t shapes[ALL_RUNS][TWIN_SHAPE_BYTES]; /* by index in runs */
/* By index in runs, 1 + an index in runs or 0: the run a copy was made
 * from, the run a twin was linked to (to say why a human-like run is held). */
static int copy_of[ALL_RUNS], twin_of[ALL_RUNS];

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
#ifdef FAIRPLAY_W_FORM
    int64_t lm = fairplay_form_mean_of(f), se2 = fairplay_form_se2_of(f);
    int form_runs;
    int64_t form = fairplay_book_form(&book, &sb, r->player_id, lm, se2, &form_runs);
    if (!getenv("FAIRPLAY_NO_FORM")) /* the figures without the form across runs */
        fairplay_form(f, form, form_runs, &pts);
#endif
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
#ifdef FAIRPLAY_W_FORM
    fairplay_book_add_form(&book, &sb, r->player_id, lm, se2, !r->held);
#endif
#endif
}

/* Builds one board's runs: the people first (the copies need theirs). */
static int build_board(const config *c, const corpus_board *b, int board_no, const account *acc,
                       corpus_run *out)
{
    int n = 0, humans = 0;
    for (int a = 0; a < ACCOUNTS; a++) {
        const account *ac = &acc[a];
        draw d = { 0x5eedULL * (uint64_t)(board_no + 1) * 1000003ULL + (uint64_t)ac->id + reseed };
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
            profile today = profile_for_run(&ac->p, &d); /* a person's form of the day */
            ok = corpus_play(b, c, &today, &d, r);
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

/* The streak of issue 37, item 5: a populated Schulte level-7 board (the
 * HUMANS accounts' runs, in a shuffled order), then STREAKERS fresh
 * careful-bot accounts and STREAKERS fresh people, alternating, each
 * playing STREAK runs in a row on it (a person with their form of the day
 * for each run). Prints, by the run's place in its streak, the careful
 * bots' runs held and ranked first (above every other player's ranked
 * runs; these bots play at the fastest base a person has in the model, out
 * for rank 1 as the bot was), the people's runs held, and both sides' median suspicion; then
 * the AUC of the careful runs against the people's. false when a run
 * could not be built. */
static bool streak(const config *c, const account *acc, corpus_run *out)
{
    corpus_board b;
    const game *g = game_find("schulte");
    if (!g || !corpus_board_init(&b, g, 7, 4242u + (uint32_t)(reseed >> 32)))
        return false;
    const int board_no = BOARDS; /* a board of its own */
    corpus_run **order = calloc(STREAK_RUNS, sizeof *order);
    int n = 0;
    bool ok = order != NULL;
    for (int a = 0; ok && a < HUMANS; a++) { /* the population */
        draw d = { 0x57eaULL * 1000003ULL + (uint64_t)acc[a].id + reseed };
        profile today = profile_for_run(&acc[a].p, &d);
        corpus_run *r = &out[n];
        memset(r, 0, sizeof *r);
        *r = (corpus_run){ .st = acc[a].p.st, .board = board_no, .player_id = acc[a].id };
        r->order = (int)(draw_next(&d) % 1000000);
        if (corpus_play(&b, c, &today, &d, r))
            order[n++] = r;
    }
    qsort(order, (size_t)n, sizeof *order, by_order);
    int population = n;
    for (int i = 0; i < n; i++) { /* scored as they come, so the book knows the board */
#ifdef TWIN_TIME_BYTES
        copy_of[order[i] - runs] = 0;
        twin_shape_hash(g, g->version, order[i]->moves, order[i]->outcomes, (size_t)order[i]->n,
                        shapes[order[i] - runs]);
#endif
        score(c, &b, board_no, order, i);
    }
    account fresh[2 * STREAKERS];
    draw pd = { 37 + reseed };
    for (int a = 0; a < 2 * STREAKERS; a++) {
        fresh[a] = (account){ 900000 + a, profile_draw(a % 2 ? (a % 4 == 1 ? STYLE_HUMAN_MS : STYLE_HUMAN_FRAMES)
                                                             : STYLE_CAREFUL, &pd) };
        if (fresh[a].p.st == STYLE_CAREFUL) /* out for rank 1: the fastest base the human-like model draws */
            fresh[a].p.base_ms = 260.0;
    }
    int held[2][STREAK] = { { 0 } }, first[STREAK] = { 0 };
    int64_t rank[STREAK][STREAKERS]; /* 999: held */
    int64_t sus[2][STREAK][STREAKERS];
    for (int a = 0; ok && a < 2 * STREAKERS; a++)
        for (int k = 0; ok && k < STREAK; k++) {
            draw d = { 0x57eaULL * 7919ULL + (uint64_t)fresh[a].id * 131ULL + (uint64_t)k + reseed };
            profile today = profile_for_run(&fresh[a].p, &d);
            corpus_run *r = &out[n];
            memset(r, 0, sizeof *r);
            *r = (corpus_run){ .st = fresh[a].p.st, .board = board_no, .player_id = fresh[a].id, .order = n };
            if (!corpus_play(&b, c, &today, &d, r)) {
                ok = false;
                break;
            }
            order[n] = r;
#ifdef TWIN_TIME_BYTES
            copy_of[r - runs] = 0;
            twin_shape_hash(g, g->version, r->moves, r->outcomes, (size_t)r->n, shapes[r - runs]);
#endif
            score(c, &b, board_no, order, n);
            int side = r->st == STYLE_CAREFUL ? 0 : 1;
            held[side][k] += r->held;
            sus[side][k][a / 2] = r->suspicion;
            if (side == 0) { /* its rank: 1 + the other players whose best ranked run beats it */
                int better = 0;
                for (int i = 0; i < n; i++) {
                    const corpus_run *o = order[i];
                    bool best = !o->held && o->player_id != r->player_id;
                    for (int j = 0; best && j < n; j++) /* counted once, by the player's best */
                        best = j == i || order[j]->player_id != o->player_id || order[j]->held ||
                               order[j]->rep.result.score < o->rep.result.score ||
                               (order[j]->rep.result.score == o->rep.result.score && j > i);
                    better += best && o->rep.result.score >= r->rep.result.score;
                }
                rank[k][a / 2] = r->held ? 999 : 1 + better;
                first[k] += !r->held && better == 0;
            }
            n++;
        }
    if (ok) {
        printf("streak (issue 37): schulte 7, %d runs on the board first; %d fresh careful-bot accounts and %d fresh "
               "people, %d runs each in a row\n",
               population, STREAKERS, STREAKERS, STREAK);
        printf("%-28s", "run in the streak");
        for (int k = 0; k < STREAK; k++)
            printf(" %5d", k + 1);
        printf("\n");
        const char *rows[] = { "careful: held", "careful: rank 1", "careful: median rank",
                               "careful: median suspicion", "people: held", "people: median suspicion" };
        for (int row = 0; row < 6; row++) {
            printf("%-28s", rows[row]);
            for (int k = 0; k < STREAK; k++) {
                int64_t v[STREAKERS];
                memcpy(v, row == 2 ? rank[k] : sus[row < 4 ? 0 : 1][k], sizeof v);
                qsort(v, STREAKERS, sizeof *v, cmp_i64);
                printf(" %5lld", row == 0 ? (long long)held[0][k] : row == 1 ? (long long)first[k]
                                  : row == 4 ? (long long)held[1][k] : (long long)v[STREAKERS / 2]);
            }
            printf("\n");
        }
        double wins = 0, wins4 = 0;
        for (int k = 0; k < STREAK; k++)
            for (int i = 0; i < STREAKERS; i++)
                for (int k2 = 0; k2 < STREAK; k2++)
                    for (int j = 0; j < STREAKERS; j++) {
                        double w = sus[0][k][i] > sus[1][k2][j] ? 1.0 : sus[0][k][i] == sus[1][k2][j] ? 0.5 : 0;
                        wins += w;
                        if (k >= HISTORY_FROM && k2 >= HISTORY_FROM)
                            wins4 += w;
                    }
        double all = (double)STREAK * STREAKERS, late = (double)(STREAK - HISTORY_FROM) * STREAKERS;
        printf("streak AUC of careful runs against the people's: %.3f over all runs, %.3f from the 4th run\n",
               wins / (all * all), wins4 / (late * late));
    }
    free(order);
    corpus_board_free(&b);
    return ok;
}

int main(void)
{
    config c;
    config_defaults(&c);
    account acc[ACCOUNTS];
    const char *seed = getenv("FAIRPLAY_SEED"); /* another corpus of the same models */
    reseed = seed ? strtoull(seed, NULL, 10) * 0x9e3779b97f4a7c15ULL : 0;
    draw d = { 25 + reseed };
    for (int a = 0; a < ACCOUNTS; a++) {
        style st = a < HUMANS ? (a % 2 ? STYLE_HUMAN_FRAMES : STYLE_HUMAN_MS)
                              : (style)(STYLE_FLOOR + (a - HUMANS) / PER_BOT);
        acc[a] = (account){ a + 1, profile_draw(st, &d) };
    }
    runs = calloc((size_t)ALL_RUNS, sizeof *runs);
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
        if (!g || !corpus_board_init(&b, g, board_levels[bi / SEEDS].level, 1000u + 7919u * (uint32_t)bi + (uint32_t)(reseed >> 32))) {
            fprintf(stderr, "bench_fairplay: board %d could not be built\n", bi);
            return 1;
        }
        corpus_run *mine = &runs[n_runs];
        int n = build_board(&c, &b, bi, acc, mine);
        draw order = { 77u + (uint64_t)bi + reseed };
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
    printf("%-13s %5s %8s %8s %8s %8s %6s %6s %6s %6s  %s\n", "style", "runs", "rejected", "susp_min", "susp_med",
           "susp_max", "AUC", "AUC4+", "held", "top10", "held for");
    int64_t *sus = malloc((size_t)n_runs * sizeof *sus);
    bool fail = false;
    for (int st = 0; st < STYLE_COUNT; st++) {
        int n = 0, held = 0, topped = 0;
        double wins = 0, wins4 = 0;
        long pairs = 0, pairs4 = 0;
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
                double w = r->suspicion > runs[j].suspicion ? 1.0 : r->suspicion == runs[j].suspicion ? 0.5 : 0;
                wins += w;
                pairs++;
                if (r->board >= HISTORY_FROM && runs[j].board >= HISTORY_FROM) {
                    wins4 += w; /* both runs have the history a cross-run signal needs */
                    pairs4++;
                }
            }
        }
        fail = fail || rejected[st] > 0;
        if (n == 0) {
            printf("%-13s %5d %8ld\n", style_names[st], 0, rejected[st]);
            continue;
        }
        qsort(sus, (size_t)n, sizeof *sus, cmp_i64);
        char auc[16] = "-", auc4[16] = "-";
        if (pairs4)
            snprintf(auc4, sizeof auc4, "%.3f", wins4 / (double)pairs4);
        if (pairs)
            snprintf(auc, sizeof auc, "%.3f", wins / (double)pairs);
        printf("%-13s %5d %8ld %8lld %8lld %8lld %6s %6s %5.1f%% %5.1f%% ", style_names[st], n, rejected[st],
               (long long)sus[0], (long long)sus[n / 2], (long long)sus[n - 1], auc, auc4, 100.0 * held / n,
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
    if (!streak(&c, acc, &runs[n_runs])) {
        fprintf(stderr, "bench_fairplay: the streak could not be built\n");
        fail = true;
    }
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
