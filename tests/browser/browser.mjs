// browser: real headless Chromium (Debian's /usr/bin/chromium) driven by
// playwright-core. One browser for the suite, in a fresh profile directory
// (playwright-core makes a new --user-data-dir for every launch and removes
// it on close); every page in a context of its own, so its cache and its
// storage are new: each load is a first load. A page records what it does:
// every request (to prove nothing leaves the origin), page errors and
// console errors (CSP violations are reported there).
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ARTIFACTS = join(root, 'build', 'browser-artifacts');

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export const WAIT = 20000; // the bound of every single wait

export async function launch() {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS, timeout: 60000 });
}

/** A page in a new context: {page, seen: {requests, errors}, close()}. */
export async function watchedPage(browser, viewport = { width: 1100, height: 900 }) {
  const context = await browser.newContext({ viewport });
  context.setDefaultTimeout(WAIT);
  const page = await context.newPage();
  const seen = { requests: [], errors: [] };
  page.on('request', (r) => seen.requests.push(r));
  page.on('pageerror', (e) => seen.errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') seen.errors.push(`console: ${m.text()} (${m.location().url})`); });
  return { page, seen, close: () => context.close() };
}

/** Bytes on the wire of every request the page made (headers and bodies, both ways). */
export async function bytesTransferred(requests) {
  let total = 0;
  for (const r of requests) {
    if (r.url().startsWith('data:')) continue;
    const s = await r.sizes();
    total += s.requestHeadersSize + s.requestBodySize + s.responseHeadersSize + s.responseBodySize;
  }
  return total;
}
