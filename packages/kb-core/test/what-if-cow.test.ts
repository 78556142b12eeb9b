// The copy-on-write columns under whatIf with claims to add (graph/cow-array.ts, graph/clone.ts): a copy's
// column must read as a full copy of the original would, whatever is written to it, and never change the
// original; a what-if view on random claims must answer as the base does after really ingesting them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, type ClaimInput } from '../src/index.js';
import { cloneIndex } from '../src/graph/clone.js';
import { I32Column } from '../src/graph/columns.js';
import { claim, tempKb } from './helpers.js';

/** A small deterministic generator (tests need repeatable sequences, not quality). */
function lcg(seed: number) {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

test('a copy-on-write column reads as a full copy does under writes, growth and long scans, and leaves the original', () => {
  for (let seed = 1; seed <= 12; seed++) {
    const rnd = lcg(seed);
    const col = new I32Column(-1);
    for (let i = 0; i < 9000 + seed * 700; i++) col.push(Math.floor(rnd() * 1000));
    const names = Array.from({ length: 3000 + seed * 100 }, (_, i) => `name${i}`);
    const holder = { col, marks: new Float64Array(5000).fill(0.5), names };
    const original = col.a.slice();
    const marks = holder.marks.slice();
    const namesBefore = names.slice();
    const full = { a: col.a.slice(), n: col.n, marks: holder.marks.slice(), names: names.slice() };
    const copied = cloneIndex(holder, new Set(), { copyOnWrite: true });
    const c = copied.copy;
    assert.ok(copied.attached);
    for (let step = 0; step < 3000; step++) {
      const r = rnd();
      const i = Math.floor(rnd() * (c.col.a.length + 10));
      if (r < 0.3) {
        c.col.a[i] = step;
        if (i < full.a.length) full.a[i] = step;
      } else if (r < 0.35) {
        // a push that may grow the column (reserve copies the copy's rows, pages included)
        c.col.push(step);
        if (full.n === full.a.length) {
          const b = new Int32Array(full.a.length * 2).fill(-1);
          b.set(full.a);
          full.a = b;
        }
        full.a[full.n++] = step;
      } else if (r < 0.4) {
        const j = i % 5000;
        c.marks[j] = step / 7;
        full.marks[j] = step / 7;
      } else if (r < 0.45) {
        // a list of strings: items set, pushed, read, its length
        const j = i % (full.names.length + 3);
        if (rnd() < 0.5) {
          c.names.push(`p${step}`);
          full.names.push(`p${step}`);
        } else if (j < full.names.length) {
          c.names[j] = `w${step}`;
          full.names[j] = `w${step}`;
        }
        assert.equal(c.names[j], full.names[j]);
        assert.equal(c.names.length, full.names.length);
      } else assert.equal(c.col.a[i], full.a[i]);
      assert.equal(c.col.a.length, full.a.length);
    }
    // a whole scan (more reads than the column's budget) ends on the copy's own array, with the same rows
    for (let i = 0; i < full.a.length; i++) assert.equal(c.col.a[i], full.a[i]);
    assert.deepEqual([...c.col.a.subarray(0, full.n)], [...full.a.subarray(0, full.n)]);
    assert.deepEqual([...c.marks], [...full.marks]);
    assert.ok(Array.isArray(c.names));
    assert.deepEqual([...c.names], full.names);
    assert.deepEqual(c.names.slice(-3), full.names.slice(-3));
    assert.equal(c.names.indexOf(full.names.at(-1)!), full.names.lastIndexOf(full.names.at(-1)!));
    assert.deepEqual(names, namesBefore, 'the original list is untouched');
    assert.deepEqual(col.a, original, 'the original column is untouched');
    assert.deepEqual(holder.marks, marks);
    copied.detach();
    assert.equal(copied.attached, false);
    assert.ok(c.col.a instanceof Int32Array && ArrayBuffer.isView(c.col.a));
    assert.deepEqual([...c.col.a.subarray(0, full.n)], [...full.a.subarray(0, full.n)]);
    assert.deepEqual(c.names, full.names);
  }
});

test('a full column grows in a copy without copying the original, and reads as a grown full copy', () => {
  for (const fill of [0, -1]) {
    const col = new I32Column(fill);
    // Exactly full, as a column restored from a snapshot is: the copy's first push must grow it.
    while (col.n < col.a.length || col.n < 4096) col.push(col.n * 3);
    assert.equal(col.n, col.a.length);
    const original = col.a.slice();
    const copied = cloneIndex({ col }, new Set(), { copyOnWrite: true });
    const c = copied.copy.col;
    for (let k = 0; k < 1500; k++) c.push(-7 - k);
    assert.ok(!ArrayBuffer.isView(c.a as unknown), 'still reading through the original after growing');
    assert.equal(c.a.length, original.length * 2);
    c.a[5] = 99;
    const expect = new Int32Array(original.length * 2).fill(fill);
    expect.set(original);
    for (let k = 0; k < 1500; k++) expect[original.length + k] = -7 - k;
    expect[5] = 99;
    for (const i of [0, 5, original.length - 1, original.length, original.length + 1499, original.length + 1500])
      assert.equal(c.a[i], expect[i], `row ${i}`);
    assert.equal(c.a[expect.length], undefined);
    assert.deepEqual(col.a, original, 'the original column is untouched');
    copied.detach();
    assert.ok(ArrayBuffer.isView(c.a));
    assert.deepEqual(c.a, expect);
  }
});

/** A random claim over `entities` entities of two types and a few predicates and sources. */
function randomClaim(rnd: () => number, entities: number, sources: string[], tag: string): ClaimInput {
  const e = () => {
    const i = Math.floor(rnd() * entities);
    return [`N${i}`, i % 3 === 0 ? 'protein' : 'gene'] as const;
  };
  const [s, st] = e();
  const [o, ot] = e();
  const src = sources[Math.floor(rnd() * sources.length)]!;
  return claim(s, st, `p${Math.floor(rnd() * 4)}`, o, ot, src, { confidence: 0.5 + Math.round(rnd() * 40) / 100 }, tag);
}

test('whatIf with random claims added (copy-on-write) answers as the base does after ingesting them', async () => {
  for (const seed of [3, 17]) {
    const rnd = lcg(seed);
    const t = tempKb();
    try {
      await using db = await open(t.path, { embedding: false });
      const sources = Array.from({ length: 40 }, (_, i) => `s${i}`);
      // More claims than a page (1,024 rows), so that the writes land in several pages and many stay shared.
      const base: ClaimInput[] = [];
      for (let i = 0; i < 9000; i++) base.push(randomClaim(rnd, 1500, sources, 'literature'));
      for (let i = 0; i < base.length; i += 3000) await db.ingestBatch(base.slice(i, i + 3000));
      // Added: known and new entities, known and new sources, duplicates and corroborations of stored claims.
      const added: ClaimInput[] = [];
      for (let i = 0; i < 300; i++) {
        const r = rnd();
        if (r < 0.1) added.push(base[Math.floor(rnd() * base.length)]!);
        else if (r < 0.3)
          added.push({
            ...base[Math.floor(rnd() * base.length)]!,
            provenance: { source_type: 'database', source_id: `new${i % 7}` },
          });
        else added.push(randomClaim(rnd, 1560, [...sources, 'w1', 'w2'], r < 0.6 ? 'literature' : 'experiment'));
      }
      const retract = seed === 17 ? ['s3', 's11'] : [];
      const names = Array.from({ length: 25 }, () => `N${Math.floor(rnd() * 1560)}`);
      const read = async (
        x: Pick<typeof db, 'stats' | 'listEntities' | 'query' | 'consensus' | 'fragile' | 'getEntity'>,
      ) => ({
        stats: (({ claim_count, entity_count }) => ({ claim_count, entity_count }))(await x.stats()),
        entities: await x.listEntities({ limit: 5000 }),
        frames: await Promise.all(
          names.map((n) =>
            x.query(n, { depth: 2 }).then(
              (f) => JSON.stringify(f, (k, v) => (k === 'claim_ids' ? v.length : v)),
              () => null,
            ),
          ),
        ),
        consensus: await Promise.all(
          names.slice(0, 8).map((n) =>
            x.consensus(n).then(
              (c) => c.assertions.map((a) => [a.content_id, a.source_count, a.confidence]),
              () => null,
            ),
          ),
        ),
        fragile: JSON.stringify(await x.fragile(), (k, v) => (k === 'claim_ids' || k === 'claim_id' ? 0 : v)),
        entity: await Promise.all(names.slice(0, 8).map((n) => x.getEntity(n))),
      });
      const before = await read(db);
      const v = await db.whatIf({ add_claims: added, retract_sources: retract });
      const hypothetical = await read(v);
      assert.deepEqual(await read(db), before, 'the base is untouched');
      for (const id of retract) await db.retractCascade(id, 'x');
      await db.ingestBatch(added);
      assert.deepEqual(hypothetical, await read(db), 'the view answers as the base after the same changes');
      assert.deepEqual(await read(v), hypothetical, 'and stays so after the base changed (detached)');
    } finally {
      t.cleanup();
    }
  }
});
