// Fuzz: 1,200 malformed requests (bad JSON, wrong types, huge numbers, missing headers, oversize bodies,
// odd paths and queries). Every answer must be a well-formed 4xx error, and the server must keep serving.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { ServiceConfig } from '../src/config.js';
import { isErrorBody, http, waitForStatus, type TestServer } from './helpers.js';

const LIMIT = 16 * 1024;

export function fuzzSuite(
  mode: string,
  start: (over: Partial<ServiceConfig>) => Promise<TestServer>,
  skip: string | false = false,
): void {
  let s: TestServer;
  let key: string;
  before(async () => {
    if (skip) return;
    // Bodies above 4 KB take the threaded parse path, so both paths are fuzzed.
    s = await start({ bodyLimitBytes: LIMIT, inlineJsonLimitBytes: 4096 });
    key = (await s.store.createKey({ name: 'fuzz', plan: 'enterprise', rpm: 1_000_000, concurrency: 5 })).key;
  });
  after(async () => {
    if (!skip) await s.cleanup();
  });

  // Deterministic PRNG (mulberry32) so that a failure can be replayed.
  function rng(seed: number) {
    return () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  interface Req {
    method: string;
    path: string;
    headers: Record<string, string>;
    body?: string | Buffer;
    why: string;
  }

  function generate(n: number, seed = 12345): Req[] {
    const r = rng(seed);
    const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
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
    const gens: Array<() => Req> = [
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
    ];
    return Array.from({ length: n }, () => pick(gens)());
  }

  function send(req: Req): Promise<{ status: number; type: string; text: string }> {
    const u = new URL(s.url + req.path);
    return new Promise((resolve, reject) => {
      const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body);
      const headers: Record<string, string | number> = { ...req.headers };
      if (body) headers['content-length'] = body.length;
      const q = request(
        { host: u.hostname, port: u.port, method: req.method, path: u.pathname + u.search, headers },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), text }));
        },
      );
      // The server may answer 413 and close before reading a big body.
      q.on('error', (e: NodeJS.ErrnoException) =>
        e.code === 'ECONNRESET' || e.code === 'EPIPE' ? resolve({ status: -1, type: '', text: '' }) : reject(e),
      );
      q.end(body);
    });
  }

  test(`${mode}: 1,200 malformed requests all get well-formed 4xx errors; the server still serves`, {
    skip,
  }, async () => {
    const reqs = generate(1200);
    const statuses = new Map<number, number>();
    let resets = 0;
    for (let i = 0; i < reqs.length; i += 25) {
      const batch = reqs.slice(i, i + 25);
      const answers = await Promise.all(batch.map(send));
      answers.forEach((a, j) => {
        const req = batch[j]!;
        if (a.status === -1) {
          // Only acceptable for oversize bodies cut off after the 413 was sent.
          assert.equal(req.why, 'oversize');
          resets++;
          return;
        }
        const where = `${req.why}: ${req.method} ${req.path} ${String(req.body ?? '').slice(0, 80)} -> ${a.status} ${a.text.slice(0, 200)}`;
        assert.ok(a.status >= 400 && a.status < 500, where);
        assert.match(a.type, /^application\/json/, where);
        const body = JSON.parse(a.text);
        assert.ok(isErrorBody(body), where);
        if (a.status === 400 && body.error.code === 'invalid_parameters') {
          assert.ok(
            body.error.details.length > 0 &&
              body.error.details.every((d: any) => typeof d.path === 'string' && d.message),
            where,
          );
        }
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      });
    }
    console.log(
      `# statuses: ${JSON.stringify(Object.fromEntries(statuses))}, connection resets on oversize: ${resets}`,
    );
    assert.ok(resets < 50);
    for (const code of [400, 401, 404, 413, 415]) assert.ok(statuses.get(code), `no ${code} seen`);

    assert.equal((await http(s.url, 'GET', '/healthz')).status, 200);
    const ok = await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 2 } });
    assert.equal(ok.status, 202);
    assert.equal((await waitForStatus(s.url, key, ok.body.job_id)).status, 'completed');
  });
}
