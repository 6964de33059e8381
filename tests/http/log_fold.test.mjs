// The boards folded from the served score log (docs/LOG.md section 11) are
// the served boards (docs/API.md, GET /v1/leaderboards/...): level boards
// and a daily from several players, equal scores, a twin pair (a hold leaf,
// 0x08), an operator's void, restore, ban, unban, rename and approve, and
// runs held at commit by the review hold. After each step the log is read
// from its tiles (verified with the independent verifier,
// clients/js/src/log.mjs), folded with foldBoards, and every board its
// leaves name is read whole (limit=200, every page) and compared entry by
// entry: the same score ids in the same order, with the same ranks, scores
// and players. Written from docs/LOG.md and docs/API.md alone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, call, register, seed, solve, solveSchulte, solvePipes, gen, sleep, ADMIN_TOKEN } from './harness.mjs';
import { schulteGap } from './solvers.mjs';
import { bot } from './schulte_runs.mjs';
import { Rng } from '../../vectors/port/core.mjs';
import { verifyLog, tilesForSize, parseEntryBundle, decodeLeaf, foldBoards } from '../../clients/js/src/log.mjs';

// A Schulte level-4 daily of era 1 (16 taps; the twins test's day): the
// server's clock is shifted to its noon.
const DATE = '2026-10-06';
const offset = Math.floor(Date.parse(`${DATE}T12:00:00Z`) / 1000) - Math.floor(Date.now() / 1000);
const dir = mkdtempSync(join(tmpdir(), 'replayd-logfold-'));
// The runs are sent the moment they are solved (the slack covers the wait);
// the new-account hold is off (the accounts are minutes old).
const ARGS = ['--set', 'plausibility_slack_ms=600000', '--set', 'rate_seeds_per_player=0', '--set', 'rate_scores_per_player=0',
  '--set', 'max_outstanding_tokens=1000', '--set', 'max_forfeits_per_level_day=0', '--set', `clock_offset_s=${offset}`,
  '--set', 'new_account_runs=0'];
let srv;
const start = (extra = []) => startServer({ dataDir: dir, admin: ADMIN_TOKEN, args: [...ARGS, ...extra] });
before(async () => { srv = await start(); });
after(async () => { await srv?.stop(); rmSync(dir, { recursive: true, force: true }); });

const MAX_PAGES = 50; // a board here has a few entries: one page; the bound only stops a cursor that never ends
const LAG_MS = 6000; // a board page is public, max-age=5 (docs/API.md): a served board may lag a commit by that much
let lagged = 0; // boards that matched only after LAG_MS

// ---- the served log

async function getLog(path) {
  const r = await fetch(`${srv.base}/v1/log/${path}`);
  assert.equal(r.status, 200, `GET /v1/log/${path}: ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}
async function logKey() {
  const k = await call(srv, 'GET', '/v1/keys');
  assert.equal(k.status, 200, k.text);
  const current = k.json.keys.filter((x) => x.current);
  assert.equal(current.length, 1);
  return { origin: k.json.log_origin, verifierKey: current[0].log_verifier_key };
}
// Every leaf of the served log's latest checkpoint, verified (section 10): { size, leaves, decoded }.
async function servedLog() {
  const { origin, verifierKey } = await logKey();
  const text = new TextDecoder().decode(await getLog('checkpoint'));
  const { size } = await verifyLog({ checkpointText: text, verifierKey, origin, getTile: getLog, allTiles: true, entries: true });
  const leaves = [];
  for (const t of tilesForSize(size, { entries: true })) {
    if (t.entries) leaves.push(...parseEntryBundle(await getLog(t.path), { width: t.width }));
  }
  assert.equal(BigInt(leaves.length), size);
  return { size, leaves, decoded: leaves.map((l) => decodeLeaf(l)) };
}

// ---- the served boards

const boardPath = (board) => {
  const [kind, a, b] = board.split(':');
  return kind === 'daily' ? `/v1/leaderboards/daily/${a}` : `/v1/leaderboards/${encodeURIComponent(a)}/${b}`;
};
// A whole board, every page of limit=200: { entries, totals }.
async function servedBoard(board) {
  const entries = [];
  const totals = new Set();
  let cursor = null;
  for (let page = 0; ; page++) {
    assert.ok(page < MAX_PAGES, `${board}: more than ${MAX_PAGES} pages`);
    const r = await call(srv, 'GET', `${boardPath(board)}?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(r.status, 200, `${board}: ${r.text}`);
    assert.ok(r.json.entries.length <= 200);
    entries.push(...r.json.entries);
    totals.add(r.json.total);
    cursor = r.json.next_cursor;
    if (!cursor) break;
    assert.ok(r.json.entries.length > 0, `${board}: an empty page with a next_cursor`);
  }
  return { entries, totals: [...totals] };
}

