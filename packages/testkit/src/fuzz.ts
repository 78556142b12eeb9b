// Fuzzing an HTTP server: a seeded generator's requests sent one way or another (node:http, or raw bytes over a
// socket for what a client library cannot send), each answer checked against the one error shape, and a summary.
// The servers' fuzz tests and fuzz benchmarks share their generators through this.
import { request } from 'node:http';
import { hasErrorShape, rawRequest } from './raw-http.js';

/** Deterministic PRNG (mulberry32): a failure can be replayed from its seed. */
export function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Pick = <T>(a: readonly T[]) => T;
export const picker =
  (r: () => number): Pick =>
  (a) =>
    a[Math.floor(r() * a.length)]!;

export interface FuzzRequest {
  /** The generator that made it: reports group by it. */
  why: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Bytes written as they are to a fresh socket instead (method/path/headers/body unused). */
  raw?: string | Buffer;
  /** For a raw request: how long to wait for the answer (a stalled body waits for the server's timeout). */
  waitMs?: number;
  /** Statuses this request may get; default any 4xx. */
  expect?: readonly number[];
  /** A success is a fine answer too (valid requests mixed in). */
  mayPass?: boolean;
  /** The server may close before reading it all (an oversize body after its 413): no answer is fine. */
  mayReset?: boolean;
}

export interface FuzzAnswer {
  /** -1: the connection failed or was reset before an answer. */
  status: number;
  contentType: string;
  text: string;
  ms: number;
}

export async function sendFuzz(base: string, req: FuzzRequest): Promise<FuzzAnswer> {
  const u = new URL(base);
  const t0 = performance.now();
  if (req.raw !== undefined) {
    const a = await rawRequest(Number(u.port), req.raw, req.waitMs ?? 5000);
    return {
      status: a.status || -1,
      contentType: a.headers['content-type'] ?? '',
      text: a.text,
      ms: performance.now() - t0,
    };
  }
  return new Promise((resolve) => {
    const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body);
    const headers: Record<string, string | number> = { ...(req.headers ?? {}) };
    if (body) headers['content-length'] = body.length;
    const q = request(
      { host: u.hostname, port: u.port, method: req.method, path: req.path, headers, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            contentType: String(res.headers['content-type'] ?? ''),
            text,
            ms: performance.now() - t0,
          }),
        );
        res.on('error', () => resolve({ status: -1, contentType: '', text: '', ms: performance.now() - t0 }));
      },
    );
    q.on('error', () => resolve({ status: -1, contentType: '', text: '', ms: performance.now() - t0 }));
    q.end(body);
  });
}

/**
 * What is wrong with an answer, or undefined: an error status must carry `{ error: { code, message } }` as JSON
 * (HEAD answers have no body), a 5xx is always wrong, and the status must be one the request may get.
 */
export function nonConformity(req: FuzzRequest, a: FuzzAnswer): string | undefined {
  if (a.status === -1) return req.mayReset ? undefined : 'no answer (connection failed or reset)';
  if (a.status >= 500) return `${a.status}`;
  if (a.status < 400) return req.mayPass ? undefined : `${a.status} for a request that must be refused`;
  if (req.expect && !req.expect.includes(a.status)) return `${a.status}, expected ${req.expect.join(' or ')}`;
  if (req.method === 'HEAD') return a.text === '' ? undefined : 'a body on a HEAD answer';
  if (!/^application\/json/.test(a.contentType)) return `content-type ${a.contentType || 'none'}`;
  let body: unknown;
  try {
    body = JSON.parse(a.text);
  } catch {
    return 'a body that is not JSON';
  }
  return hasErrorShape(body) ? undefined : 'not { error: { code, message } }';
}

export interface FuzzSummary {
  requests: number;
  statuses: Record<string, number>;
  server_errors_5xx: number;
  non_conforming: number;
  /** The first few non-conforming answers, to replay. */
  examples: string[];
  /** The slowest answer to a request that is not a stalled or oversize one, ms. */
  slowest_small_ms: number;
  by_generator: Record<string, number>;
}

/**
 * Sends `reqs` in batches of `concurrency` and summarises. `small(req)`: whether the request counts for the
 * slowest-small figure (not a stalled body waiting for its timeout).
 */
export async function runFuzz(
  base: string,
  reqs: readonly FuzzRequest[],
  options: { concurrency?: number; small?: (r: FuzzRequest) => boolean; base?: (r: FuzzRequest) => string } = {},
): Promise<FuzzSummary & { failures: Array<{ req: FuzzRequest; answer: FuzzAnswer; problem: string }> }> {
  const concurrency = options.concurrency ?? 16;
  const statuses: Record<string, number> = {};
  const byGenerator: Record<string, number> = {};
  const failures: Array<{ req: FuzzRequest; answer: FuzzAnswer; problem: string }> = [];
  let fivexx = 0;
  let slowest = 0;
  for (let i = 0; i < reqs.length; i += concurrency) {
    const batch = reqs.slice(i, i + concurrency);
    const answers = await Promise.all(batch.map((r) => sendFuzz(options.base?.(r) ?? base, r)));
    answers.forEach((a, j) => {
      const req = batch[j]!;
      statuses[a.status] = (statuses[a.status] ?? 0) + 1;
      byGenerator[req.why] = (byGenerator[req.why] ?? 0) + 1;
      if (a.status >= 500) fivexx++;
      if (options.small?.(req) ?? true) slowest = Math.max(slowest, a.ms);
      const problem = nonConformity(req, a);
      if (problem) failures.push({ req, answer: a, problem });
    });
  }
  return {
    requests: reqs.length,
    statuses,
    server_errors_5xx: fivexx,
    non_conforming: failures.length,
    examples: failures.slice(0, 5).map(describe),
    slowest_small_ms: Math.round(slowest),
    by_generator: byGenerator,
    failures,
  };
}

export function describe(f: { req: FuzzRequest; answer: FuzzAnswer; problem: string }): string {
  const r = f.req;
  const sent =
    r.raw !== undefined ? String(r.raw).slice(0, 80) : `${r.method} ${r.path} ${String(r.body ?? '').slice(0, 80)}`;
  return `${r.why}: ${sent} -> ${f.answer.status} ${f.answer.text.slice(0, 160)} (${f.problem})`;
}

/** RSS of this process, MB. */
export const rssMb = () => Math.round(process.memoryUsage().rss / 2 ** 20);
