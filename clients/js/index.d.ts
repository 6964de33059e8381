// Types of replayd-client (src/*.mjs).

export type Move = Record<string, number>;
export type OutcomeKind = 'applied' | 'ignored' | 'rejected';

export interface GameResult {
  completed: boolean;
  score: number;
  duration_ms: number;
  [extra: string]: number | boolean;
}

/** A game in the interface of vectors/port/README.md. Level and State are opaque. */
export interface Game<Level = unknown, State = unknown> {
  name: string;
  version: number;
  versions: number[];
  levels: number;
  maxMoves: number;
  fields: string[];
  fieldsOf(version: number): string[];
  generate(version: number, level: number, seed: number, params?: Record<string, number>): Level;
  describeLevel(level: Level): Record<string, unknown>;
  start(level: Level): State;
  /** The outcome code; throws TypeError for a move malformed for the level's version. */
  apply(state: State, move: Move): string;
  describeState(state: State): Record<string, unknown>;
  result(state: State): GameResult;
  kindOf(code: string): OutcomeKind;
}

export interface Games {
  backend: 'wasm' | 'js';
  names: string[];
  game(name: string): Game;
  /** Why WebAssembly was not used (backend 'auto' only). */
  error: Error | null;
}

export interface LoadOptions {
  backend?: 'auto' | 'wasm' | 'js';
  /** The module's bytes, path or URL (default: the packaged replay.wasm). */
  wasm?: ArrayBuffer | ArrayBufferView | string | URL;
}

export function loadGames(options?: LoadOptions): Promise<Games>;
export function loadPort(): Promise<Record<string, unknown>>;
export function play(game: Game, level: unknown, moves: Move[]): {
  outcomes: string[];
  rejected: { move: number; reason: string } | null;
  board: Record<string, unknown>;
  result: GameResult | null;
};

export class ApiError extends Error {
  status: number;
  code: string | null;
  body: unknown;
}

export function retryAfterMs(value: string | null | undefined, now?: number): number | null;