// What of a board differs between the fold and the served board: [] when nothing.
function differences(board, folded, served, names) {
  const out = [];
  if (served.totals.length !== 1 || served.totals[0] !== folded.length) out.push(`total ${JSON.stringify(served.totals)}, the fold has ${folded.length} entries`);
  const n = Math.max(folded.length, served.entries.length);
  for (let k = 0; k < n; k++) {
    const f = folded[k];
    const s = served.entries[k];
    const same = f && s && s.score_id === f.score_id && s.rank === f.rank && BigInt(s.score) === f.score && BigInt(s.player_id) === f.player_id;
    if (!same) {
      out.push(`position ${k + 1}: fold ${f ? `{rank ${f.rank}, player ${f.player_id}, score ${f.score}, score_id ${f.score_id}, leaf ${f.index}}` : 'none'}, served ${s ? JSON.stringify({ rank: s.rank, player_id: s.player_id, score: s.score, score_id: s.score_id, submitted_at: s.submitted_at }) : 'none'}`);
    }
    // a rename's leaf carries the player's name (section 11): the served name is the last one
    if (s && names.has(String(s.player_id)) && s.name !== names.get(String(s.player_id))) {
      out.push(`position ${k + 1}: player ${s.player_id} is named ${JSON.stringify(s.name)}, the log's last rename ${JSON.stringify(names.get(String(s.player_id)))}`);
    }
  }
  return out;
}

// Every leaf that names one of `scoreIds` (or their players, for a ban, an unban or a rename).
function leavesAbout(decoded, scoreIds) {
  const ids = new Set(scoreIds);
  const players = new Set(decoded.filter((d) => d.kind === 'score' && ids.has(d.score_id)).map((d) => d.player_id));
  return decoded.map((d, i) => ({ d, i })).filter(({ d }) => (d.score_id && ids.has(d.score_id)) || (!d.score_id && players.has(d.player_id)))
    .map(({ d, i }) => `leaf ${i}: ${d.kind}${d.score_id ? ` ${d.score_id}` : ''} player ${d.player_id}${d.kind === 'score' ? ` ${d.board} score ${d.score} ${d.status}` : ''}`);
}

// The fold of the served log against every board its leaves name; fails
// naming the differing entries and the leaves about them. Returns the fold.
async function compareAll(step) {
  const log = await servedLog();
  const fold = foldBoards(log.decoded);
  const names = new Map();
  for (const d of log.decoded) if (d.kind === 'rename') names.set(String(d.player_id), d.name);
  for (const [board, folded] of fold) {
    let diff = differences(board, folded, await servedBoard(board), names);
    if (diff.length > 0) {
      await sleep(LAG_MS); // the most the docs let a board lag
      const again = differences(board, folded, await servedBoard(board), names);
      if (again.length === 0) lagged++;
      diff = again;
    }
    if (diff.length > 0) {
      const ids = new Set([...folded.map((e) => e.score_id), ...(await servedBoard(board)).entries.map((e) => e.score_id)]);
      assert.fail(`${step}: ${board} (log size ${log.size}) differs from its fold:\n  ${diff.join('\n  ')}\nthe leaves about its scores:\n  ${leavesAbout(log.decoded, ids).join('\n  ')}`);
    }
  }
  // GET /v1/leaderboards: every level board with an entry and its total (at most a second old)
  await sleep(1100);
  const list = await call(srv, 'GET', '/v1/leaderboards');
  assert.equal(list.status, 200, list.text);
  const listed = Object.fromEntries(list.json.boards.map((b) => [`level:${b.game}:${b.level}`, b.total]));
  const want = Object.fromEntries([...fold].filter(([b, e]) => b.startsWith('level:') && e.length > 0).map(([b, e]) => [b, e.length]));
  assert.deepEqual(listed, want, `${step}: GET /v1/leaderboards lists the level boards with entries, and their totals`);
  return { ...log, fold };
}

// ---- playing

