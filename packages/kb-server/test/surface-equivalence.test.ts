// The two surfaces are one API: the same call over REST (kb-console's routes) and MCP (kb-mcp's tools) answers
// the same body. Each surface serves its own copy of one base, so that writes (ingest_text, retract_source)
// meet the same state on both; ids the engine generates for new claims are compared by their order of
// appearance. Extraction "llm" and "smart" call a local fake of an OpenAI-compatible provider (DeepSeek's wire).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { FastifyInstance } from 'fastify';
import { EXTRACTION_MODES, quickstart, type KbDB } from '@evident/kb';
import { buildConsole } from '../src/console/server.js';
import { OPERATIONS, type Operation } from '../src/operations/table.js';
import { createMcpServer } from '../src/mcp/server.js';
import { startFakeChatProvider, type FakeChatProvider } from './fake-chat-provider.js';
import { tempKb } from './helpers.js';

const restKb = tempKb('rest.kb');
const mcpKb = tempKb('mcp.kb');
let restDb: KbDB;
let mcpDb: KbDB;
let app: FastifyInstance;
let client: Client;
let fake: FakeChatProvider;
const savedEnv = { key: process.env.DEEPSEEK_API_KEY, url: process.env.DEEPSEEK_BASE_URL };

/** The fake model: the claims its prompt states, with the sentence as evidence. */
function modelAnswer(prompt: string) {
  const claims = [];
  const s = prompt.match(/Semaglutide reduces body weight[^.]*\./)?.[0];
  if (s)
    claims.push({
      subject: 'semaglutide',
      subject_type: 'drug',
      predicate: 'treats',
      object: 'obesity',
      object_type: 'disease',
      evidence: s,
      negated: false,
      hedged: false,
    });
  return { claims };
}

before(async () => {
  const db = await quickstart(restKb.path);
  const at = (source_id: string, source_type = 'literature') => ({ source_type, source_id });
  await db.ingest(['BRCA1', 'gene'], ['associated_with', 'association'], ['breast cancer', 'disease'], at('PMID:1'));
  await db.ingest(['olaparib', 'drug'], ['targets', 'pharmacology'], ['PARP1', 'protein'], at('chembl', 'database'));
  await db.ingest(['PARP1', 'protein'], ['interacts_with', 'molecular'], ['BRCA1', 'gene'], at('exp-7', 'experiment'));
  await db.ingest(['olaparib', 'drug'], ['treats', 'pharmacology'], ['breast cancer', 'disease'], at('PMID:2'));
  await db.close();
  copyFileSync(restKb.path, mcpKb.path);
  restDb = await quickstart(restKb.path);
  mcpDb = await quickstart(mcpKb.path);
  app = await buildConsole(recording(restDb));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(mcpDb).connect(serverSide);
  client = new Client({ name: 'equivalence-test', version: '1.0.0' });
  await client.connect(clientSide);
  fake = await startFakeChatProvider(modelAnswer);
  // The provider's key and address come from the server's environment, never from a request.
  process.env.DEEPSEEK_API_KEY = 'test-key';
  process.env.DEEPSEEK_BASE_URL = fake.baseUrl;
});

after(async () => {
  for (const [k, v] of [
    ['DEEPSEEK_API_KEY', savedEnv.key],
    ['DEEPSEEK_BASE_URL', savedEnv.url],
  ] as const)
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  await client?.close();
  await app?.close();
  await restDb?.close();
  await mcpDb?.close();
  await fake?.close();
  restKb.cleanup();
  mcpKb.cleanup();
});

type Answer = { ok: boolean; body: any };

/** The library methods called on the REST side since the last clear. */
const called = new Set<string>();
/** The base, each of its methods recorded in `called` when called. */
function recording(db: KbDB): KbDB {
  return new Proxy(db, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function' || typeof prop !== 'string') return v;
      return (...args: unknown[]) => {
        called.add(prop);
        return v.apply(target, args);
      };
    },
  });
}

