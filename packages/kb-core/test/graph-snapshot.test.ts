// The graph saved beside the base at close (`<base>.graph`, src/facade/graph-snapshot.ts) and loaded at open when
// it is this log's, then caught up with the log after its mark (issue 41, point 3). Each case compares a base opened
// from the snapshot with a copy of the same log opened by a full replay: the index's columns and tables, and the
// reads (entities, claims, facts, depth 1 and 2, counts, what-if, Cypher), must be equal.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { open, type ClaimInput, type KbDB } from '../src/index.js';
import type { GraphState } from '../src/graph/state.js';
import type { SearchIndex } from '../src/search/search-index.js';
import { claim, tempKb } from './helpers.js';

const state = (db: KbDB) => (db as unknown as { state: GraphState }).state;
const loadedAt = (db: KbDB) => (db as unknown as { graphLoadedAt: number }).graphLoadedAt;
const intake = (db: KbDB) => (db as unknown as { searchIndex: SearchIndex }).searchIndex.intake.count;

function batch(from: number, n: number, source = (k: number) => `pmid:${k % 41}`): ClaimInput[] {
  return Array.from({ length: n }, (_, i) => {
    const k = from + i;
    return claim(
      // Raw spellings that differ from the canonical ones (case, spaces) and a gene/protein pair.
      k % 4 === 0 ? ` Gene${k % 53} ` : `GENE${k % 53}`,
      k % 7 === 0 ? 'protein' : 'gene',
      k % 3 === 0 ? 'inhibits' : 'associated_with',
      `disease ${k % 29}`,
      'disease',
      source(k),
      {
        confidence: 0.5 + (k % 5) / 10,
        ...(k % 6 === 0 ? { payload: { assay: `a${k % 4}`, n: k } } : {}),
      },
      k % 2 === 0 ? 'literature' : 'Database',
    );
  });
}

/** A base with a vocabulary, corroborations, payloads, provenance extras, dependants, inquiries and retractions. */
async function build(path: string): Promise<void> {
  const db = await open(path);
  try {
    await db.registerVocabulary('bio');
    await db.registerPredicate('modulates', { subject_types: ['gene'], object_types: ['disease'] });
    await db.ingestInquiry('Does GENE5 modulate disease 5?', 'gene5', 'disease 5');
    await db.ingestInquiry('Never answered?', 'nothing', 'nowhere');
    await db.ingestBatch(batch(0, 600));
    const root = await db.ingest(['GENE1', 'gene'], ['modulates', 'regulation'], ['disease 1', 'disease'], {
      source_type: 'experiment',
      source_id: 'lab:1',
      run: 7,
    });
    await db.ingest(['GENE2', 'gene'], ['modulates', 'regulation'], ['disease 2', 'disease'], {
      source_type: 'inference',
      source_id: 'derived:1',
      derived_from: [root],
    });
    await db.ingestBatch(batch(600, 300, (k) => `db:${k % 13}`));
    await db.retract('pmid:3', 'withdrawn');
    await db.retractCascade('lab:1', 'bad antibody');
    // Every claim into BM25 before the close saves it.
    await db.search('GENE1', { k: 1, mode: 'lexical' });
  } finally {
    await db.close();
  }
}

/** The index as readers see it, whole (columns cut to their counts). */
function internals(g: GraphState) {
  const n = g.claimCount;
  const f = g.factCount;
  return {
    entities: [g.entityIds, g.entityType, g.entityNorm, g.entityName, [...g.entityAliases], [...g.entityOtherTypes]],
    nameIndex: [...g.nameIndex],
    entityCols: [g.entityActive, g.entityFirstFact].map((a) => [...a.subarray(0, g.entityIds.length)]),
    facts: [g.factS, g.factO, g.factP, g.factFirst, g.factClaimCount, g.factSources, g.factNextS, g.factNextO].map(
      (a) => [...a.subarray(0, f)],
    ),
    claims: [g.claimFact, g.claimSource, g.claimSourceType, g.claimNextInFact, g.claimStatus].map((a) => [
      ...a.subarray(0, n),
    ]),
    times: [g.claimConf, g.claimTs, g.claimRetractTs, g.claimDegradeTs].map((a) => [...a.subarray(0, n)]),
    entries: Array.from({ length: n }, (_, c) => [g.claimIdOf(c), g.claimEntryOf(c)]),
    dependents: [...g.dependents],
    sources: [g.sourceIds, g.sourceTypeName, [...g.sourceIndex]],
    preds: [g.predName, g.predClass],
    retractions: g.retractions,
    inquiries: g.inquiries,
    counts: [g.selfLoops, g.activeClaims, g.lastTs],
    registry: [...g.registry.vocabularies.keys()],
  };
}

