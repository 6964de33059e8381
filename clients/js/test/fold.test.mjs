// foldBoards (src/log.mjs): the boards rebuilt from the log's leaves, as
// docs/LOG.md section 11 defines them, on hand-built leaf sequences. The
// leaves are laid out here byte by byte from section 7's tables (not with
// the module's own scoreLeaf), and each sequence is folded both as bytes and
// as decodeLeaf's answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { foldBoards, decodeLeaf } from '../src/log.mjs';

const enc = (s) => new TextEncoder().encode(s);
const DAY = 20794; // 2026-12-07
const DAILY = 'daily:2026-12-07';

/** A score id's 16 bytes from a small number n (hex: n's byte, then 15 bytes 0x5c). */
const sid = (n) => (n & 255).toString(16).padStart(2, '0') + '5c'.repeat(15);

// Section 7's score leaf: kind 0x01, score_id, player_id, level, seed,
// version, day, score, completed, status, submitted_at_ms, moves_hash, g, game.
function score({ id, player, value, level = 1, game = 'pipes', day = -1, held = false, at = 1796601600000 }) {
  const g = enc(game);
  const b = new Uint8Array(92 + g.length);
  const v = new DataView(b.buffer);
  b[0] = 0x01;
  b.set(Buffer.from(sid(id), 'hex'), 1);
  v.setBigInt64(17, BigInt(player));
  v.setUint32(25, level);
  v.setUint32(29, 1234 + id);
  v.setUint32(33, 2);
  v.setInt32(37, day);
  v.setBigInt64(41, BigInt(value));
  b[49] = 1;
  b[50] = held ? 1 : 0;
  v.setBigInt64(51, BigInt(at + id));
  b.fill(id & 255, 59, 91);
  b[91] = g.length;
  b.set(g, 92);
  return b;
}
const daily = (f) => score({ ...f, day: DAY });

// Section 7's action leaf: kind, action_id, at_ms, player_id, then the score id
// (void, restore, approve, hold), nothing (ban, unban) or n and the name (rename).
function action(kind, { player, id, actionId = 9, name }) {
  const tail = id !== undefined ? Buffer.from(sid(id), 'hex') : name !== undefined ? Buffer.concat([Buffer.of(enc(name).length), Buffer.from(enc(name))]) : Buffer.alloc(0);
  const b = new Uint8Array(25 + tail.length);
  const v = new DataView(b.buffer);
  b[0] = kind;
  v.setBigInt64(1, BigInt(actionId));
  v.setBigInt64(9, 1796601700000n);
  v.setBigInt64(17, BigInt(player));
  b.set(tail, 25);
  return b;
}
const voidOf = (player, id) => action(0x02, { player, id });
const restore = (player, id) => action(0x03, { player, id });
const ban = (player) => action(0x04, { player });
const unban = (player) => action(0x05, { player });
const rename = (player, name) => action(0x06, { player, name });
const approve = (player, id) => action(0x07, { player, id });
const hold = (player, id, cause) => action(0x08, { player, id, actionId: cause });

/**
 * Folds `leaves` as bytes and decoded (the two must agree) and gives each
 * board's entries as [rank, player, score, score id number, index] rows.
 */
function fold(leaves) {
  const a = foldBoards(leaves);
  const b = foldBoards(leaves.map((l) => decodeLeaf(l)));
  assert.deepEqual([...a], [...b], 'bytes and decoded leaves fold alike');
  const out = {};
  for (const [board, entries] of a) {
    for (const e of entries) {
      assert.deepEqual(Object.keys(e).sort(), ['index', 'player_id', 'rank', 'score', 'score_id']);
      assert.equal(typeof e.rank, 'number');
      for (const k of ['player_id', 'score', 'index']) assert.equal(typeof e[k], 'bigint', k);
    }
    out[board] = entries.map((e) => [e.rank, Number(e.player_id), Number(e.score), parseInt(e.score_id.slice(0, 2), 16), Number(e.index)]);
  }
  return out;
}
/** The folds of every prefix of `leaves`: after[k] is the boards after k leaves. */
const prefixes = (leaves) => leaves.map((_, k) => fold(leaves.slice(0, k + 1)));

