import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FactTable } from '../src/graph/fact-table.js';
import { I32Column } from '../src/graph/columns.js';

test('FactTable finds every added fact across growth and answers undefined for absent ones', () => {
  const s = new I32Column();
  const p = new I32Column();
  const o = new I32Column();
  const t = new FactTable(s, p, o);
  const seen = new Map<string, number>();
  let seed = 99;
  const rnd = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  // 100,000 facts: the table starts at 65,536 slots and grows twice.
  while (seen.size < 100_000) {
    const a = rnd(5000);
    const b = rnd(50);
    const c = rnd(5000);
    const key = `${a},${b},${c}`;
    if (seen.has(key)) {
      assert.equal(t.get(a, b, c), seen.get(key));
      continue;
    }
    assert.equal(t.get(a, b, c), undefined);
    const f = s.n;
    s.push(a);
    p.push(b);
    o.push(c);
    t.add(f);
    seen.set(key, f);
  }
  for (const [key, f] of seen) {
    const [a, b, c] = key.split(',').map(Number) as [number, number, number];
    assert.equal(t.get(a, b, c), f);
  }
  assert.equal(t.get(5001, 0, 0), undefined);
  assert.equal(t.get(0, 51, 0), undefined);
});
