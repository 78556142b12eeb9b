// The console keeps answering while the long operations of issue #37 run (points 1, 3 and 4): each hostile request
// goes to a real console over HTTP, in a process of its own (offload-console-child.ts), while a prober sends
// GET /api/v1/health every 50 ms, one at a time. Every probe must be answered 200, and the slowest within
// PROBE_BOUND_MS of the slowest of a quiet half second probed just before (this shared 2-core machine's own noise
// at that moment, which under other test processes reaches hundreds of ms). That bound is not a timing of the
// operation (some take many seconds, and they are not timed): it says that the console's thread was never held for
// long, which is what running them off the thread buys (on the thread, the same cases held it 1.9 to 4.4 s). Each
// hostile request must get its answer in the error shape (or its correct 200), and the console must answer
// queries afterwards.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type IncomingHttpHeaders, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { type ClaimInput, open } from '@evident/kb';
import {
  hasErrorShape,
  type ProbeSummary,
  processMemory,
  rng,
  type ServerProcess,
  spawnServerProcess,
  startProber,
} from '@evident/testkit';
import { tempKb } from './helpers.js';

const PROBE_BOUND_MS = 1500;
const GENES = 30_000;
const DRUGS = 2_000;

const kb = tempKb('offload.kb');
let server: ServerProcess;

const rel = (s: string, st: string, p: string, o: string, ot: string, src: string): ClaimInput => ({
  subject: [s, st],
  predicate: [p, 'association'],
  object: [o, ot],
  provenance: { source_type: 'literature', source_id: src },
});

/** The console on the test's base in a process of its own, with these off-thread settings. */
function startChild(settings: object = {}): Promise<ServerProcess> {
  return spawnServerProcess({
    name: 'kb-console',
    args: [
      '--conditions=evident-source',
      '--import',
      'tsx',
      fileURLToPath(new URL('./offload-console-child.ts', import.meta.url)),
      kb.path,
      JSON.stringify(settings),
    ],
    ready: /listening on (http:\/\/\S+)/,
  });
}

before(async () => {
  // 30,000 genes in groups of 50, each with two links, nine in ten inside its group (a fixed pseudo-random draw),
  // and 2,000 drugs each targeting a gene: about 32,000 entities and 62,000 claims, topics for Leiden to work at
  // (seconds of it), and a 2,000 x 2,000 product to ask for.
  const db = await open(kb.path, { embedding: false });
  const claims: ClaimInput[] = [];
  const random = rng(1);
  for (let i = 0; i < GENES; i++) {
    const group = Math.floor(i / 50);
    for (let k = 0; k < 2; k++) {
      const j = random() < 0.9 ? group * 50 + Math.floor(random() * 50) : Math.floor(random() * GENES);
      if (j !== i) claims.push(rel(`kinase g${i}`, 'gene', 'interacts_with', `kinase g${j}`, 'gene', `s${i % 500}`));
    }
  }
  for (let i = 0; i < DRUGS; i++)
    claims.push(rel(`inhibitor d${i}`, 'drug', 'targets', `kinase g${i * 15}`, 'gene', `t${i % 100}`));
  for (let i = 0; i < claims.length; i += 20_000) await db.ingestBatch(claims.slice(i, i + 20_000));
  await db.close();
  server = await startChild();
});

after(async () => {
  await server?.stop();
  kb.cleanup();
});

interface Answer {
  status: number;
  body: any;
  headers: IncomingHttpHeaders;
}

/**
 * One request. The prober runs in this process too, so what this client does between sending and answering must
 * not hold its thread: a body may come already as JSON text (made before the prober starts), and an answer is kept
 * as bytes (node:http, no decoding as it arrives), parsed when first read (after the prober stopped).
 */
function send(method: string, path: string, body?: unknown): Promise<Answer> {
  const u = new URL(server.url);
  const data = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const q = request(
      {
        host: u.hostname,
        port: u.port,
        method,
        path,
        agent: false,
        headers: data ? { 'content-type': 'application/json', 'content-length': data.length } : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('error', reject);
        res.on('end', () => {
          let parsed: unknown;
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            get body() {
              parsed ??= JSON.parse(Buffer.concat(chunks).toString('utf8'));
              return parsed;
            },
          });
        });
      },
    );
    q.on('error', reject);
    q.end(data);
  });
}

const query = (body: object) => send('POST', '/api/v1/query', body);

const HEALTH = { why: 'probe', method: 'GET', path: '/api/v1/health' };

