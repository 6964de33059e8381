#include "fairplay.h"

#include <string.h>

#define DAY_MS 86400000LL

int64_t fairplay_allowed_ms(const config *c, int64_t elapsed_ms)
{
    if (elapsed_ms < 0)
        elapsed_ms = 0;
    return elapsed_ms + elapsed_ms * c->plausibility_slack_permille / 1000 + c->plausibility_slack_ms;
}

static int64_t run_length(const game_result *res, int64_t elapsed_ms)
{
    return res->duration_ms >= 0 ? res->duration_ms : elapsed_ms;
}

run_outcome fairplay_outcome(const config *c, const game_result *res, int64_t elapsed_ms)
{
    if (res->completed)
        return RUN_COMPLETED;
    return run_length(res, elapsed_ms) < c->forfeit_short_ms ? RUN_FORFEIT : RUN_INCOMPLETE;
}

json_t *fairplay_signals(const config *c, const game_result *res, int64_t elapsed_ms)
{
    int64_t idle = elapsed_ms - run_length(res, elapsed_ms);
    return json_pack("{s:I,s:o,s:I,s:b}", "elapsed_ms", (json_int_t)elapsed_ms, "claimed_ms",
                     res->duration_ms >= 0 ? json_integer(res->duration_ms) : json_null(), "idle_ms",
                     (json_int_t)idle, "rehearsal", idle > c->rehearsal_bound_ms);
}

int64_t fairplay_moves_public_at(const config *c, const play *p)
{
    if (!play_is_daily(p))
        return 0;
    return ((int64_t)p->day + 1) * DAY_MS + (int64_t)c->daily_grace_s * 1000;
}

static int64_t isqrt64(int64_t v)
{
    if (v <= 0)
        return 0;
    int64_t r = 0, bit = (int64_t)1 << 62;
    while (bit > v)
        bit >>= 2;
    while (bit) {
        if (v >= r + bit) {
            v -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
        bit >>= 2;
    }
    return r;
}

static int time_field(const game *g, int version)
{
    for (int f = 0; f < g->n_fields; f++)
        if (strcmp(g->fields[f].name, "t") == 0 && game_field_in(&g->fields[f], version))
            return f;
    return -1;
}

static bool applied_move(const game *g, const int *outcomes, size_t i)
{
    return g->outcomes[outcomes[i]].kind == OUTCOME_APPLIED;
}

/* Within 1 ms of a 60 Hz frame boundary (t = round(k * 1000 / 60)). */
static bool on_frame_grid(int32_t t)
{
    int64_t r = (int64_t)t * 60 % 1000;
    return r <= 60 || r >= 940;
}

static void put(json_t *f, const char *key, int64_t v)
{
    json_object_set_new(f, key, json_integer((json_int_t)v));
}

/* A move that repeats the previous applied one but for its time (a tap on
 * the same target again): motor only, no search. */
static bool repeats(const game *g, int tf, const game_move *prev, const game_move *m)
{
    if (!prev)
        return false;
    for (int f = 0; f < g->n_fields; f++)
        if (f != tf && prev->v[f] != m->v[f])
            return false;
    return true;
}

/* 1000 x the natural log of v (v >= 1), in integers: log2 by repeated
 * squaring of the mantissa (16 bits), times ln 2. */
static int64_t int_or(const json_t *f, const char *key);

static int64_t ln_milli(int64_t v)
{
    if (v < 1)
        v = 1;
    int64_t k = 0;
    while ((v >> k) > 1)
        k++;
    /* the mantissa v / 2^k in [1, 2), Q30 */
    uint64_t m = k >= 30 ? (uint64_t)v >> (k - 30) : (uint64_t)v << (30 - k);
    int64_t frac = 0; /* log2 of the mantissa, Q16 */
    for (int bit = 15; bit >= 0; bit--) {
        m = (m * m) >> 30;
        if (m >= (uint64_t)2 << 30) {
            m >>= 1;
            frac |= (int64_t)1 << bit;
        }
    }
    return ((k << 16) + frac) * 693147 / 1000 >> 16;
}

/* A find's slack in ln ms x 1000 (10 ms to 60 s). */
static int64_t find_log(int32_t slack)
{
    return ln_milli(slack < 10 ? 10 : slack > 60000 ? 60000 : slack);
}

/* The run's search pace for the form across runs: the finds' log slack,
 * each brought within FAIRPLAY_FORM_WINSOR of the plain mean (a pause of
 * seconds is not a slower search, and would swamp the run's own
 * precision), then their mean and sd. */
static void form_terms(const game *g, int tf, const game_level *level, const game_move *moves, size_t n,
                       const int *outcomes, int64_t plain_mean, json_t *f)
{
    int64_t logs = 0, sum = 0, sq = 0, lo = plain_mean - FAIRPLAY_FORM_WINSOR, hi = plain_mean + FAIRPLAY_FORM_WINSOR;
    const game_move *prev = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!applied_move(g, outcomes, i))
            continue;
        int32_t slack = g->move_slack_ms(level, prev, &moves[i]);
        bool find = prev && !repeats(g, tf, prev, &moves[i]) && slack >= 0;
        prev = &moves[i];
        if (!find)
            continue;
        int64_t l = find_log(slack);
        l = l < lo ? lo : l > hi ? hi : l;
        logs++;
        sum += l;
        sq += l * l;
    }
    put(f, "find_log_mean", sum / logs);
    put(f, "find_log_sd", isqrt64((sq - sum * sum / logs) / logs));
    put(f, "find_gaps", logs);
}