export interface ClientOptions {
  baseUrl: string;
  token?: string;
  fetch?: typeof fetch;
  retries?: number;
  backoffMs?: number;
  maxDelayMs?: number;
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface Player { player_id: number; name: string; token: string }
export interface SignedIn extends Player { provider: 'apple' | 'google'; created: boolean }
export interface Seed { seed_token: string; game: string; level: number; seed: number; version: number; [k: string]: unknown }
export interface Submitted {
  verified: boolean; score_id: string; score: number; completed: boolean; status: string;
  rank: number | null; best: boolean; moves_hash: string; receipt: string; result: GameResult; date?: string;
  submitted_at_ms?: number;
  /** The score's leaf in the score log, a c2sp.org/tlog-proof@v1 (docs/LOG.md section 8); null on a retry. */
  log_proof?: string | null;
  /** With status "held": why, in one word (docs/API.md). */
  held_reason?: 'duplicate' | 'identity' | 'twin' | 'parallel' | 'think_time' | 'new_account' | 'record' | 'pace' | 'padding' | 'clock' | 'rehearsal' | 'speed' | 'routine' | 'review';
}
export type Board = { game: string; level: number } | { date: string };
export interface BoardEntry { rank: number; player_id: number; name: string; score: number; submitted_at: string; score_id: string }
export interface BoardPage { entries: BoardEntry[]; next_cursor: string | null; prev_cursor: string | null; total: number; [k: string]: unknown }

export class Client {
  constructor(options: ClientOptions);
  token: string | null;
  playerId?: number;
  attempts: number;
  request(method: string, path: string, options?: { body?: unknown; auth?: boolean; retry?: 'idempotent' | 'refused' | false; query?: Record<string, unknown> }): Promise<any>;
  register(name: string): Promise<Player>;
  signInNonce(): Promise<{ nonce: string; expires_at: string }>;
  signIn(provider: 'apple' | 'google', idToken: string, name?: string): Promise<SignedIn>;
  linkIdentity(provider: 'apple' | 'google', idToken: string): Promise<{ player_id: number; provider: 'apple' | 'google'; already_linked: boolean }>;
  games(): Promise<{ games: Array<Record<string, unknown>> }>;
  keys(): Promise<KeysAnswer>;
  daily(date?: string): Promise<Record<string, unknown>>;
  seed(which: { game: string; level: number } | { daily: true }): Promise<Seed>;
  submit(seedToken: string, moves: Move[]): Promise<Submitted>;
  audit(scoreId: string): Promise<Record<string, unknown>>;
  board(board: Board, options?: { limit?: number; cursor?: string }): Promise<BoardPage>;
  boardPages(board: Board, options?: { limit?: number; maxPages?: number }): AsyncGenerator<BoardPage>;
  aroundMe(board: Board, options?: { around?: number }): Promise<BoardPage & { rank: number; me: BoardEntry }>;
}

export interface PublicKey { key_id: number; alg: string; public_key: string; current: boolean; log_verifier_key?: string }
/** GET /v1/keys: the keys, and the score log's origin. */
export interface KeysAnswer { keys: PublicKey[]; log_origin?: string; [k: string]: unknown }

export interface ReceiptRecord {
  score_id: string; player_id: number; game: string; level: number; seed: number; version: number;
  score: number; moves_hash: string; receipt: string; completed?: boolean; date?: string | null; submitted_at_ms?: number;
  /** 'ranked' or 'held' (a v3 receipt's leaf holds the status at its commit). */
  status?: string;
  /** The submission's log proof (v3), when the record comes from the answer. */
  log_proof?: string;
}

export const MESSAGES: Record<string, (record: ReceiptRecord) => string>;
export function parseReceipt(text: string):
  | { form: 'v1' | 'v2'; keyId: number; signature: Uint8Array }
  | { form: 'v3'; index: bigint; keyId: null; signature: null }
  | null;
export function movesHash(fields: string[], moves: Move[]): string;
export function receiptRecord(playerId: number, seed: Seed, submitted: Submitted): ReceiptRecord;
export function verifyReceipt(
  record: ReceiptRecord,
  keys: PublicKey[] | KeysAnswer,
  options?: {
    moves?: Move[];
    fields?: string[];
    verify?: (publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array) => boolean | Promise<boolean>;
    /** v3: the log's origin and verifier key(s), else GET /v1/keys's log_origin and log_verifier_key. */
    origin?: string;
    verifierKey?: string | VerifierKey | Array<string | VerifierKey>;
    /** v3 offline, from a submission's answer: the seed answer (or its seed_token) it redeemed. */
    token?: Seed | string;
    /** v3 later, from the tiles: the server's base URL, or your own fetchers. */
    baseUrl?: string;
    getCheckpoint?: () => Promise<string>;
    getTile?: GetTile;
    fetch?: typeof fetch;
  },
): Promise<{ ok: boolean; form: string | null; keyId: number | null; reason: string; index?: bigint; size?: bigint }>;

// ---- The score log (src/log.mjs, docs/LOG.md): an independent verifier.
// Hashes are Uint8Array(32) (inputs also take 64 lowercase hex digits);
// sizes and indices are bigint in answers (inputs: bigint or a safe integer);
// the 64-bit fields of decoded leaves are always bigint.

export type Hash = Uint8Array;
export type HashInput = Uint8Array | string;
export type Count = bigint | number;
export type Bytes = Uint8Array | ArrayBuffer | ArrayBufferView | string;
/** Returns a tile's bytes for its path (e.g. `tile/0/x001/234.p/17`), as served under /v1/log/. */
export type GetTile = (path: string) => Promise<Uint8Array | ArrayBuffer>;

export function toHex(bytes: Uint8Array): string;
export function fromHex(text: string): Uint8Array;
export function leafHash(entry: Bytes): Promise<Hash>;
export function nodeHash(left: HashInput, right: HashInput): Promise<Hash>;
export function emptyTreeHash(): Promise<Hash>;
export function verifyInclusion(args: { index: Count; size: Count; leafHash: HashInput; proof: HashInput[]; root: HashInput }): Promise<boolean>;
export function verifyConsistency(args: { oldSize: Count; newSize: Count; oldRoot: HashInput; newRoot: HashInput; proof: HashInput[] }): Promise<boolean>;

/** A tile: level 0..7, or -1 for an entry bundle; width 256 for a full tile. */
export interface Tile { level: number; index: bigint; width: number; entries: boolean; path: string }
export function tilePath(tile: { level: number; index: Count; width?: number }): string;
export function parseTilePath(text: string): Tile;
export function tilesForSize(size: Count, options?: { entries?: boolean }): Generator<Tile, void, undefined>;
export function tileWidth(size: Count, level: number, index: Count): number;
export function parseEntryBundle(bytes: Bytes, options?: { width?: number }): Uint8Array[];
export function entryBundle(entries: Bytes[]): Uint8Array;
export function hashTileOfEntries(entries: Bytes[]): Promise<Uint8Array>;
export function treeHashFromTiles(size: Count, getTile: GetTile): Promise<Hash>;
export function checkAllTiles(size: Count, getTile: GetTile, options?: { entries?: boolean }): Promise<true>;
export class TileReader {
  constructor(size: Count, getTile: GetTile);
  size: bigint;
  tile(level: number, index: Count): Promise<Uint8Array>;
  storedHash(level: number, index: Count): Promise<Hash>;
  fullTileHash(level: number, index: Count): Promise<Hash>;
  rangeHash(start: Count, end: Count): Promise<Hash>;
  treeHash(): Promise<Hash>;
  leafHashAt(index: Count): Promise<Hash>;
  inclusionProof(index: Count): Promise<Hash[]>;
  consistencyProof(oldSize: Count): Promise<Hash[]>;
}

export interface VerifierKey { name: string; keyId: string; publicKey: Uint8Array }
export function keyId(name: string, publicKey: Uint8Array): Promise<string>;
export function parseVerifierKey(text: string): Promise<VerifierKey>;
export function openNote(note: string | Uint8Array, verifierKeys: Array<string | VerifierKey> | string | VerifierKey): Promise<{
  text: string;
  signatures: Array<{ name: string; keyId: string; known: boolean; verified: boolean }>;
  verifiedBy: string[];
}>;
export interface Checkpoint { origin: string; size: bigint; root: Hash; rootBase64: string }
export function parseCheckpoint(noteText: string): Checkpoint;

export interface ScoreLeaf {
  kind: 'score'; kindByte: 1; score_id: string; player_id: bigint; level: number; seed: number; version: number;
  day: number; score: bigint; completed: boolean; status: 'ranked' | 'held'; submitted_at_ms: bigint;
  moves_hash: string; game: string; date?: string; board: string;
}
export interface ActionLeaf {
  kind: 'void' | 'restore' | 'ban' | 'unban' | 'rename' | 'approve' | 'hold'; kindByte: 2 | 3 | 4 | 5 | 6 | 7 | 8;
  /** the admin log's log_id; a hold: the index of the score leaf that caused it */
  action_id: bigint; at_ms: bigint; player_id: bigint;
  /** void, restore, approve, hold */
  score_id?: string;
  /** rename */
  name?: string;
}
export type Leaf = ScoreLeaf | ActionLeaf;
export function decodeLeaf(bytes: Bytes): Leaf;

/** An entry of a board folded from the log (docs/LOG.md section 11). */
export interface FoldedEntry { rank: number; player_id: bigint; score: bigint; score_id: string; index: bigint }
/**
 * The boards the log's leaves (every leaf from index 0, in index order,
 * decoded or as bytes) describe: board name (`daily:YYYY-MM-DD`,
 * `level:<game>:<level>`) to its entries in board order. Throws RangeError
 * for a log that cannot be folded (an action on a score no earlier leaf has).
 */
export function foldBoards(leaves: Iterable<Leaf | Bytes>): Map<string, FoldedEntry[]>;

export function verifyLog(args: {
  checkpointText: string | Uint8Array;
  verifierKey: string | VerifierKey;
  origin: string;
  getTile: GetTile;
  allTiles?: boolean;
  entries?: boolean;
}): Promise<{ origin: string; size: bigint; root: Hash }>;

// ---- v3 receipts (docs/API.md, "Receipts"): "v3.<index>", checked through the score log.
export interface LogProof { index: bigint; proof: Hash[]; extra: Uint8Array | null; checkpoint: string }
export function parseLogProof(text: string): LogProof;
export function parseReceiptV3(receipt: string): bigint | null;
export function dayOfDate(date: string): number;
export interface ScoreFields {
  score_id: string; player_id: number | bigint; game: string; level: number; seed: number; version: number;
  /** -1 for a level score; or date */
  day?: number | null; date?: string | null;
  score: number | bigint; completed: boolean | 0 | 1; status: 'ranked' | 'held' | 0 | 1 | string;
  submitted_at_ms: number | bigint; moves_hash: string;
}
/** The bytes of a score leaf (docs/LOG.md section 7, kind 0x01). */
export function scoreLeaf(fields: ScoreFields): Uint8Array;
export interface SeedTokenFields {
  format: 1; key_id: number; player_id: bigint; game: string; level: number; seed: number; version: number;
  issued_at_ms: bigint; expires_at_ms: bigint; day: number; date?: string;
}
export function parseSeedToken(token: string): SeedTokenFields;
export type LogKeys = string | VerifierKey | Array<string | VerifierKey>;
export function openCheckpoint(checkpointText: string | Uint8Array, verifierKey: LogKeys, origin: string): Promise<{ origin: string; size: bigint; root: Hash }>;
export function verifyLogProof(args: {
  logProof: string | LogProof; leaf: Bytes; index?: Count; verifierKey: LogKeys; origin: string;
}): Promise<{ index: bigint; size: bigint; root: Hash }>;
export function verifySubmission(args: {
  answer: Submitted | Record<string, unknown>; token: Seed | string; verifierKey: LogKeys; origin: string;
}): Promise<{ index: bigint; size: bigint; root: Hash }>;
export function verifyLoggedScore(args: {
  score: Record<string, unknown>;
  verifierKey: LogKeys;
  origin: string;
  baseUrl?: string;
  getCheckpoint?: () => Promise<string | Uint8Array>;
  getTile?: GetTile;
  fetch?: typeof fetch;
  index?: Count;
  partial?: boolean;
}): Promise<{ index: bigint; size: bigint; root: Hash; leaf: ScoreLeaf }>;
