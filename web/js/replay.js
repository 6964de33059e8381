// replay: the replay viewer (GET /replay/{score_id}). Fetches the score's
// public audit, rebuilds the level in this browser with the game's adapter
// (web/js/games/<game>.js, loaded only here and only for that game), plays
// the run, and verifies it: the score by replay, the moves hash, and the
// receipt: a v1/v2 receipt's signature against GET /v1/keys, a v3 receipt's
// leaf in the score log (its checkpoint and tiles, verify.js).
import { byId, el, formatInt, formatWhen, GAME_TITLES, gameTitle, getJSON, playerTag } from './api.js';
import { Player } from './player.js';
import { explainResult, legendOf } from './scoring.js';
import { movesHash, parseReceiptV3, verifyLogReceipt, verifyReceipt } from './verify.js';

const scoreId = location.pathname.split('/')[2] || '';

function notice(message) {
  const p = byId('notice');
  p.hidden = false;
  p.textContent = message;
}

function boardLink(a) {
  return a.date ? `/?date=${a.date}` : `/?game=${encodeURIComponent(a.game)}&level=${a.level}`;
}

function renderFacts(a) {
  const board = a.date ? `daily ${a.date}` : `level ${a.level} board`;
  const who = `${a.name} ${playerTag(a.player_id)}`;
  byId('title').textContent = `${who}: ${gameTitle(a.game)}, level ${a.level}`;
  document.title = `${who} · ${gameTitle(a.game)} ${a.level} · replayd`;
  const fact = (label, value) => el('li', {}, `${label} `, el('b', {}, value));
  const moves = Array.isArray(a.moves) ? String(a.moves.length) : 'private';
  byId('facts').replaceChildren(
    fact('score', formatInt(a.score)),
    fact('', a.completed ? 'completed' : 'not completed'),
    fact('moves', moves),
    el('li', {}, el('a', { href: boardLink(a) }, board)),
    fact('submitted', formatWhen(a.submitted_at)),
    fact('game version', String(a.version)),
    fact('seed', String(a.seed)),
  );
  byId('back-link').href = boardLink(a);
  byId('audit-link').href = `/v1/scores/${a.score_id}`;
}

function setCheck(id, ok, message) {
  const dd = byId(id);
  dd.className = ok === true ? 'ok' : ok === false ? 'no' : '';
  dd.textContent = `${ok === true ? '✓ ' : ok === false ? '✗ ' : ''}${message}`;
}

function setVerdict(kind, message) {
  const p = byId('verdict');
  p.hidden = false;
  p.dataset.verdict = kind;
  p.textContent = message;
}

/** The three checks. adapter is null when the moves cannot be replayed here (private, unknown game). */
async function verify(audit, adapter, why) {
  const button = byId('btn-verify');
  button.disabled = true;
  byId('checks').hidden = false;
  setVerdict('running', 'Checking…');
  const keys = getJSON('/v1/keys').then((k) => k, (e) => e);
  const v3 = parseReceiptV3(audit.receipt) !== null;
  let scoreOk = null;
  let hashOk = null;
  if (adapter) {
    try {
      const lv = adapter.build(audit.version, audit.level, audit.seed);
      const run = adapter.replay(lv, audit.moves);
      if (run.rejected) {
        scoreOk = false;
        setCheck('chk-score', false, `this browser's replay rejects move ${run.rejected.move + 1} (${run.rejected.reason}); the server recorded ${formatInt(audit.score)}`);
      } else {
        scoreOk = run.result.score === audit.score && run.result.completed === audit.completed;
        setCheck('chk-score', scoreOk, `computed ${formatInt(run.result.score)}${run.result.completed ? ' (completed)' : ''} · recorded ${formatInt(audit.score)}${audit.completed ? ' (completed)' : ''}`);
      }
    } catch (e) {
      scoreOk = false;
      setCheck('chk-score', false, `the replay failed: ${e.message}`);
    }
    try {
      const hash = movesHash(adapter.fields, audit.moves);
      hashOk = hash === audit.moves_hash;
      setCheck('chk-hash', hashOk, hashOk ? `${hash.slice(0, 16)}… matches` : `computed ${hash.slice(0, 16)}…, recorded ${String(audit.moves_hash).slice(0, 16)}…`);
    } catch (e) {
      hashOk = false;
      setCheck('chk-hash', false, `the moves cannot be hashed: ${e.message}`);
    }
  } else {
    setCheck('chk-score', null, why);
    setCheck('chk-hash', null, why);
  }
  const answer = await keys;
  let sig;
  if (answer instanceof Error) sig = { ok: false, unable: true, reason: `the keys could not be loaded: ${answer.message}` };
  else if (v3) sig = await verifyLogReceipt(audit, answer);
  else sig = await verifyReceipt(audit, answer.keys);
  const form = v3 ? ' (receipt v3)' : sig.form ? ` (receipt ${sig.form}, key ${sig.keyId})` : '';
  setCheck('chk-sig', sig.unable ? null : sig.ok, `${sig.reason}${form}`);
  const receiptFails = v3 ? 'the score log does not hold this score as recorded' : 'the receipt\'s signature does not match the recorded fields';
  const vouched = v3 ? 'the server\'s signed score log holds it as recorded' : 'the server\'s signature over them is valid';

  if (scoreOk === false || hashOk === false || (!sig.ok && !sig.unable)) {
    const what = [
      scoreOk === false && 'the replay in this browser does not give the recorded score',
      hashOk === false && 'the moves do not hash to the recorded moves hash',
      !sig.ok && !sig.unable && receiptFails,
    ].filter(Boolean).join('; ');
    setVerdict('fail', `Verification failed: ${what}.`);
  } else if (!adapter || sig.unable) {
    setVerdict('partial', !adapter
      ? (sig.ok ? `${v3 ? 'The server\'s signed score log holds this score as recorded' : 'The server\'s signature over this score is valid'}; the score itself can be checked by replay once the moves are public.` : `Not checked: ${sig.reason}.`)
      : `The replay matches; the ${v3 ? 'score log' : 'signature'} could not be checked here: ${sig.reason}.`);
  } else {
    setVerdict('pass', `Verified: this browser computed the same score from the same moves, and ${vouched}.`);
  }
  button.disabled = false;
}

