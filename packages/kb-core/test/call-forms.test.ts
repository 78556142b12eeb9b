// Issue #14: the seed's positional call forms work beside the options objects, nothing is ignored silently,
// and unknown option keys are errors. Also checkInquiryMatches() without arguments, and snapshot(dest) into a
// directory with a manifest that KbDB.restore verifies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { KbDB, KbValidationError, open, quickstart } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

const refused = (field: string, code?: string) => (e: unknown) =>
  e instanceof KbValidationError && e.field === field && (code === undefined || e.code === code);

test('positional forms: query, claimsFor, listEntities, pathExists, findPaths, findBridges, ingest', async (t) => {
  const kb = tempKb();
  t.after(kb.cleanup);
  await using db = await quickstart(kb.path);
  const prov = (id: string) => ({ source_type: 'literature', source_id: id });
  const low = await db.ingest(['olaparib', 'drug'], ['targets', 'pharmacology'], ['PARP1', 'protein'], prov('a'), 0.3);
  assert.equal((await db.getClaim(low))!.confidence, 0.3, 'the positional confidence is stored');
  const withPayload = await db.ingest(
    ['PARP1', 'protein'],
    ['interacts_with', 'molecular'],
    ['BRCA1', 'protein'],
    prov('b'),
    null,
    {
      note: 'positional payload',
    },
  );
  assert.deepEqual((await db.getClaim(withPayload))!.payload, { note: 'positional payload' });
  await db.ingest(['BRCA1', 'protein'], ['interacts_with', 'molecular'], ['RAD51', 'protein'], prov('c'), {
    confidence: 0.8,
  });
  await db.ingest(['PARP1', 'protein'], ['interacts_with', 'molecular'], ['XRCC1', 'protein'], prov('d'));
  await db.ingest(['XRCC1', 'protein'], ['interacts_with', 'molecular'], ['RAD51', 'protein'], prov('e'));

  assert.equal((await db.query('olaparib', 1)).depth, 1);
  assert.deepEqual((await db.query('olaparib', 1)).entities, (await db.query('olaparib', { depth: 1 })).entities);
  assert.equal((await db.query('olaparib', 3)).entities.length, 4);
  assert.equal((await db.claimsFor('PARP1', 'targets')).length, 1);
  assert.equal((await db.claimsFor('PARP1', { predicate_type: 'interacts_with' })).length, 2);
  assert.deepEqual(
    (await db.listEntities('drug')).map((e) => e.id),
    ['drug:olaparib'],
  );
  assert.deepEqual((await db.listEntities(undefined, 2)).map((e) => e.id).sort(), [
    'protein:brca1',
    'protein:parp1',
    'protein:rad51',
    'protein:xrcc1',
  ]);
  assert.deepEqual(
    await db.listEntities('protein', 3),
    await db.listEntities({ entity_type: 'protein', min_claims: 3 }),
  );
  assert.equal(await db.pathExists('olaparib', 'RAD51', 2), false);
  assert.equal(await db.pathExists('olaparib', 'RAD51', 3), true);
  assert.equal((await db.findPaths('olaparib', 'RAD51', 3, 1)).length, 1);
  assert.equal((await db.findPaths('olaparib', 'RAD51', 3)).length, 2);
  assert.equal((await db.findBridges(1)).length, 1);
  const view = await db.at(Date.now());
  assert.equal((await view.query('olaparib', 1)).depth, 1, 'views take the same forms');

  // Positional arguments followed by an options object, as Python's keyword arguments follow positional ones.
  assert.equal((await db.query('olaparib', 1, { max_entities: 1 })).depth, 1);
  assert.equal((await db.claimsFor('PARP1', 'interacts_with', { status: 'all' })).length, 2);
  assert.equal(
    (await (db.findPaths as (...a: unknown[]) => Promise<unknown[]>)('olaparib', 'RAD51', 3, { top_k: 1 })).length,
    1,
  );
  const both = await db.ingest(['RAD51', 'protein'], ['binds', 'molecular'], ['DNA', 'compound'], prov('f'), 0.4, {
    kind: 'a positional payload, not options',
  });
  assert.deepEqual((await db.getClaim(both))!.payload, { kind: 'a positional payload, not options' });
  await assert.rejects(db.query('olaparib', 1, { depth: 2 } as never), refused('options.depth', 'invalid_arguments'));
  await assert.rejects(db.query('olaparib', 1, { deep: 2 } as never), refused('options.deep', 'unknown_option'));

  // Anything else is an error naming the argument.
  await assert.rejects(db.query('olaparib', 'deep' as never), refused('depth', 'invalid_type'));
  await assert.rejects(db.query('olaparib', { dpeth: 1 } as never), refused('options.dpeth', 'unknown_option'));
  await assert.rejects(
    (db.query as (...a: unknown[]) => Promise<unknown>)('olaparib', { depth: 1 }, 2),
    refused('options', 'invalid_arguments'),
  );
  await assert.rejects(db.claimsFor('PARP1', 3 as never), refused('predicate_type'));
  await assert.rejects(db.listEntities('drug', '2' as never), refused('min_claims'));
  await assert.rejects(
    (db.findPaths as (...a: unknown[]) => Promise<unknown>)('a', 'b', 3, 5, 7),
    refused('arguments', 'invalid_arguments'),
  );
  await assert.rejects(db.findBridges({ k: 3 } as never), refused('options.k'));
  await assert.rejects(
    db.ingest(['a', 'gene'], ['binds', 'molecular'], ['b', 'protein'], prov('z'), '0.3' as never),
    refused('confidence', 'invalid_type'),
  );
  await assert.rejects(
    db.ingest(['a', 'gene'], ['binds', 'molecular'], ['b', 'protein'], prov('z'), { confidense: 0.3 } as never),
    refused('options.confidense', 'unknown_option'),
  );
  await assert.rejects(db.findConfidenceAlerts({ stale: 3 } as never), refused('options.stale'));
});

