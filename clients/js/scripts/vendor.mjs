// Copies what the package ships from the rest of the tree into vendor/
// (ignored by git; npm pack runs this first): the WebAssembly build and its
// loader (make wasm), the independent JavaScript port (the fallback), and the
// web pages' BLAKE2b and receipt checks. Fails when make wasm has not run.
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, '..');
const root = join(pkg, '..', '..');
const vendor = join(pkg, 'vendor');
const wasm = process.env.REPLAY_WASM || join(root, 'build', 'wasm', 'replay.wasm');
if (!existsSync(wasm)) {
  console.error(`vendor: ${wasm} is missing: run make wasm first`);
  process.exit(1);
}
rmSync(vendor, { recursive: true, force: true });
mkdirSync(join(vendor, 'port', 'games'), { recursive: true });
const copy = (from, to) => copyFileSync(join(root, from), join(vendor, to));
copyFileSync(wasm, join(vendor, 'replay.wasm'));
copy('wasm/replay.mjs', 'replay.mjs');
copy('vectors/port/core.mjs', 'port/core.mjs');
for (const f of readdirSync(join(root, 'vectors', 'port', 'games')).filter((f) => f.endsWith('.mjs'))) {
  copy(`vectors/port/games/${f}`, `port/games/${f}`);
}
copy('web/js/blake2b.js', 'blake2b.js');
copy('web/js/verify.js', 'verify.js');
// On stderr (npm pack --json must print only its JSON on stdout); --quiet: not at all.
if (!process.argv.includes('--quiet')) console.error(`vendor: ${readdirSync(vendor).join(' ')}`);