async function rest(method: 'GET' | 'POST', url: string, payload?: object): Promise<Answer> {
  const r = await app.inject({ method, url: `/api/v1${url}`, ...(payload ? { payload } : {}) });
  return { ok: r.statusCode < 400, body: r.json() };
}

async function mcp(name: string, args: Record<string, unknown>): Promise<Answer> {
  const r = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { text: string }[];
    structuredContent?: unknown;
  };
  return { ok: !r.isError, body: r.isError ? JSON.parse(r.content[0]!.text) : r.structuredContent };
}

/** Generated claim and inquiry ids by order of first appearance (each base's process names them its own way). */
function normalise(body: unknown): unknown {
  const seen = new Map<string, string>();
  return JSON.parse(
    JSON.stringify(body).replace(/\b(clm|inq)_[0-9a-f]{32}\b/g, (id) => {
      if (!seen.has(id)) seen.set(id, `<${id.slice(0, 3)} ${seen.size}>`);
      return seen.get(id)!;
    }),
  );
}

/**
 * The same body, but for what the moment of the call decides: timestamps, elapsed times, a few ulps of
 * numbers that decay with time (freshness), and how far each base's HNSW build has got in the background
 * (embeddingsReady() waits for searchable vectors, not for that build); and the base's own file name.
 */
function assertAlike(a: unknown, b: unknown, what: string): void {
  const byMoment = new Set(['elapsed_ms', 'age_days', 'index_pending', 'index_progress']);
  const plain = (x: unknown) =>
    JSON.parse(
      JSON.stringify(normalise(x)).replaceAll(restKb.path, '<base>').replaceAll(mcpKb.path, '<base>'),
      (key, v) =>
        byMoment.has(key)
          ? 0
          : typeof v === 'number' && !Number.isInteger(v)
            ? Number(v.toPrecision(6))
            : typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(v)
              ? '<time>'
              : v,
    );
  assert.deepEqual(plain(a), plain(b), what);
}

/** Both surfaces answer alike: the same success body, or the same error code and details. */
function assertSame(r: Answer, m: Answer, what: string): void {
  assert.equal(r.ok, m.ok, `${what}: REST ${r.ok ? 'succeeded' : 'failed'}, MCP ${m.ok ? 'succeeded' : 'failed'}`);
  if (r.ok) assert.deepEqual(normalise(r.body), normalise(m.body), what);
  else {
    // The REST message adds where the mismatch is ("(in body)"); code and details are the contract.
    assert.equal(r.body.error.code, m.body.error.code, what);
    assert.deepEqual(r.body.error.details, m.body.error.details, what);
  }
}

test('find_paths and GET /paths/{a}/{b} answer the same { from, to, paths }', async () => {
  const r = await rest('GET', '/paths/olaparib/BRCA1?max_depth=3&top_k=3');
  const m = await mcp('find_paths', { from: 'olaparib', to: 'BRCA1', max_depth: 3, top_k: 3 });
  assertSame(r, m, 'find_paths');
  assert.equal(m.body.from, 'drug:olaparib');
  assert.equal(m.body.to, 'gene:brca1');
  assert.ok(m.body.paths.length >= 1);
  assert.deepEqual(Object.keys(m.body).sort(), ['from', 'paths', 'to']);
  // An entity that does not resolve is not_found on both (not an empty list, which means "not connected").
  const rMissing = await rest('GET', '/paths/olaparib/nobody');
  const mMissing = await mcp('find_paths', { from: 'olaparib', to: 'nobody' });
  assertSame(rMissing, mMissing, 'find_paths, unknown entity');
  assert.equal(mMissing.body.error.code, 'not_found');
});

