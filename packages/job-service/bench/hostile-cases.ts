// The job API's hostile cases: issue #37's reproductions (points 6, 7 and 8) against a server as users run it,
// with the key `key`. Sizes are the at scale 1; the bench's HOSTILE_SCALE shrinks the large ones for
// development.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Exchange, type HostileCase, type HostileRequest, sleep } from '@evident/testkit';
import { jobApiRequests } from '../test/fuzz-cases.js';
import { SMALL_TD_REQUEST, tdMatrixRequest } from './bodies.js';

export interface JobApiSizes {
  /** Multiplies the large sizes (1: the issue's). */
  scale: number;
  key: string;
  /** The fuzz's seed (the fuzz bench's default: 2026). */
  seed: number;
  /** How long the jobs of the last case may take, ms. */
  jobTimeoutMs: number;
}

const MiB = 1024 * 1024;
const TD = '/v1/targets/discover';

/** The parts of a JSON body in one buffer (bodies of tens of MB are built without one giant string). */
const bodyOf = (parts: string[]) => Buffer.concat(parts.map((p) => Buffer.from(p, 'latin1')));

/** SMALL_TD_REQUEST's fields, with the last member `extra` (`"name":value`) written as given. */
function tdBodyWith(extra: string[]): Buffer {
  const head = JSON.stringify(SMALL_TD_REQUEST).slice(0, -1);
  return bodyOf([head, ',', ...extra, '}']);
}

/** `"options":{"k0":0,…}` with `keys` keys, in chunks. */
function manyKeys(keys: number): string[] {
  const parts = ['"options":{'];
  for (let from = 0; from < keys; from += 100_000) {
    const chunk: string[] = [];
    for (let i = from; i < Math.min(keys, from + 100_000); i++) chunk.push(`"k${i.toString(36)}":0`);
    parts.push((from ? ',' : '') + chunk.join(','));
  }
  parts.push('}');
  return parts;
}

/** A valid target-discovery body of about `bytes`, its expression matrix written with \\u00XX escapes only. */
function escapedMatrixBody(bytes: number): Buffer {
  const req = tdMatrixRequest(Math.floor(bytes / 6));
  const { expression_matrix, ...rest } = req;
  const hex = (c: number) => `\\u00${c.toString(16).padStart(2, '0')}`;
  const table = Array.from({ length: 128 }, (_, c) => hex(c));
  const escaped = Buffer.alloc(expression_matrix.length * 6);
  for (let i = 0; i < expression_matrix.length; i++)
    escaped.write(table[expression_matrix.charCodeAt(i)]!, i * 6, 'latin1');
  return Buffer.concat([
    Buffer.from(`${JSON.stringify(rest).slice(0, -1)},"expression_matrix":"`),
    escaped,
    Buffer.from('"}'),
  ]);
}

const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

