// leidenAsync's `nice`: its workers run that many steps below the caller (issue 37: a server's event loop gets a
// CPU first), read per thread from /proc/self/task on Linux; a value out of 0..19 is refused, naming it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { it } from 'node:test';
import { csrFromEdges, GraphInputError, leidenAsync } from '@evident/graph-algorithms';

const linux = process.platform === 'linux';

// Deliberate likeness: kb-core/test/offload-priority.test.ts reads thread nice values the same way; kb-core has no testkit dependency
// to share it through, and eleven lines of /proc parsing do not justify one.
/** Nice values of this process's threads other than the main one. */
function otherThreadsNice(): number[] {
  const out: number[] = [];
  for (const tid of readdirSync('/proc/self/task')) {
    if (Number(tid) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      out.push(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

// 60 rings of 50 nodes, each joined to the next: a few iterations of work per restart.
const n = 3000;
const sources: number[] = [];
const targets: number[] = [];
for (let v = 0; v < n; v++) {
  sources.push(v);
  targets.push(v % 50 === 49 ? v - 49 : v + 1);
  if (v % 50 === 0) {
    sources.push(v);
    targets.push((v + 50) % n);
  }
}
const graph = csrFromEdges(
  n,
  Int32Array.from(sources),
  Int32Array.from(targets),
  new Float64Array(sources.length).fill(1),
);

it('leidenAsync with nice runs its workers that much below the caller; the caller keeps its priority', {
  skip: linux ? false : 'nice values per thread are a Linux feature',
}, async () => {
  const base = getPriority();
  const want = Math.min(19, base + 5);
  assert.notEqual(want, base, 'run at a nice value below 19');
  const seen = new Set<number>();
  const sample = () => {
    for (const v of otherThreadsNice()) seen.add(v);
  };
  const plain = await leidenAsync(graph, { seed: 1, restarts: 2, threads: 1, hooks: { progress: sample } });
  assert.ok(!seen.has(want), 'without nice no worker is lowered');
  const niced = await leidenAsync(graph, { seed: 1, restarts: 2, threads: 1, nice: 5, hooks: { progress: sample } });
  assert.ok(seen.has(want), 'a worker at base + 5');
  assert.equal(getPriority(), base);
  assert.deepEqual(niced.membership, plain.membership, 'the same result');
});

it('leidenAsync refuses a nice value out of 0..19', async () => {
  for (const nice of [-1, 20, 2.5]) {
    await assert.rejects(leidenAsync(graph, { threads: 1, nice }), (e: unknown) => {
      assert.ok(e instanceof GraphInputError);
      assert.equal(e.problems?.[0]?.path, '/nice');
      return true;
    });
  }
});
