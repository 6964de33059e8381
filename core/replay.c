#include "replay.h"

#include <string.h>

void replay_run(const game *g, const game_level *level, game_state *state,
                const game_move *moves, size_t n, int *outcomes, replay_report *report)
{
    memset(report, 0, sizeof *report);
    g->start(state, level);
    for (size_t i = 0; i < n; i++) {
        int o = g->apply(state, &moves[i]);
        if (outcomes)
            outcomes[i] = o;
        switch (g->outcomes[o].kind) {
        case OUTCOME_APPLIED:
            report->applied++;
            break;
        case OUTCOME_IGNORED:
            report->ignored++;
            break;
        case OUTCOME_REJECTED:
            report->rejected = true;
            report->rejected_move = i;
            report->rejected_outcome = o;
            return;
        }
    }
    g->result(state, &report->result);
}
