// kb-mcp stops within a bound on a busy base: the real bin (sources, through tsx) over a base of 20,000 claims
// opened without its vectors (the search embedder catches up in the background), while another connection
// holds the base's write lock, as a second process writing to it would, and a dozen writes are waiting. Each
// of those writes waits the store's 5 s busy timeout, fails and rebuilds the index; kb-mcp used to run every
// one of them before it exited (about 8 s each here) and ignored every signal after the first.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { rmSync } from 'node:fs';
import { repoRoot } from '@evident/testkit';
import { quickstart, type ClaimInput } from '@evident/kb';
import { holdWriteLock, tempKb } from './helpers.js';

const BIN = ['--conditions=evident-source', '--import', 'tsx', 'packages/kb-server/src/bin/kb-mcp.ts'];
const kb = tempKb('busy.kb');
const WRITES = 12;

before(async () => {
  const db = await quickstart(kb.path);
  const claims: ClaimInput[] = [];
  for (let i = 0; i < 20_000; i++)
    claims.push({
      subject: [`gene${i}`, 'gene'],
      predicate: ['associated_with', 'association'],
      object: [`disease${i % 997} syndrome ${i % 13}`, 'disease'],
      provenance: { source_type: 'literature', source_id: `PMID:${i}` },
    });
  await db.ingestBatch(claims);
  await db.close();
});

after(() => kb.cleanup());

interface Running {
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  /** Resolves with [status, signal, ms since `since()` was last called] when it exits, or null after `ms`. */
  exitWithin(ms: number): Promise<{ code: number | null; signal: string | null; ms: number } | null>;
  mark(): void;
  release(): void;
}

/** kb-mcp on the busy base, the lock held, WRITES ingest_claim calls sent and the first one answered. */
async function startStalled(t: { after(fn: () => unknown): void }): Promise<Running> {
  rmSync(`${kb.path}.vectors`, { recursive: true, force: true }); // the embedder starts from scratch
  const child = spawn(process.execPath, BIN, {
    cwd: repoRoot,
    env: { ...process.env, KB_DB_PATH: kb.path, EVIDENT_SHUTDOWN_TIMEOUT_MS: '60000' },
  });
  let err = '';
  let out = '';
  child.stderr.on('data', (d) => (err += String(d)));
  child.stdout.on('data', (d) => (out += String(d)));
  let exit: { code: number | null; signal: string | null; at: number } | undefined;
  const exited = new Promise<void>((r) =>
    child.on('exit', (code, signal) => {
      exit = { code, signal, at: Date.now() };
      r();
    }),
  );
  let lock: { release(): void } | undefined;
  const release = () => {
    lock?.release();
    lock = undefined;
  };
  t.after(async () => {
    release();
    if (!exit) child.kill('SIGKILL');
    await exited;
  });
  const until = async (what: string, ok: () => boolean) => {
    for (let i = 0; !ok(); i++) {
      if (exit) throw new Error(`kb-mcp exited before ${what}: ${err}`);
      if (i > 1200) throw new Error(`no ${what} within 120 s: ${err}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  await until('serving', () => /serving/.test(err));
  lock = holdWriteLock(kb.path);
  const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'shutdown-test', version: '1' } },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  for (let i = 0; i < WRITES; i++)
    send({
      jsonrpc: '2.0',
      id: 100 + i,
      method: 'tools/call',
      params: {
        name: 'ingest_claim',
        arguments: {
          subject: [`X${i}`, 'gene'],
          predicate: ['associated_with', 'association'],
          object: [`Y${i}`, 'disease'],
          source_type: 'literature',
          source_id: `stalled-${i}`,
        },
      },
    });
  // The first write has waited out the lock and failed: the rest are waiting their turn.
  await until('answer to the first write', () => out.includes('"id":100'));
  assert.match(out, /database is locked/, 'the writes are stalled by the lock');
  let since = Date.now();
  return {
    child,
    stderr: () => err,
    mark: () => (since = Date.now()),
    release,
    async exitWithin(ms) {
      const timer = new Promise<void>((r) => setTimeout(r, ms).unref());
      await Promise.race([exited, timer]);
      return exit ? { code: exit.code, signal: exit.signal, ms: exit.at - since } : null;
    },
  };
}

test('stdin closed while writes wait on a locked base: kb-mcp finishes the write under way and exits 0', async (t) => {
  const r = await startStalled(t);
  r.mark();
  r.child.stdin.end();
  const exit = await r.exitWithin(45_000);
  assert.ok(exit, `kb-mcp still running 45 s after stdin closed; stderr:\n${r.stderr()}`);
  t.diagnostic(`exited ${exit.ms} ms after stdin closed, status ${exit.code}`);
  assert.equal(exit.code, 0, r.stderr());
  assert.match(r.stderr(), /kb-mcp: stopping \(stdin closed\)/);
  assert.doesNotMatch(r.stderr(), /exiting anyway/, 'closed within the deadline: the writes not started were not run');
});

test('SIGTERM twice while writes wait on a locked base: kb-mcp exits at the latest on the second', async (t) => {
  const r = await startStalled(t);
  r.child.kill('SIGTERM');
  for (let i = 0; i < 300 && !/stopping \(SIGTERM\)/.test(r.stderr()); i++)
    await new Promise((res) => setTimeout(res, 50));
  assert.match(r.stderr(), /kb-mcp: stopping \(SIGTERM\)/);
  r.mark();
  r.child.kill('SIGTERM');
  const exit = await r.exitWithin(15_000);
  assert.ok(exit, `kb-mcp still running 15 s after a second SIGTERM; stderr:\n${r.stderr()}`);
  t.diagnostic(`exited ${exit.ms} ms after the second SIGTERM, status ${exit.code}`);
  // Either the second signal ended it (status 143, said on stderr) or the close had just finished (status 0).
  if (exit.code === 143) assert.match(r.stderr(), /kb-mcp: SIGTERM again; exiting now/);
  else assert.equal(exit.code, 0, r.stderr());
});
