#!/usr/bin/env node
// The conformance adapter of the independent JavaScript port: speaks the
// protocol of tools/conform (docs/PORTING.md) on stdin/stdout over
// vectors/port/games/*.mjs, which it only imports (the port stays as its
// owner keeps it). Generation parameters reach the port as generate's
// fourth argument; a port that takes none answers with its defaults, and
// the runner shows those cases failing.
//   tools/conform -- node tools/kit/port-js.mjs
import { createInterface } from 'node:readline';
import { GAMES } from '../../vectors/port/vectors.mjs';
import { serve } from './cases.mjs';

const adapted = {};
for (const [name, g] of Object.entries(GAMES)) {
  adapted[name] = {
    ...g,
    maxMoves: g.MAX_MOVES,
    generate: (version, level, seed, params) => g.generate(version, level, seed, params),
  };
}

const out = [];
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  let req;
  let ans;
  try {
    req = JSON.parse(line);
    ans = req.op === 'hello' ? { games: Object.keys(adapted), port: 'vectors/port (JavaScript)' } : serve((n) => adapted[n], req);
  } catch (e) {
    ans = { error: String(e.message || e) };
  }
  if (req && 'id' in req) ans.id = req.id;
  out.push(JSON.stringify(ans));
  if (out.length >= 64) process.stdout.write(`${out.splice(0).join('\n')}\n`);
});
rl.on('close', () => {
  if (out.length) process.stdout.write(`${out.join('\n')}\n`);
});
// Answers are batched; flush whatever is ready when input pauses.
setInterval(() => {
  if (out.length) process.stdout.write(`${out.splice(0).join('\n')}\n`);
}, 5).unref();
