// Query frames whose rows are made when read (graph/query-rows.ts): on random graphs, live and as of a moment,
// a frame must answer as the eager frame always did (written out below as the reference), and a frame read only
// after later writes must answer as of its query.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphState } from '../src/graph/state.js';
import { buildFrame } from '../src/graph/query.js';
import { ReadContext } from '../src/graph/read.js';
import { Registry } from '../src/model/registry.js';
import type { ClaimEntry } from '../src/model/entries.js';
import type { QueryFrame, ReachedEntity, Relationship } from '../src/types.js';

function lcg(seed: number) {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

/** The frame as buildFrame made it before its rows were lazy (objects made during the walk). */
function reference(rc: ReadContext, e: number, depth: number, maxEntities = 10_000) {
  const s = rc.s;
  const direct: Relationship[] = [];
  for (let f = s.firstFact(e); f >= 0; f = s.nextFact(f, e)) {
    const r = rc.relationship(f, e);
    if (r) direct.push(r);
  }
  direct.sort(
    (a, b) => b.confidence - a.confidence || b.source_count - a.source_count || (a.target.id < b.target.id ? -1 : 1),
  );
  const reached: ReachedEntity[] = [];
  const seen = new Set([e]);
  let frontier = [e];
  let truncated = false;
  for (let d = 1; d <= depth && frontier.length && !truncated; d++) {
    const next: number[] = [];
    for (const u of frontier) {
      for (let f = s.firstFact(u); f >= 0; f = s.nextFact(f, u)) {
        const v = s.factS[f] === u ? s.factO[f]! : s.factS[f]!;
        if (seen.has(v) || !rc.factHasLive(f)) continue;
        seen.add(v);
        next.push(v);
        reached.push({ ...rc.summary(v), distance: d, via: s.entityIds[u]! });
        if (reached.length >= maxEntities) {
          truncated = true;
          break;
        }
      }
      if (truncated) break;
    }
    frontier = next;
  }
  return { focal_entity: rc.summary(e), direct, reached, truncated };
}

function entry(rnd: () => number, i: number, entities: number): ClaimEntry {
  const a = Math.floor(rnd() * entities);
  const b = rnd() < 0.05 ? a : Math.floor(rnd() * entities);
  return {
    kind: 'claim',
    claim_id: `c${i}`,
    subject: [`N${a}`, 'gene'],
    predicate: [rnd() < 0.5 ? 'regulates' : 'part_of', 'association'],
    object: [`N${b}`, 'gene'],
    provenance: { source_type: 'literature', source_id: `s${Math.floor(rnd() * 30)}` },
    confidence: Math.round((0.3 + rnd() * 0.7) * 100) / 100,
  };
}

function same(frame: QueryFrame & { truncated?: boolean }, ref: ReturnType<typeof reference>, what: string): void {
  assert.deepEqual(frame.focal_entity, ref.focal_entity, what);
  assert.deepEqual(frame.direct_relationships, ref.direct, what);
  assert.deepEqual(frame.entities, ref.reached, what);
  assert.equal(frame.truncated ?? false, ref.truncated, what);
}

test('lazy query frames answer as the eager frames did, live and as of a moment, truncated or not', () => {
  for (const seed of [1, 2, 3]) {
    const rnd = lcg(seed);
    const g = new GraphState(new Registry());
    const entities = 60 + seed * 20;
    for (let i = 0; i < 600; i++) {
      // Walks halfway make the entities' rows (adjacency.ts, at the 32nd walk): the facts after them are walked
      // on the lists' tails.
      if (i === 300) {
        for (let k = 0; k < 32; k++) buildFrame(new ReadContext(g, Infinity), k, { depth: 1 }, false);
        assert.ok(g.adjacency.facts > 0);
      }
      g.applyClaim(entry(rnd, i, entities), 1000 + i, null);
    }
    // One fact with many claims (more than 32: the distinct sources go through a Map).
    for (let k = 0; k < 45; k++) {
      const c = entry(rnd, 700 + k, entities);
      c.subject = ['N1', 'gene'];
      c.object = ['N2', 'gene'];
      c.predicate = ['regulates', 'association'];
      c.provenance = { source_type: 'literature', source_id: `s${k % 33}` };
      g.applyClaim(c, 1100 + k, null);
    }
    const middle = 1300;
    g.applyRetract({ kind: 'retract', source_id: 's4', reason: 'x', cascade: true }, 2000, null);
    g.applyRetract({ kind: 'retract', source_id: 's9', reason: 'x', cascade: false }, 2001, null);
    for (const cutoff of [Infinity, middle, 2000.5]) {
      const rc = new ReadContext(g, cutoff);
      for (let e = 0; e < g.entityIds.length; e += e < 12 ? 1 : 3) {
        for (const depth of [0, 1, 2, 3]) {
          const what = `seed ${seed} cutoff ${cutoff} entity ${e} depth ${depth}`;
          same(buildFrame(rc, e, { depth }, false), reference(rc, e, depth), what);
          if (e % 9 === 0) same(buildFrame(rc, e, { depth, max_entities: 7 }, false), reference(rc, e, depth, 7), what);
        }
      }
      // The narrative and the explain frame are the lazy frame's, made at once.
      const f = buildFrame(rc, 0, { depth: 2 }, false);
      const x = buildFrame(rc, 0, { depth: 2 }, true);
      assert.equal(f.narrative, x.narrative);
      assert.deepEqual(
        JSON.parse(JSON.stringify(f)),
        JSON.parse(JSON.stringify({ ...x, timing: undefined, candidates: undefined })),
      );
    }
  }
});

test('a lazy frame read after later writes answers as of its query', () => {
  const rnd = lcg(7);
  const g = new GraphState(new Registry());
  for (let i = 0; i < 400; i++) g.applyClaim(entry(rnd, i, 50), 1000 + i, null);
  const rc = new ReadContext(g, Infinity);
  const frames = [0, 1, 2, 3, 4].map((e) => ({
    frame: buildFrame(rc, e, { depth: 2 }, false),
    ref: reference(rc, e, 2),
  }));
  const narratives = [0, 1, 2, 3, 4].map((e) => buildFrame(rc, e, { depth: 2 }, true).narrative);
  // Writes that change what the frames hold: new claims on their facts and entities, retractions.
  for (let i = 400; i < 700; i++) g.applyClaim(entry(rnd, i, 50), 2000 + i, null);
  g.applyRetract({ kind: 'retract', source_id: 's2', reason: 'x', cascade: true }, 3000, null);
  frames.forEach(({ frame, ref }, i) => {
    same(frame, ref, `entity ${i}`);
    assert.equal(frame.narrative, narratives[i]);
  });
  // A caller may still set a field of the frame.
  const f = frames[0]!.frame;
  f.entities = [];
  assert.deepEqual(f.entities, []);
});

test('walks stay exact while claims and retractions alternate (dead-fact bits remade, new facts live)', () => {
  const rnd = lcg(11);
  const g = new GraphState(new Registry());
  let i = 0;
  for (let round = 0; round < 8; round++) {
    for (const end = i + 150; i < end; i++) g.applyClaim(entry(rnd, i, 90), 1000 + i, null);
    if (round % 2 === 1)
      g.applyRetract(
        { kind: 'retract', source_id: `s${round}`, reason: 'x', cascade: round % 4 === 1 },
        5000 + round,
        null,
      );
    const rc = new ReadContext(g, Infinity);
    // more than 32 walks per round, so the rows are made (and left stale) along the way
    for (let e = 0; e < g.entityIds.length; e += 2) {
      for (const depth of [1, 2])
        same(buildFrame(rc, e, { depth }, false), reference(rc, e, depth), `round ${round} entity ${e}`);
    }
  }
});

test('a lazy frame is a plain object to its readers: own keys, prototype, deepEqual, JSON, spread, clone, Array methods', () => {
  for (const seed of [21, 22]) {
    const rnd = lcg(seed);
    const g = new GraphState(new Registry());
    for (let i = 0; i < 500; i++) g.applyClaim(entry(rnd, i, 70), 1000 + i, null);
    g.applyRetract({ kind: 'retract', source_id: 's3', reason: 'x', cascade: true }, 3000, null);
    for (const cutoff of [Infinity, 1250]) {
      const rc = new ReadContext(g, cutoff);
      let previous: QueryFrame | undefined;
      for (let e = 0; e < g.entityIds.length; e += 4) {
        for (const [depth, maxEntities] of [
          [1, 10_000],
          [2, 10_000],
          [2, 5],
        ] as const) {
          const what = `seed ${seed} cutoff ${cutoff} entity ${e} depth ${depth} max ${maxEntities}`;
          const options = { depth, max_entities: maxEntities };
          const frame = buildFrame(rc, e, options, false) as QueryFrame & { truncated?: boolean };
          // The frame as a plain object, its fields made eagerly (the explain frame's narrative is made at once).
          const ref = reference(rc, e, depth, maxEntities);
          const plain: Record<string, unknown> = {
            focal_entity: ref.focal_entity,
            claim_count: ref.focal_entity.claim_count,
            direct_relationships: ref.direct,
            depth,
            entities: ref.reached,
            narrative: (buildFrame(rc, e, options, true) as QueryFrame).narrative,
          };
          if (ref.truncated) plain.truncated = true;
          assert.equal(Object.getPrototypeOf(frame), Object.prototype, what);
          assert.deepEqual(Object.keys(frame), Object.keys(plain), what);
          // No other own key either, not even a symbol (a schema validator checks every one).
          assert.deepEqual(Reflect.ownKeys(frame), Object.keys(plain), what);
          assert.deepEqual(frame, plain, what);
          assert.equal(JSON.stringify(frame), JSON.stringify(plain), what);
          assert.deepEqual(JSON.parse(JSON.stringify(frame)), JSON.parse(JSON.stringify(plain)), what);
          assert.deepEqual({ ...frame }, plain, what);
          assert.deepEqual(structuredClone(frame), structuredClone(plain), what);
          assert.ok(Array.isArray(frame.direct_relationships) && Array.isArray(frame.entities), what);
          assert.deepEqual(
            frame.entities.filter((x) => x.distance === depth).map((x) => x.id),
            ref.reached.filter((x) => x.distance === depth).map((x) => x.id),
            what,
          );
          // Every frame's lazy fields go through the same accessor functions (no closures per frame).
          if (previous !== undefined)
            for (const key of ['direct_relationships', 'entities', 'narrative'])
              assert.equal(
                Object.getOwnPropertyDescriptor(frame, key)?.get,
                Object.getOwnPropertyDescriptor(previous, key)?.get,
                `${what} ${key}`,
              );
          previous = frame;
        }
      }
    }
  }
});
