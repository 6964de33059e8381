// Issue 12, row 3: unauthenticated reads of daily boards for distinct valid
// dates must not grow the server's memory: a board with no entries holds
// nothing. 40,000 dates under `make check`, 8,000 under `make test`; the
// bound is the (resident memory grows by under 5 MB).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startServer, rssOf, LONG } from './lib.mjs';

const DATES = LONG ? 40000 : 8000;

function isoDate(dayIndex) {
  return new Date(Date.UTC(2026, 0, 1) + dayIndex * 86400000).toISOString().slice(0, 10);
}

test(`${DATES} distinct board reads grow RSS by under 5 MB`, { timeout: 300000 }, async () => {
  // Under ASan (make check) freed memory sits in its quarantine and every
  // allocation's stack trace in its stack depot (~8 MB over 40,000 reads,
  // measured): the sanitizer's retention, not the server's. Both are turned
  // off here so that what is measured is what the server keeps.
  const asan = process.env.ASAN_OPTIONS;
  const env = asan ? { ASAN_OPTIONS: `${asan}:quarantine_size_mb=0:thread_local_quarantine_size_kb=0:malloc_context_size=0` } : {};
  const srv = await startServer({ args: ['--set', 'rate_per_ip=0'], env });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const get = (path) => new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: srv.port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    }).on('error', reject);
  });
  try {
    // warm up: the first reads allocate what every read needs (threads'
    // arenas, SQLite's page cache), which is not per date
    for (let i = 0; i < 400; i++) assert.equal(await get(`/v1/leaderboards/daily/${isoDate(20000 + i)}`), 200);
    const before = rssOf(srv.child.pid);
    let next = 0;
    const deadline = Date.now() + 240000;
    const worker = async () => {
      while (next < DATES && Date.now() < deadline) {
        const i = next++;
        const status = await get(`/v1/leaderboards/daily/${isoDate(i)}`);
        assert.equal(status, 200);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    assert.equal(next, DATES, 'every date was read in time');
    const grown = rssOf(srv.child.pid) - before;
    console.log(`# ${DATES} distinct dates: RSS grew ${(grown / 1048576).toFixed(2)} MB`);
    assert.ok(grown < 5 * 1048576, `RSS grew ${grown} bytes`);
  } finally {
    agent.destroy();
    await srv.stop();
    srv.cleanup();
  }
});
