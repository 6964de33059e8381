// idp: a local stand-in for Apple's and Google's sign-in, for the tests:
// keys made with openssl (RSA 2048 and EC P-256), their public halves as a
// JWKS file the server loads, and ID tokens minted and signed here with
// node:crypto. No network.
import { createPrivateKey, createPublicKey, sign, createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runOk } from './proc.mjs';

export const ISSUER = { apple: 'https://appleid.apple.com', google: 'https://accounts.google.com' };

const b64u = (buf) => Buffer.from(buf).toString('base64url');
const seg = (obj) => b64u(JSON.stringify(obj));

// A key pair made by openssl: kind 'RSA' (RS256) or 'EC' (ES256).
export async function makeKey(dir, kid, kind) {
  const pem = join(dir, `${kid}.pem`);
  if (kind === 'RSA') await runOk('openssl', ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', pem], { stdio: 'ignore' });
  else await runOk('openssl', ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', pem], { stdio: 'ignore' });
  const priv = createPrivateKey(readFileSync(pem));
  const jwk = { ...createPublicKey(priv).export({ format: 'jwk' }), kid, use: 'sig', alg: kind === 'RSA' ? 'RS256' : 'ES256' };
  return { kid, alg: jwk.alg, priv, jwk };
}

// The JWKS file of these keys.
export function writeJwks(path, keys) {
  writeFileSync(path, JSON.stringify({ keys: keys.map((k) => k.jwk) }));
  return path;
}

// A compact JWS of claims under key (header overrides, e.g. { alg: 'none' }).
export function mint(key, claims, header = {}) {
  const h = { alg: key.alg, kid: key.kid, typ: 'JWT', ...header };
  const input = `${seg(h)}.${seg(claims)}`;
  const sig = sign('sha256', Buffer.from(input), key.alg === 'ES256'
    ? { key: key.priv, dsaEncoding: 'ieee-p1363' } : key.priv);
  return `${input}.${b64u(sig)}`;
}

// The HS256 confusion: a token "signed" with the public key's JWK text as
// the HMAC secret (what a verifier that trusts the header's alg accepts).
export function mintHs256WithPublicKey(key, claims) {
  const input = `${seg({ alg: 'HS256', kid: key.kid, typ: 'JWT' })}.${seg(claims)}`;
  return `${input}.${b64u(createHmac('sha256', JSON.stringify(key.jwk)).update(input).digest())}`;
}

// An ID token's claims: provider's issuer, aud, sub, issued now for an hour.
export function claims(provider, aud, sub, extra = {}) {
  const now = Math.floor(Date.now() / 1000);
  return { iss: ISSUER[provider], aud, sub, iat: now, exp: now + 3600, ...extra };
}
