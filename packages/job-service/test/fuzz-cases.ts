// The job API's fuzz requests, seeded: the fuzz tests (fuzz-suite.ts) and the fuzz benchmark
// (bench/fuzz.bench.ts) send these. Malformed bodies, wrong types, huge numbers, missing or broken headers,
// oversize and deeply nested bodies, odd paths and queries, and the hardening probe's cases: hostile SMILES,
// NUL bytes in ids and queries, __proto__ bodies, what Node's parser refuses, wrong methods, HEAD on POST
// routes, oversized headers, stalled bodies; CONNECT, unmet Expect headers, deeply nested objects, objects of more
// members than allowed, strings written as escapes.
import { MALFORMED, picker, rng, type FuzzRequest } from '@evident/testkit';

export interface FuzzTarget {
  key: string;
  /** The server's body limit (oversize bodies are one byte to twice that over it). */
  bodyLimit: number;
  /** Stalled bodies are sent only when the server cuts them quickly (its request timeout, ms). */
  requestTimeoutMs?: number;
}

const SMILES_ROUTE = '/v1/compounds/generate';
const cgBody = (ligands: string[]) => ({
  target_uniprot: 'P00533',
  binding_site: { residues: ['K721', 'T766'] },
  num_molecules: 5,
  reference_ligands: ligands,
});

