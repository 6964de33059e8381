/*
 * fairplay_book: the population and history the review's features compare
 * a run with (fairplay_population): the paces of each board's accepted
 * runs and each player's recent pace, kept in memory by this node; and
 * for the form across runs (fairplay_form), each board's search paces
 * (find_log_mean) and each player's recent search paces, each with its
 * standard error and its board.
 *
 * What it is not: the truth. A board's population is the runs this node
 * accepted since it started, up to FAIRPLAY_BOOK_RUNS of them (the newest
 * replace the oldest); a player's history is their last
 * FAIRPLAY_BOOK_HISTORY runs here (FAIRPLAY_BOOK_FORM_HISTORY for the
 * form). Tables are fixed-size and direct-mapped:
 * a newer board or player evicts whatever held its slot, so memory never
 * grows. A fresh node, or one of many behind a balancer, knows less, and
 * the features stay silent (-1) until it knows enough. Signals only: no
 * rule or score depends on it.
 *
 * Thread safety: every function may be called from any thread at once.
 * Ownership: the book owns its tables; fairplay_book_free frees them.
 */
#ifndef REPLAYD_SERVER_FAIRPLAY_BOOK_H
#define REPLAYD_SERVER_FAIRPLAY_BOOK_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "../store/store.h"

#define FAIRPLAY_BOOK_BOARDS 1024  /* boards remembered */
#define FAIRPLAY_BOOK_RUNS 512     /* paces kept per board */
#define FAIRPLAY_BOOK_MIN_RUNS 20  /* fewer: no percentile */
#define FAIRPLAY_BOOK_PLAYERS 16384
#define FAIRPLAY_BOOK_HISTORY 8    /* runs kept per player */
#define FAIRPLAY_BOOK_MIN_HISTORY 4 /* fewer (with this run): no spread */
#define FAIRPLAY_BOOK_FORM_MIN_RUNS 8 /* fewer search paces on a board: no residual */
#define FAIRPLAY_BOOK_FORM_HISTORY 12 /* search paces kept per player */
#define FAIRPLAY_BOOK_FORM_MIN_HISTORY 2 /* fewer runs with a residual (with this run): no form */

typedef struct fairplay_book_board fairplay_book_board;
typedef struct fairplay_book_player fairplay_book_player;

typedef struct fairplay_book {
    pthread_mutex_t lock;
    fairplay_book_board *boards;   /* FAIRPLAY_BOOK_BOARDS */
    fairplay_book_player *players; /* FAIRPLAY_BOOK_PLAYERS */
} fairplay_book;

bool fairplay_book_init(fairplay_book *b);
void fairplay_book_free(fairplay_book *b);

/* The permille of the board's recorded paces slower (greater) than pace,
 * ties counted half; -1 below FAIRPLAY_BOOK_MIN_RUNS or pace < 0. */
int64_t fairplay_book_percentile(fairplay_book *b, const store_board *board, int64_t pace);

/* The coefficient of variation (x 1000) of the player's recent mean slack
 * with slack as one more run; -1 below FAIRPLAY_BOOK_MIN_HISTORY runs, or
 * slack < 0. */
int64_t fairplay_book_routine(fairplay_book *b, int64_t player_id, int64_t slack);

/* The form of the player's runs (fairplay_form), with this run as one
 * more when its board knows enough runs: -1 below
 * FAIRPLAY_BOOK_FORM_MIN_HISTORY runs with a residual, or log_mean or
 * se2 < 0; *runs, how many runs it measured (0 with -1). A
 * run's residual is its log_mean (fairplay_form_mean_of) less the mean of
 * its board's recorded log_means other than its own (at least
 * FAIRPLAY_BOOK_FORM_MIN_RUNS of them), taken as the board stands now
 * (as it stood when the run was recorded once the board is gone from the
 * book); its noise, the variance the residual has with no form at all:
 * se2 (fairplay_form_se2_of) plus the squared standard error of that
 * board mean. The form is Cochran's Q over the player's last
 * FAIRPLAY_BOOK_FORM_HISTORY runs and this one (each residual's squared
 * deviation from their noise-weighted mean, over its noise) per degree
 * of freedom (runs - 1), x 1000: near 1000 for runs drawn from one
 * distribution, more for a person. */
int64_t fairplay_book_form(fairplay_book *b, const store_board *board, int64_t player_id, int64_t log_mean,
                           int64_t se2, int *runs);

/* Records a run's search pace (log_mean < 0 or se2 < 0: none) in the
 * player's history, and on the board when the run is ranked (a held run
 * joins its player's history, not the board). */
void fairplay_book_add_form(fairplay_book *b, const store_board *board, int64_t player_id, int64_t log_mean,
                            int64_t se2, bool ranked);

/* Records an accepted run: its pace on the board (pace < 0: none) and its
 * mean slack in the player's history (slack < 0: none). */
void fairplay_book_add(fairplay_book *b, const store_board *board, int64_t player_id, int64_t pace,
                       int64_t slack);

#endif