/* Pace over the applied moves, each against the floor from the applied
 * move before it (the game's own counted clock). */
static void pace_terms(const game *g, int tf, const game_level *level, const game_move *moves, size_t n,
                       const int *outcomes, json_t *f, fairplay_points *pts)
{
    int64_t paced = 0, at_floor = 0, sum = 0, sq = 0, finds = 0, fsum = 0, fsq = 0;
    int64_t logs = 0, lsum = 0; /* the finds' slack, in ln ms x 1000 */
    const game_move *prev = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!applied_move(g, outcomes, i))
            continue;
        int32_t slack = g->move_slack_ms(level, prev, &moves[i]);
        bool repeat = repeats(g, tf, prev, &moves[i]);
        if (prev && !repeat && slack >= 0) {
            logs++;
            lsum += find_log(slack);
        }
        prev = &moves[i];
        if (slack < 0)
            continue;
        int64_t s64 = slack > 60000 ? 60000 : slack; /* a pause is not pace */
        paced++;
        at_floor += slack < FAIRPLAY_FLOOR_TOLERANCE_MS;
        sum += s64;
        sq += s64 * s64;
        if (!repeat) {
            finds++;
            fsum += s64;
            fsq += s64 * s64;
        }
    }
    if (paced == 0)
        return;
    int64_t share = at_floor * 1000 / paced, mean = sum / paced;
    int64_t sd = isqrt64((sq - sum * sum / paced) / paced);
    put(f, "paced_moves", paced);
    put(f, "at_floor_permille", share);
    put(f, "slack_mean_ms", mean);
    put(f, "slack_sd_ms", sd);
    if (logs >= FAIRPLAY_FORM_MIN_FINDS)
        form_terms(g, tf, level, moves, n, outcomes, lsum / logs, f);
    pts->term[FAIRPLAY_PACE] += FAIRPLAY_W_AT_FLOOR * share / 1000;
    if (paced >= 5 && sd < 100)
        pts->term[FAIRPLAY_PACE] += FAIRPLAY_W_STEADY * (100 - sd) / 100;
    if (finds == 0)
        return;
    /* relative spread of the finds (a repeat tap is motor only): a
     * person's vary with the search, an evenly jittered script's by its
     * jitter alone */
    int64_t fmean = fsum / finds, fsd = isqrt64((fsq - fsum * fsum / finds) / finds);
    int64_t cv = fmean > 0 ? fsd * 1000 / fmean : 0;
    put(f, "find_moves", finds);
    put(f, "find_cv_permille", cv);
    if (finds >= 8 && cv < 500)
        pts->term[FAIRPLAY_PACE] += FAIRPLAY_W_EVEN * (500 - (cv < 250 ? 250 : cv)) / 250;
}

