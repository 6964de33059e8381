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
  keys(): Promise<{ keys: PublicKey[] }>;
  daily(date?: string): Promise<Record<string, unknown>>;
  seed(which: { game: string; level: number } | { daily: true }): Promise<Seed>;
  submit(seedToken: string, moves: Move[]): Promise<Submitted>;
  audit(scoreId: string): Promise<Record<string, unknown>>;
  board(board: Board, options?: { limit?: number; cursor?: string }): Promise<BoardPage>;
  boardPages(board: Board, options?: { limit?: number; maxPages?: number }): AsyncGenerator<BoardPage>;
  aroundMe(board: Board, options?: { around?: number }): Promise<BoardPage & { rank: number; me: BoardEntry }>;
}

export interface PublicKey { key_id: number; alg: string; public_key: string; current: boolean }

export interface ReceiptRecord {
  score_id: string; player_id: number; game: string; level: number; seed: number; version: number;
  score: number; moves_hash: string; receipt: string; completed?: boolean; date?: string; submitted_at_ms?: number;
}

export const MESSAGES: Record<string, (record: ReceiptRecord) => string>;
export function parseReceipt(text: string): { form: string; keyId: number; signature: Uint8Array } | null;
export function movesHash(fields: string[], moves: Move[]): string;
export function receiptRecord(playerId: number, seed: Seed, submitted: Submitted): ReceiptRecord;
export function verifyReceipt(
  record: ReceiptRecord,
  keys: PublicKey[] | { keys: PublicKey[] },
  options?: {
    moves?: Move[];
    fields?: string[];
    verify?: (publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array) => boolean | Promise<boolean>;
  },
): Promise<{ ok: boolean; form: string | null; keyId: number | null; reason: string }>;

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
  kind: 'void' | 'restore' | 'ban' | 'unban' | 'rename' | 'approve'; kindByte: 2 | 3 | 4 | 5 | 6 | 7;
  action_id: bigint; at_ms: bigint; player_id: bigint;
  /** void, restore, approve */
  score_id?: string;
  /** rename */
  name?: string;
}
export type Leaf = ScoreLeaf | ActionLeaf;
export function decodeLeaf(bytes: Bytes): Leaf;

export function verifyLog(args: {
  checkpointText: string | Uint8Array;
  verifierKey: string | VerifierKey;
  origin: string;
  getTile: GetTile;
  allTiles?: boolean;
  entries?: boolean;
}): Promise<{ origin: string; size: bigint; root: Hash }>;