async function play(p, body, moves) {
  const s = await seed(srv, p.token, body);
  const m = moves ? await moves(s) : await solve(s.game, s.level, s.seed, s.version);
  const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves: m } });
  assert.equal(r.status, 200, r.text);
  return r.json;
}
// A slower win: each move `extra` ms later than the default pace allows.
const slowSchulte = (extra) => async (s) => solveSchulte(s.level, s.seed, schulteGap(await gen('schulte', s.level, s.seed, s.version)) + extra, s.version);
const slowPipes = (gap) => (s) => solvePipes(s.level, s.seed, gap, s.version);
// The daily's taps at a person's pace: gaps of 420-700 ms drawn from `seedValue`.
const paced = (seedValue) => async (s) => {
  assert.equal(s.game, 'schulte', `the daily of ${DATE} is Schulte`);
  const r = new Rng(seedValue);
  let t = 0;
  return (await solveSchulte(s.level, s.seed, 500, s.version)).map((m) => ({ ...m, t: (t += 420 + r.below(281)) }));
};
async function act(path, kind, body = { reason: 'log fold test' }) {
  const r = await call(srv, 'POST', `/v1/admin/${path}/${kind}`, { token: ADMIN_TOKEN, body });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.action, kind);
  return r.json;
}
const ranksOf = (fold, board) => (fold.get(board) || []).map((e) => e.rank);
const hasTie = (fold) => [...fold.values()].some((es) => es.some((e, k) => k > 0 && e.rank === es[k - 1].rank));

let players;
const runs = {}; // name -> the submission's answer
const S1 = 'level:schulte:1';
const P1 = 'level:pipes:1';
const DAILY = `daily:${DATE}`;

test('scores on two level boards and the daily from five players, a twin pair held: the fold is every served board', async (t) => {
  players = {};
  for (const n of ['ann', 'bob', 'cyd', 'dee', 'eve']) players[n] = await register(srv, `fold-${n}`);
  const { ann, bob, cyd, dee, eve } = players;
  await compareAll('the empty log');
  // Schulte level 1 at the default pace: equal times; ann twice (an equal later score) and once slower
  runs.ann1 = await play(ann, { game: 'schulte', level: 1 });
  runs.bob1 = await play(bob, { game: 'schulte', level: 1 });
  runs.ann2 = await play(ann, { game: 'schulte', level: 1 });
  runs.cyd1 = await play(cyd, { game: 'schulte', level: 1 }, slowSchulte(40));
  runs.ann3 = await play(ann, { game: 'schulte', level: 1 }, slowSchulte(80));
  runs.dee1 = await play(dee, { game: 'schulte', level: 1 });
  // Pipes level 1: ann fast and slow, bob, dee
  runs.annP = await play(ann, { game: 'pipes', level: 1 });
  runs.annPslow = await play(ann, { game: 'pipes', level: 1 }, slowPipes(450));
  runs.bobP = await play(bob, { game: 'pipes', level: 1 });
  runs.deeP = await play(dee, { game: 'pipes', level: 1 }, slowPipes(350));
  for (const k of Object.keys(runs)) assert.equal(runs[k].status, 'ranked', `${k}: ${JSON.stringify(runs[k])}`);
  // the daily: ann leads, cyd and bob at their own pace, eve sends ann's taps re-timed x0.7 (a twin: both held)
  runs.annD = await play(ann, { daily: true }, paced(1));
  assert.equal(runs.annD.date, DATE);
  runs.cydD = await play(cyd, { daily: true }, paced(2));
  runs.bobD = await play(bob, { daily: true }, paced(3));
  runs.eveD = await play(eve, { daily: true }, async (s) => (await paced(1)(s)).map((m) => ({ ...m, t: Math.round(m.t * 0.7) })));
  assert.equal(runs.eveD.status, 'held', JSON.stringify(runs.eveD));
  const c = await compareAll('after the plays');
  const holds = c.decoded.filter((d) => d.kind === 'hold');
  assert.ok(holds.some((h) => h.score_id === runs.annD.score_id), 'the leader\'s daily was held by a hold leaf (0x08)');
  assert.ok(!c.fold.get(DAILY).some((e) => e.score_id === runs.annD.score_id), 'and is off the folded daily');
  // ann's entry: her highest score, the earliest of equals (the runs in the order sent, which is index order here)
  const annRuns = [runs.ann1, runs.ann2, runs.ann3];
  const annBest = annRuns.reduce((b, r) => (r.score > b.score ? r : b));
  assert.equal(c.fold.get(S1).find((e) => e.player_id === BigInt(ann.player_id))?.score_id, annBest.score_id, 'ann\'s best, the earliest of equals');
  t.diagnostic(`${S1} ranks ${ranksOf(c.fold, S1)}, ${P1} ranks ${ranksOf(c.fold, P1)}, ${DAILY} ranks ${ranksOf(c.fold, DAILY)}; equal scores shared a rank: ${hasTie(c.fold)}`);
});

