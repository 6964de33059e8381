/*
 * fairplay: the shell's own fair-play rules, beside the rules each game
 * states in its spec: how much time a run may claim, when an incomplete
 * run is a forfeit, the signals measured at verification for review, and
 * when a daily run's moves become public. docs/THREAT-MODEL.md says what
 * each rule stops and what it does not. Pure functions of the settings and
 * the numbers given; the JSON returned is a new reference the caller owns.
 */
#ifndef REPLAYD_SERVER_FAIRPLAY_H
#define REPLAYD_SERVER_FAIRPLAY_H

#include <jansson.h>
#include <stdint.h>

#include "../../core/game.h"
#include "../base/config.h"
#include "../store/store.h"

/* The most time a run may claim when elapsed_ms passed on the server's
 * clock between issuing its token and receiving it. */
int64_t fairplay_allowed_ms(const config *c, int64_t elapsed_ms);

/* Completed, incomplete, or a forfeit: incomplete and shorter than
 * forfeit_short_ms (the claimed time; for an untimed game the elapsed). */
run_outcome fairplay_outcome(const config *c, const game_result *res, int64_t elapsed_ms);

/* {"elapsed_ms", "claimed_ms" (null when untimed), "idle_ms" (elapsed less
 * claimed), "rehearsal" (idle above rehearsal_bound_ms)}. */
json_t *fairplay_signals(const config *c, const game_result *res, int64_t elapsed_ms);

/* The review's features of a verified run (docs/OPERATIONS.md, "Review
 * queue"), from what the game declares in its table (min_moves,
 * move_slack_ms, finish_floor_ms, ignored_allowance) and the moves' "t"
 * field; no game is named here. Pace counts only the moves that changed
 * the game (outcomes[i] is replay_run's outcome of move i; a move the game
 * ignored is measured on its own, so padding dilutes nothing). A new JSON
 * object:
 *   min_moves, wasted: applied moves beyond the level's minimum work;
 *   ignored, ignored_allowance: moves the game ignored, and the game's
 *     allowance for them (its spec's "Fair play" section);
 *   claimed_per_min_move_ms: claimed time over the minimum work;
 *   finish_floor_ms, floor_ratio_permille: claimed time against the
 *     level's finish floor (1000: exactly at the floor);
 *   paced_moves, at_floor_permille: applied moves with a floor (measured
 *     from the previous applied move), and the share of them within
 *     FAIRPLAY_FLOOR_TOLERANCE_MS of it;
 *   slack_mean_ms, slack_sd_ms: the mean and standard deviation of those
 *     moves' time beyond the floor (a script's sd is near 0, a person's is
 *     not);
 *   find_moves, find_cv_permille: the paced moves that are not a repeat
 *     of the move before but for its time (a new target: a search), and
 *     their slack's sd over its mean x 1000 (a person's searches vary,
 *     well above 500; evenly jittered gaps far less);
 *   find_log_mean, find_log_sd, find_gaps: over the finds after the
 *     first move (at least FAIRPLAY_FORM_MIN_FINDS), the mean and standard
 *     deviation of the natural log of their whole gap (ms, up to 60 s),
 *     x 1000: the run's search pace in a scale that every level shares,
 *     and how precisely one run measures it (fairplay_form);
 *   round_t_permille, frame_clock: the share of applied moves whose t is a
 *     multiple of 10 ms, and whether every t sits on a 60 Hz frame grid
 *     (then a third of them are multiples of 10 by nature, not 1 in 10);
 *   ahead_ms: how much more time the run claims than the server measured
 *     (0 when less), flagged past the clock-rate allowance;
 *   think_ms, think_floor_ms: the most time the run's first applied move
 *     can have had since the token's issue (its claimed time, move_at_ms,
 *     plus the elapsed time the run does not claim; an untimed run: the
 *     elapsed time), and the game's think floor for the level times
 *     think_floor_permille / 1000 (both absent for a game without one,
 *     with the setting 0, or a run without an applied move); no points:
 *     a run under it is held on that alone (fairplay_think_early);
 * and the points of each term (fairplay_points). The level must be the one
 * the run was replayed on. */
#define FAIRPLAY_FLOOR_TOLERANCE_MS 25
#define FAIRPLAY_W_AT_FLOOR 400     /* x at_floor_permille / 1000 */
#define FAIRPLAY_W_ROUND_T 300      /* x the share of round t beyond the clock's own share */
#define FAIRPLAY_W_STEADY 200       /* x (100 - slack_sd_ms) / 100, when >= 5 paced moves */
#define FAIRPLAY_W_EVEN 150         /* x (500 - max(cv, 250)) / 250, cv < 500, when >= 8 finds */
#define FAIRPLAY_W_PERFECT 100      /* a completed run with no wasted move (min_moves >= 3) */
#define FAIRPLAY_W_NEAR_FINISH 150  /* x (1500 - floor_ratio_permille) / 500, ratio 1000..1500 */
#define FAIRPLAY_W_IGNORED 60       /* each ignored move beyond the game's allowance */
#define FAIRPLAY_W_IGNORED_MAX 600  /* ... up to this */
#define FAIRPLAY_W_AHEAD 500        /* claimed more than elapsed past the clock-rate allowance */
#define FAIRPLAY_W_REHEARSAL 200    /* idle_ms over rehearsal_bound_ms */
#define FAIRPLAY_W_FASTEST 150      /* x (pace_percentile - 800) / 200, the fastest fifth */
#define FAIRPLAY_W_ROUTINE 150      /* x (150 - routine_cv) / 150, cv < 150 over >= 4 runs */
#define FAIRPLAY_W_FORM 300        /* x min((runs - 1) x (1900 - form), 6000) / 6000, form_permille < 1900 */
#define FAIRPLAY_FORM_BELOW 1900
#define FAIRPLAY_FORM_FULL 6000    /* (runs - 1) x (FAIRPLAY_FORM_BELOW - form) for all the points */
#define FAIRPLAY_FORM_MIN_FINDS 8
#define FAIRPLAY_FORM_WINSOR 1000  /* a find's log slack kept within e^1 of the run's mean */
#define FAIRPLAY_W_DUPLICATE 300    /* another player's identical run (added by the store) */

