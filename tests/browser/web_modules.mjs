// web_modules: the web pages' modules (web/js/*.js) laid out in a temporary
// directory as replayd serves them (/assets/js beside /assets/port and
// /assets/client/log.mjs, clients/js/src/log.mjs), with a
// package.json that makes Node load their .js files as ES modules. Node 18
// reads a .js file outside a "type": "module" package as CommonJS, and web/
// itself holds only what the server serves. The caller removes the
// directory with remove().
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function webModules() {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-web-'));
  mkdirSync(join(dir, 'assets', 'port'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  cpSync(join(root, 'web', 'js'), join(dir, 'assets', 'js'), { recursive: true });
  cpSync(join(root, 'vectors', 'port', 'core.mjs'), join(dir, 'assets', 'port', 'core.mjs'));
  cpSync(join(root, 'vectors', 'port', 'games'), join(dir, 'assets', 'port', 'games'), { recursive: true });
  mkdirSync(join(dir, 'assets', 'client'));
  cpSync(join(root, 'clients', 'js', 'src', 'log.mjs'), join(dir, 'assets', 'client', 'log.mjs'));
  return {
    dir,
    // path under assets/js, e.g. 'games/pipes.js'
    load: (path) => import(pathToFileURL(join(dir, 'assets', 'js', path)).href),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
