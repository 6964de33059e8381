// contract: checks one HTTP exchange against docs/openapi.yaml, so the
// document cannot drift from the server. The HTTP suite's call()
// (tests/http/harness.mjs) hands every exchange here.
//
// The request (path, method, path and query parameters, body and its media
// type) is checked unless the test marks it as off the contract on purpose;
// the response (status, media type, body, the headers its status documents)
// always is. A path the document does not list must answer 404 not_found, a
// listed path with an unlisted method 405 method_not_allowed with an Allow
// header, as the document's description says. HEAD is checked against the
// path's GET operation (same statuses and headers, no body), and an Allow
// header must name exactly the methods the document lists for the path
// (HEAD with GET).
//
// With REPLAYD_CONTRACT_SEEN set to a directory, every checked exchange is
// recorded there as "METHOD /path/{template} STATUS", one file per process,
// for coverage.mjs.
import { readFileSync, appendFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import YAML from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DOC_PATH = join(root, 'docs', 'openapi.yaml');
export const doc = YAML.parse(readFileSync(DOC_PATH, 'utf8'));
export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

// The document's schemas become one JSON Schema 2020-12 resource whose $defs
// are components.schemas; every "#/components/schemas/X" points there.
const DEFS_ID = 'https://replayd.invalid/openapi/schemas';
function retarget(node) {
  if (Array.isArray(node)) return node.map(retarget);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')
      ? `${DEFS_ID}#/$defs/${v.slice('#/components/schemas/'.length)}`
      : retarget(v);
  }
  return out;
}
// Unknown keywords are errors (a typo in the document); the narrowing
// siblings of a $ref ("properties" without "type") are how it is written.
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
addFormats(ajv);
ajv.addSchema({ $id: DEFS_ID, $defs: retarget(doc.components?.schemas ?? {}) });
const compiled = new Map();
function validator(schema) {
  if (!compiled.has(schema)) compiled.set(schema, ajv.compile(retarget(schema)));
  return compiled.get(schema);
}

// Resolves a local "#/components/..." reference of a response, a parameter
// or a request body.
function deref(node) {
  while (node && typeof node.$ref === 'string') {
    node = node.$ref.slice(2).split('/').reduce((at, key) => at?.[key], doc);
    if (!node) throw new Error('contract: docs/openapi.yaml has a dangling $ref');
  }
  return node;
}

// A final path parameter marked `x-rest-of-path: true` takes the rest of
// the path, one segment or more (/assets/{path}), as the server's "**" does.
function restOfPath(template) {
  const last = template.split('/').filter(Boolean).pop() ?? '';
  const m = last.match(/^\{(.+)\}$/);
  if (!m) return false;
  const item = doc.paths[template];
  const params = [...(item.parameters ?? []), ...METHODS.flatMap((k) => item[k]?.parameters ?? [])].map(deref);
  return params.some((p) => p.in === 'path' && p.name === m[1] && p['x-rest-of-path'] === true);
}

const templates = Object.keys(doc.paths).map((template) => ({
  template,
  segments: template.split('/').filter(Boolean),
  rest: restOfPath(template),
}));

// The template a path matches, preferring a literal segment over a
// parameter at the first place they differ (/daily/{date} over
// /{game}/{level}), as the server's routing does.
function matchPath(pathname) {
  const segs = pathname.split('/').filter(Boolean);
  let best = null;
  for (const t of templates) {
    const n = t.segments.length;
    if (t.rest ? segs.length < n : segs.length !== n) continue;
    const params = {};
    let literals = '';
    let ok = true;
    t.segments.forEach((s, i) => {
      const m = s.match(/^\{(.+)\}$/);
      const value = t.rest && i === n - 1 ? segs.slice(i).join('/') : segs[i];
      if (m) { params[m[1]] = decodeURIComponent(value); literals += '0'; }
      else if (s === value) literals += '1';
      else ok = false;
    });
    if (ok && (!best || literals > best.literals)) best = { ...t, params, literals };
  }
  return best;
}

// The methods a path answers, as an Allow header names them.
function allowedMethods(pathItem) {
  const listed = METHODS.filter((m) => pathItem[m]).map((m) => m.toUpperCase());
  if (listed.includes('GET') && !listed.includes('HEAD')) listed.push('HEAD');
  return listed.sort();
}