/* Round timestamps beyond what the run's own clock makes round. */
static void round_terms(const game *g, int tf, const game_move *moves, size_t n, const int *outcomes,
                        json_t *f, fairplay_points *pts)
{
    int64_t counted = 0, round = 0;
    bool frames = true;
    for (size_t i = 0; i < n; i++) {
        if (!applied_move(g, outcomes, i))
            continue;
        int32_t t = moves[i].v[tf];
        counted++;
        round += t % 10 == 0;
        frames = frames && on_frame_grid(t);
    }
    if (counted == 0)
        return;
    frames = frames && counted >= 5; /* a few t on the grid by chance is no clock */
    int64_t share = round * 1000 / counted, expected = frames ? 333 : 100;
    put(f, "round_t_permille", share);
    json_object_set_new(f, "frame_clock", json_boolean(frames));
    if (share > expected)
        pts->term[FAIRPLAY_CLOCK] += FAIRPLAY_W_ROUND_T * (share - expected) / (1000 - expected);
}

/* Think time: the most time the run's first decision can have had since
 * its token's issue. Its claimed time, plus all the time the run does not
 * claim (elapsed less claimed: the level not yet shown, a paused tick
 * clock, the network), counted as if it all came before that decision;
 * what the run claims after it took at least that long on any honest
 * client. An untimed run: the elapsed time. A person is never measured
 * short of their real think time; a script under the floor must wait it
 * out on the server's clock. */
static void think_terms(const config *c, const game *g, const game_level *level, const game_move *moves,
                        size_t n, const int *outcomes, const game_result *res, int64_t elapsed_ms,
                        json_t *f)
{
    if (!g->think_floor_ms || c->think_floor_permille <= 0)
        return;
    int64_t floor = (int64_t)g->think_floor_ms(level) * c->think_floor_permille / 1000;
    size_t i = 0;
    while (i < n && !applied_move(g, outcomes, i))
        i++;
    if (floor <= 0 || i == n)
        return; /* no floor, or no decision to time */
    int32_t at = g->move_at_ms ? g->move_at_ms(level, &moves[i]) : -1;
    int64_t think = elapsed_ms;
    if (at >= 0 && res->duration_ms >= 0) {
        int64_t idle = elapsed_ms - res->duration_ms;
        think = at + (idle > 0 ? idle : 0);
    }
    put(f, "think_ms", think > 0 ? think : 0);
    put(f, "think_floor_ms", floor);
}

bool fairplay_think_early(const json_t *f)
{
    const json_t *think = json_object_get(f, "think_ms"), *floor = json_object_get(f, "think_floor_ms");
    return json_is_integer(think) && json_is_integer(floor) &&
           json_integer_value(think) < json_integer_value(floor);
}

