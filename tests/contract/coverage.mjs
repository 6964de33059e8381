// coverage: every operation docs/openapi.yaml lists must have been called,
// and checked, by the HTTP suite at least once (tests/run.sh passes the
// directory contract.mjs recorded into). A PASS or FAIL line per operation,
// then how many documented (operation, status) pairs the suite saw.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { doc, METHODS } from './contract.mjs';

const dir = process.argv[2];
if (!dir) { console.error('usage: node coverage.mjs SEEN_DIR'); process.exit(2); }
const seen = new Set();
for (const f of readdirSync(dir)) {
  for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) if (line) seen.add(line);
}
let documented = 0;
let exercised = 0;
for (const [template, item] of Object.entries(doc.paths)) {
  for (const method of METHODS.filter((m) => item[m])) {
    const op = `${method.toUpperCase()} ${template}`;
    const statuses = Object.keys(item[method].responses);
    const hit = statuses.filter((s) => seen.has(`${op} ${s}`));
    documented += statuses.length;
    exercised += hit.length;
    if (hit.length) console.log(`PASS contract: ${op} exercised (${hit.join(', ')})`);
    else console.log(`FAIL contract: ${op} is documented but no test calls it`);
  }
}
console.log(`contract: the suite saw ${exercised} of ${documented} documented (operation, status) pairs`);
