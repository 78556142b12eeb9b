// Several OS processes on one PostgreSQL base: each sees the others' writes, duplicate detection and
// corroboration hold across processes, concurrent batch streams lose nothing; and kill -9 of a writer in the
// middle of a stream of ingestBatch calls leaves every returned batch whole and no batch half-written.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createTempDatabase, probePostgres, type TempDatabase } from '@evident/testkit';
import { open, type ClaimInput } from '../src/index.js';
import { assertSurvivedCrash, claim } from './helpers.js';

const probe = await probePostgres();
const peerScript = fileURLToPath(new URL('./fixtures/postgres-peer.ts', import.meta.url));
const writerScript = fileURLToPath(new URL('./fixtures/batch-writer.ts', import.meta.url));
const nodeArgs = ['--conditions=evident-source', '--import', 'tsx'];

/** A child process running postgres-peer.ts, driven by request/response over stdio. */
class Peer {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<number, { resolve(v: any): void; reject(e: Error): void }>();
  private nextId = 0;
  private stderr = '';
  readonly events: { event: string; data: any }[] = [];
  readonly ready: Promise<void>;

  constructor(url: string) {
    this.child = spawn(process.execPath, [...nodeArgs, peerScript, url], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr!.on('data', (d) => (this.stderr += d));
    let buf = '';
    let ready!: () => void;
    this.ready = new Promise((r) => (ready = r));
    this.child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const msg = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (msg.ready) ready();
        else if (msg.event) this.events.push(msg);
        else {
          const w = this.waiting.get(msg.id)!;
          this.waiting.delete(msg.id);
          if (msg.error) w.reject(Object.assign(new Error(`${msg.error.name}: ${msg.error.message}`), msg.error));
          else w.resolve(msg.result);
        }
      }
    });
    this.child.on('exit', (code) => {
      for (const w of this.waiting.values()) w.reject(new Error(`peer exited (${code}): ${this.stderr}`));
      this.waiting.clear();
    });
  }

  call<T = any>(op: string, ...args: unknown[]): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.stdin!.write(`${JSON.stringify({ id, op, args })}\n`);
    });
  }

  async close(): Promise<void> {
    const exited = new Promise((r) => this.child.once('exit', r));
    await this.call('close').catch(() => undefined);
    await exited;
  }
}