json_t *fairplay_features(const config *c, const game *g, const game_level *level, int version,
                          const game_move *moves, size_t n, const int *outcomes,
                          const game_result *res, int64_t elapsed_ms, fairplay_points *pts)
{
    memset(pts, 0, sizeof *pts);
    json_t *f = json_object();
    int min = g->min_moves ? g->min_moves(level) : -1;
    int64_t claimed = res->duration_ms, applied = 0;
    for (size_t i = 0; i < n; i++)
        applied += applied_move(g, outcomes, i);
    int64_t ignored = (int64_t)n - applied;
    put(f, "ignored", ignored);
    if (g->ignored_allowance > 0) {
        put(f, "ignored_allowance", g->ignored_allowance);
        if (ignored > g->ignored_allowance) {
            int64_t p = (ignored - g->ignored_allowance) * FAIRPLAY_W_IGNORED;
            pts->term[FAIRPLAY_PADDING] += p < FAIRPLAY_W_IGNORED_MAX ? p : FAIRPLAY_W_IGNORED_MAX;
        }
    }
    if (min >= 0) {
        int64_t wasted = applied > min ? applied - min : 0;
        put(f, "min_moves", min);
        put(f, "wasted", wasted);
        if (res->completed && wasted == 0 && min >= 3)
            pts->term[FAIRPLAY_PACE] += FAIRPLAY_W_PERFECT;
        if (claimed >= 0 && min > 0)
            put(f, "claimed_per_min_move_ms", claimed / min);
    }
    int32_t finish = g->finish_floor_ms ? g->finish_floor_ms(level) : 0;
    if (finish > 0 && claimed >= 0 && res->completed) {
        int64_t ratio = claimed * 1000 / finish;
        put(f, "finish_floor_ms", finish);
        put(f, "floor_ratio_permille", ratio);
        if (ratio < 1500)
            pts->term[FAIRPLAY_PACE] += FAIRPLAY_W_NEAR_FINISH * (1500 - (ratio < 1000 ? 1000 : ratio)) / 500;
    }
    int tf = time_field(g, version);
    if (g->move_slack_ms && n > 0)
        pace_terms(g, tf, level, moves, n, outcomes, f, pts);
    if (tf >= 0 && n > 0)
        round_terms(g, tf, moves, n, outcomes, f, pts);
    if (claimed >= 0) {
        /* the server's clock runs from before the token left to after the
         * moves arrived: an honest run never claims more, beyond the
         * drift plausibility_slack_permille allows a client's clock */
        int64_t ahead = claimed > elapsed_ms ? claimed - elapsed_ms : 0;
        put(f, "ahead_ms", ahead);
        if (ahead > elapsed_ms * c->plausibility_slack_permille / 1000)
            pts->term[FAIRPLAY_CLOCK] += FAIRPLAY_W_AHEAD;
    }
    think_terms(c, g, level, moves, n, outcomes, res, elapsed_ms, f);
    int64_t idle = elapsed_ms - run_length(res, elapsed_ms);
    if (idle > c->rehearsal_bound_ms)
        pts->term[FAIRPLAY_REHEARSAL] += FAIRPLAY_W_REHEARSAL;
    return f;
}

void fairplay_population(json_t *f, int64_t pace_percentile, int64_t routine_cv, fairplay_points *pts)
{
    if (pace_percentile >= 0) {
        put(f, "pace_percentile", pace_percentile);
        if (pace_percentile > 800)
            pts->term[FAIRPLAY_SPEED] += FAIRPLAY_W_FASTEST * (pace_percentile - 800) / 200;
    }
    if (routine_cv >= 0) {
        put(f, "routine_cv", routine_cv);
        if (routine_cv < 150)
            pts->term[FAIRPLAY_ROUTINE] += FAIRPLAY_W_ROUTINE * (150 - routine_cv) / 150;
    }
}

void fairplay_form(json_t *f, int64_t form_permille, int runs, fairplay_points *pts)
{
    if (form_permille < 0 || runs < 2)
        return;
    put(f, "form_permille", form_permille);
    put(f, "form_runs", runs);
    /* the evidence of no form grows with the degrees of freedom (runs - 1)
     * as much as with the shortfall below FAIRPLAY_FORM_BELOW: the
     * chi-square likelihood ratio of one distribution against a form
     * about four times the noise is linear in both */
    int64_t evidence = (int64_t)(runs - 1) * (FAIRPLAY_FORM_BELOW - form_permille);
    if (evidence > 0)
        pts->term[FAIRPLAY_ROUTINE] +=
            FAIRPLAY_W_FORM * (evidence < FAIRPLAY_FORM_FULL ? evidence : FAIRPLAY_FORM_FULL) / FAIRPLAY_FORM_FULL;
}

