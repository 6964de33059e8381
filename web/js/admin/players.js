// players: the operator's view of a player (GET /v1/admin/players/{id}),
// read once per player while the console is open (forgotten on sign-out).
import { admin } from './session.js';

const cache = new Map();

export function playerInfo(id) {
  if (!cache.has(id)) cache.set(id, admin('GET', `/v1/admin/players/${id}`).catch((e) => { cache.delete(id); throw e; }));
  return cache.get(id);
}

export function forgetPlayers() { cache.clear(); }