test('a score held at commit is off its board until approved; a hold (0x08) takes a ranked score off, approve puts it back', () => {
  const leaves = [
    score({ id: 1, player: 10, value: 50 }), // 0: ranked
    score({ id: 2, player: 11, value: 70, held: true }), // 1: held at commit
    score({ id: 3, player: 12, value: 60 }), // 2: ranked
    approve(11, 2), // 3
    score({ id: 4, player: 13, value: 65 }), // 4: the copy that holds score 3
    hold(12, 3, 4), // 5: caused by leaf 4
    score({ id: 5, player: 14, value: 40 }), // 6: another copy
    hold(12, 3, 6), // 7: held again
    approve(12, 3), // 8
    hold(12, 3, 6), // 9: an approved score that a copy pairs with is held again (any earlier score leaf may cause it)
  ];
  const after = prefixes(leaves);
  const L = 'level:pipes:1';
  assert.deepEqual(after[1][L], [[1, 10, 50, 1, 0]], 'held at commit: not listed');
  assert.deepEqual(after[2][L], [[1, 12, 60, 3, 2], [2, 10, 50, 1, 0]]);
  assert.deepEqual(after[3][L], [[1, 11, 70, 2, 1], [2, 12, 60, 3, 2], [3, 10, 50, 1, 0]], 'approved: in at its score');
  assert.deepEqual(after[5][L], [[1, 11, 70, 2, 1], [2, 13, 65, 4, 4], [3, 10, 50, 1, 0]], 'the hold took score 3 off');
  assert.deepEqual(after[7][L], [[1, 11, 70, 2, 1], [2, 13, 65, 4, 4], [3, 10, 50, 1, 0], [4, 14, 40, 5, 6]]);
  assert.deepEqual(after[8][L], [[1, 11, 70, 2, 1], [2, 13, 65, 4, 4], [3, 12, 60, 3, 2], [4, 10, 50, 1, 0], [5, 14, 40, 5, 6]]);
  assert.deepEqual(after[9][L], after[7][L]);
  // a daily held at commit and approved
  const d = fold([daily({ id: 1, player: 1, value: 5, held: true }), daily({ id: 2, player: 2, value: 3 }), approve(1, 1)]);
  assert.deepEqual(d[DAILY], [[1, 1, 5, 1, 0], [2, 2, 3, 2, 1]]);
});

test('void and restore; held and voided are two flags: approving a voided score keeps it off, restoring a held one too', () => {
  const leaves = [
    daily({ id: 1, player: 1, value: 9 }), // 0
    daily({ id: 2, player: 2, value: 7, held: true }), // 1
    daily({ id: 3, player: 3, value: 8 }), // 2
    voidOf(1, 1), // 3
    voidOf(2, 2), // 4: void of a held score
    approve(2, 2), // 5: still voided
    restore(1, 1), // 6
    restore(2, 2), // 7: now neither
    voidOf(3, 3), // 8
    hold(1, 1, 2), // 9
    restore(3, 3), // 10
  ];
  const after = prefixes(leaves);
  assert.deepEqual(after[2][DAILY], [[1, 1, 9, 1, 0], [2, 3, 8, 3, 2]]);
  assert.deepEqual(after[3][DAILY], [[1, 3, 8, 3, 2]], 'voided: off');
  assert.deepEqual(after[5][DAILY], [[1, 3, 8, 3, 2]], 'approved but voided: off');
  assert.deepEqual(after[6][DAILY], [[1, 1, 9, 1, 0], [2, 3, 8, 3, 2]], 'restored: back');
  assert.deepEqual(after[7][DAILY], [[1, 1, 9, 1, 0], [2, 3, 8, 3, 2], [3, 2, 7, 2, 1]]);
  assert.deepEqual(after[8][DAILY], [[1, 1, 9, 1, 0], [2, 2, 7, 2, 1]]);
  assert.deepEqual(after[9][DAILY], [[1, 2, 7, 2, 1]], 'a hold after a restore');
  assert.deepEqual(after[10][DAILY], [[1, 3, 8, 3, 2], [2, 2, 7, 2, 1]]);
});

