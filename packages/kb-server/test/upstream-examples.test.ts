// Issue #14: the upstream's two examples, verbatim in content, over REST (kb-console) and MCP (kb-mcp) on a
// base opened as the servers open it (quickstart: bio registered). Non-strict by default: stored, with
// warnings; `--strict` / KB_STRICT=1 refuse as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { repoRoot } from '@evident/testkit';
import { quickstart } from '@evident/kb';
import { buildConsole } from '../src/console/server.js';
import { tempKb } from './helpers.js';

// The upstream quick-start and its devops example, as wire claims.
const QUICKSTART = {
  subject: ['BRCA1', 'gene'],
  predicate: ['associated_with', 'relates_to'],
  object: ['Breast Cancer', 'disease'],
  source_type: 'literature_extraction',
  source_id: 'PMID:12345',
  confidence: 0.9,
};
const DEVOPS = {
  subject: ['api-gateway', 'service'],
  predicate: ['depends_on', 'depends_on'],
  object: ['redis', 'service'],
  provenance: { source_type: 'config_management', source_id: 'cfg:gateway' },
};
const codes = (ws: { code: string; field: string }[]) => ws.map((w) => `${w.code}@${w.field}`).sort();

test('REST: the upstream examples are stored with warnings; nested provenance; text without source_id', async (t) => {
  const kb = tempKb();
  const db = await quickstart(kb.path);
  const app = await buildConsole(db);
  t.after(async () => {
    await app.close();
    await db.close();
    kb.cleanup();
  });
  const post = async (url: string, payload: object) => {
    const r = await app.inject({ method: 'POST', url: `/api/v1${url}`, payload });
    return { status: r.statusCode, body: r.json() };
  };
  const first = await post('/claims', QUICKSTART);
  assert.equal(first.status, 201, JSON.stringify(first.body));
  assert.equal(first.body.confidence, 0.9);
  assert.deepEqual(codes(first.body.warnings), ['predicate_class@predicate[1]']);
  // The library's nested provenance is the same claim: a duplicate.
  const { source_type, source_id, ...rest } = QUICKSTART;
  const nested = await post('/claims', { ...rest, provenance: { source_type, source_id } });
  assert.equal(nested.status, 200, JSON.stringify(nested.body));
  assert.equal(nested.body.claim_id, first.body.claim_id);
  const devops = await post('/claims', DEVOPS);
  assert.equal(devops.status, 201, JSON.stringify(devops.body));
  assert.deepEqual(codes(devops.body.warnings), ['unknown_type@object[1]', 'unknown_type@subject[1]']);
  const conflict = await post('/claims', { ...DEVOPS, source_id: 'other' });
  assert.equal(conflict.status, 400);
  assert.equal(conflict.body.error.code, 'conflicting_values');
  assert.equal(conflict.body.error.details[0].path, '/source_id');
  const missing = await post('/claims', { subject: ['a', 'gene'], predicate: ['x', 'y'], object: ['b', 'gene'] });
  assert.equal(missing.status, 400);
  assert.match(missing.body.error.details[0].path, /^\/source_(id|type)$/);

  const batch = await post('/claims/batch', { claims: [DEVOPS, { ...QUICKSTART, source_id: 'PMID:2' }] });
  assert.equal(batch.status, 200);
  assert.deepEqual(
    batch.body.warnings.map((w: { index: number; code: string }) => `${w.index}:${w.code}`),
    ['0:unknown_type', '0:unknown_type', '1:predicate_class'],
  );
  const text = await post('/claims/text', { text: 'TP53 is associated with Li-Fraumeni syndrome.' });
  assert.equal(text.status, 200, JSON.stringify(text.body));
  assert.equal(text.body.ingested, 1);
  assert.match(text.body.source_ids[0], /^text:[0-9a-f]{16}$/);
  const quality = await app.inject({ method: 'GET', url: '/api/v1/quality' });
  assert.deepEqual(quality.json().vocabulary_warnings.by_code, { predicate_class: 2, unknown_type: 2 });
});

test('REST: kb-console --strict refuses the quick-start claim as before', async (t) => {
  const kb = tempKb();
  t.after(kb.cleanup);
  const child = spawn(
    process.execPath,
    [
      '--conditions=evident-source',
      '--import',
      'tsx',
      'packages/kb-server/src/bin/kb-console.ts',
      '--db',
      kb.path,
      '--port',
      '0',
      '--strict',
    ],
    { cwd: repoRoot, env: { ...process.env, LOG_LEVEL: 'warn', KB_CONSOLE_TOKEN: '' } },
  );
  let err = '';
  child.stderr.on('data', (d) => (err += String(d)));
  try {
    for (const end = Date.now() + 60_000; !/ at http/.test(err) && child.exitCode === null && Date.now() < end; )
      await new Promise((r) => setTimeout(r, 50));
    const m = /at (http:\/\/[\d.]+:\d+)\//.exec(err);
    assert.ok(m, `started: ${err}`);
    const res = await fetch(`${m[1]}/api/v1/claims`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(QUICKSTART),
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { code: string; details: { path: string }[] } };
    assert.equal(body.error.code, 'predicate_class');
    assert.equal(body.error.details[0]!.path, '/predicate/1');
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
  }
});

async function mcpClient(path: string, env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--conditions=evident-source', '--import', 'tsx', 'packages/kb-server/src/bin/kb-mcp.ts'],
    cwd: repoRoot,
    env: { ...(process.env as Record<string, string>), KB_DB_PATH: path, ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'upstream-examples', version: '1.0.0' });
  await client.connect(transport);
  return client;
}
type ToolResult = { isError?: boolean; content: { text?: string }[]; structuredContent?: any };

test('MCP: the upstream examples through ingest_claim (flat and nested provenance); KB_STRICT=1 refuses', async (t) => {
  const kb = tempKb();
  t.after(kb.cleanup);
  const client = await mcpClient(kb.path);
  t.after(() => client.close());
  const call = async (name: string, args: object) =>
    (await client.callTool({ name, arguments: args as Record<string, unknown> })) as ToolResult;
  const first = await call('ingest_claim', QUICKSTART);
  assert.ok(!first.isError, first.content[0]?.text);
  assert.equal(first.structuredContent.duplicate, false);
  assert.deepEqual(codes(first.structuredContent.warnings), ['predicate_class@predicate[1]']);
  const devops = await call('ingest_claim', DEVOPS);
  assert.ok(!devops.isError, devops.content[0]?.text);
  assert.deepEqual(devops.structuredContent.claim.provenance, DEVOPS.provenance);
  assert.equal(devops.structuredContent.warnings.length, 2);
  const text = await call('ingest_text', { text: 'TP53 is associated with Li-Fraumeni syndrome.' });
  assert.ok(!text.isError, text.content[0]?.text);
  assert.equal(text.structuredContent.ingested, 1);
  const quality = await call('quality_report', {});
  assert.equal(quality.structuredContent.vocabulary_warnings.claims, 2);
  await client.close();

  const strict = await mcpClient(kb.path, { KB_STRICT: '1' });
  t.after(() => strict.close());
  const refused = (await strict.callTool({
    name: 'ingest_claim',
    arguments: { ...QUICKSTART, source_id: 'PMID:777' },
  })) as ToolResult;
  assert.equal(refused.isError, true);
  assert.equal(JSON.parse(refused.content[0]!.text!).error.code, 'predicate_class');
});
