// Compiled (never run) by test/types.test.mjs with tsc --strict: the
// declarations of index.d.ts describe how an app uses the package.
import { loadGames, play, Client, ApiError, verifyReceipt, receiptRecord, movesHash, type Move, type Game,
  verifyLog, verifyInclusion, parseTilePath, decodeLeaf, TileReader, leafHash, type Leaf,
  verifySubmission, verifyLoggedScore, parseLogProof, scoreLeaf, foldBoards, type FoldedEntry } from 'replayd-client';

export async function app(): Promise<number> {
  const games = await loadGames({ backend: 'auto' });
  const backend: 'wasm' | 'js' = games.backend;
  const api = new Client({ baseUrl: 'http://localhost:8080', retries: 3, backoffMs: 100 });
  const me = await api.register('ann');
  const seed = await api.seed({ game: 'schulte', level: 1 });
  const g: Game = games.game(seed.game);
  const level = g.generate(seed.version, seed.level, seed.seed);
  const moves: Move[] = [{ t: 400, cell: 8 }];
  const local = play(g, level, moves);
  let score = local.result ? local.result.score : 0;
  try {
    const s = await api.submit(seed.seed_token, moves);
    score = s.score;
    const v = await verifyReceipt(receiptRecord(me.player_id, seed, s), await api.keys(), { moves, fields: g.fieldsOf(seed.version) });
    if (!v.ok) throw new Error(v.reason);
  } catch (e) {
    if (e instanceof ApiError && e.status === 422) return -1;
    throw e;
  }
  for await (const page of api.boardPages({ game: 'schulte', level: 1 }, { limit: 10 })) score += page.entries.length;
  const around = await api.aroundMe({ date: '2026-12-03' }, { around: 2 });
  const hash: string = movesHash(g.fieldsOf(seed.version), moves);
  return score + around.me.rank + hash.length + backend.length;
}

export async function audit(base: string, checkpointText: string, entry: Uint8Array, index: bigint): Promise<boolean> {
  const getTile = async (path: string) => new Uint8Array(await (await fetch(`${base}/v1/log/${path}`)).arrayBuffer());
  const { size, root } = await verifyLog({ checkpointText, verifierKey: 'log.example+01234567+AQ==', origin: 'log.example', getTile });
  const proof = await new TileReader(size, getTile).inclusionProof(index);
  const leaf: Leaf = decodeLeaf(entry);
  const width: number = parseTilePath('tile/0/000').width;
  return width > 0 && leaf.kind !== 'ban' && verifyInclusion({ index, size, leafHash: await leafHash(entry), proof, root });
}

export async function v3(base: string, seedToken: string): Promise<bigint> {
  const api = new Client({ baseUrl: base });
  const keys = await api.keys();
  const origin = keys.log_origin ?? 'localhost/v1/log';
  const verifierKey = keys.keys.filter((k) => k.current).map((k) => k.log_verifier_key ?? '');
  const s = await api.submit(seedToken, [{ t: 400, cell: 8 }]);
  const at = await verifySubmission({ answer: s, token: seedToken, verifierKey, origin });
  const later = await verifyLoggedScore({ score: await api.audit(s.score_id), baseUrl: base, verifierKey, origin });
  const proof = parseLogProof(s.log_proof ?? '');
  const leaf: Uint8Array = scoreLeaf({ ...later.leaf, completed: later.leaf.completed });
  return at.size + later.index + proof.index + BigInt(leaf.length);
}

// The boards a monitor folds from the log's entries (docs/LOG.md section 11).
export function boards(entries: Uint8Array[]): number {
  let n = 0;
  for (const [name, list] of foldBoards(entries.map((e) => decodeLeaf(e)))) {
    const top: FoldedEntry | undefined = list[0];
    n += name.length + (top ? top.rank + Number(top.score + top.index + top.player_id) + top.score_id.length : 0);
  }
  return n + foldBoards(entries).size;
}