test('ban and unban take a player off every board and put their best back; renames change no board', () => {
  const leaves = [
    score({ id: 1, player: 1, value: 10 }), // 0
    score({ id: 2, player: 1, value: 30 }), // 1: 1's best
    score({ id: 3, player: 2, value: 20 }), // 2
    daily({ id: 4, player: 1, value: 5 }), // 3
    daily({ id: 5, player: 2, value: 6 }), // 4
    score({ id: 6, player: 1, value: 1, game: 'schulte', level: 3 }), // 5
    ban(1), // 6
    score({ id: 7, player: 1, value: 99, held: true }), // 7: a held score of the banned player
    rename(1, 'Zoë'), // 8
    voidOf(1, 2), // 9: voided while banned
    unban(1), // 10
    ban(2), // 11
    ban(2), // 12: twice is still banned
    unban(2), // 13
    rename(2, 'Bob'), // 14
  ];
  const after = prefixes(leaves);
  const L = 'level:pipes:1';
  const S = 'level:schulte:3';
  assert.deepEqual(after[5][L], [[1, 1, 30, 2, 1], [2, 2, 20, 3, 2]]);
  assert.deepEqual(after[5][S], [[1, 1, 1, 6, 5]]);
  assert.deepEqual(after[6][L], [[1, 2, 20, 3, 2]], 'banned: off the level board');
  assert.deepEqual(after[6][DAILY], [[1, 2, 6, 5, 4]], 'and off the daily');
  assert.deepEqual(after[6][S], [], 'a board with no entry left is still named, with none');
  assert.deepEqual(after[8], after[7], 'a rename changes no board');
  assert.deepEqual(after[10][L], [[1, 2, 20, 3, 2], [2, 1, 10, 1, 0]], 'unbanned: the best valid score back (30 was voided, 99 is held)');
  assert.deepEqual(after[10][DAILY], [[1, 2, 6, 5, 4], [2, 1, 5, 4, 3]]);
  assert.deepEqual(after[10][S], [[1, 1, 1, 6, 5]]);
  assert.deepEqual(after[12][L], [[1, 1, 10, 1, 0]]);
  assert.deepEqual(after[13][L], after[10][L]);
  assert.deepEqual(after[14], after[13]);
  assert.deepEqual([...foldBoards(leaves).keys()], [L, DAILY, S], 'boards in the order the log first names them');
});

test('a level board: each player\'s best, the earliest index among equals; a voided or held best falls back to the next best', () => {
  const leaves = [
    score({ id: 1, player: 1, value: 40 }), // 0
    score({ id: 2, player: 1, value: 40 }), // 1: equal, later: not the entry
    score({ id: 3, player: 1, value: 25 }), // 2
    score({ id: 4, player: 1, value: 35 }), // 3
    score({ id: 5, player: 2, value: 30 }), // 4
    voidOf(1, 1), // 5: the entry becomes the equal later one
    voidOf(1, 2), // 6: the next best, 35
    voidOf(1, 4), // 7: then 25, below player 2
    restore(1, 2), // 8: back to 40 at index 1
    score({ id: 6, player: 2, value: 50, held: true }), // 9: held: 2 stays at 30
    approve(2, 6), // 10
    score({ id: 7, player: 2, value: 50 }), // 11: equal to 2's best, later
    hold(2, 6, 11), // 12: 2's best held: the equal later one takes its place
    restore(1, 1), // 13: 1's best is index 0 again (earlier than index 1)
  ];
  const after = prefixes(leaves);
  const L = 'level:pipes:1';
  assert.deepEqual(after[4][L], [[1, 1, 40, 1, 0], [2, 2, 30, 5, 4]], 'the earliest of equals');
  assert.deepEqual(after[5][L], [[1, 1, 40, 2, 1], [2, 2, 30, 5, 4]], 'its equal, later, takes its place');
  assert.deepEqual(after[6][L], [[1, 1, 35, 4, 3], [2, 2, 30, 5, 4]], 'the next best');
  assert.deepEqual(after[7][L], [[1, 2, 30, 5, 4], [2, 1, 25, 3, 2]], 'and the one after, below another player');
  assert.deepEqual(after[8][L], [[1, 1, 40, 2, 1], [2, 2, 30, 5, 4]]);
  assert.deepEqual(after[9][L], after[8][L], 'a held score is not a best');
  assert.deepEqual(after[10][L], [[1, 2, 50, 6, 9], [2, 1, 40, 2, 1]]);
  assert.deepEqual(after[11][L], after[10][L], 'an equal later score is not the entry');
  assert.deepEqual(after[12][L], [[1, 2, 50, 7, 11], [2, 1, 40, 2, 1]]);
  assert.deepEqual(after[13][L], [[1, 2, 50, 7, 11], [2, 1, 40, 1, 0]]);
});