/* The points of a run, by the one-word reason an answer gives when they
 * hold it (fairplay_reason). */
typedef enum fairplay_term {
    FAIRPLAY_PACE,      /* at the floors, steady, even, near the finish floor, perfect */
    FAIRPLAY_PADDING,   /* ignored moves beyond the allowance */
    FAIRPLAY_CLOCK,     /* ahead of the server's clock, round timestamps */
    FAIRPLAY_REHEARSAL, /* a long idle before the run */
    FAIRPLAY_SPEED,     /* faster than nearly all the board's runs */
    FAIRPLAY_ROUTINE,   /* the same pace run after run */
    FAIRPLAY_TERMS
} fairplay_term;

typedef struct fairplay_points {
    int64_t term[FAIRPLAY_TERMS];
} fairplay_points;

json_t *fairplay_features(const config *c, const game *g, const game_level *level, int version,
                          const game_move *moves, size_t n, const int *outcomes,
                          const game_result *res, int64_t elapsed_ms, fairplay_points *pts);

/* Whether the features put the run's first decision before its think
 * floor (think_ms < think_floor_ms): the run is held, held_reason
 * "think_time". */
bool fairplay_think_early(const json_t *f);

/* Population and history (fairplay_book.h measures them): the run's pace
 * percentile among the board's accepted runs (permille of them slower; -1:
 * too few to say) and the spread of the player's pace across their recent
 * runs (coefficient of variation x 1000; -1: too few runs). Recorded in f
 * as pace_percentile and routine_cv, and weighted. */
void fairplay_population(json_t *f, int64_t pace_percentile, int64_t routine_cv,
                         fairplay_points *pts);

/* Form across runs (fairplay_book_form measures it): how much the
 * player's search pace, each run against its board's, varies from run to
 * run, over what each run's own gaps leave uncertain (Cochran's Q per
 * degree of freedom, x 1000; -1: too few runs), over the player's
 * recent runs with a residual (runs of them, at least 2). A person's form changes from run to run (practice,
 * fatigue, attention), so their runs differ by more than their gaps'
 * noise (well above 1000); a script drawing every gap from one
 * distribution does not (near 1000). Recorded in f as form_permille and
 * form_runs, and weighted under "routine" by the evidence
 * (runs - 1) x (FAIRPLAY_FORM_BELOW - form_permille), full at
 * FAIRPLAY_FORM_FULL: the more runs agree, the more points. */
void fairplay_form(json_t *f, int64_t form_permille, int runs, fairplay_points *pts);

/* For the book: the run's find_log_mean (-1 when f lacks it), and the
 * square of its standard error (find_log_sd^2 / (find_gaps - 1); -1). */
int64_t fairplay_form_mean_of(const json_t *f);
int64_t fairplay_form_se2_of(const json_t *f);

/* The sum of the points, and the word of the largest term ("pace",
 * "padding", "clock", "rehearsal", "speed", "routine"; "" when all are 0),
 * recorded in f as "suspicion" and "reason", with "points": each term
 * that counted, {word: points} (what the operator's console shows). */
int64_t fairplay_total(json_t *f, const fairplay_points *pts);

/* The run's pace for the population (completed runs only: -1 for
 * another): its floor ratio where the level has a finish floor, else its
 * claimed time per minimum move; and, for the history, the mean slack of
 * its paced moves. -1 when f lacks it. */
int64_t fairplay_pace_of(const json_t *f, bool completed);
int64_t fairplay_slack_of(const json_t *f);

/* The one word an answer gives for a held score: "duplicate" for a
 * duplicate; "identity", "twin", "parallel", "think_time", "new_account"
 * or "record" when signals carry that rule's hold, in that order (a board
 * that requires an identity, twins.h, parallel play, the think floor, the
 * new-account hold, review_top); else the reason its features recorded
 * ("review" when none). The words: docs/API.md, held_reason. */
const char *fairplay_hold_reason(const char *signals_json, bool duplicate);
/* Whether word is one fairplay_hold_reason can give. */
bool fairplay_hold_reason_known(const char *word);

/* When the moves of a daily run become public (unix ms): the end of its
 * day plus daily_grace_s, while anyone can still play that daily. 0 for a
 * level run, whose moves are public at once. */
int64_t fairplay_moves_public_at(const config *c, const play *p);

#endif