export function jobApiRequests(n: number, seed: number, t: FuzzTarget): FuzzRequest[] {
  const r = rng(seed);
  const pick = picker(r);
  const key = t.key;
  const LIMIT = t.bodyLimit;
  const auth = { authorization: `Bearer ${key}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const weird: unknown[] = [
    1e308,
    -1e308,
    2 ** 63,
    -(2 ** 80),
    1.5,
    0,
    -1,
    100_001,
    'x',
    '',
    '5',
    true,
    null,
    [],
    {},
    [1, 2],
    { a: 1 },
    'é'.repeat(300),
  ];
  const hugeNumbers = [
    '1e400',
    '-1e400',
    '123456789012345678901234567890',
    '1e-400',
    '0x10',
    'NaN',
    'Infinity',
    '-0.0e99999',
  ];
  const gens: Array<() => FuzzRequest> = [
    () => {
      // Truncated or corrupted JSON.
      const good = JSON.stringify({ items: 3, cpu_ms: 10, label: 'abc' });
      const cut = good.slice(0, 1 + Math.floor(r() * (good.length - 2)));
      const junk = pick(['', ',', '\u0000', ']]', '"', '\\', 'undefined']);
      return { method: 'POST', path: '/v1/demo/run', headers: json, body: cut + junk, why: 'bad json' };
    },
    () => {
      // A wrong type or out-of-range value for one field, or an unknown field.
      const body: Record<string, unknown> = { items: 2 };
      const field = pick(['items', 'cpu_ms', 'fail', 'label', 'callback_url', 'extra', '__proto__x']);
      let v = pick(weird);
      if (field === 'items' && typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 100_000) v = 'x';
      if (field === 'cpu_ms' && typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 600_000) v = -5;
      if (field === 'label' && typeof v === 'string' && v.length <= 200) v = 42;
      if (field === 'callback_url' && typeof v === 'string')
        v = ['ftp://x', 'http://10.0.0.1/', 'nope'][Math.floor(r() * 3)];
      body[field] = v;
      return {
        method: 'POST',
        path: '/v1/demo/run',
        headers: json,
        body: JSON.stringify(body),
        why: `wrong ${field}`,
      };
    },
    () => ({
      method: 'POST',
      path: '/v1/demo/run',
      headers: json,
      body: `{"items": ${pick(hugeNumbers)}, "cpu_ms": ${pick(hugeNumbers)}}`,
      why: 'huge numbers',
    }),
    () => {
      // Missing or broken headers.
      const h = pick([
        {},
        { 'content-type': 'application/json' },
        { authorization: 'Bearer' },
        { authorization: `Bearer ${key}x` },
        { authorization: key },
      ]);
      return {
        method: pick(['POST', 'GET']),
        path: pick(['/v1/demo/run', '/v1/jobs', '/v1/targets']),
        headers: h as Record<string, string>,
        body: undefined,
        why: 'headers',
      };
    },
    () => ({
      method: 'POST',
      path: '/v1/demo/run',
      headers: {
        ...auth,
        'content-type': pick(['text/plain', 'application/xml', 'multipart/form-data; boundary=x']),
      },
      body: 'items=1',
      why: 'media type',
    }),
    () => ({
      method: 'POST',
      path: '/v1/demo/run',
      headers: json,
      body: Buffer.alloc(LIMIT + 1 + Math.floor(r() * LIMIT), 0x20),
      why: 'oversize',
      mayReset: true,
    }),
    () => ({
      method: 'POST',
      path: '/v1/demo/run',
      headers: json,
      body: '['.repeat(2000 + Math.floor(r() * 5000)),
      why: 'deep nesting',
    }),
    () => ({
      method: 'POST',
      path: '/v1/demo/run',
      headers: json,
      body: pick(['null', '[]', '"s"', '1', 'true', '{}']),
      why: 'not an object',
    }),
    () => ({
      method: 'GET',
      path: pick([
        '/v1/jobs?limit=-1',
        '/v1/jobs?limit=1e9',
        '/v1/jobs?status=done',
        '/v1/jobs?cursor=%00',
        '/v1/jobs?limit=abc',
        '/v1/jobs?extra=1',
        '/v1/targets?limit=0',
        '/v1/targets?cursor=czk5OTk5OTk5OTk5OTk5OTk5OTk5',
        '/v1/results/x?format=xml',
      ]),
      headers: auth,
      why: 'bad query',
    }),
    () => ({
      method: pick(['GET', 'DELETE']),
      path: pick([
        '/v1/jobs/',
        `/v1/jobs/demo_${'a'.repeat(26)}`,
        '/v1/results/td_zzz',
        '/v1/jobs/%ff%fe',
        `/v1/jobs/${'x'.repeat(300)}`,
        '/v1/nope',
        '/v2/jobs',
      ]),
      headers: auth,
      why: 'unknown job or route',
    }),
    () => ({ method: pick(['PUT', 'PATCH']), path: '/v1/jobs', headers: json, body: '{}', why: 'method' }),
    // The hardening probe's cases.
    () => {
      // SMILES that hang or trap RDKit: long chains, deep branches and rings; each is refused by the bounds.
      const len = pick([650, 700, 750, 1000, 1500, 2000]);
      const smiles = pick([
        'C'.repeat(len),
        'c1ccccc1'.repeat(Math.floor(len / 8)),
        `${'C('.repeat(Math.floor(len / 3))}C${')'.repeat(Math.floor(len / 3))}`,
        `C1${'C'.repeat(len - 4)}C1`,
      ]);
      return {
        method: 'POST',
        path: SMILES_ROUTE,
        headers: json,
        body: JSON.stringify(cgBody(pick([[smiles], ['CCO', smiles]]))),
        why: 'hostile SMILES',
        expect: [400],
      };
    },
    () => ({
      method: pick(['GET', 'DELETE']),
      path: pick([
        '/v1/jobs/demo_%00abc',
        '/v1/jobs/%00',
        '/v1/results/x%00y',
        '/v1/jobs?kind=%00',
        '/v1/jobs?cursor=a%00b',
        '/v1/targets?cursor=%00',
      ]),
      headers: auth,
      why: 'NUL byte',
      expect: [400, 404, 405],
    }),
    () => ({
      method: 'POST',
      path: '/v1/demo/run',
      headers: json,
      body: pick([
        '{"items":1,"__proto__":{"admin":true}}',
        '{"__proto__":[]}',
        '{"items":1,"constructor":{"prototype":{"x":1}}}',
        '{"items":1,"label":"a","nested":{"__proto__":{}}}',
      ]),
      why: '__proto__',
      expect: [400],
    }),
    () => {
      const m = pick(MALFORMED);
      const data = Buffer.isBuffer(m.data) ? m.data : Buffer.from(m.data, 'latin1');
      return { method: 'RAW', path: '', raw: data, why: `parser: ${m.name}`, expect: [m.status] };
    },
    () => ({
      method: pick(['PUT', 'PATCH', 'DELETE', 'GET']),
      path: pick(['/v1/demo/run', '/v1/targets/discover', '/v1/compounds/generate']),
      headers: json,
      body: '{}',
      why: 'wrong method',
      expect: [405],
    }),
    () => ({
      method: 'HEAD',
      path: pick(['/v1/demo/run', '/v1/targets/discover', '/v1/compounds/generate']),
      headers: auth,
      why: 'HEAD on a POST route',
      expect: [405],
    }),
    () => ({
      method: pick(['GET', 'POST']),
      path: '/v1/jobs',
      headers: { ...auth, 'x-padding': 'a'.repeat(17_000 + Math.floor(r() * 20_000)) },
      why: 'oversized headers',
      expect: [431],
    }),
    // Issue 37's cases: what Node's server does not route, and bodies shaped to make parsing slow.
    () => {
      const target = pick(['127.0.0.1:22', 'example.com:443', '/v1/jobs']);
      return {
        method: 'RAW',
        path: '',
        raw: `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`,
        why: 'CONNECT',
        expect: [405],
      };
    },
    () => ({
      method: pick(['GET', 'POST']),
      path: pick(['/healthz', '/v1/demo/run', '/v1/jobs']),
      headers: { ...json, expect: pick(['bogus', '200-ok', '101-switching']) },
      body: '{"items":1}',
      why: 'Expect',
      expect: [417],
    }),
    () => {
      // Unknown routes parse a body only below the inline limit (above it, the route answers first).
      const path = pick(['/v1/demo/run', '/v1/nope']);
      const depth = 65 + Math.floor(r() * (path === '/v1/nope' ? 600 : 2000));
      return {
        method: 'POST',
        path,
        // A known route authenticates first; an unknown one parses the body first.
        headers: path === '/v1/nope' ? pick([json, { 'content-type': 'application/json' }]) : json,
        body: `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
        why: 'deep objects',
        expect: [400],
      };
    },
    () => {
      const keys = 1001 + Math.floor(r() * 400);
      const members = Array.from({ length: keys }, (_, i) => (r() < 0.5 ? '"items":1' : `"k${i}":0`)).join(',');
      return {
        method: 'POST',
        path: '/v1/demo/run',
        headers: json,
        body: `{${members}}`,
        why: 'many keys',
        expect: [400],
      };
    },
    () => ({
      method: 'POST',
      path: '/v1/demo/run',
      headers: json,
      body: `{"items":1,"label":"${'\\u0041'.repeat(201 + Math.floor(r() * 2000))}"}`,
      why: 'escaped label',
      expect: [400],
    }),
  ];
  const out = Array.from({ length: n }, () => pick(gens)());
  // A stalled body holds its batch until the server's request timeout: one in 150, when that timeout is short.
  if (t.requestTimeoutMs !== undefined && t.requestTimeoutMs <= 5000) {
    for (let i = 75; i < n; i += 150) {
      out[i] = {
        method: 'RAW',
        path: '',
        raw:
          'POST /v1/demo/run HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
          `Authorization: Bearer ${key}\r\nContent-Length: 100\r\n\r\n{"items":`,
        waitMs: t.requestTimeoutMs * 4 + 4000,
        why: 'stalled body',
        expect: [408],
      };
    }
  }
  return out;
}

/** Requests that wait for a timeout or send megabytes: not counted for the slowest small request. */
export const isSmall = (req: FuzzRequest) => req.why !== 'stalled body' && req.why !== 'oversize';
