// Run by connections_per_network.test.mjs inside its own network namespace
// (unshare -n as root, unshare -rn otherwise), where this process may give
// loopback the addresses of whole IPv6 networks: opens connections to a
// server started with max_connections_per_ip = CAP from many addresses of
// one /64 (and of one IPv4 address), each kept open after its first
// answer, and prints what each was answered as one JSON line. Bounded: every wait has a deadline.
import net from 'node:net';
import { writeFileSync } from 'node:fs';
import { startServer } from './lib.mjs';
import { runOk } from '../http/proc.mjs';

const CAP = 10;
const NET = '2001:db8:7:1::';

const sh = (...args) => runOk('ip', args);
await sh('link', 'set', 'lo', 'up');
await sh('-6', 'addr', 'add', `${NET}1/64`, 'dev', 'lo');
// every address of 2001:db8:7::/48 is this host's (AnyIP), and a client
// may bind to any of them (this namespace's setting only)
await sh('-6', 'route', 'add', 'local', '2001:db8:7::/48', 'dev', 'lo');
writeFileSync('/proc/sys/net/ipv6/ip_nonlocal_bind', '1');

// One GET on a new connection from localAddress; resolves once the first
// answer's head and body are read: { status, code, socket } (the socket
// stays open unless the server closed it).
function openOne(host, port, localAddress) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port, localAddress });
    let buf = '';
    const done = (r) => { clearTimeout(timer); s.removeAllListeners('data'); resolve({ ...r, socket: s }); };
    const timer = setTimeout(() => done({ status: 0, code: 'timeout' }), 5000);
    s.on('connect', () => s.write(`GET /v1/leaderboards HTTP/1.1\r\nHost: t\r\n\r\n`));
    s.on('data', (d) => {
      buf += d;
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const len = Number((/content-length: *(\d+)/i.exec(buf.slice(0, end)) || [])[1] || 0);
      if (buf.length < end + 4 + len) return;
      const status = Number(buf.slice(9, 12));
      let code = null;
      try { code = JSON.parse(buf.slice(end + 4, end + 4 + len)).error?.code ?? null; } catch { code = 'not json'; }
      done({ status, code });
    });
    s.on('error', (e) => done({ status: 0, code: e.code }));
    s.on('close', () => done({ status: 0, code: 'closed' }));
  });
}

const tally = (rs) => rs.reduce((t, r) => { const k = `${r.status} ${r.code ?? ''}`.trim(); t[k] = (t[k] || 0) + 1; return t; }, {});

const srv = await startServer({ host: '::', args: ['--set', `max_connections_per_ip=${CAP}`, '--set', 'metrics_public=true'] });
let refused = 0; // 429 too_many_connections answers seen, all told
const counted = (r) => { if (r.code === 'too_many_connections') refused++; return r; };
const out = {};
try {
  const host = `${NET}1`;
  // 30 addresses of one /64, one connection each, all kept open
  const v6 = [];
  for (let i = 0; i < 3 * CAP; i++) v6.push(counted(await openOne(host, srv.port, `${NET}${(0x100 + i).toString(16)}`)));
  out.v6 = tally(v6);
  out.otherNet = (await openOne(host, srv.port, '2001:db8:7:2::5')).status;
  // two of the network's open connections close: two more are served
  v6.filter((r) => r.status === 200).slice(0, 2).forEach((r) => r.socket.destroy());
  let again = [];
  for (let t = 0; t < 40 && !(again.length === 2 && again.every((r) => r.status === 200)); t++) {
    await new Promise((r) => setTimeout(r, 50));
    again.forEach((r) => r.socket.destroy());
    again = [counted(await openOne(host, srv.port, `${NET}beef`)), counted(await openOne(host, srv.port, `${NET}bef0`))];
  }
  out.afterTwoClosed = tally(again);
  out.thirdAfterTwoClosed = counted(await openOne(host, srv.port, `${NET}bef1`)).status;
  // IPv4: one address is one count; the next address has its own
  const v4 = [];
  for (let i = 0; i < CAP + 2; i++) v4.push(counted(await openOne('127.0.0.1', srv.port, '127.0.0.2')));
  out.v4 = tally(v4);
  out.nextV4 = (await openOne('127.0.0.1', srv.port, '127.0.0.3')).status;
  // the IPv4-mapped form reaching the same dual-stack socket is the same
  // address: the cap is reached already
  out.mappedV4 = counted(await openOne('::ffff:127.0.0.2', srv.port, '::ffff:127.0.0.2')).status;
  for (const r of [...v6, ...again, ...v4]) r.socket.destroy();
  // what /metrics counted, beside what the clients saw
  const m = await (await fetch(`http://127.0.0.1:${srv.port}/metrics`, { headers: { Connection: 'close' } })).text();
  out.metricPerNetwork = Number((/replayd_connections_ended_total\{reason="per_network"\} (\d+)/.exec(m) || [])[1]);
  out.refusedSeen = refused;
} finally {
  await srv.stop();
  srv.cleanup();
}
console.log(JSON.stringify(out));
process.exit(0);
