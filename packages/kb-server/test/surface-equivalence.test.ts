// The two surfaces are one API: the same call over REST (kb-console's routes) and MCP (kb-mcp's tools) answers
// the same body. Each surface serves its own copy of one base, so that writes (ingest_text, retract_source)
// meet the same state on both; ids the engine generates for new claims are compared by their order of
// appearance. Extraction "llm" and "smart" call a local fake of an OpenAI-compatible provider (DeepSeek's wire).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { FastifyInstance } from 'fastify';
import { EXTRACTION_MODES, quickstart, type KbDB } from '@evident/kb';
import { buildConsole } from '../src/console/server.js';
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
  app = await buildConsole(restDb);
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

test('further calls answer alike on both surfaces', async () => {
  const pairs: [string, 'GET' | 'POST', string, object | undefined, string, Record<string, unknown>][] = [
    ['get_entity', 'GET', '/entities/BRCA1', undefined, 'get_entity', { entity: 'BRCA1' }],
    [
      'query_entity',
      'GET',
      '/entities/olaparib/context?depth=2',
      undefined,
      'query_entity',
      { entity: 'olaparib', depth: 2 },
    ],
    ['find_bridges', 'GET', '/insights/bridges?top_k=5', undefined, 'find_bridges', { top_k: 5 }],
    ['quality_report', 'GET', '/quality', undefined, 'quality_report', {}],
    ['get_entity, unknown', 'GET', '/entities/nobody', undefined, 'get_entity', { entity: 'nobody' }],
  ];
  for (const [what, method, url, payload, tool, args] of pairs)
    assertSame(await rest(method, url, payload), await mcp(tool, args), what);
  const claim = (await restDb.claimsFor('gene:brca1'))[0]!.claim_id;
  assertSame(
    await rest('GET', `/claims/${claim}/downstream`),
    await mcp('trace_downstream', { claim_id: claim }),
    'trace_downstream',
  );
  const retract = { source_id: 'PMID:2', reason: 'withdrawn', cascade: true };
  assertSame(await rest('POST', '/retract', retract), await mcp('retract_source', retract), 'retract_source');
});
