// Idle threads end (issue 37, point 7): a thread's heap and its engines' WebAssembly memory (RDKit's never shrinks
// while its instance lives) stayed with the server as long as it ran. Job threads idle for EVIDENT_THREAD_IDLE_SECONDS
// end and start again when a job comes; one prepare thread stays started, renewed once it has worked.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { ThreadPool } from '../src/runner/thread-pool.js';
import { demoKindModule, http, startTestServer, waitFor, waitForStatus, type TestServer } from './helpers.js';

const threadKindModule = fileURLToPath(new URL('./thread-kind.ts', import.meta.url));
const IDLE_MS = 400;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The thread a prepare ran on (the thread kind says so in its input). */
async function preparedOn(pool: ThreadPool): Promise<number> {
  const done = await pool.run({ type: 'prepare', kind: 'thread', request: { label: 'x' } }).result;
  assert.equal(done.type, 'prepared');
  return JSON.parse(gunzipSync((done as { input: Uint8Array }).input).toString('utf8')).prepared_on;
}

test('a pool with an idle time starts threads when tasks come and ends them when idle', async () => {
  const pool = new ThreadPool(2, { kindModules: [threadKindModule], idleMs: IDLE_MS });
  try {
    assert.equal(pool.threads, 0, 'no thread until a task comes');
    const [a, b] = await Promise.all([preparedOn(pool), preparedOn(pool)]);
    assert.equal(pool.threads, 2, 'two tasks at once started two threads');
    await waitFor(async () => pool.threads === 0);
    assert.ok(![a, b].includes(await preparedOn(pool)), 'a new thread took the next task');
  } finally {
    await pool.close();
  }
});

test('warm threads stay started; one that has worked is renewed once, one that has not is left alone', async () => {
  const pool = new ThreadPool(2, { kindModules: [threadKindModule], idleMs: IDLE_MS, warmThreads: 1 });
  try {
    assert.equal(pool.threads, 1);
    const first = await preparedOn(pool);
    // Back to back: the same thread.
    assert.equal(await preparedOn(pool), first);
    await pause(IDLE_MS * 3);
    assert.equal(pool.threads, 1);
    const second = await preparedOn(pool);
    assert.notEqual(second, first, 'the warm thread that had worked was renewed');
    await pause(IDLE_MS * 3);
    const third = await preparedOn(pool);
    assert.notEqual(third, second);
    // The renewed thread had not worked until `third`: nothing was renewed in between (it took `third`).
    await pool.run({ type: 'prepare', kind: 'thread', request: { label: 'y' } }).result;
    assert.equal(await preparedOn(pool), third);
  } finally {
    await pool.close();
  }
});

let s: TestServer | undefined;
after(() => s?.cleanup());

test('over HTTP: an idle server ends its job thread and renews its prepare thread; busy ones are kept', async () => {
  s = await startTestServer({
    kindModules: [demoKindModule, threadKindModule],
    workerThreads: 1,
    prepareThreads: 1,
    // Long enough for the requests between two jobs on a loaded machine, short enough to wait for.
    threadIdleMs: 3000,
  });
  const key = (await s.store.createKey({ name: 't', plan: 'enterprise', rpm: 100_000, concurrency: 10 })).key;
  const submit = async (label: string) => {
    const r = await http(s!.url, 'POST', '/v1/thread/run', { key, body: { label } });
    assert.equal(r.status, 202, r.text);
    return r.body.job_id as string;
  };
  const resultOf = async (id: string) => {
    assert.equal((await waitForStatus(s!.url, key, id)).status, 'completed');
    return (await http(s!.url, 'GET', `/v1/results/${id}`, { key })).body;
  };
  // Two submissions back to back, two jobs in a row on the one job thread: the same threads.
  const ids = [await submit('a'), await submit('b')];
  const [a, b] = [await resultOf(ids[0]!), await resultOf(ids[1]!)];
  assert.equal(b.prepared_on, a.prepared_on);
  assert.equal(b.ran_on, a.ran_on);
  await pause(9000);
  const c = await resultOf(await submit('c'));
  assert.notEqual(c.ran_on, a.ran_on, 'the idle job thread ended; a new one ran the next job');
  assert.notEqual(c.prepared_on, a.prepared_on, 'the prepare thread that had worked was renewed');
});