test('order and ranks: higher first, then index; equal scores share a rank (1, 1, 3); a daily lists every score on it', () => {
  const leaves = [
    daily({ id: 1, player: 1, value: 7 }), // 0
    daily({ id: 2, player: 2, value: 9 }), // 1
    daily({ id: 3, player: 3, value: 9 }), // 2
    daily({ id: 4, player: 4, value: 3 }), // 3
    daily({ id: 5, player: 5, value: 7 }), // 4
    daily({ id: 6, player: 6, value: 7 }), // 5
    daily({ id: 7, player: 1, value: 1 }), // 6: a second daily score of player 1: listed too
    score({ id: 8, player: 1, value: -7 }), // 7: signed scores
    score({ id: 9, player: 2, value: -10 }), // 8
    score({ id: 10, player: 3, value: -7 }), // 9
    score({ id: 11, player: 4, value: 0 }), // 10
  ];
  const b = fold(leaves);
  assert.deepEqual(b[DAILY], [[1, 2, 9, 2, 1], [1, 3, 9, 3, 2], [3, 1, 7, 1, 0], [3, 5, 7, 5, 4], [3, 6, 7, 6, 5], [6, 4, 3, 4, 3], [7, 1, 1, 7, 6]]);
  assert.deepEqual(b['level:pipes:1'], [[1, 4, 0, 11, 10], [2, 1, -7, 8, 7], [2, 3, -7, 10, 9], [4, 2, -10, 9, 8]]);
  // 1, 1, 3 exactly, and a tie broken by void
  const t = prefixes([daily({ id: 1, player: 1, value: 4 }), daily({ id: 2, player: 2, value: 4 }), daily({ id: 3, player: 3, value: 2 }), voidOf(1, 1)]);
  assert.deepEqual(t[2][DAILY].map((r) => r[0]), [1, 1, 3]);
  assert.deepEqual(t[3][DAILY].map((r) => r[0]), [1, 2]);
  // boards are told apart by game, level and day; 64-bit values stay exact
  const big = 9007199254740993n;
  const m = foldBoards([score({ id: 1, player: big, value: big }), score({ id: 2, player: 2, value: 1, level: 2 }),
    score({ id: 3, player: 3, value: 1, game: 'schulte' }), score({ id: 4, player: 4, value: 1, day: 0 })]);
  assert.deepEqual([...m.keys()], ['level:pipes:1', 'level:pipes:2', 'level:schulte:1', 'daily:1970-01-01']);
  assert.deepEqual(m.get('level:pipes:1'), [{ rank: 1, player_id: big, score: big, score_id: sid(1), index: 0n }]);
  assert.deepEqual(foldBoards([]), new Map());
  assert.deepEqual([...foldBoards((function* () { yield score({ id: 1, player: 1, value: 1 }); })()).keys()], ['level:pipes:1'], 'any iterable');
});

test('a log that cannot be folded is refused, naming the leaf', () => {
  const s1 = score({ id: 1, player: 1, value: 1 });
  const cases = [
    [[s1, voidOf(1, 2)], /leaf 1: void of score 025c.*no earlier leaf/],
    [[approve(1, 1), s1], /leaf 0: approve of score 015c/],
    [[s1, restore(2, 1)], /leaf 1: restore of score 015c.* player 2, the score's player is 1/],
    [[s1, score({ id: 1, player: 2, value: 3 })], /leaf 1: score 015c.* recorded before, at leaf 0/],
    [[s1, hold(1, 1, 1)], /leaf 1: a hold caused by leaf 1, which is not an earlier score leaf/],
    [[s1, ban(3), hold(1, 1, 1)], /leaf 2: a hold caused by leaf 1/],
    [[s1, hold(1, 1, -1)], /leaf 1: a hold caused by leaf -1/],
    [[s1, Uint8Array.of(9)], /leaf 1: leaf: unknown kind 0x09/],
    [[s1, s1.subarray(0, 50)], /leaf 1: leaf: a score leaf is at least 93 bytes/],
  ];
  for (const [leaves, why] of cases) assert.throws(() => foldBoards(leaves), { name: 'RangeError', message: why });
  assert.throws(() => foldBoards(), TypeError);
  assert.throws(() => foldBoards(42), TypeError);
});