describe('several processes on one PostgreSQL base', { skip: probe.skip }, () => {
  let db: TempDatabase;
  let admin: pg.Client;
  let n = 0;
  async function freshUrl(): Promise<string> {
    const schema = `p${++n}`;
    await admin.query(`CREATE SCHEMA ${schema}`);
    const u = new URL(db.url);
    u.searchParams.set('options', `-c search_path=${schema}`);
    return u.toString();
  }
  before(async () => {
    db = await createTempDatabase('kb_procs');
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  });
  after(async () => {
    await admin?.end();
    await db?.drop();
  });

  test("two processes see each other's writes; duplicates, corroboration and concurrent batches hold across them", {
    timeout: 180_000,
  }, async () => {
    const url = await freshUrl();
    const p1 = new Peer(url);
    const p2 = new Peer(url);
    try {
      await Promise.all([p1.ready, p2.ready]);
      const F = [
        ['MYC', 'gene'],
        ['associated_with', 'association'],
        ['burkitt lymphoma', 'disease'],
      ] as const;
      const id1 = await p1.call<string>('ingest', ...F, { source_type: 'literature', source_id: 'pmid:7' });
      // p2 reads what p1 committed, without any explicit refresh.
      const frame = await p2.call('query', 'myc');
      assert.equal(frame.claim_count, 1);
      assert.deepEqual(frame.direct_relationships[0].claim_ids, [id1]);
      // The same fact from another source, in the other process: a corroboration of p1's claim.
      const id2 = await p2.call<string>('ingest', ...F, { source_type: 'database', source_id: 'db:cosmic' });
      assert.notEqual(id2, id1);
      assert.deepEqual(
        p2.events.map((e) => [e.event, e.data.count]),
        [['claim_corroborated', 2]],
      );
      // The same fact from p2's source, sent through p1: a duplicate that returns p2's claim id.
      const dup = await p1.call('ingestBatch', [
        {
          subject: F[0],
          predicate: F[1],
          object: F[2],
          provenance: { source_type: 'database', source_id: 'db:cosmic' },
        },
      ]);
      assert.deepEqual([dup.ingested, dup.duplicates, dup.claim_ids[0]], [0, 1, id2]);
      const rel = (await p1.call('query', 'MYC')).direct_relationships[0];
      assert.equal(rel.source_count, 2);

      // Both processes stream batches at the same time; 40 of each batch's 100 claims are stated by both
      // (same fact, same source), so exactly one of the two may store each of them.
      const BATCHES = 15;
      const mk = (who: string) =>
        Array.from({ length: BATCHES }, (_, i): ClaimInput[] => [
          ...Array.from({ length: 60 }, (_, k) =>
            claim(`${who}${i}_${k}`, 'gene', 'associated_with', `D${k % 11}`, 'disease', `src-${who}`),
          ),
          ...Array.from({ length: 40 }, (_, k) =>
            claim(`S${i}_${k}`, 'gene', 'associated_with', `D${k % 11}`, 'disease', 'src-shared'),
          ),
        ]);
      const [r1, r2] = await Promise.all([p1.call('stream', mk('A')), p2.call('stream', mk('B'))]);
      const expected = 2 + BATCHES * 120 + BATCHES * 40;
      assert.equal(r1.ingested + r2.ingested, BATCHES * 160);
      assert.equal(r1.duplicates + r2.duplicates, BATCHES * 40);
      for (const p of [p1, p2]) assert.equal((await p.call('stats')).total_claims, expected);
      // A third reader (this process) rebuilt from the log agrees, and each shared fact is stored once.
      await using mine = await open(url);
      assert.equal((await mine.stats()).total_claims, expected);
      for (const name of ['S0_0', 'S7_13', 'S14_39']) assert.equal((await mine.claimsFor(name)).length, 1, name);
      // A retraction in one process is seen by the other.
      await p1.call('retract', 'src-shared', 'bad batch');
      assert.equal((await p2.call('stats')).claim_count, expected - BATCHES * 40);
    } finally {
      await Promise.all([p1.close(), p2.close()]);
    }
  });

  test('kill -9 during a stream of ingestBatch calls: every returned batch is present, none is half-present', {
    timeout: 180_000,
  }, async () => {
    const PER_BATCH = 500;
    for (const [round, afterBatches, delay] of [
      [0, 3, 0],
      [1, 5, 9],
      [2, 7, 31],
    ] as const) {
      const url = await freshUrl();
      const done = await runAndKill(url, PER_BATCH, afterBatches, delay);
      assert.ok(done.length >= afterBatches, `writer printed ${done.length} batches`);
      // The killed session's lock and transaction are gone: the base is whole and writable at once.
      await using kb = await open(url);
      await assertSurvivedCrash(kb, done, PER_BATCH, round);
    }
  });
});

/** Runs the durability writer against `url`; SIGKILLs it `delayMs` after `afterBatches` batches returned. */
function runAndKill(url: string, perBatch: number, afterBatches: number, delayMs: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, writerScript, url, String(perBatch)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const done: number[] = [];
    let buf = '';
    let err = '';
    let killing = false;
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const m = /^done (\d+)$/.exec(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (m) done.push(Number(m[1]));
      }
      if (!killing && done.length >= afterBatches) {
        killing = true;
        setTimeout(() => child.kill('SIGKILL'), delayMs);
      }
    });
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`writer exited on its own (code ${code}): ${err}`));
      else resolve(done);
    });
  });
}
