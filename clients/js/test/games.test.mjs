// The two backends agree: every level and replay case of vectors/*.json
// (generation parameters and refusals included) answered by the WebAssembly
// build and by the pure-JavaScript port must be the same answer, and the
// WebAssembly answers must pass every case.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadGames } from '../src/index.mjs';
import { agree, casesOf, check, serve } from '../../../tools/kit/cases.mjs';

const root = new URL('../../..', import.meta.url).pathname;
const wasm = await loadGames({ backend: 'wasm' });
const js = await loadGames({ backend: 'js' });

test('loadGames picks WebAssembly, and falls back to the port when it cannot load', async () => {
  assert.equal((await loadGames()).backend, 'wasm');
  const fallback = await loadGames({ wasm: join(root, 'no-such-file.wasm') });
  assert.equal(fallback.backend, 'js');
  assert.ok(fallback.error);
  // The port has the six games of the vectors; a game added since (make
  // new-game) is in the WebAssembly build only until someone ports it.
  for (const n of ['schulte', 'pipes', 'target-sums', 'opposites', 'contraption', 'driftlings']) {
    assert.ok(fallback.names.includes(n) && wasm.names.includes(n), n);
  }
  for (const n of fallback.names) assert.ok(wasm.names.includes(n), `${n} is in the WebAssembly build too`);
  await assert.rejects(loadGames({ backend: 'wasm', wasm: join(root, 'no-such-file.wasm') }));
});

const files = readdirSync(join(root, 'vectors')).filter((f) => f.endsWith('.json') && f !== 'prng.json').sort();
for (const f of files) {
  test(`${f}: the WebAssembly build and the port agree`, () => {
    const json = JSON.parse(readFileSync(join(root, 'vectors', f), 'utf8'));
    let compared = 0;
    let shell = 0;
    const failures = [];
    for (const c of casesOf(json)) {
      const a = serve((n) => wasm.game(n), c.request);
      const why = check(c.kind, c.case, a);
      if (why) failures.push(`wasm ${c.name}: ${why}`);
      if (c.case.refused) shell++;
      const b = serve((n) => js.game(n), c.request);
      const level = (x) => (x.level ? { ...x, level: Object.fromEntries(Object.entries(x.level).filter(([k]) => !['game', 'version', 'level', 'seed'].includes(k))) } : x);
      // a refusal's message is each implementation's own words
      const plain = (x) => (x.refused ? { refused: x.refused } : x);
      const d = agree(plain(level(a)), plain(level(b)));
      if (d) failures.push(`${c.name}: ${d}`);
      compared++;
    }
    assert.ok(compared > 100, `${f}: only ${compared} cases compared`);
    assert.deepEqual(failures.slice(0, 5), [], `${failures.length} differ`);
    console.log(`# ${f}: ${compared} cases agree, ${shell} of them refusals`);
  });
}
