// The copy-on-write Map under graph/clone.ts: it must read as a copy of the original would, whatever is done
// to it, and never change the original.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OverlayMap } from '../src/graph/overlay-map.js';
import { cloneIndex } from '../src/graph/clone.js';

/** A small deterministic generator (tests need repeatable sequences, not quality). */
function lcg(seed: number) {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

test('an overlay reads, iterates and sizes as a copy of the original does, under any mix of changes', () => {
  for (let seed = 1; seed <= 30; seed++) {
    const rnd = lcg(seed);
    const base = new Map<number, number[] | number>();
    for (let i = 0; i < 40; i++) base.set(Math.floor(rnd() * 60), rnd() < 0.5 ? [i] : i);
    const before = JSON.stringify([...base]);
    const copy = new Map([...base].map(([k, v]) => [k, Array.isArray(v) ? [...v] : v]));
    const overlay = new OverlayMap(base, (v) => (Array.isArray(v) ? [...v] : v));
    for (let step = 0; step < 200; step++) {
      const k = Math.floor(rnd() * 80);
      const r = rnd();
      if (r < 0.3) {
        copy.set(k, step);
        overlay.set(k, step);
      } else if (r < 0.5) assert.equal(overlay.delete(k), copy.delete(k));
      else if (r < 0.7) {
        // mutating a value read from the map changes the map's value, never the original's
        const a = copy.get(k);
        const b = overlay.get(k);
        assert.deepEqual(b, a);
        if (Array.isArray(a) && Array.isArray(b)) {
          a.push(step);
          b.push(step);
        }
      } else if (r < 0.72) {
        copy.clear();
        overlay.clear();
      } else if (r < 0.75) overlay.detach();
      else assert.equal(overlay.has(k), copy.has(k));
      assert.equal(overlay.size, copy.size, `seed ${seed} step ${step}: size`);
    }
    assert.deepEqual([...overlay], [...copy], `seed ${seed}: entries in order`);
    assert.deepEqual([...overlay.keys()], [...copy.keys()]);
    const each: unknown[] = [];
    overlay.forEach((v, k) => {
      each.push([k, v]);
    });
    assert.deepEqual(each, [...copy]);
    assert.equal(JSON.stringify([...base]), before, `seed ${seed}: the original is unchanged`);
    assert.ok(overlay instanceof Map);
  }
});

test('a copy-on-write clone shares what it only reads, and detaching makes it independent of later changes', () => {
  class Index {
    byName = new Map<string, number[]>([
      ['a', [0]],
      ['b', [1, 2]],
    ]);
    ids = ['a', 'b', 'b2'];
    nested = new Map<string, Map<string, number>>([['gene', new Map([['a', 0]])]]);
  }
  const original = new Index();
  const h = cloneIndex(original, new Set(), { copyOnWrite: true });
  const c = h.copy;
  assert.ok(c instanceof Index && h.attached);
  c.byName.get('b')!.push(3);
  c.byName.set('c', [3]);
  c.nested.get('gene')!.set('c', 3);
  assert.deepEqual(original.byName.get('b'), [1, 2]);
  assert.equal(original.byName.has('c'), false);
  assert.equal(original.nested.get('gene')!.has('c'), false);
  // the original changes only after the copy is detached (its owner's rule); the copy keeps what it read
  h.detach();
  assert.equal(h.attached, false);
  original.byName.get('a')!.push(9);
  original.byName.set('z', [9]);
  original.nested.get('gene')!.set('z', 9);
  assert.deepEqual(
    [...c.byName],
    [
      ['a', [0]],
      ['b', [1, 2, 3]],
      ['c', [3]],
    ],
  );
  assert.deepEqual(
    [...c.nested.get('gene')!],
    [
      ['a', 0],
      ['c', 3],
    ],
  );
});
