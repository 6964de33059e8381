// npm pack makes an installable tarball: it holds the module, the
// declarations, the WebAssembly build and the fallback port (and no tests);
// installed into an empty project it builds Schulte level 1 seed 42 exactly as
// `replayd gen` does, through WebAssembly and through the port.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './server.mjs';

const pkg = new URL('..', import.meta.url).pathname;
// A child's stdout, awaited (the test's event loop runs meanwhile).
const out = async (cmd, args, opts = {}) => (await promisify(execFile)(cmd, args, { encoding: 'utf8', ...opts })).stdout;

test('npm pack: an installable tarball that reproduces replayd gen', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'replayd-pack-'));
  try {
    // --json: stdout is npm's JSON alone (the prepack script writes to stderr).
    const packed = await out('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: pkg });
    let report;
    assert.doesNotThrow(() => { report = JSON.parse(packed); }, `npm pack --json printed more than JSON: ${packed.slice(0, 200)}`);
    const tgz = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    assert.match(tgz, /^replayd-client-\d+\.\d+\.\d+\.tgz$/);
    assert.equal(report[0].filename, tgz);
    const files = (await out('tar', ['tzf', join(tmp, tgz)])).split('\n');
    for (const f of ['package/package.json', 'package/index.d.ts', 'package/README.md', 'package/src/index.mjs',
      'package/vendor/replay.wasm', 'package/vendor/replay.mjs', 'package/vendor/port/games/driftlings.mjs',
      'package/vendor/blake2b.js']) {
      assert.ok(files.includes(f), `the tarball holds ${f}`);
    }
    assert.ok(!files.some((f) => f.startsWith('package/test/')), 'no tests in the tarball');
    const app = join(tmp, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', type: 'module', private: true }));
    await out('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', join(tmp, tgz)], { cwd: app });
    writeFileSync(join(app, 'main.mjs'), `
      import { loadGames } from 'replayd-client';
      const out = {};
      for (const backend of ['wasm', 'js']) {
        const games = await loadGames({ backend });
        const g = games.game('schulte');
        out[backend] = g.describeLevel(g.generate(2, 1, 42));
      }
      console.log(JSON.stringify(out));`);
    const got = JSON.parse(await out('node', ['main.mjs'], { cwd: app }));
    const want = JSON.parse(await out(BIN, ['gen', 'schulte', '1', '42']));
    assert.deepEqual(got.wasm, want);
    for (const k of Object.keys(got.js)) assert.deepEqual(got.js[k], want[k], `port: ${k}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