/**
 * `work` while the prober runs (at least `minMs`, so that a quick refusal is probed too); every probe checked,
 * against a quiet half second probed just before.
 */
async function probed<T>(what: string, work: () => Promise<T>, minMs = 500): Promise<T> {
  const quiet = startProber(server.url, HEALTH, 50, 30_000);
  await new Promise((r) => setTimeout(r, 500));
  const baseline = await quiet.stop();
  const prober = startProber(server.url, HEALTH, 50, 30_000);
  const t0 = performance.now();
  let result: T;
  let summary: ProbeSummary;
  try {
    result = await work();
    const rest = minMs - (performance.now() - t0);
    if (rest > 0) await new Promise((r) => setTimeout(r, rest));
  } finally {
    summary = await prober.stop();
  }
  const seen = `${what}: ${summary.probes} probes, slowest ${summary.slowest_ms} ms (quiet: ${baseline.slowest_ms} ms)`;
  console.log(`${seen}, p50 ${summary.p50_ms} ms, work ${Math.round(performance.now() - t0)} ms`);
  assert.ok(summary.probes >= 2, seen);
  assert.deepEqual(summary.statuses, { 200: summary.probes }, `${what}: ${JSON.stringify(summary)}`);
  assert.ok(summary.slowest_ms < baseline.slowest_ms + PROBE_BOUND_MS, seen);
  return result!;
}

function refusal(a: Answer, status: number, code: string): void {
  assert.equal(a.status, status, JSON.stringify(a.body));
  assert.ok(hasErrorShape(a.body), JSON.stringify(a.body));
  assert.equal(a.body.error.code, code);
}

const SEARCHES = ['kinase', 'kinase interacts', 'interacts with kinase', 'kinase inhibitor', 'inhibitor targets'];

test('Cypher that runs away is stopped at its budget while the console keeps answering', async () => {
  // The first query builds the replica (an open's worth of work, on its thread).
  assert.equal((await query({ cypher: 'MATCH (n:drug) RETURN count(n) AS n' })).body.rows[0][0], DRUGS);

  const range = await probed('range count', () =>
    query({ cypher: 'UNWIND range(1, 1000000000) AS x RETURN count(x)', timeout_ms: 2000 }),
  );
  refusal(range, 408, 'cypher_timeout');

  const product = await probed('2,000² product', () =>
    query({ cypher: 'MATCH (a:drug), (b:drug) RETURN a.id, b.id', max_rows: 100_000 }),
  );
  refusal(product, 413, 'cypher_too_many_rows');

  const comprehension = await probed('comprehension over 10⁸', () =>
    query({ cypher: 'RETURN size([x IN range(1, 100000000) | x]) AS n' }),
  );
  refusal(comprehension, 413, 'cypher_list_too_large');

  const redos = await probed('backtracking regex', () =>
    query({ cypher: "RETURN 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' =~ '(a+)+$' AS m", timeout_ms: 2000 }),
  );
  assert.equal(redos.status, 200, JSON.stringify(redos.body));
  assert.deepEqual(redos.body.rows, [[false]]);

  assert.deepEqual(
    (await query({ cypher: "MATCH (d:drug {id: 'drug:inhibitor d7'})-[r]->(g) RETURN g.name" })).body.rows,
    [['kinase g105']],
  );
});

test('a query past the thread heap cap is stopped (413), its memory given back, and the next query answers', async () => {
  const capped = await startChild({ heap_mb: 128 });
  const main = server;
  server = capped;
  try {
    assert.equal((await query({ cypher: 'MATCH (n:drug) RETURN count(n) AS n' })).body.rows[0][0], DRUGS);
    const before = processMemory(capped.pid)!;
    // Under the engine's own memory estimate (256 MiB), over the thread's 128 MB of heap: the cap stops it.
    const big =
      "UNWIND range(1, 900000) AS x WITH collect(toString(x) + 'abcdefghijklmnopqrstuvwxyz') AS l, " +
      "collect(toString(x) + 'zyxwvutsrqponmlkjihgfedcba') AS m RETURN size(l) + size(m)";
    const a = await probed('heap cap', () => query({ cypher: big, timeout_ms: 120_000 }));
    refusal(a, 413, 'cypher_memory_limit');
    assert.equal(a.body.error.details[0].path, '/cypher');
    await new Promise((r) => setTimeout(r, 500));
    const afterStop = processMemory(capped.pid)!;
    const seen = `rss ${before.rss_mb} MB, peak ${afterStop.peak_rss_mb} MB, then ${afterStop.rss_mb} MB`;
    assert.ok(afterStop.peak_rss_mb - before.rss_mb > 60, `the thread's heap grew: ${seen}`);
    assert.ok(afterStop.rss_mb < afterStop.peak_rss_mb - 60, `given back: ${seen}`);
    assert.equal((await query({ cypher: 'MATCH (n:drug) RETURN count(n) AS n' })).body.rows[0][0], DRUGS);
    assert.ok(capped.alive());
  } finally {
    server = main;
    await capped.stop();
  }
});

