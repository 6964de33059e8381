// One node test per case of every vectors/*.json.
import { test, describe } from 'node:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { casesOf } from '../vectors.mjs';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

for (const f of files) {
  const json = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  describe(f, () => {
    for (const c of casesOf(json)) {
      test(`[${c.kind}] ${c.name}`, () => c.run());
    }
  });
}