test('void, restore, ban, unban, approve and rename: after each, the fold is every served board', async (t) => {
  const { ann, bob, cyd } = players;
  // ann's Schulte best voided: her equal later run (or her next best) takes its place
  const best = (fold, board, p) => fold.get(board).find((e) => e.player_id === BigInt(p.player_id));
  let c = await compareAll('before the actions');
  const annBest = best(c.fold, S1, ann);
  await act(`scores/${annBest.score_id}`, 'void');
  c = await compareAll('ann\'s Schulte best voided');
  assert.notEqual(best(c.fold, S1, ann)?.score_id, annBest.score_id);
  // ann's Pipes best voided: her slower run falls in; then restored
  const annPBest = best(c.fold, P1, ann);
  await act(`scores/${annPBest.score_id}`, 'void');
  c = await compareAll('ann\'s Pipes best voided');
  assert.ok(best(c.fold, P1, ann), 'ann\'s next best is on the Pipes board');
  assert.notEqual(best(c.fold, P1, ann).score_id, annPBest.score_id);
  await act(`scores/${annPBest.score_id}`, 'restore');
  c = await compareAll('ann\'s Pipes best restored');
  assert.equal(best(c.fold, P1, ann).score_id, annPBest.score_id);
  // bob banned: off every board; unbanned: back
  await act(`players/${bob.player_id}`, 'ban');
  c = await compareAll('bob banned');
  for (const b of [S1, P1, DAILY]) assert.equal(best(c.fold, b, bob), undefined, `bob is off ${b}`);
  // a void while banned, then the unban: bob's Schulte run stays off
  await act(`scores/${runs.bob1.score_id}`, 'void');
  await act(`players/${bob.player_id}`, 'unban');
  c = await compareAll('bob unbanned');
  assert.equal(best(c.fold, S1, bob), undefined, 'bob\'s voided run stays off');
  assert.equal(best(c.fold, P1, bob)?.score_id, runs.bobP.score_id);
  assert.equal(best(c.fold, DAILY, bob)?.score_id, runs.bobD.score_id);
  // the leader's daily, held by the twin, approved: back on the daily
  await act(`scores/${runs.annD.score_id}`, 'approve');
  c = await compareAll('ann\'s daily approved');
  assert.equal(best(c.fold, DAILY, ann)?.score_id, runs.annD.score_id);
  assert.equal(best(c.fold, DAILY, players.eve), undefined, 'eve\'s copy stays held');
  // a rename: the boards show the log's name
  await act(`players/${cyd.player_id}`, 'rename', { name: 'Cyd the Second', reason: 'log fold test' });
  c = await compareAll('cyd renamed');
  // the Schulte void restored: ann's first best is back (the earliest among equals)
  await act(`scores/${annBest.score_id}`, 'restore');
  c = await compareAll('ann\'s Schulte best restored');
  assert.equal(best(c.fold, S1, ann).score_id, annBest.score_id);
  t.diagnostic(`${S1} ranks ${ranksOf(c.fold, S1)}, ${P1} ranks ${ranksOf(c.fold, P1)}, ${DAILY} ranks ${ranksOf(c.fold, DAILY)}`);
});

test('runs held at commit by the review hold, one approved: the fold is every served board; every kind was folded', async (t) => {
  await srv.stop();
  // back with the review hold on: a floor-paced script is held (review.test.mjs)
  srv = await start(['--set', 'review_hold_threshold=600']);
  const fay = await register(srv, 'fold-fay');
  const gus = await register(srv, 'fold-gus');
  const f = await play(fay, { game: 'schulte', level: 1 }, (s) => bot(s.level, s.seed));
  const g = await play(gus, { game: 'schulte', level: 1 }, (s) => bot(s.level, s.seed));
  assert.equal(f.status, 'held', JSON.stringify(f));
  assert.equal(g.status, 'held', JSON.stringify(g));
  let c = await compareAll('two runs held at commit');
  assert.ok(!c.fold.get(S1).some((e) => e.score_id === f.score_id || e.score_id === g.score_id), 'held: off the folded board');
  await act(`scores/${f.score_id}`, 'approve');
  c = await compareAll('one of them approved');
  assert.ok(c.fold.get(S1).some((e) => e.score_id === f.score_id), 'approved: on the folded board');
  assert.ok(!c.fold.get(S1).some((e) => e.score_id === g.score_id));
  // the log held each kind this test is about
  const kinds = new Set(c.decoded.map((d) => d.kind));
  for (const k of ['score', 'hold', 'approve', 'void', 'restore', 'ban', 'unban', 'rename']) assert.ok(kinds.has(k), `the log has a ${k} leaf`);
  assert.ok(c.decoded.some((d) => d.kind === 'score' && d.status === 'held'), 'a score held at commit');
  t.diagnostic(`log size ${c.size}; boards ${[...c.fold.keys()].join(', ')}; equal scores shared a rank: ${hasTie(c.fold)}; boards that matched only after ${LAG_MS} ms: ${lagged}`);
});
