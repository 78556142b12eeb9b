// Off-thread workers run below the caller's priority (issue 37: during the console's hostile bench its event loop
// waited for a CPU behind the replica and Leiden threads). Linux: a nice value belongs to a thread there, read here
// per thread from /proc/self/task; elsewhere the threads are left as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { type KbDB, open } from '../src/index.js';
import { OFFLOAD_NICE_DEFAULT, offThreadNice } from '../src/offload/threads.js';
import { claim, tempKb } from './helpers.js';

const linux = process.platform === 'linux';
const skip = linux ? false : 'nice values per thread are a Linux feature; elsewhere nothing is lowered';
const base = getPriority();
const lowered = (steps: number) => Math.min(19, base + steps);

// Deliberate likeness: graph-algorithms/test/leiden-nice.test.ts reads thread nice values the same way; kb-core has no testkit dependency
// to share it through, and eleven lines of /proc parsing do not justify one.
/** Nice value of each thread of this process other than the main one (/proc/self/task/TID/stat, field 19). */
function otherThreadsNice(): number[] {
  const out: number[] = [];
  for (const tid of readdirSync('/proc/self/task')) {
    if (Number(tid) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      out.push(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** Runs `call`, sampling the threads' nice values at every turn of the event loop meanwhile; returns those seen. */
async function niceWhile(call: () => Promise<unknown>): Promise<Set<number>> {
  const seen = new Set<number>();
  let running = true;
  const sample = () => {
    for (const n of otherThreadsNice()) seen.add(n);
    if (running) setImmediate(sample);
  };
  sample();
  try {
    await call();
  } finally {
    running = false;
  }
  return seen;
}

/** Waits (up to 5 s) until no thread runs at `nice`: a thread stopped with terminate() ends a little later. */
async function noneLowered(nice: number): Promise<void> {
  for (let i = 0; i < 100 && otherThreadsNice().includes(nice); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(!otherThreadsNice().includes(nice), `no thread left at nice ${nice}`);
}

/** 18,000 facts among 6,000 genes: past what off_thread computes on the calling thread. */
async function fill(db: KbDB): Promise<void> {
  const claims = [];
  for (let i = 0; i < 6000; i++) {
    const g = Math.floor(i / 40) * 40;
    claims.push(claim(`g${i}`, 'gene', 'binds', `g${g + ((i + 1) % 40)}`, 'gene', 's'));
    claims.push(claim(`g${i}`, 'gene', 'binds', `g${g + ((i * 7 + 3) % 40)}`, 'gene', 's'));
    claims.push(claim(`g${i}`, 'gene', 'binds', `g${(i * 31 + 7) % 6000}`, 'gene', 't'));
  }
  await db.ingestBatch(claims);
}

function withNice<T>(value: string | undefined, f: () => Promise<T>): Promise<T> {
  const before = process.env.EVIDENT_OFFLOAD_NICE;
  if (value === undefined) delete process.env.EVIDENT_OFFLOAD_NICE;
  else process.env.EVIDENT_OFFLOAD_NICE = value;
  return f().finally(() => {
    if (before === undefined) delete process.env.EVIDENT_OFFLOAD_NICE;
    else process.env.EVIDENT_OFFLOAD_NICE = before;
  });
}

test('the replica, Leiden and SVD threads run EVIDENT_OFFLOAD_NICE (10) below the caller; the caller keeps its priority', {
  skip,
}, async () => {
  assert.notEqual(lowered(OFFLOAD_NICE_DEFAULT), base, 'run at a nice value below 19');
  await noneLowered(lowered(OFFLOAD_NICE_DEFAULT));
  const t = tempKb();
  try {
    await withNice(undefined, async () => {
      await using db = await open(t.path, { embedding: false });
      await fill(db);
      const want = lowered(OFFLOAD_NICE_DEFAULT);
      // One kind at a time, each after the last one's threads have ended, so each is seen on its own.
      const leiden = await niceWhile(() => db.computeTopology({ seed: 3, off_thread: true, full: true }));
      assert.ok(leiden.has(want), 'Leiden');
      await noneLowered(want);
      const svd = await niceWhile(() => db.generateStructuralEmbeddings({ dim: 16, off_thread: true }));
      assert.ok(svd.has(want), 'SVD');
      await noneLowered(want);
      // The replica thread stays up (idle_ms) after its job: read it then.
      await db.rawQuery('MATCH (n) RETURN count(n) AS c', {}, { off_thread: true });
      assert.ok(otherThreadsNice().includes(want), 'the replica thread');
      assert.equal(getPriority(), base, 'the calling thread keeps its priority');
    });
  } finally {
    t.cleanup();
  }
});

test('EVIDENT_OFFLOAD_NICE=0 leaves the threads at the caller priority; a value out of 0..19 is refused, naming it', {
  skip,
}, async () => {
  const t = tempKb();
  try {
    await withNice('0', async () => {
      await using db = await open(t.path, { embedding: false });
      await fill(db);
      await db.rawQuery('MATCH (n) RETURN count(n) AS c', {}, { off_thread: true });
      const seen = await niceWhile(() => db.computeTopology({ seed: 3, off_thread: true, full: true }));
      for (const n of [...seen, ...otherThreadsNice()]) assert.equal(n, base);
    });
    await withNice('high', async () => {
      await using db = await open(t.path, { embedding: false });
      await assert.rejects(db.rawQuery('RETURN 1 AS x', {}, { off_thread: true }), (e: Error & { code?: string }) => {
        assert.equal(e.code, 'off_thread_unavailable');
        assert.match(e.message, /EVIDENT_OFFLOAD_NICE must be an integer from 0 to 19/);
        return true;
      });
    });
  } finally {
    t.cleanup();
  }
});

test('offThreadNice reads EVIDENT_OFFLOAD_NICE: default 10, 0 off, anything else but 0..19 refused', () => {
  assert.equal(offThreadNice({}), OFFLOAD_NICE_DEFAULT);
  assert.equal(offThreadNice({ EVIDENT_OFFLOAD_NICE: '' }), OFFLOAD_NICE_DEFAULT);
  assert.equal(offThreadNice({ EVIDENT_OFFLOAD_NICE: '0' }), 0);
  assert.equal(offThreadNice({ EVIDENT_OFFLOAD_NICE: '19' }), 19);
  for (const v of ['-1', '20', '2.5', 'ten'])
    assert.throws(() => offThreadNice({ EVIDENT_OFFLOAD_NICE: v }), /EVIDENT_OFFLOAD_NICE/);
});