/** Without what differs between two bases by their path and the moment read (the file's name, the view's time). */
const placeless = (v: unknown) =>
  JSON.parse(JSON.stringify(v, (k, x) => (k === 'location' || k === 'as_of' ? undefined : x)));

/** A read's answer, or its error's message (a small base may not hold the entity asked for). */
const answer = (p: Promise<unknown>) => p.catch((e: Error) => `error: ${e.message}`);

async function reads(db: KbDB) {
  const what = await db.whatIf({ retract_sources: ['pmid:5'] });
  // A copy of the index with claims added (copy-on-write over the loaded columns).
  const added = await db.whatIf({ add_claims: batch(5000, 30, (k) => `hyp:${k % 2}`) });
  return placeless({
    stats: await db.stats(),
    entities: await db.listEntities({ limit: 10_000 }),
    gene: await answer(db.getEntity('GENE5')),
    alias: await answer(db.getEntity('g11 alias')),
    claims: await answer(db.claimsFor('gene5')),
    depth1: await answer(db.query('GENE7', { depth: 1 })),
    depth2: await answer(db.query('disease 3', { depth: 2 })),
    inquiries: await db.openInquiries(),
    // As of the time of a claim halfway through the log (a retraction's time lies after it).
    asOf: await (await db.at(state(db).claimTs[state(db).claimCount >> 1]!)).stats(),
    whatIf: [await what.stats(), await answer(what.query('GENE5', { depth: 2 }))],
    // The added claims' ids come from this process's counter, which the first base's call moved on.
    whatIfAdded: JSON.parse(
      JSON.stringify([await added.stats(), await answer(added.query('disease 3', { depth: 2 }))], (_, x) =>
        typeof x === 'string' && x.startsWith('clm_') ? 'clm' : x,
      ),
    ),
    search: await db.search('GENE5 inhibits disease', { k: 10, mode: 'lexical' }),
    cypher: (await db.rawQuery('MATCH (a)-[r]->(b) RETURN count(r) AS n')).rows,
  });
}

/** Opens `path` (from its snapshot) and a copy of its log alone (a full replay); both must read the same. */
async function assertSameAsReplay(
  path: string,
  dir: string,
  expectLoaded: boolean,
  searchSaved = false,
): Promise<KbDB> {
  const copy = join(dir, `replay-${Math.random().toString(36).slice(2)}.kb`);
  cpSync(path, copy);
  // The same saved BM25 for both: a restored index and one built afresh can rank apart (documents tokenized before
  // a later vocabulary's synonyms), which is the search stage's, not the graph's.
  if (existsSync(`${path}.search`)) cpSync(`${path}.search`, `${copy}.search`, { recursive: true });
  const replayed = await open(copy, { embedding: false });
  const db = await open(path, { embedding: false });
  try {
    assert.equal(loadedAt(replayed), -1);
    assert.equal(loadedAt(db) > 0, expectLoaded, `snapshot ${expectLoaded ? 'used' : 'ignored'}`);
    // The loaded claims reach the search stage as a replay's do, so its saved BM25 is restored: nothing to take in.
    if (searchSaved) assert.equal(intake(db), 0);
    assert.deepEqual(internals(state(db)), internals(state(replayed)));
    assert.deepEqual(await reads(db), await reads(replayed));
  } finally {
    await replayed.close();
  }
  return db;
}

