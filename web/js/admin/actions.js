// actions: approve, void, restore (a run) and ban, unban, rename (its
// player), each in two steps in one dialog: a required reason (and the new
// name for a rename), then a confirmation that names what will change;
// then the server's answer, shown as it came.
import { byId, getJSON } from '../api.js';
import { admin, describeError } from './session.js';
import { int, playerWords, boardWords } from './words.js';

const ON_SCORE = new Set(['approve', 'void', 'restore']);

/** What the action will change, in words. */
function consequence(kind, item) {
  const who = playerWords(item.name, item.player_id);
  const board = boardWords(item);
  switch (kind) {
    case 'approve': return `Approve ${who}'s run on ${board} (score ${int(item.score)}): it goes on the public board`
      + (item.would_be_rank ? ` at rank ${item.would_be_rank}.` : '.');
    case 'void': return `Void ${who}'s run on ${board} (score ${int(item.score)}): it leaves every board`
      + (item.status !== 'ranked' ? ' (it is not ranked now).'
        : item.rank_now ? `: it loses rank ${item.rank_now} and the board re-ranks.` : ' and the board re-ranks.');
    case 'restore': return `Restore ${who}'s voided run on ${board}: it counts again.`;
    case 'ban': return `Ban ${who}: every run of theirs leaves the public boards.`;
    case 'unban': return `Unban ${who}: their ranked runs return to the boards.`;
    case 'rename': return `Rename ${who}`;
    default: return kind;
  }
}

/** The server's answer in one line: the action, its log id, and each board's entry now. */
function answerWords(a) {
  const boards = (a.boards || []).map((b) => {
    const where = b.date ? `daily ${b.date}` : `${b.game}/${b.level}`;
    return b.entry ? `${where}: the player's entry is now ${int(b.entry.score)}` : `${where}: the player has no entry`;
  });
  return `Done: ${a.action} (admin log #${a.log_id}). ${boards.join('; ')}`;
}

let current = null;

function reset() {
  byId('action-reason').value = '';
  byId('action-name').value = '';
  byId('action-confirm').hidden = true;
  byId('action-result').textContent = '';
  byId('action-result').className = '';
  byId('action-next').hidden = false;
  byId('action-go').hidden = true;
  byId('action-reason').disabled = false;
  byId('action-name').disabled = false;
}

/** The rank a ranked run holds now on its public board (its player's entry, if it is this run), or null. */
async function rankNow(item) {
  const path = item.date ? `/v1/leaderboards/daily/${item.date}/players/${item.player_id}?around=0`
    : `/v1/leaderboards/${encodeURIComponent(item.game)}/${item.level}/players/${item.player_id}?around=0`;
  try {
    const a = await getJSON(path);
    return a.player && a.player.score_id === item.score_id ? a.rank : null;
  } catch {
    return null; // not on the board (404 not_on_board): no rank to name
  }
}

/** Opens the dialog for kind on item (a queue item or a twin); onDone(answer) after a success. */
export function openAction(kind, item, onDone) {
  current = { kind, item, onDone };
  if (kind === 'void' && item.status === 'ranked') {
    const mine = current;
    rankNow(item).then((rank) => {
      if (current !== mine || !rank) return;
      mine.item = { ...item, rank_now: rank };
      byId('action-what').textContent = consequence(kind, mine.item);
      if (!byId('action-confirm').hidden) byId('action-confirm').textContent = byId('action-confirm').textContent.replace(consequence(kind, item), consequence(kind, mine.item));
    });
  }
  reset();
  byId('action-title').textContent = `${kind[0].toUpperCase()}${kind.slice(1)}`;
  byId('action-what').textContent = consequence(kind, item);
  byId('action-name-row').hidden = kind !== 'rename';
  byId('action-dialog').dataset.kind = kind;
  byId('action-dialog').showModal();
  byId(kind === 'rename' ? 'action-name' : 'action-reason').focus();
}

export const dialogOpen = () => byId('action-dialog').open;

function next() {
  const reason = byId('action-reason').value.trim();
  const name = byId('action-name').value.trim();
  const out = byId('action-result');
  if (!reason) { out.textContent = 'A reason is required: the admin log keeps it.'; return; }
  if (current.kind === 'rename' && !name) { out.textContent = 'A new name is required.'; return; }
  out.textContent = '';
  const c = byId('action-confirm');
  c.textContent = `${consequence(current.kind, current.item)}${current.kind === 'rename' ? ` to "${name}".` : ''} Reason: "${reason}". Confirm?`;
  c.hidden = false;
  byId('action-reason').disabled = true;
  byId('action-name').disabled = true;
  byId('action-next').hidden = true;
  byId('action-go').hidden = false;
  byId('action-go').focus();
}

async function go() {
  const { kind, item, onDone } = current;
  const body = { reason: byId('action-reason').value.trim(), operator: 'console' };
  if (kind === 'rename') body.name = byId('action-name').value.trim();
  const path = ON_SCORE.has(kind) ? `/v1/admin/scores/${item.score_id}/${kind}` : `/v1/admin/players/${item.player_id}/${kind}`;
  const out = byId('action-result');
  byId('action-go').disabled = true;
  try {
    const a = await admin('POST', path, body);
    out.textContent = answerWords(a);
    out.className = 'result-ok';
    out.dataset.state = 'done';
    byId('action-go').hidden = true;
    if (onDone) onDone(a);
  } catch (e) {
    out.textContent = describeError(e);
    out.className = 'error';
    out.dataset.state = 'error';
  } finally {
    byId('action-go').disabled = false;
  }
}

export function wireActions() {
  byId('action-next').addEventListener('click', next);
  byId('action-go').addEventListener('click', go);
  byId('action-cancel').addEventListener('click', () => byId('action-dialog').close());
  byId('action-form').addEventListener('submit', (ev) => { ev.preventDefault(); if (!byId('action-next').hidden) next(); });
}
