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
