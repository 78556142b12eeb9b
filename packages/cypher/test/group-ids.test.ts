// Group ids over columns (src/plan/group-ids.ts) against the obvious method: each row's tuple of key codes
// (null as null) looked up in a Map of tuples, ids given in order of first appearance. Random keys, slots and
// nulls; both the table and the Map path; the row budget's stop.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Budget } from '../src/budget.js';
import type { EvalContext } from '../src/eval.js';
import { type GroupKey, groupIds } from '../src/plan/group-ids.js';
import { lendingScope } from '../src/plan/lent-arrays.js';

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const ctxOf = (maxRows?: number) => ({ budget: new Budget(maxRows === undefined ? {} : { maxRows }) }) as EvalContext;

/** Random keys over n rows: each a slot per row (-1 now and then), read through codes (-1: a null value) or not. */
function randomKeys(rnd: () => number, n: number): { keys: GroupKey[]; sizes: number[]; space: number } {
  const keys: GroupKey[] = [];
  const sizes: number[] = [];
  let space = 1;
  for (let j = 0, count = Math.floor(rnd() * 4); j < count; j++) {
    const slotsOf = 1 + Math.floor(rnd() * 40);
    const slots = Int32Array.from({ length: n }, () => (rnd() < 0.1 ? -1 : Math.floor(rnd() * slotsOf)));
    const coded = rnd() < 0.6;
    const size = coded ? 1 + Math.floor(rnd() * 6) : slotsOf;
    const codes = coded
      ? Int32Array.from({ length: slotsOf }, () => (rnd() < 0.15 ? -1 : Math.floor(rnd() * size)))
      : undefined;
    keys.push({ slots, codes, stride: space });
    sizes.push(size);
    space *= size + 1;
  }
  return { keys, sizes, space };
}

/** The obvious method: a Map from each row's tuple of codes to its id. */
function expected(keys: GroupKey[], n: number): { gid: number[]; groups: number } {
  const ids = new Map<string, number>();
  const gid: number[] = [];
  for (let r = 0; r < n; r++) {
    const tuple = keys.map((k) => {
      const s = k.slots[r]!;
      const code = s < 0 ? -1 : k.codes ? k.codes[s]! : s;
      return code < 0 ? 'null' : String(code);
    });
    const t = tuple.join(',');
    if (!ids.has(t)) ids.set(t, ids.size);
    gid.push(ids.get(t)!);
  }
  return { gid, groups: ids.size };
}

test('group ids match a Map of key tuples over random keys, by the table and by the Map', () => {
  const rnd = random(20261201);
  for (let round = 0; round < 300; round++) {
    const n = Math.floor(rnd() * 3000);
    const { keys, space } = randomKeys(rnd, n);
    const want = expected(keys, n);
    // The same keys through the Map path: a range past the table's.
    for (const range of [space, 2 ** 30]) {
      const gid = new Int32Array(n);
      const firsts = lendingScope(() => {
        const f = groupIds(keys, n, range, gid, ctxOf(), false);
        return { length: f.length, keys: [...f.keys.subarray(0, f.length)] };
      });
      assert.deepEqual([...gid], want.gid, `round ${round}, range ${range}`);
      assert.equal(firsts.length, want.groups);
      // Each group's combined key is the one of its first row.
      for (let g = 0; g < firsts.length; g++) {
        const r = want.gid.indexOf(g);
        const key = keys.reduce((sum, k) => {
          const s = k.slots[r]!;
          return sum + ((s < 0 ? -1 : k.codes ? k.codes[s]! : s) + 1) * k.stride;
        }, 0);
        assert.equal(firsts.keys[g], key);
      }
    }
  }
});

test('a bounded aggregation stops past the row budget, one group past it, and not at it', () => {
  const n = 500;
  const slots = Int32Array.from({ length: n }, (_, i) => i % 50);
  const keys: GroupKey[] = [{ slots, codes: undefined, stride: 1 }];
  assert.throws(
    () => lendingScope(() => groupIds(keys, n, 51, new Int32Array(n), ctxOf(49), true)),
    /stopped at group 50/,
  );
  const ok = lendingScope(() => groupIds(keys, n, 51, new Int32Array(n), ctxOf(50), true).length);
  assert.equal(ok, 50);
  // Unbounded: the row budget is not a group limit.
  assert.equal(
    lendingScope(() => groupIds(keys, n, 51, new Int32Array(n), ctxOf(10), false).length),
    50,
  );
});