test("ingest_text and POST /claims/text take every one of the library's extraction modes, and answer alike", async () => {
  assert.deepEqual([...EXTRACTION_MODES].sort(), ['heuristic', 'llm', 'smart']);
  for (const extraction of EXTRACTION_MODES) {
    const body = {
      text: `Olaparib inhibits PARP1. Semaglutide reduces body weight in adults with obesity (${extraction} cohort).`,
      source_id: `doc:${extraction}`,
      extraction,
      provider: 'deepseek',
    };
    const calls = fake.prompts.length;
    const r = await rest('POST', '/claims/text', body);
    const m = await mcp('ingest_text', body);
    assert.ok(r.ok, `REST ${extraction}: ${JSON.stringify(r.body)}`);
    assertSame(r, m, `ingest_text (${extraction})`);
    // What the mode means, seen in the stored claims: which extractor each came from, and who asked the model.
    const how = new Set<string>();
    for (const id of r.body.claim_ids)
      how.add(((await restDb.getClaim(id))!.payload as { extraction: string }).extraction);
    const asked = fake.prompts.slice(calls);
    if (extraction === 'heuristic') {
      assert.deepEqual([...how], ['heuristic']);
      assert.equal(asked.length, 0, 'heuristic extraction never calls the model');
    } else {
      assert.ok(how.has('llm'), `${extraction}: a claim from the model (${[...how]})`);
      assert.equal(asked.length, 2, `${extraction}: one model call per surface`);
      // smart sends only what the heuristic found nothing in.
      assert.equal(
        asked.every((p) => p.includes('Olaparib inhibits PARP1.')),
        extraction === 'llm',
        `${extraction}: the prompts were ${JSON.stringify(asked)}`,
      );
    }
  }
});

test('ingest_text and POST /claims/text refuse alike what the library does not take', async () => {
  const bad: [Record<string, unknown>, string, string][] = [
    [{ extraction: 'magic' }, 'invalid_parameters', '/extraction'],
    [{ extraction: { mode: 'heuristic' } }, 'invalid_parameters', '/extraction'],
    // Keys and addresses are the server's: a caller naming base_url could have it send the key elsewhere.
    [
      { extraction: 'llm', provider: { provider: 'deepseek', base_url: 'http://127.0.0.1:9/v1' } },
      'invalid_parameters',
      '/provider/base_url',
    ],
    [
      { extraction: 'llm', provider: { provider: 'deepseek', api_key: 'k' } },
      'invalid_parameters',
      '/provider/api_key',
    ],
    [{ extraction: 'llm', provider: 'nobody' }, 'unknown_provider', ''],
    [{ extraction: 'smart' }, 'no_provider', ''],
  ];
  for (const [extra, code, path] of bad) {
    const body = { text: 'Olaparib inhibits PARP1.', source_id: 'doc:bad', ...extra };
    const r = await rest('POST', '/claims/text', body);
    const m = await mcp('ingest_text', body);
    assertSame(r, m, JSON.stringify(extra));
    assert.equal(m.body.error.code, code, JSON.stringify(m.body));
    if (path)
      assert.ok(
        m.body.error.details.some((d: { path: string }) => d.path === path),
        JSON.stringify(m.body),
      );
  }
  const modes = (await rest('POST', '/claims/text', { text: 'x', extraction: 'magic' })).body.error.message;
  assert.match(modes, /must be one of "heuristic", "llm", "smart"/);
});

