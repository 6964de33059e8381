// index.d.ts type-checks an app's use of the package (test/types.ts) under
// tsc --strict (the pinned typescript devDependency; make test installs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, mkdirSync, copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const pkg = new URL('..', import.meta.url).pathname;
const tsc = join(pkg, 'node_modules', '.bin', 'tsc');

test('index.d.ts: an app using the package type-checks under tsc --strict', async () => {
  assert.ok(existsSync(tsc), 'typescript is installed (cd clients/js && npm ci)');
  const tmp = mkdtempSync(join(tmpdir(), 'replayd-types-'));
  try {
    const dep = join(tmp, 'node_modules', 'replayd-client');
    mkdirSync(dep, { recursive: true });
    copyFileSync(join(pkg, 'index.d.ts'), join(dep, 'index.d.ts'));
    copyFileSync(join(pkg, 'package.json'), join(dep, 'package.json'));
    writeFileSync(join(tmp, 'package.json'), '{"type":"module","private":true}');
    copyFileSync(join(pkg, 'test', 'types.ts'), join(tmp, 'app.ts'));
    const run = (file) => promisify(execFile)(tsc, ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext',
      '--target', 'es2022', file], { cwd: tmp, encoding: 'utf8' });
    await run('app.ts');
    // And a misuse is caught: a move value that is not a number.
    copyFileSync(join(pkg, 'test', 'types.ts'), join(tmp, 'bad.ts'));
    const bad = readFileSync(join(tmp, 'bad.ts'), 'utf8');
    assert.ok(bad.includes('{ t: 400, cell: 8 }'), 'types.ts still holds the move the misuse edits');
    writeFileSync(join(tmp, 'bad.ts'), bad.replaceAll('{ t: 400, cell: 8 }', '{ t: "400", cell: 8 }'));
    await assert.rejects(run('bad.ts'), (e) => /bad\.ts.*not assignable to type 'number'/s.test(String(e.stdout)));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