test('open() and quickstart() refuse unknown option keys (embeddings, a typo of embedding) and a non-boolean strict', async (t) => {
  const kb = tempKb();
  t.after(kb.cleanup);
  await assert.rejects(open(kb.path, { embeddings: false, strict: false } as never), refused('options.embeddings'));
  await assert.rejects(quickstart(kb.path, { vocab: ['bio'] } as never), refused('options.vocab'));
  await assert.rejects(KbDB.open(kb.path, { strict: 'yes' } as never), refused('strict'));
  // The seed's open(path, backend) is a form of its own (packages/kb/test/upstream-call-forms.test.ts); a
  // positional value of another type names the argument.
  await assert.rejects(open(kb.path, 3 as never), refused('backend', 'invalid_type'));
  await assert.rejects(quickstart(kb.path, 'bio' as never), refused('vocabs', 'invalid_type'));
  await using db = await open(kb.path);
  await assert.rejects(
    db.registerPredicate('measured_in', { subject_type: ['compound'] } as never),
    refused('options.subject_type', 'unknown_option'),
  );
  await assert.rejects(
    db.registerVocabulary('lab', { entity_type: ['assay'] } as never),
    refused('vocab.entity_type', 'unknown_option'),
  );
});

test('checkInquiryMatches() without arguments checks every open inquiry; with one, those naming it', async (t) => {
  const kb = tempKb();
  t.after(kb.cleanup);
  await using db = await quickstart(kb.path);
  await db.ingest(['olaparib', 'drug'], ['targets', 'pharmacology'], ['PARP1', 'protein'], {
    source_type: 'literature',
    source_id: 'a',
  });
  const answered = await db.ingestInquiry('Does olaparib act on PARP1?', 'olaparib', 'PARP1');
  const open1 = await db.ingestInquiry('Does olaparib treat ovarian cancer?', 'olaparib', 'ovarian cancer');
  const hinted = await db.ingestInquiry('Does PARP1 inhibit olaparib?', 'PARP1', 'olaparib', 'inhibits');
  assert.equal((await db.openInquiries()).length, 3, 'a claim from before an inquiry does not match it');
  assert.deepEqual(
    (await db.checkInquiryMatches()).map((q) => q.inquiry_id),
    [answered.inquiry_id],
  );
  assert.deepEqual(
    (await db.checkInquiryMatches('PARP1')).map((q) => q.inquiry_id),
    [answered.inquiry_id],
  );
  assert.deepEqual(await db.checkInquiryMatches('ovarian cancer'), []);
  // Both given: the inquiries a claim linking them would answer (as before).
  assert.deepEqual(
    (await db.checkInquiryMatches('olaparib', 'ovarian cancer')).map((q) => q.inquiry_id),
    [open1.inquiry_id],
  );
  assert.deepEqual(
    (await db.checkInquiryMatches({ subject_id: 'PARP1', object_id: 'olaparib', predicate: 'inhibits' }))
      .map((q) => q.inquiry_id)
      .sort(),
    [answered.inquiry_id, hinted.inquiry_id].sort(),
  );
  await assert.rejects(db.checkInquiryMatches(3 as never), refused('subject_id'));
});

test('snapshot(dir) writes the snapshot and a manifest; KbDB.restore takes the directory or the file', async (t) => {
  const kb = tempKb();
  t.after(kb.cleanup);
  await using db = await open(kb.path);
  await db.ingestBatch([claim('A', 'gene', 'x', 'B', 'gene', 's1'), claim('A', 'gene', 'x', 'C', 'gene', 's2')]);
  const dir = join(kb.dir, 'backups');
  mkdirSync(dir);
  const snap = await db.snapshot(dir);
  assert.ok(snap.manifest && snap.path.startsWith(dir));
  const manifest = JSON.parse(readFileSync(snap.manifest, 'utf8'));
  assert.equal(manifest.format, 'evident-kb-snapshot/1');
  assert.equal(manifest.log_seq, snap.log_seq);
  assert.deepEqual(manifest.counts, { entities: 3, active_claims: 2, claims: 2 });
  assert.match(manifest.sha256, /^[0-9a-f]{64}$/);
  await db.ingest(['A', 'gene'], ['x', 'association'], ['D', 'gene'], { source_type: 'l', source_id: 's3' });
  await new Promise((r) => setTimeout(r, 5));
  const second = await db.snapshot(dir);
  assert.equal(readdirSync(dir).length, 4);

  await using fromDir = await KbDB.restore(dir, join(kb.dir, 'r1.kb'));
  assert.equal((await fromDir.stats()).claim_count, 3, 'the newest snapshot in the directory');
  await using fromFile = await KbDB.restore(snap.path, join(kb.dir, 'r2.kb'));
  assert.equal((await fromFile.stats()).claim_count, 2);

  appendFileSync(second.path, 'damage');
  await assert.rejects(KbDB.restore(dir, join(kb.dir, 'r3.kb')), refused('src', 'checksum_mismatch'));
  const empty = join(kb.dir, 'empty');
  mkdirSync(empty);
  await assert.rejects(KbDB.restore(empty, join(kb.dir, 'r4.kb')), refused('src', 'not_found'));
});
