// The KB console's fuzz requests, seeded: its fuzz test (console-fuzz.test.ts) and fuzz benchmark
// (bench/fuzz.bench.ts) send these. Broken and mistyped claim bodies, __proto__ bodies, NUL bytes in bodies, ids
// and queries, odd paths and queries, wrong methods, HEAD on POST routes, what Node's parser refuses, oversized
// headers and bodies, foreign Host names, stalled bodies. Valid-looking requests may succeed (mayPass).
import { MALFORMED, picker, rng, type FuzzRequest } from '@evident/testkit';

export interface ConsoleFuzzTarget {
  bodyLimit: number;
  /** Stalled bodies are sent only when the console cuts them quickly (its request timeout, ms). */
  requestTimeoutMs?: number;
}

const CLAIM = {
  subject: ['BRCA1', 'gene'],
  predicate: ['associated_with', 'association'],
  object: ['breast cancer', 'disease'],
  source_type: 'literature',
  source_id: 'PMID:1',
};

export function consoleRequests(n: number, seed: number, t: ConsoleFuzzTarget): FuzzRequest[] {
  const r = rng(seed);
  const pick = picker(r);
  const json = { 'content-type': 'application/json' };
  const weird: unknown[] = [1e308, -1, 1.5, 0, 'x', '', true, null, [], {}, [1, 2], ['a'], ['', ''], 'é'.repeat(300)];
  const gens: Array<() => FuzzRequest> = [
    () => {
      const good = JSON.stringify(CLAIM);
      const cut = good.slice(0, 1 + Math.floor(r() * (good.length - 2)));
      return {
        method: 'POST',
        path: '/api/v1/claims',
        headers: json,
        body: cut + pick(['', ',', '\u0000', ']]', '"', '\\']),
        why: 'bad json',
        expect: [400],
      };
    },
    () => {
      const body: Record<string, unknown> = { ...CLAIM };
      const field = pick(['subject', 'predicate', 'object', 'confidence', 'source_type', 'source_id', 'bogus']);
      body[field] = pick(weird);
      // Some of these are valid (any string is a source_id, 0 a confidence) or coerced: the console's validator
      // converts scalars (coerceTypes: 'array'), so 1 is the string "1". What must hold: no 5xx, the shape.
      return {
        method: 'POST',
        path: '/api/v1/claims',
        headers: json,
        body: JSON.stringify(body),
        why: `wrong ${field}`,
        mayPass: true,
      };
    },
    () => ({
      method: 'POST',
      path: '/api/v1/claims',
      headers: json,
      body: pick([
        `{"__proto__":{"admin":true},${JSON.stringify(CLAIM).slice(1)}`,
        '{"constructor":{"prototype":{"x":1}}}',
        '{"__proto__":[]}',
      ]),
      why: '__proto__',
      expect: [400],
    }),
    () => ({
      method: 'POST',
      path: '/api/v1/claims',
      headers: json,
      body: JSON.stringify({ ...CLAIM, subject: [`BR\u0000CA${Math.floor(r() * 5)}`, 'gene'], source_id: 'nul\u0000' }),
      why: 'NUL in a body',
      mayPass: true,
    }),
    () => ({
      method: 'POST',
      path: '/api/v1/claims/batch',
      headers: json,
      body: JSON.stringify(
        pick([{ claims: [] }, { claims: [{}] }, { claims: 'x' }, { claims: [CLAIM, { ...CLAIM, subject: 1 }] }, {}]),
      ),
      why: 'bad batch',
      expect: [400],
    }),
    () => ({
      method: 'POST',
      path: '/api/v1/claims/text',
      headers: json,
      body: JSON.stringify(
        pick([
          { text: '' },
          { source_id: 's' },
          { text: 1, source_id: 's' },
          { text: 'BRCA1 is associated with breast cancer.', source_id: '' },
          { text: 'x', source_id: 's', extraction: 'no' },
        ]),
      ),
      why: 'bad text',
      mayPass: true, // { text: 1 } is coerced to "1" (see above) and ingests nothing
    }),
    () => ({
      method: 'POST',
      path: '/api/v1/retract',
      headers: json,
      body: JSON.stringify(
        pick([
          {},
          { source_id: 'x' },
          { source_id: 'x', reason: '' },
          { source_id: 'nope', reason: 'r', cascade: 'yes' },
        ]),
      ),
      why: 'bad retract',
    }),
    () => ({
      method: 'GET',
      path: pick([
        '/api/v1/entities?limit=-1',
        '/api/v1/entities?limit=1e9',
        '/api/v1/entities?limit=abc',
        '/api/v1/entities?min_claims=-3',
        '/api/v1/entities?offset=%ff%fe',
        '/api/v1/entities?offset=zzzz',
        '/api/v1/entities?extra=1',
        `/api/v1/entities?query=${'a'.repeat(1200)}`,
        '/api/v1/entities?entity_type=',
        '/api/v1/paths/BRCA1/PARP1?max_depth=99',
        '/api/v1/paths/BRCA1/PARP1?top_k=0',
        '/api/v1/entities/BRCA1/claims?limit=0',
      ]),
      why: 'bad query',
      expect: [400],
    }),
    () => ({
      method: 'GET',
      path: pick([
        '/api/v1/entities?query=%00',
        '/api/v1/entities?query=a%00b&entity_type=gene',
        '/api/v1/entities/%00',
        '/api/v1/claims/clm_%00',
        '/api/v1/entities/BR%00CA1/context',
        '/api/v1/paths/%00/BRCA1',
      ]),
      why: 'NUL in a path or query',
      mayPass: true,
    }),
    () => ({
      method: pick(['GET', 'DELETE']),
      path: pick([
        '/api/v1/entities/nope',
        '/api/v1/claims/clm_missing',
        '/api/v1/claims/clm_missing/downstream',
        '/api/v1/paths/nope/BRCA1',
        `/api/v1/entities/${'x'.repeat(300)}`,
        '/api/v1/entities/%ff%fe',
        '/api/v1/nope',
        '/api/v2/entities',
      ]),
      why: 'unknown entity or route',
    }),
    () => ({
      // (GET and HEAD of /claims/batch are GET /claims/{claim_id}: a 404 for the claim "batch".)
      method: pick(['PUT', 'PATCH', 'DELETE', 'GET']),
      path: pick(['/api/v1/claims', '/api/v1/retract']),
      headers: json,
      body: '{}',
      why: 'wrong method',
      expect: [405],
    }),
    () => ({
      method: 'HEAD',
      path: pick(['/api/v1/claims', '/api/v1/retract']),
      why: 'HEAD on a POST route',
      expect: [405],
    }),
    () => ({
      method: 'POST',
      path: '/api/v1/claims',
      headers: { 'content-type': pick(['text/plain', 'application/xml', 'multipart/form-data; boundary=x']) },
      body: 'subject=x',
      why: 'media type',
      // JSON only: every other media type is 415, text/plain included.
      expect: [415],
    }),
    () => ({
      method: 'POST',
      path: '/api/v1/claims',
      headers: json,
      body: Buffer.alloc(t.bodyLimit + 1 + Math.floor(r() * t.bodyLimit), 0x20),
      why: 'oversize',
      expect: [413],
      mayReset: true,
    }),
    () => ({
      method: 'POST',
      path: '/api/v1/claims',
      headers: json,
      body: '['.repeat(2000 + Math.floor(r() * 5000)),
      why: 'deep nesting',
      expect: [400],
    }),
    () => {
      const m = pick(MALFORMED);
      const data = Buffer.isBuffer(m.data) ? m.data : Buffer.from(m.data, 'latin1');
      return { method: 'RAW', path: '', raw: data, why: `parser: ${m.name}`, expect: [m.status] };
    },
    () => ({
      method: 'GET',
      path: '/api/v1/health',
      headers: { 'x-padding': 'a'.repeat(17_000 + Math.floor(r() * 20_000)) },
      why: 'oversized headers',
      expect: [431],
    }),
    () => ({
      method: 'GET',
      path: '/api/v1/health',
      headers: { host: pick(['evil.example', 'localhost.evil.example:80', '10.0.0.1']) },
      why: 'foreign Host',
      expect: [421],
    }),
  ];
  const out = Array.from({ length: n }, () => pick(gens)());
  // A stalled body holds its batch until the console's request timeout: one in 150, when that timeout is short.
  if (t.requestTimeoutMs !== undefined && t.requestTimeoutMs <= 5000) {
    for (let i = 75; i < n; i += 150) {
      out[i] = {
        method: 'RAW',
        path: '',
        raw: 'POST /api/v1/claims HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"subject":',
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