describe('the graph snapshot', () => {
  it('is loaded at open and reads exactly as a full replay; writes after it are kept by the next close', async () => {
    const t = tempKb();
    try {
      await build(t.path);
      assert.ok(existsSync(`${t.path}.graph`));
      const db = await assertSameAsReplay(t.path, t.dir, true, true);
      // A retraction cascades through dependants restored from the snapshot; a corroboration joins a loaded fact.
      await db.ingestBatch(batch(900, 50, (k) => `late:${k % 3}`));
      await db.retract('db:4', 'again');
      await db.close();
      (await assertSameAsReplay(t.path, t.dir, true)).close();
    } finally {
      t.cleanup();
    }
  });

  it('made stale by entries appended after it is caught up by replaying the tail', async () => {
    const t = tempKb();
    try {
      await build(t.path);
      const old = readFileSync(`${t.path}.graph`);
      const db = await open(t.path, { embedding: false });
      await db.ingestBatch(batch(2000, 120, (k) => `tail:${k % 5}`));
      await db.ingestInquiry('Tail?', 'GENE9', 'disease 9');
      await db.retract('pmid:7', 'tail retraction');
      // Synonyms and a unified pair of types after the snapshot: spellings then mean other entities.
      await db.registerVocabulary('tail', {
        entity_types: ['variant', 'allele'],
        synonyms: { gene: { GENE11: ['g11 alias'] } },
        unified_types: [['variant', 'allele']],
      });
      await db.ingestBatch([...batch(3000, 40), claim('g11 alias', 'gene', 'r', 'x1', 'variant', 'v:1')]);
      await db.ingestBatch([claim('GENE11', 'gene', 'r', 'X1', 'allele', 'v:2')]);
      await db.close();
      // As if the process had died before saving: the file is the one from before those writes.
      writeFileSync(`${t.path}.graph`, old);
      await (await assertSameAsReplay(t.path, t.dir, true)).close();
    } finally {
      t.cleanup();
    }
  });

  it('is ignored when damaged, truncated, of a shorter log, or of another log', async () => {
    const t = tempKb();
    try {
      await build(t.path);
      const good = readFileSync(`${t.path}.graph`);
      const damaged = Buffer.from(good);
      damaged[Math.floor(damaged.length * 0.6)]! ^= 0x40;
      writeFileSync(`${t.path}.graph`, damaged);
      await (await assertSameAsReplay(t.path, t.dir, false)).close();
      writeFileSync(`${t.path}.graph`, good);
      truncateSync(`${t.path}.graph`, good.length - 100);
      await (await assertSameAsReplay(t.path, t.dir, false)).close();
      // Another log of the same shape (other claim ids and times), and a shorter one.
      const other = join(t.dir, 'other.kb');
      await build(other);
      writeFileSync(`${other}.graph`, good);
      await (await assertSameAsReplay(other, t.dir, false)).close();
      const short = join(t.dir, 'short.kb');
      const s = await open(short);
      await s.ingestBatch(batch(0, 10));
      await s.close();
      writeFileSync(`${short}.graph`, good);
      await (await assertSameAsReplay(short, t.dir, false)).close();
    } finally {
      t.cleanup();
    }
  });

  it('a writer killed (SIGKILL) while saving leaves a base that opens as a full replay does', async () => {
    const t = tempKb();
    try {
      await build(t.path);
      const script = `
        import { open } from './src/index.js';
        import { saveGraphSnapshot } from './src/facade/graph-snapshot.js';
        const db = await open(${JSON.stringify(t.path)}, { embedding: false });
        const w = db.w;
        for (let i = 0; ; i++) {
          saveGraphSnapshot(db.state, w.lastSeq, ${JSON.stringify(t.path)}, -1);
          process.stdout.write('saved\\n');
        }`;
      await new Promise<void>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
          cwd: join(import.meta.dirname, '..'),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let saves = 0;
        let err = '';
        child.stderr.on('data', (d) => (err += d));
        child.stdout.on('data', (d: Buffer) => {
          saves += String(d).split('\n').length - 1;
          // Killed a moment into a later save: mid-write, most likely.
          if (saves >= 3) setTimeout(() => child.kill('SIGKILL'), Math.floor(Math.random() * 5));
        });
        child.on('exit', (code, signal) =>
          signal === 'SIGKILL' ? resolve() : reject(new Error(`saver ended (${code}): ${err}`)),
        );
      });
      const db = await assertSameAsReplay(t.path, t.dir, true);
      // Temporaries left by the kill are never read; the next save removes those old enough to be no live writer's.
      const left = readdirSync(t.dir).filter((f) => f.includes('.graph.tmp-'));
      const old = `${t.path}.graph.tmp-1-old`;
      writeFileSync(old, 'half');
      utimesSync(old, new Date(Date.now() - 2 * 3600_000), new Date(Date.now() - 2 * 3600_000));
      await db.ingestBatch([claim('after', 'gene', 'r', 'kill', 'disease', 'post')]);
      await db.close();
      assert.ok(!existsSync(old), 'an old temporary is removed');
      for (const f of left) assert.ok(existsSync(join(t.dir, f)), "a recent one is left (it may be a live writer's)");
      await (await assertSameAsReplay(t.path, t.dir, true)).close();
    } finally {
      t.cleanup();
    }
  });
});