function mediaType(contentType) {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

function schemaErrors(schema, value, name) {
  const validate = validator(schema);
  if (validate(value)) return null;
  return ajv.errorsText(validate.errors, { dataVar: name });
}

// A parameter's text as its schema's type wants it: an integer parameter
// given as plain decimal digits becomes a number (so "12x" still fails).
function coerce(schema, text) {
  const type = deref(schema ?? {}).type;
  if ((type === 'integer' || type === 'number') && /^-?\d+$/.test(text)) return Number(text);
  return text;
}

function checkParameters(op, pathItem, match, query, problems) {
  const params = [...(pathItem.parameters ?? []), ...(op.parameters ?? [])].map(deref);
  const known = new Set();
  for (const p of params) {
    known.add(`${p.in}:${p.name}`);
    let text;
    if (p.in === 'path') text = match.params[p.name];
    else if (p.in === 'query') text = query.get(p.name) ?? undefined;
    else continue;
    if (text === undefined) {
      if (p.required) problems.push(`the ${p.in} parameter "${p.name}" is required`);
      continue;
    }
    const err = schemaErrors(p.schema ?? {}, coerce(p.schema, text), p.name);
    if (err) problems.push(`${p.in} parameter ${JSON.stringify(text)}: ${err}`);
  }
  for (const name of query.keys()) {
    if (!known.has(`query:${name}`)) problems.push(`the query parameter "${name}" is not documented`);
  }
}

function checkRequestBody(op, req, problems) {
  const spec = deref(op.requestBody);
  if (req.body === undefined) {
    if (spec?.required) problems.push('a request body is required');
    return;
  }
  if (!spec) { problems.push('this operation takes no request body'); return; }
  const type = mediaType(req.contentType);
  const media = spec.content?.[type];
  if (!media) { problems.push(`request media type "${type}" is not documented`); return; }
  if (!media.schema) return;
  let value = req.body;
  if (type === 'application/json') {
    try { value = JSON.parse(req.body); } catch { problems.push('the request body is not JSON'); return; }
  }
  const err = schemaErrors(media.schema, value, 'request');
  if (err) problems.push(err);
}

// A response header's value: res.headers is a fetch Headers or a plain
// object with lower-case names.
function headerOf(res, name) {
  const h = res.headers;
  if (!h) return undefined;
  const v = typeof h.get === 'function' ? h.get(name) : h[name.toLowerCase()];
  return v ?? undefined;
}

// The headers a response documents: a required one must be there, and
// every one there must match its schema (an integer header as digits).
function checkHeaders(spec, res, label, problems) {
  if (!res.headers) return;
  for (const [name, ref] of Object.entries(spec.headers ?? {})) {
    const h = deref(ref);
    const value = headerOf(res, name);
    if (value === undefined) {
      if (h.required) problems.push(`${label} ${res.status}: the header ${name} is missing`);
      continue;
    }
    const err = schemaErrors(h.schema ?? {}, coerce(h.schema, value), name);
    if (err) problems.push(`${label} ${res.status}: header ${name}: ${JSON.stringify(value)}: ${err}`);
  }
}

// head: a HEAD answer, checked as its GET's without the body.
function checkResponse(responses, res, label, problems, head = false) {
  const spec = deref(responses[String(res.status)]);
  if (!spec) {
    problems.push(`${label}: status ${res.status} is not documented (${res.text.slice(0, 200)})`);
    return;
  }
  checkHeaders(spec, res, label, problems);
  const type = mediaType(res.contentType);
  if (!spec.content || head) {
    if (res.text !== '') problems.push(`${label} ${res.status}: ${head ? 'a HEAD answer has no body' : 'documented without a body'}, got one`);
    if (!spec.content) return;
  }
  const media = spec.content[type];
  if (!media) {
    problems.push(`${label} ${res.status}: media type "${type}" is not documented (${Object.keys(spec.content)})`);
    return;
  }
  if (!media.schema || head) return;
  let value = res.text;
  if (type === 'application/json' || type.endsWith('+json')) {
    try { value = JSON.parse(res.text); } catch {
      problems.push(`${label} ${res.status}: the body is not JSON: ${res.text.slice(0, 200)}`);
      return;
    }
  }
  const err = schemaErrors(media.schema, value, 'response');
  if (err) problems.push(`${label} ${res.status}: ${err}: ${res.text.slice(0, 300)}`);
}

// What the server answers where the document lists nothing.
const UNMATCHED = {
  // a path segment with an encoded NUL, ? or / is refused before routing
  path: { 400: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error', properties: { error: { properties: { code: { const: 'bad_path' } } } } } } } },
    404: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error', properties: { error: { properties: { code: { const: 'not_found' } } } } } } } } },
  method: { 405: {
    headers: { Allow: { required: true, schema: { type: 'string' } } },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error', properties: { error: { properties: { code: { const: 'method_not_allowed' } } } } } } } } },
};

function record(line) {
  const dir = process.env.REPLAYD_CONTRACT_SEEN;
  if (dir) appendFileSync(join(dir, `seen-${process.pid}.txt`), line + '\n');
}

// req: { method, url (path and query), body (text or undefined),
// contentType, offContract }; res: { status, contentType, text, headers
// (optional: a fetch Headers, or an object of lower-case names) }. Throws
// an Error naming every difference from the document.
export function checkExchange(req, res) {
  const url = new URL(req.url, 'http://contract.invalid');
  const method = req.method.toLowerCase();
  const label = `${req.method} ${url.pathname}`;
  const problems = [];
  const match = matchPath(url.pathname);
  const pathItem = match && doc.paths[match.template];
  // HEAD is the GET without its body (the document's description says so)
  const head = method === 'head' && !pathItem?.head && Boolean(pathItem?.get);
  const op = head ? pathItem.get : pathItem?.[method];
  const allow = headerOf(res, 'Allow');
  if (pathItem && allow !== undefined) {
    const got = allow.split(',').map((m) => m.trim().toUpperCase()).filter(Boolean).sort();
    const want = allowedMethods(pathItem);
    if (got.join() !== want.join()) problems.push(`${label}: Allow is "${allow}", the document lists ${want.join(', ')}`);
  }
  if (!match) {
    if (!req.offContract) problems.push(`${label}: the path is not documented`);
    checkResponse(UNMATCHED.path, res, label, problems, method === 'head');
  } else if (!op) {
    if (!req.offContract) problems.push(`${label}: ${req.method} is not documented on ${match.template}`);
    checkResponse(UNMATCHED.method, res, label, problems, method === 'head');
  } else {
    if (!req.offContract) {
      const before = problems.length;
      checkParameters(op, pathItem, match, url.searchParams, problems);
      checkRequestBody(op, req, problems);
      for (let i = before; i < problems.length; i++) problems[i] = `${label}: ${problems[i]}`;
    }
    checkResponse(op.responses, res, label, problems, head);
    record(`${req.method.toUpperCase()} ${match.template} ${res.status}`);
  }
  if (problems.length) {
    throw new Error(`contract (docs/openapi.yaml):\n  ${problems.join('\n  ')}`);
  }
}