int64_t fairplay_form_mean_of(const json_t *f)
{
    return int_or(f, "find_log_mean");
}

int64_t fairplay_form_se2_of(const json_t *f)
{
    /* find_log_sd divides by the gaps (n): sd^2 / (n - 1) is the mean's
     * unbiased squared standard error */
    int64_t sd = int_or(f, "find_log_sd"), n = int_or(f, "find_gaps");
    return sd < 0 || n <= 1 ? -1 : sd * sd / (n - 1);
}

static const char *const term_words[FAIRPLAY_TERMS] = {
    [FAIRPLAY_PACE] = "pace",           [FAIRPLAY_PADDING] = "padding",
    [FAIRPLAY_CLOCK] = "clock",         [FAIRPLAY_REHEARSAL] = "rehearsal",
    [FAIRPLAY_SPEED] = "speed",         [FAIRPLAY_ROUTINE] = "routine",
};

int64_t fairplay_total(json_t *f, const fairplay_points *pts)
{
    int64_t sum = 0, top = 0;
    const char *word = "";
    json_t *points = json_object(); /* each term that counted, by its word: what a reviewer weighs */
    for (int i = 0; i < FAIRPLAY_TERMS; i++) {
        sum += pts->term[i];
        if (pts->term[i] > 0 && points)
            json_object_set_new(points, term_words[i], json_integer((json_int_t)pts->term[i]));
        if (pts->term[i] > top) {
            top = pts->term[i];
            word = term_words[i];
        }
    }
    put(f, "suspicion", sum);
    json_object_set_new(f, "reason", json_string(word));
    if (points)
        json_object_set_new(f, "points", points);
    return sum;
}

static int64_t int_or(const json_t *f, const char *key)
{
    const json_t *v = json_object_get(f, key);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
}

int64_t fairplay_pace_of(const json_t *f, bool completed)
{
    if (!completed)
        return -1; /* a run that stopped early is no pace to compare with */
    int64_t ratio = int_or(f, "floor_ratio_permille");
    return ratio >= 0 ? ratio : int_or(f, "claimed_per_min_move_ms");
}

int64_t fairplay_slack_of(const json_t *f)
{
    return int_or(f, "slack_mean_ms");
}

const char *fairplay_hold_reason(const char *signals_json, bool duplicate)
{
    if (duplicate)
        return "duplicate";
    const char *word = "review";
    json_t *s = signals_json ? json_loads(signals_json, 0, NULL) : NULL;
    /* the rules that hold whatever the suspicion name themselves first */
    if (json_object_get(s, "identity") || json_object_get(s, "twin") || json_object_get(s, "parallel") ||
        json_object_get(s, "think_time") || json_object_get(s, "new_account") || json_object_get(s, "record")) {
        word = json_object_get(s, "identity")      ? "identity"
               : json_object_get(s, "twin")        ? "twin"
               : json_object_get(s, "parallel")    ? "parallel"
               : json_object_get(s, "think_time")  ? "think_time"
               : json_object_get(s, "new_account") ? "new_account"
                                                   : "record";
        json_decref(s);
        return word;
    }
    const char *r = json_string_value(json_object_get(json_object_get(s, "features"), "reason"));
    for (int i = 0; r && i < FAIRPLAY_TERMS; i++)
        if (strcmp(r, term_words[i]) == 0)
            word = term_words[i];
    json_decref(s);
    return word;
}

bool fairplay_hold_reason_known(const char *word)
{
    static const char *const rules[] = { "duplicate", "identity",    "twin",   "parallel",
                                         "think_time", "new_account", "record", "review" };
    for (size_t i = 0; word && i < sizeof rules / sizeof rules[0]; i++)
        if (strcmp(word, rules[i]) == 0)
            return true;
    for (int i = 0; word && i < FAIRPLAY_TERMS; i++)
        if (strcmp(word, term_words[i]) == 0)
            return true;
    return false;
}
