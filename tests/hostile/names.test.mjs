// Issue 12, row 9: player names with C1 controls, bidi overrides,
// zero-width only or whitespace only are refused; names are stored NFC.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, call } from './lib.mjs';

let srv;
before(async () => { srv = await startServer({ args: ['--set', 'rate_register_per_ip=0'] }); });
after(async () => { await srv.stop(); srv.cleanup(); });

const refused = {
  'C1 CSI (U+009B)': 'a\u009b31mb',
  'C1 NEL (U+0085)': 'a\u0085b',
  'C0 escape': 'a\u001b[31m',
  'bidi override (U+202E)': 'evil\u202egnp.exe',
  'bidi isolate (U+2067)': 'a\u2067b',
  'zero-width only': '\u200b\u200c\u200d',
  'whitespace only': ' \u3000\u00a0 ',
  'combining marks only': '\u0301\u0301',
  'line separator': 'a\u2028b',
  'private use': 'a\ue000',
  // issue 27: characters that render blank, alone or beside a letter
  'braille blank (U+2800)': '\u2800',
  'braille blank beside a letter': 'a\u2800',
  'Hangul filler (U+3164) beside a letter': '\u3164a',
  'Hangul choseong filler (U+115F)': 'a\u115f',
  'halfwidth Hangul filler (U+FFA0)': 'a\uffa0b',
  'em space (U+2003)': 'a\u2003b',
  'narrow no-break space (U+202F)': 'a\u202fb',
  'ideographic space (U+3000)': 'a\u3000b',
  'over 64 bytes': 'x'.repeat(65),
};

for (const [label, name] of Object.entries(refused)) {
  test(`refused: ${label}`, async () => {
    // bad names on purpose (some break the documented schema itself)
    const r = await call(srv, 'POST', '/v1/players', { body: { name }, offContract: true });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.error.code, 'bad_name');
  });
}

test('accepted and normalised to NFC', async () => {
  const r = await call(srv, 'POST', '/v1/players', { body: { name: 'Jose\u0301 \ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67' } });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.json.name, 'Jos\u00e9 \ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67');
});