/** The REST request of an operation's call: the path's fields in the path, the others in the query or body. */
function restCall(op: Operation, args: Record<string, unknown>): [string, object | undefined] {
  const rest = { ...args };
  const path = op.rest.path.replace(/:([a-z_]+)/g, (_m, name: string) => {
    const v = String(rest[name]);
    delete rest[name];
    return encodeURIComponent(v);
  });
  if (op.rest.method === 'POST') return [path, rest];
  const query = new URLSearchParams(Object.entries(rest).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return [query ? `${path}?${query}` : path, undefined];
}

/** Every operation's example, with the claim it names one of the base's (both copies hold the same ids). */
async function exampleOf(op: Operation): Promise<Record<string, unknown>> {
  const args = structuredClone(op.example);
  if ('claim_id' in args) args.claim_id = (await restDb.claimsFor('gene:brca1'))[0]!.claim_id;
  return args;
}

test("every operation of the table: the library methods it names exist, and both surfaces take its input's fields", async () => {
  const doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  const { tools } = await client.listTools();
  assert.equal(tools.length, OPERATIONS.length);
  const routes = new Set<string>();
  for (const op of OPERATIONS) {
    for (const m of op.library) assert.equal(typeof restDb[m], 'function', `${op.name}: the library has ${String(m)}`);
    const fields = Object.keys(op.input.properties).sort();
    const tool = tools.find((t) => t.name === op.name);
    assert.ok(tool, `${op.name} is a tool`);
    assert.deepEqual(Object.keys(tool.inputSchema.properties ?? {}).sort(), fields, `${op.name}: MCP's fields`);
    const path = `/api/v1${op.rest.path.replace(/:([a-z_]+)/g, '{$1}')}`;
    const route = doc.paths[path]?.[op.rest.method.toLowerCase()];
    assert.ok(route, `${op.rest.method} ${path} is in the OpenAPI document`);
    routes.add(`${op.rest.method} ${path}`);
    assert.equal(route.operationId, op.name);
    const body = route.requestBody?.content['application/json'].schema;
    const restFields = [
      ...(route.parameters ?? []).map((p: { name: string }) => p.name),
      ...Object.keys(body?.properties ?? {}),
    ].sort();
    assert.deepEqual(restFields, fields, `${op.name}: REST's fields`);
    const required = (route.parameters ?? [])
      .filter((p: { required?: boolean }) => p.required)
      .map((p: { name: string }) => p.name)
      .concat(body?.required ?? [])
      .sort();
    assert.deepEqual(required, [...(tool.inputSchema.required ?? [])].sort(), `${op.name}: required fields`);
  }
  // The README's table of operations names each one with its route, and no other.
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const rows = [...readme.matchAll(/^\| `([a-z_]+)` +\| `(GET|POST) ([^`]+)` /gm)].map(
    (r) => `${r[1]} ${r[2]} ${r[3]}`,
  );
  assert.deepEqual(
    rows.sort(),
    OPERATIONS.map((op) => `${op.name} ${op.rest.method} ${op.rest.path.replace(/:([a-z_]+)/g, '{$1}')}`).sort(),
    "README.md's operations",
  );
  // And the API is the table: no route but an operation's.
  const documented = Object.entries(doc.paths).flatMap(([p, ms]) =>
    Object.keys(ms as object).map((m) => `${m.toUpperCase()} ${p}`),
  );
  assert.deepEqual(documented.sort(), [...routes].sort());
});

test('every operation answers its example alike on both surfaces, through the library methods it names', async () => {
  for (const op of OPERATIONS) {
    const args = await exampleOf(op);
    const [url, payload] = restCall(op, args);
    // What is not embedded yet is found lexically meanwhile: both bases caught up first.
    await Promise.all([restDb.embeddingsReady(), mcpDb.embeddingsReady()]);
    called.clear();
    const r = await app.inject({ method: op.rest.method, url: `/api/v1${url}`, ...(payload ? { payload } : {}) });
    const calledByRest = [...called];
    const m = await mcp(op.name, args);
    assert.ok(m.ok, `${op.name}: ${JSON.stringify(m.body)}`);
    for (const name of calledByRest)
      assert.ok((op.library as string[]).includes(name), `${op.name} calls ${name}, which it does not name`);
    assert.ok(calledByRest.length > 0, `${op.name} calls the library`);
    // The REST form of the answer, where the table gives one (POST /claims: the claim itself, 201 or 200).
    const answer = op.rest.answer
      ? (op.rest.answer as (o: unknown) => { status: number; body: unknown })(m.body)
      : { status: 200, body: m.body };
    assert.equal(r.statusCode, answer.status, `${op.name}: ${r.body}`);
    assertAlike(r.json(), answer.body, op.name);
  }
});
