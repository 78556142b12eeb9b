// Columns an ingest no longer fills (issue 41): the entities' fact lists, threaded when first read, and the
// claims' retraction and degradation times and per-source links, made on the first retraction. Whenever they are
// read, with writes before and after, they must hold what the eager columns held.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphState, RETRACTED } from '../src/graph/state.js';
import { newRun } from '../src/model/claim-run.js';
import { Registry } from '../src/model/registry.js';

/** A run of claims over `entities` names, `sources` sources, with self-loops now and then; deterministic. */
function run(n: number, from: number, entities: number, sources: number) {
  const r = newRun(n, '0123456789abcdef', from);
  for (let i = 0; i < n; i++) {
    const k = from + i;
    const s = (k * 7919) % entities;
    const o = k % 13 === 0 ? s : (k * 104_729 + 13) % entities;
    r.subject[i] = `E${s}`;
    r.subject_type[i] = 'gene';
    r.relationship[i] = `rel_${k % 5}`;
    r.predicate_class[i] = 'c';
    r.object[i] = `E${o}`;
    r.object_type[i] = 'gene';
    r.source_type[i] = 'literature';
    r.source_id[i] = `src:${(k * 31) % sources}`;
    r.confidence[i] = 0.5;
  }
  return r;
}

/** Entity e's facts as the eager lists held them: every fact naming it, in fact order. */
function factsOf(g: GraphState, e: number): number[] {
  const out: number[] = [];
  for (let f = 0; f < g.factCount; f++) if (g.factS[f] === e || g.factO[f] === e) out.push(f);
  return out;
}

function walk(g: GraphState, e: number): number[] {
  const out: number[] = [];
  for (let f = g.firstFact(e); f >= 0; f = g.nextFact(f, e)) out.push(f);
  return out;
}

/** The same walk through the columns the depth queries read. */
function walkColumns(g: GraphState, e: number): number[] {
  const first = g.entityFirstFact;
  const nextS = g.factNextS;
  const nextO = g.factNextO;
  const S = g.factS;
  const out: number[] = [];
  for (let f = first[e]!; f >= 0; f = S[f] === e ? nextS[f]! : nextO[f]!) out.push(f);
  return out;
}

test('entity fact lists read between writes hold every fact in fact order', () => {
  const g = new GraphState(new Registry());
  let from = 0;
  for (const n of [700, 1, 2500, 300]) {
    g.applyRun(run(n, from, 400, 90), from + 1, null, new Int32Array(n), true);
    from += n;
    for (const e of [0, 1, 7, 133, 399]) {
      assert.deepEqual(walk(g, e), factsOf(g, e), `entity ${e} after ${from} claims`);
      assert.deepEqual(walkColumns(g, e), factsOf(g, e), `entity ${e} (columns) after ${from} claims`);
    }
  }
  assert.ok(g.selfLoops > 0, 'the runs hold self-loops');
  // Every entity, after the last write, once more through the walk.
  for (let e = 0; e < g.entityIds.length; e++) assert.deepEqual(walk(g, e), factsOf(g, e));
});

test('retraction times and source links: made on the first retraction, kept up to date after it', () => {
  const g = new GraphState(new Registry());
  g.applyRun(run(3000, 0, 300, 40), 1, null, new Int32Array(3000), true);
  const mid = g.claimCount; // duplicates take no claim index
  const times = g.claimRetractTs;
  assert.ok(times.length >= g.claimCount);
  for (let c = 0; c < g.claimCount; c++) assert.equal(times[c], Infinity);
  const first = g.applyRetract({ kind: 'retract', source_id: 'src:3', reason: 'r', cascade: false }, 2, null);
  assert.ok(first.retracted.length > 0);
  // Claims added after the first retraction, some from the same source, then the source retracted again.
  g.applyRun(run(5000, 3000, 300, 40), 3, null, new Int32Array(5000), true);
  const second = g.applyRetract({ kind: 'retract', source_id: 'src:3', reason: 'r', cascade: false }, 4, null);
  const src = g.sourceIndex.get('src:3')!;
  const expected: number[] = [];
  for (let c = mid; c < g.claimCount; c++) if (g.claimSource[c] === src) expected.push(c);
  assert.ok(expected.length > 0);
  assert.deepEqual(second.retracted, expected);
  assert.deepEqual(g.claimsOfSource(src), [...first.retracted, ...expected]);
  const retractTs = g.claimRetractTs;
  const degradeTs = g.claimDegradeTs;
  assert.ok(retractTs.length >= g.claimCount && degradeTs.length >= g.claimCount);
  for (let c = 0; c < g.claimCount; c++) {
    const want = g.claimSource[c] !== src ? Infinity : c < mid ? 2 : 4;
    assert.equal(retractTs[c], want, `claim ${c}`);
    assert.equal(degradeTs[c], Infinity);
    assert.equal(g.claimStatus[c] === RETRACTED, want !== Infinity);
  }
});
