// The apply's lookup tables after issue 41's cuts: sources interned in the string table alone (read through a
// map-shaped view), the entity-id and name maps made on first read, and the string and fact tables reusing the
// slot their last miss found. Each must give what the eager structures gave, whenever it is read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { I32Column } from '../src/graph/columns.js';
import { FactTable } from '../src/graph/fact-table.js';
import { GraphState } from '../src/graph/state.js';
import { StringTable } from '../src/graph/string-table.js';
import { newRun } from '../src/model/claim-run.js';
import { normalizeName, normalizeToken } from '../src/model/normalize.js';
import { Registry } from '../src/model/registry.js';

/** A run of claims over `entities` names of three types, `sources` sources, deterministic. */
function run(n: number, from: number, entities: number, sources: number) {
  const r = newRun(n, '0123456789abcdef', from);
  const types = ['gene', 'Protein', 'disease'];
  for (let i = 0; i < n; i++) {
    const k = from + i;
    const s = (k * 7919) % entities;
    const o = (k * 104_729 + 13) % entities;
    r.subject[i] = k % 11 === 0 ? ` E${s} ` : `E${s}`; // another spelling of the same entity now and then
    r.subject_type[i] = types[s % 3]!;
    r.relationship[i] = `rel ${k % 7}`;
    r.predicate_class[i] = 'c';
    r.object[i] = `E${o}`;
    r.object_type[i] = types[o % 3]!;
    r.source_type[i] = k % 5 === 0 ? 'Database' : 'literature';
    r.source_id[i] = `src:${(k * 31) % sources}`;
    r.confidence[i] = 0.5;
  }
  return r;
}

/** What the eager maps held: every entity's id and name, in entity order, a later equal id replacing. */
function eager(g: GraphState) {
  const ids = new Map<string, number>();
  const names = new Map<string, number[]>();
  for (let e = 0; e < g.entityIds.length; e++) {
    ids.set(g.entityIds[e]!, e);
    names.set(g.entityNorm[e]!, [...(names.get(g.entityNorm[e]!) ?? []), e]);
  }
  return { ids: [...ids], names: [...names] };
}

test('the entity-id and name maps are the same read before, during or after an ingest', () => {
  const early = new GraphState(new Registry());
  const late = new GraphState(new Registry());
  // Read at once (empty), so that every later entity is added to the maps as it is interned.
  assert.equal(early.entityIndex.size, 0);
  assert.equal(early.nameIndex.size, 0);
  for (let b = 0; b < 4; b++) {
    for (const g of [early, late]) g.applyRun(run(500, b * 500, 300, 40), b + 1, null, null, false);
    if (b === 1) {
      // Read mid-way: made from the columns, then kept up to date.
      assert.deepEqual({ ids: [...late.entityIndex], names: [...late.nameIndex] }, eager(late));
    }
  }
  const want = eager(late);
  assert.equal(want.ids.length, 300);
  assert.deepEqual({ ids: [...early.entityIndex], names: [...early.nameIndex] }, want);
  assert.deepEqual({ ids: [...late.entityIndex], names: [...late.nameIndex] }, want);
  assert.equal(late.entityIndex.get('gene:e3'), late.entityIds.indexOf('gene:e3'));
});

test('the source map reads the source table: lookups, size, order, and a retraction by source', () => {
  const g = new GraphState(new Registry());
  g.applyRun(run(400, 0, 50, 64), 1, null, null, false);
  const m = g.sourceIndex;
  assert.equal(m.size, 64);
  assert.equal(m.size, g.sourceIds.length);
  const pairs = g.sourceIds.map((id, src) => [id, src] as [string, number]);
  assert.deepEqual([...m], pairs);
  assert.deepEqual([...m.entries()], pairs);
  assert.deepEqual([...m.keys()], g.sourceIds);
  assert.deepEqual(
    [...m.values()],
    pairs.map((p) => p[1]),
  );
  const seen: [string, number][] = [];
  m.forEach((src, id, map) => {
    assert.equal(map, m);
    seen.push([id, src]);
  });
  assert.deepEqual(seen, pairs);
  for (const [id, src] of pairs) {
    assert.equal(m.get(id), src);
    assert.equal(m.has(id), true);
  }
  assert.equal(m.get('src:64'), undefined);
  assert.equal(m.has('src:'), false);
  const { retracted } = g.applyRetract({ kind: 'retract', source_id: 'src:5', reason: 'r', cascade: false }, 2, null);
  const src5 = m.get('src:5')!;
  assert.ok(retracted.length > 0);
  assert.ok(retracted.every((c) => g.claimSource[c] === src5));
});

test('StringTable: the slot remembered from a miss is used only for that key, before any other key is added', () => {
  const t = new StringTable();
  const m = new Map<string, number>();
  const check = () => {
    for (const [k, v] of m) assert.equal(t.get(k), v, k);
  };
  for (let i = 0; i < 5000; i++) {
    const a = `k${i}`;
    const b = `k${i}-other`;
    assert.equal(t.get(a), -1);
    if (i % 3 === 0) {
      // Another key added between the miss and the add: the remembered slot may be that key's now.
      t.set(b, i + 1_000_000);
      m.set(b, i + 1_000_000);
    } else if (i % 3 === 1) {
      // Another key missed: only its slot is remembered.
      assert.equal(t.get(b), -1);
    }
    if (i % 500 === 0) t.reserve(t.size * 2); // grown between the miss and the add
    t.set(a, i);
    m.set(a, i);
  }
  assert.equal(t.size, m.size);
  check();
});

test('FactTable: the slot remembered from a miss is used only for that fact, before any other fact is added', () => {
  const S = new I32Column();
  const P = new I32Column();
  const O = new I32Column();
  const t = new FactTable(S, P, O);
  const facts = new Map<string, number>();
  const add = (s: number, p: number, o: number) => {
    const f = S.n;
    S.push(s);
    P.push(p);
    O.push(o);
    t.add(f);
    facts.set(`${s},${p},${o}`, f);
  };
  for (let i = 0; i < 60_000; i++) {
    const [s, p, o] = [i % 997, i % 13, (i * 31) % 1009];
    if (facts.has(`${s},${p},${o}`)) continue;
    assert.equal(t.get(s, p, o), undefined);
    if (i % 4 === 0 && !facts.has(`${o},${p},${s}`)) add(o, p, s); // another fact first
    if (i % 4 === 1) t.get(s + 1, p, o); // another miss (or hit) in between
    if (!facts.has(`${s},${p},${o}`)) add(s, p, o);
  }
  for (const [k, f] of facts) {
    const [s, p, o] = k.split(',').map(Number) as [number, number, number];
    assert.equal(t.get(s, p, o), f, k);
  }
});

test('normalizeToken through its memo: the same as normalising afresh, for spellings that share a slot', () => {
  const spellings = ['', ' ', 'gene', 'Gene', 'GENE ', 'Cell Type', 'cell-type', 'rel_1', 'rel_11', 'rel_21', 'β-cell'];
  for (let i = 0; i < 200; i++) spellings.push(`rel ${i}`, `Rel-${i}`, `t${i % 13}x${i}`);
  let seed = 7;
  for (let k = 0; k < 20_000; k++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const raw = spellings[seed % spellings.length]!;
    // A string object of its own, as each claim's is.
    const fresh = [...raw].join('');
    assert.equal(normalizeToken(fresh), normalizeName(raw).replace(/[\s-]+/g, '_'), JSON.stringify(raw));
  }
});
