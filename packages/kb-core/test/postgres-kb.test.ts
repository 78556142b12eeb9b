// The public API (`open(url)`) over the PostgreSQL store: one handle, two handles in one process sharing a
// base, concurrent writers, reopen, time travel.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createTempDatabase, probePostgres, type TempDatabase } from '@evident/testkit';
import { join } from 'node:path';
import { tempDir } from '@evident/testkit';
import { open, KbDB, KbOpenError, KbValidationError, type ClaimInput } from '../src/index.js';
import { claim, sleep } from './helpers.js';

const probe = await probePostgres();

describe('KbDB over PostgreSQL', { skip: probe.skip }, () => {
  let db: TempDatabase;
  let admin: pg.Client;
  let n = 0;
  async function freshUrl(): Promise<string> {
    const schema = `k${++n}`;
    await admin.query(`CREATE SCHEMA ${schema}`);
    const u = new URL(db.url);
    u.searchParams.set('options', `-c search_path=${schema}`);
    return u.toString();
  }
  before(async () => {
    db = await createTempDatabase('kb_api');
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  });
  after(async () => {
    await admin?.end();
    await db?.drop();
  });

  test('ingest, query and retract round trip', async () => {
    await using kb = await open(await freshUrl());
    const id = await kb.ingest(
      ['BRCA1', 'gene'],
      ['associated_with', 'association'],
      ['breast cancer', 'disease'],
      { source_type: 'literature', source_id: 'pmid:1' },
      { confidence: 0.8 },
    );
    const r = await kb.ingestBatch([
      claim('BRCA1', 'gene', 'associated_with', 'breast cancer', 'disease', 'db:clinvar', {}, 'database'),
      claim('BRCA1', 'gene', 'associated_with', 'ovarian cancer', 'disease', 'pmid:2'),
      claim('BRCA1', 'gene', 'associated_with', 'breast cancer', 'disease', 'pmid:1'), // duplicate of `id`
    ]);
    assert.equal(r.ingested, 2);
    assert.equal(r.duplicates, 1);
    assert.equal(r.claim_ids[2], id);
    const frame = await kb.query(' brca1 ', { depth: 1 });
    assert.equal(frame.focal_entity.id, await kb.resolve('BRCA1'));
    assert.equal(frame.claim_count, 3);
    const bc = frame.direct_relationships.find((x) => x.target.name.toLowerCase() === 'breast cancer')!;
    assert.equal(bc.source_count, 2);
    const res = await kb.retract('pmid:1', 'withdrawn');
    assert.deepEqual(res.claim_ids, [id]);
    const after = await kb.query('BRCA1', { depth: 1 });
    assert.equal(after.claim_count, 2);
    const s = await kb.stats();
    assert.equal(s.backend, 'postgres');
    assert.equal(s.total_claims, 3);
    assert.equal(s.retracted_claims, 1);
    assert.doesNotMatch(String(s.location), /:[^@/]*@/, 'no password in location');
  });

  test("two handles on one base see each other's writes; duplicates and corroboration work across them", async () => {
    const url = await freshUrl();
    await using a = await open(url);
    await using b = await open(url);
    const corroborations: { count: number }[] = [];
    b.on('claim_corroborated', (e) => corroborations.push(e));
    const idA = await a.ingest(['TP53', 'gene'], ['associated_with', 'association'], ['lung cancer', 'disease'], {
      source_type: 'literature',
      source_id: 'pmid:10',
    });
    // b never wrote; a read catches up with the log.
    assert.equal((await b.query('TP53', { depth: 1 })).claim_count, 1);
    assert.equal((await b.getClaim(idA))!.claim_id, idA);
    // The same fact from a new source, written through b, corroborates a's claim.
    const idB = await b.ingest(['tp53', 'gene'], ['associated_with', 'association'], ['Lung Cancer', 'disease'], {
      source_type: 'database',
      source_id: 'db:cosmic',
    });
    assert.notEqual(idB, idA);
    assert.deepEqual(
      corroborations.map((e) => e.count),
      [2],
    );
    assert.equal((await a.getClaim(idA))!.content_id, (await a.getClaim(idB))!.content_id);
    // The same fact from the same source again, through a: a duplicate, not stored twice.
    const again = await a.ingestBatch([
      claim('TP53', 'gene', 'associated_with', 'lung cancer', 'disease', 'db:cosmic', {}, 'database'),
    ]);
    assert.deepEqual([again.ingested, again.duplicates, again.claim_ids[0]], [0, 1, idB]);
    assert.equal((await b.stats()).total_claims, 2);
    // A retraction through b leaves a's queries too.
    await b.retract('pmid:10', 'retracted paper');
    const rel = (await a.query('TP53', { depth: 1 })).direct_relationships;
    assert.deepEqual(
      rel.map((x) => [x.source_count, x.claim_ids]),
      [[1, [idB]]],
    );
  });

  test('concurrent ingestBatch from two handles: no claim lost, none stored twice', { timeout: 120_000 }, async () => {
    const url = await freshUrl();
    const a = await open(url);
    const b = await open(url);
    const BATCHES = 20;
    const PER = 100;
    // Each batch: 60 claims only this handle states, 40 that both handles state from the same source.
    const batch = (who: string, i: number): ClaimInput[] => {
      const out: ClaimInput[] = [];
      for (let k = 0; k < 60; k++)
        out.push(claim(`${who}${i}_${k}`, 'gene', 'associated_with', `D${k % 9}`, 'disease', `src-${who}`));
      for (let k = 0; k < PER - 60; k++)
        out.push(claim(`S${i}_${k}`, 'gene', 'associated_with', `D${k % 9}`, 'disease', 'src-shared'));
      return out;
    };
    const run = async (kb: typeof a, who: string) => {
      let ingested = 0;
      let duplicates = 0;
      for (let i = 0; i < BATCHES; i++) {
        const r = await kb.ingestBatch(batch(who, i));
        ingested += r.ingested;
        duplicates += r.duplicates;
      }
      return { ingested, duplicates };
    };
    const [ra, rb] = await Promise.all([run(a, 'A'), run(b, 'B')]);
    const shared = BATCHES * (PER - 60);
    assert.equal(ra.ingested + rb.ingested, BATCHES * 60 * 2 + shared);
    assert.equal(ra.duplicates + rb.duplicates, shared);
    for (const kb of [a, b]) {
      const s = await kb.stats();
      assert.equal(s.total_claims, BATCHES * 60 * 2 + shared);
      assert.equal((await kb.claimsFor('S3_7')).length, 1, 'a shared fact is stored once');
    }
    await a.close();
    await b.close();
    // The log itself holds each claim once.
    const schema = `k${n}`;
    const { rows } = await admin.query(`SELECT sum(n)::int AS entries FROM ${schema}.evident_kb_log`);
    assert.equal(rows[0].entries, BATCHES * 60 * 2 + shared);
  });

  test('reopen rebuilds the same state from the log', async () => {
    const url = await freshUrl();
    const a = await open(url);
    await a.registerVocabulary('bio');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await a.ingestBatch(
        Array.from({ length: 50 }, (_, k) =>
          claim(`G${i}_${k}`, 'gene', 'associated_with', `D${k % 4}`, 'disease', `p${i}`),
        ),
      );
      ids.push(...r.claim_ids);
    }
    const root = await a.ingest(['G0_0', 'gene'], ['upregulates', 'regulation'], ['G1_1', 'gene'], {
      source_type: 'experiment',
      source_id: 'lab',
    });
    await a.ingest(['G1_1', 'gene'], ['associated_with', 'association'], ['D9', 'disease'], {
      source_type: 'inference',
      source_id: 'agent',
      derived_from: [root],
    });
    await a.retractCascade('lab', 'bad reagent');
    await a.retract('p3', 'duplicate publication');
    await a.ingestInquiry('does G4_0 touch D5?', 'G4_0', 'D5');
    // Everything that is a function of the log (not of the clock: freshness decays, as_of is "now").
    const timeless = (v: unknown): unknown =>
      JSON.parse(JSON.stringify(v, (k, x) => (k === 'as_of' || k === 'freshness' || k === 'score' ? undefined : x)));
    const snap = async (kb: typeof a) =>
      timeless({
        stats: { ...(await kb.stats()), location: null },
        d0: await kb.query('D0', { depth: 2 }),
        ents: await kb.listEntities({}),
        health: await kb.knowledgeHealth(),
        claims: await Promise.all(ids.filter((_, i) => i % 10 === 0).map((id) => kb.getClaim(id))),
        inquiries: await kb.openInquiries(),
        schema: await kb.schema(),
      });
    const before = await snap(a);
    await a.close();
    await using b = await open(url);
    assert.deepEqual(await snap(b), before);
  });

  test('at() answers as of a past moment, also in a handle that rebuilt from the log', async () => {
    const url = await freshUrl();
    await using a = await open(url);
    await a.ingestBatch([
      claim('EGFR', 'gene', 'associated_with', 'glioma', 'disease', 's1'),
      claim('EGFR', 'gene', 'associated_with', 'lung cancer', 'disease', 's2'),
    ]);
    await sleep(15);
    const t1 = new Date();
    await sleep(15);
    await a.ingest(['EGFR', 'gene'], ['associated_with', 'association'], ['colon cancer', 'disease'], {
      source_type: 'literature',
      source_id: 's3',
    });
    await a.retract('s1', 'wrong');
    await using b = await open(url);
    for (const kb of [a, b]) {
      const past = await (await kb.at(t1)).query('EGFR', { depth: 1 });
      assert.deepEqual(past.direct_relationships.map((x) => x.target.name.toLowerCase()).sort(), [
        'glioma',
        'lung cancer',
      ]);
      const now = await kb.query('EGFR', { depth: 1 });
      assert.deepEqual(now.direct_relationships.map((x) => x.target.name.toLowerCase()).sort(), [
        'colon cancer',
        'lung cancer',
      ]);
    }
  });
  test('snapshot of a PostgreSQL base to a file, and restore of it into an empty PostgreSQL base', async () => {
    const dir = tempDir('evident-kb-pg-');
    try {
      const src = await open(await freshUrl());
      await src.ingestBatch([
        claim('KRAS', 'gene', 'associated_with', 'pancreatic cancer', 'disease', 'a'),
        claim('KRAS', 'gene', 'associated_with', 'pancreatic cancer', 'disease', 'b'),
      ]);
      await sleep(10);
      const t1 = Date.now();
      await sleep(10);
      await src.retract('a', 'superseded');
      const file = join(dir.path, 'snap.kb');
      const snap = await src.snapshot(file);
      assert.equal(snap.log_seq, 3);
      await src.close();
      const destUrl = await freshUrl();
      await using restored = await KbDB.restore(file, destUrl);
      const s = await restored.stats();
      assert.deepEqual([s.backend, s.total_claims, s.retracted_claims, s.log_seq], ['postgres', 2, 1, 3]);
      // Timestamps are kept, so time travel answers the same after the restore.
      assert.equal(
        (await (await restored.at(t1)).query('KRAS', { depth: 1 })).direct_relationships[0]!.source_count,
        2,
      );
      // Restore refuses a base that is not empty.
      await assert.rejects(
        KbDB.restore(file, destUrl),
        (e: unknown) => e instanceof KbValidationError && e.field === 'dest',
      );
    } finally {
      dir.cleanup();
    }
  });
});

describe('open(url) errors through the public API', { skip: probe.skip }, () => {
  test('bad URL, unreachable server, missing database: KbOpenError naming the path', async () => {
    const check = (code: string) => (e: unknown) => e instanceof KbOpenError && e.code === code && e.field === 'path';
    await assert.rejects(open('postgres://[oops'), check('invalid_path'));
    await assert.rejects(open('postgresql://postgres:pw@127.0.0.1:1/kb'), check('backend_unavailable'));
    const u = new URL(probe.url);
    u.pathname = '/evident_kb_missing_db';
    await assert.rejects(open(u.toString()), check('not_found'));
  });
});