test('topology on ~30,000 entities is computed off the thread; concurrent computes beyond the queue get 429', async () => {
  const entities = (await query({ cypher: 'MATCH (n) RETURN count(n) AS n' })).body.rows[0][0];
  assert.ok(entities > GENES, String(entities));
  const t = await probed('default compute', () => send('POST', '/api/v1/topology/compute', {}));
  assert.equal(t.status, 200, JSON.stringify(t.body).slice(0, 300));
  assert.equal(t.body.entity_count, entities);
  assert.ok(t.body.levels[0].topic_count > 1);

  const eight = await probed('8 concurrent computes', () =>
    Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        send('POST', '/api/v1/topology/compute', { seed: i, n_iterations: 1, restarts: 1, levels: 1 }),
      ),
    ),
  );
  const statuses = eight.map((a) => a.status).sort();
  assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429, 429, 429], JSON.stringify(eight.map((a) => a.body.error)));
  for (const a of eight.filter((x) => x.status === 429)) {
    refusal(a, 429, 'busy');
    assert.ok(Number(a.headers['retry-after']) >= 1, String(a.headers['retry-after']));
  }
});

test('40 concurrent searches with k=1000 and 6 concurrent what-ifs of 10,000 claims leave the console answering', async () => {
  const searches = await probed('search k=1000 x40', () =>
    Promise.all(
      // Words held by thousands of facts: each search ranks a thousand hits (a rare word would find a few).
      Array.from({ length: 40 }, (_, i) =>
        send('GET', `/api/v1/search?query=${encodeURIComponent(SEARCHES[i % SEARCHES.length]!)}&k=1000`),
      ),
    ),
  );
  for (const s of searches) {
    assert.equal(s.status, 200, JSON.stringify(s.body).slice(0, 200));
    assert.equal(s.body.results.length, 1000);
  }

  const add = (w: number) =>
    Array.from({ length: 10_000 }, (_, i) => ({
      subject: [`hypothetical h${w}-${i}`, 'gene'],
      predicate: ['interacts_with', 'association'],
      object: [`kinase g${i}`, 'gene'],
      source_type: 'literature',
      source_id: `what-if ${w}`,
    }));
  // One small what-if first: the route's code is then compiled, as on a console that has served one before.
  assert.equal((await send('POST', '/api/v1/insights/what-if', { add_claims: add(9).slice(0, 1) })).status, 200);
  const bodies = Array.from({ length: 6 }, (_, w) =>
    JSON.stringify({
      add_claims: add(w),
      hypothesis: { subject: `hypothetical h${w}-0`, predicate: 'interacts_with', object: 'kinase g0' },
    }),
  );
  const whatIfs = await probed('what-if of 10,000 claims x6', () =>
    Promise.all(bodies.map((b) => send('POST', '/api/v1/insights/what-if', b))),
  );
  for (const w of whatIfs) {
    assert.equal(w.status, 200, JSON.stringify(w.body).slice(0, 300));
    assert.equal(w.body.after.claim_count, w.body.before.claim_count + 10_000);
    assert.equal(w.body.hypothesis.verdict, 'supported');
  }
  // Bounds name their field; nothing was written.
  const tooMany = await send('POST', '/api/v1/insights/what-if', { add_claims: [...add(0), ...add(1).slice(0, 1)] });
  refusal(tooMany, 400, 'invalid_parameters');
  assert.equal(tooMany.body.error.details[0].path, '/add_claims');
  const k = await send('GET', '/api/v1/search?query=kinase&k=1001');
  refusal(k, 400, 'invalid_parameters');
  assert.equal(k.body.error.details[0].path, '/k');
  assert.equal(
    (await query({ cypher: "MATCH (n) WHERE n.name STARTS WITH 'hypothetical' RETURN count(n)" })).body.rows[0][0],
    0,
  );
});
