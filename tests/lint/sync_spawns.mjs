// sync_spawns: no test may run another program synchronously. A
// synchronous spawn (execFileSync, spawnSync, execSync) freezes the test's
// event loop for as long as the child runs: fetch's timers stop retiring
// the kept-alive sockets the server closes as idle, and on a loaded machine
// the next request went out on a closed one ("fetch failed"). Tests run
// programs through tests/http/proc.mjs (run, runOk) or an awaited execFile.
//
// node tests/lint/sync_spawns.mjs [DIR...]: scans every .mjs/.js file under
// the DIRs (tests/ and clients/js/test/ by default; node_modules skipped)
// and prints a FAIL line naming file and line for each call, or one PASS
// line. It first checks itself on a file it writes (a check that could
// never fail would prove nothing).
import { readdirSync, readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CALL = /\b(execFileSync|spawnSync|execSync)\b/;

function* files(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (/\.(mjs|js)$/.test(e.name)) yield p;
  }
}

// The code of a line, without what a // or /* */ comment holds (a string
// holding "//" ends the code early: that can only hide a call, never
// invent one, and no test writes one).
function code(lines) {
  let inBlock = false;
  return lines.map((line) => {
    let out = '';
    for (let i = 0; i < line.length; i++) {
      if (inBlock) {
        if (line.startsWith('*/', i)) { inBlock = false; i++; }
      } else if (line.startsWith('/*', i)) { inBlock = true; i++; } else if (line.startsWith('//', i)) break;
      else out += line[i];
    }
    return out;
  });
}

// Every synchronous spawn under the dirs: ["file:line: text"].
function scan(dirs) {
  const found = [];
  for (const dir of dirs) {
    for (const f of files(dir)) {
      if (f === fileURLToPath(import.meta.url)) continue; // names them to find them
      const lines = readFileSync(f, 'utf8').split('\n');
      code(lines).forEach((c, i) => {
        if (CALL.test(c)) found.push(`${relative(root, f)}:${i + 1}: ${lines[i].trim()}`);
      });
    }
  }
  return found;
}

const tmp = mkdtempSync(join(tmpdir(), 'replayd-lint-'));
try {
  writeFileSync(join(tmp, 'bad.test.mjs'), "// execFileSync in a comment is fine\nconst x = spawnSync('true');\n");
  const self = scan([tmp]);
  if (self.length !== 1 || !/bad\.test\.mjs:2:/.test(self[0])) {
    console.log(`FAIL lint/sync_spawns: the check missed a planted spawnSync (found ${JSON.stringify(self)})`);
    process.exit(1);
  }
} finally { rmSync(tmp, { recursive: true, force: true }); }

const dirs = process.argv.length > 2 ? process.argv.slice(2) : [join(root, 'tests'), join(root, 'clients', 'js', 'test')];
const found = scan(dirs);
for (const f of found) console.log(`FAIL lint/sync_spawns: ${f} (a synchronous spawn: use run or runOk of tests/http/proc.mjs)`);
if (found.length === 0) console.log('PASS lint/sync_spawns: no test runs a program synchronously');
process.exit(found.length ? 1 : 0);