export function jobApiCases(s: JobApiSizes): HostileCase[] {
  const n = (x: number) => Math.max(1, Math.round(x * s.scale));
  const auth = { authorization: `Bearer ${s.key}` };
  const json = { 'content-type': 'application/json' };
  const post = (why: string, path: string, body: string | Buffer, over: Partial<HostileRequest> = {}) =>
    ({ why, method: 'POST', path, headers: { ...auth, ...json }, body, ...over }) as HostileRequest;
  const raw = (why: string, text: string): HostileRequest => ({
    why,
    method: 'RAW',
    path: '',
    raw: text,
    waitMs: 10_000,
  });
  // Under 1 MiB: parsed on the event loop as an inline body.
  const arrays = nestedArrays(Math.floor((MiB - 64) / 2));
  const objects = nestedObjects(Math.floor((MiB - 64) / 6));
  // The large bodies are built here, before any case runs: built inside a case, the bench's own thread was busy
  // for seconds making them (7.9M keys, 95 MB of escapes) while a probe was in flight, and that probe's answer,
  // read late, counted as the server's stall (20.5 s and 10.8 s on a loaded machine).
  const manyKeysBody = tdBodyWith(manyKeys(n(7_900_000)));
  const escapedBody = escapedMatrixBody(n(95 * MiB));
  // The fuzz's requests too: generating 2,150 of them (about 90 bodies of 1-2 MiB) inside the case kept the bench's
  // thread busy 6-10 s on a loaded machine while the first probe was in flight; that probe, read late, was the
  // 9.9 s "slowest probe" of the fuzz case (the server's loop was free: measured with a lag monitor in it).
  const fuzzRequests = jobApiRequests(n(2150), s.seed, { key: s.key, bodyLimit: MiB }).map((r) =>
    r.path === '/v1/demo/run' ? { ...r, path: TD } : r,
  );
  const cgStructure = readFileSync(
    fileURLToPath(new URL('../../protein-structure/test/fixtures/2src.pdb', import.meta.url)),
  ).toString('base64');

  return [
    {
      name: 'deeply nested JSON under 1 MiB on a known route, on an unknown route and without a key',
      run: async (c) => ({
        exchanges: await c.sendAll([
          post('nested arrays, known route', TD, arrays),
          post('nested objects, known route', TD, objects),
          post('nested arrays, unknown route', '/v1/nope', arrays),
          post('nested arrays, no key', TD, arrays, { headers: json }),
        ]),
      }),
    },
    {
      name: `options with ${(n(7_900_000) / 1e6).toFixed(2)}M keys`,
      run: async (c) => ({ exchanges: [await c.send(post('options keys', TD, manyKeysBody))] }),
    },
    {
      // Valid (202): the job is cancelled once accepted, so that its run does not load the cases after it.
      name: `a matrix written with \\u0041 escapes (${Math.round(n(95 * MiB) / MiB)} MB body) while small requests run`,
      run: async (c) => {
        const sub = await c.send(post('escaped matrix', TD, escapedBody, { mayPass: true }));
        const out = [sub];
        if (sub.answer.status === 202) {
          const id = (JSON.parse(sub.answer.text) as { job_id: string }).job_id;
          out.push(
            await c.send({ why: 'cancel', method: 'DELETE', path: `/v1/jobs/${id}`, headers: auth, mayPass: true }),
          );
        }
        return { exchanges: out };
      },
    },
    {
      name: 'CONNECT',
      run: async (c) => ({
        exchanges: [await c.send(raw('CONNECT', 'CONNECT 127.0.0.1:9 HTTP/1.1\r\nHost: 127.0.0.1:9\r\n\r\n'))],
      }),
    },
    {
      name: 'Expect: bogus',
      run: async (c) => ({
        exchanges: [
          await c.send(
            raw(
              'Expect: bogus',
              `POST ${TD} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${s.key}\r\n` +
                'Content-Type: application/json\r\nExpect: bogus\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
            ),
          ),
        ],
      }),
    },
    {
      // The fuzz bench's generators. Their /v1/demo/run requests go to /v1/targets/discover: the demo kind is a
      // test fixture, absent from a server as users run it (where they would all be 404 before their body is
      // read). Oversize bodies are 1-2 MiB (under the default 100 MB limit: read and refused as JSON), and no
      // stalled bodies (they wait for the 120 s request timeout).
      name: `the fuzz bench's ${n(2150).toLocaleString('en')} seeded requests, then RSS 60 s after`,
      run: async (c) => {
        const exchanges = await c.sendAll(fuzzRequests, 25);
        await c.settle();
        return { exchanges };
      },
    },
    {
      // The last case: the bench's final reading, 60 s after, is the RSS after one job of each kind.
      name: 'one job of each kind (target discovery; compound generation docking into 2SRC), then RSS 60 s after',
      run: async (c) => {
        const small = {
          seed: 5,
          max_evaluations: 300,
          population_size: 30,
          docking_exhaustiveness: 1,
          docking_budget: 10,
        };
        const bodies = {
          td: JSON.stringify(SMALL_TD_REQUEST),
          cg: JSON.stringify({
            target_uniprot: 'P12931',
            binding_site: { residues: ['K297', 'T340', 'M343'] },
            structure: cgStructure,
            num_molecules: 3,
            options: small,
          }),
        };
        const exchanges: Exchange[] = [];
        const jobs: Record<string, string> = {};
        for (const [kind, path] of [
          ['td', TD],
          ['cg', '/v1/compounds/generate'],
        ] as const) {
          const sub = await c.send(post(`${kind} job`, path, bodies[kind], { mayPass: true }));
          exchanges.push(sub);
          jobs[kind] = sub.answer.status === 202 ? (JSON.parse(sub.answer.text) as { job_id: string }).job_id : '';
        }
        const final: Record<string, string> = {};
        const until = performance.now() + s.jobTimeoutMs;
        for (const [kind, id] of Object.entries(jobs)) {
          if (!id) {
            final[kind] = 'not accepted';
            continue;
          }
          for (;;) {
            const x = await c.send({
              why: 'job status',
              method: 'GET',
              path: `/v1/jobs/${id}`,
              headers: auth,
              mayPass: true,
            });
            const status = x.answer.status === 200 ? (JSON.parse(x.answer.text) as { status: string }).status : '';
            if (
              ['completed', 'failed', 'cancelled'].includes(status) ||
              performance.now() > until ||
              x.answer.status !== 200
            ) {
              exchanges.push(x);
              final[kind] = status || `answered ${x.answer.status}`;
              break;
            }
            await sleep(1000);
          }
        }
        return { exchanges, extra: { jobs: final } };
      },
    },
  ];
}