async function main() {
  let audit;
  try {
    audit = await getJSON(`/v1/scores/${encodeURIComponent(scoreId)}`);
  } catch (e) {
    notice(e.status === 404 ? 'There is no score with this id.' : `The score could not be loaded: ${e.message}`);
    return;
  }
  renderFacts(audit);
  byId('verify').hidden = false;
  const v3 = parseReceiptV3(audit.receipt) !== null;
  if (v3) {
    byId('chk-sig-label').textContent = 'Score log';
    byId('verify-what').textContent = 'Re-runs every move in this browser with an independent port of the game, recomputes the moves\' hash, and finds the score in the server\'s public score log: its signed checkpoint (against the published log key) and the tiles that hold it, every recorded field compared.';
  }
  const verifyWith = (adapter, why) => byId('btn-verify').addEventListener('click', () => verify(audit, adapter, why));

  if (audit.moves_public === false) {
    const when = audit.moves_public_at ? formatWhen(audit.moves_public_at) : 'the day closes';
    const today = new Date().toISOString().slice(0, 10);
    const what = !audit.date ? 'this run' : audit.date === today ? 'today\'s daily' : `the daily of ${audit.date}`;
    notice(`The moves of ${what} stay private until ${when}, so that nobody can copy a run while the day is open. The replay and the check by replay open then.`);
    byId('verify-what').textContent = v3
      ? 'Finds the score in the server\'s public score log (its signed checkpoint and tiles) and compares the fields it recorded, the moves hash among them. The replay and the moves hash can be checked once the moves are public.'
      : 'Checks the server\'s Ed25519 signature on the receipt, over the fields it recorded (the moves hash among them), against its published keys. The replay and the moves hash can be checked once the moves are public.';
    byId('btn-verify').textContent = v3 ? 'Check the score log' : 'Check the signature';
    verifyWith(null, `not available until ${when}`);
    return;
  }
  if (!Array.isArray(audit.moves)) {
    notice('The audit record holds no moves to replay.');
    verifyWith(null, 'the audit record holds no moves');
    return;
  }
  if (!Object.hasOwn(GAME_TITLES, audit.game)) {
    notice(`This page cannot replay ${audit.game} yet.`);
    verifyWith(null, 'this page has no replay for this game');
    return;
  }
  const adapter = await import(`./games/${audit.game}.js`);
  if (!adapter.supports(audit.version)) {
    notice(`This page cannot rebuild ${gameTitle(audit.game)} version ${audit.version}.`);
    verifyWith(null, `version ${audit.version} cannot be rebuilt here`);
    return;
  }
  const lv = adapter.build(audit.version, audit.level, audit.seed);
  const tl = adapter.timeline(lv, audit.moves);
  if (tl.rejected) {
    notice(`This browser's replay rejects move ${tl.rejected.move + 1} (${tl.rejected.reason}), which the server accepted. The run is shown up to that move.`);
  }
  const viewer = byId('viewer');
  viewer.hidden = false;
  const ui = {
    root: viewer, stage: byId('stage'), canvas: byId('canvas'), marks: byId('marks'), scrub: byId('scrub'),
    play: byId('btn-play'), back: byId('btn-back'), fwd: byId('btn-fwd'), start: byId('btn-start'),
    speed: byId('speed'), clock: byId('clock'), caption: byId('caption'), final: byId('final'),
    finalScore: byId('final-score'), finalNote: byId('final-note'),
  };
  byId('final-sum').textContent = explainResult(audit.game, tl.result) || '';
  const legend = byId('legend');
  legend.textContent = legendOf(audit.game) || '';
  legend.hidden = !legend.textContent;
  new Player(ui, tl, (ctx, w, h, frame) => adapter.draw(ctx, w, h, lv, frame));
  verifyWith(adapter, '');
}

main().catch((e) => notice(`The replay could not be shown: ${e.message}`));
