// Columns that grow into arrays made ready on the helper thread (columns.ts, @evident/worker-threads' ready
// memory): every row written is kept, every slot not written holds the column's fill, the large growths take
// the ready arrays, and a column loaded whole starts from its own length. The string and fact hash tables grow
// into ready slots the same way and find every key after.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cloneIndex } from '../src/graph/clone.js';
import { F64Column, I32Column, U8Column } from '../src/graph/columns.js';
import { FactTable } from '../src/graph/fact-table.js';
import { StringTable } from '../src/graph/string-table.js';

const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

test('pushed and reserved columns keep their rows and fill across ready growths', async () => {
  const n = 3_000_000;
  const cols = [new I32Column(-1), new I32Column(), new F64Column(Infinity), new U8Column()];
  const value = (c: number, i: number) => (c === 3 ? (i * 7) & 255 : c === 2 ? i / 3 : i * 5 - 1);
  const reserved = new I32Column(-1);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < cols.length; c++) cols[c]!.push(value(c, i));
    // The fact table's way: write at the limit after reserve, only every third row (the others keep the fill).
    if (i >= reserved.limit) reserved.reserve(i + 1);
    if (i % 3 === 0) reserved.a[i] = i;
    reserved.n = i + 1;
    // Time for the helper now and then, as an ingest's awaits give it.
    if (i % 100_000 === 0) await pause();
  }
  for (let c = 0; c < cols.length; c++) {
    const col = cols[c]!;
    assert.equal(col.n, n);
    for (let i = 0; i < n; i++) if (col.a[i] !== value(c, i)) assert.fail(`column ${c} row ${i}: ${col.a[i]}`);
    for (let i = n; i < col.a.length; i++) if (col.a[i] !== col.fill) assert.fail(`column ${c} slot ${i} not fill`);
    // A zero-filled ready array is taken even while the helper is still on it; one with another fill only once
    // the helper is through, which depends on the machine's pace.
    if (col.fill === 0) assert.ok(col.a.buffer instanceof SharedArrayBuffer, `column ${c} grew into a ready array`);
  }
  for (let i = 0; i < reserved.a.length; i++) {
    const want = i < n && i % 3 === 0 ? i : -1;
    if (reserved.a[i] !== want) assert.fail(`reserved slot ${i}: ${reserved.a[i]}`);
  }
});

test('a column grown with no time for the helper still keeps its rows and fill', () => {
  const col = new I32Column(-1);
  for (let i = 0; i < 2_500_000; i++) col.push(i);
  for (let i = 0; i < col.a.length; i++) if (col.a[i] !== (i < 2_500_000 ? i : -1)) assert.fail(`slot ${i}`);
});

test('a copy of a column (clone.ts, no constructor run) never asks for ready memory; the original still does', async () => {
  const make = () => {
    const col = new I32Column();
    for (let i = 0; i < 600_000; i++) col.push(i);
    return col;
  };
  const original = make();
  const { copy } = cloneIndex({ col: original }, new Set());
  // Past three quarters of the array (2^20 rows), then past its end: a zero-filled ready array would be taken.
  for (const col of [copy.col, original]) {
    for (let i = col.n; i < 1_100_000; i++) col.push(i);
    await pause();
  }
  for (const col of [copy.col, original])
    for (let i = 0; i < 1_100_000; i++) if (col.a[i] !== i) assert.fail(`row ${i}`);
  assert.equal(copy.col.a.buffer instanceof SharedArrayBuffer, false, 'the copy grew into an array of its own');
  assert.ok(original.a.buffer instanceof SharedArrayBuffer, 'the original grew into a ready array');
});

test('a column loaded whole writes past its end only through reserve', () => {
  const col = new I32Column(-1);
  col.adopt(Int32Array.from([4, 5, 6]), 3);
  assert.equal(col.limit, 3);
  col.push(7);
  assert.deepEqual([...col.a.subarray(0, 4)], [4, 5, 6, 7]);
  assert.ok(col.a.length >= 4);
  for (let i = 4; i < col.a.length; i++) assert.equal(col.a[i], -1);
});

test('hash tables grown into ready slots find every key', async () => {
  const strings = new StringTable();
  const n = 300_000;
  for (let i = 0; i < n; i++) {
    strings.set(i % 2 ? `entity ${i}` : `E${i}`, i);
    if (i % 20_000 === 0) await pause();
  }
  for (let i = 0; i < n; i++) if (strings.get(i % 2 ? `entity ${i}` : `E${i}`) !== i) assert.fail(`key ${i}`);
  assert.equal(strings.get('E1'), -1);
  assert.ok((strings as unknown as { slots: Int32Array }).slots.buffer instanceof SharedArrayBuffer);

  const [S, P, O] = [new I32Column(), new I32Column(), new I32Column()];
  const facts = new FactTable(S, P, O);
  const triple = (f: number) => [f % 5003, f % 17, (f * 7) % 100_003] as const;
  for (let f = 0; f < n; f++) {
    const [s, p, o] = triple(f);
    S.push(s);
    P.push(p);
    O.push(o);
    facts.add(f);
    if (f % 20_000 === 0) await pause();
  }
  for (let f = 0; f < n; f++) if (facts.get(...triple(f)) !== f) assert.fail(`fact ${f}`);
  assert.equal(facts.get(5003, 0, 0), undefined);
  assert.ok((facts as unknown as { slots: Int32Array }).slots.buffer instanceof SharedArrayBuffer);
});
