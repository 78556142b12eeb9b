// Issue #36, point 7: the seed's and the upstream's positional call forms run unchanged through '@evident/kb':
// `open(path, backend)`, `quickstart(path, vocabs, curator)` (each optionally followed by an options object, as
// Python's keyword arguments follow its positional ones), `KbDB.open`/`KbDB.restore` alike, and
// `ingestInquiry(question, [name, type], [name, type], hint)`. A positional value of the wrong type is a
// KbValidationError naming the argument. The other seed forms (query, claimsFor, ingest, ingestText, ...) are
// tested in kb-core's call-forms.test.ts and kb-extract's seed-forms.test.ts; the remaining ones are here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@evident/testkit';
import { KbDB, KbValidationError, open, quickstart } from '@evident/kb';

const refused = (field: string, code?: string) => (e: unknown) =>
  e instanceof KbValidationError && e.field === field && (code === undefined || e.code === code);
const prov = (source_id: string) => ({ source_type: 'literature', source_id });

function dir(t: { after(fn: () => unknown): void }): (name: string) => string {
  const d = tempDir('evident-kb-forms-');
  t.after(d.cleanup);
  return (name) => join(d.path, name);
}

test("open(path, backend), KbDB.open(path, backend) and KbDB.restore(src, dest, backend): the seed's kb.open", async (t) => {
  const at = dir(t);
  const a = await open(at('a.kb'), 'graph');
  t.after(() => a.close());
  assert.equal((await a.stats()).engine, 'graph (requested: graph)');
  assert.equal((await a.ingestText('Olaparib inhibits PARP1.', 'note:1')).ingested, 1, 'opened with extraction');
  const snap = await a.snapshot(at('a.snapshot'));

  const rust = await KbDB.open(at('b.kb'), 'rust');
  t.after(() => rust.close());
  assert.equal((await rust.stats()).engine, 'graph (requested: rust)');
  // The positional backend followed by an options object, as Python's open(path, 'auto', strict=True).
  const strict = await open(at('c.kb'), 'auto', { strict: true });
  t.after(() => strict.close());
  assert.equal(strict.strict, true);
  assert.equal((await strict.stats()).engine, 'graph (requested: auto)');
  const restored = await KbDB.restore(snap.path, at('d.kb'), 'graph');
  t.after(() => restored.close());
  assert.equal((await restored.stats()).claim_count, 1);
  assert.equal((await restored.ingestText('Imatinib inhibits ABL1.')).ingested, 1, 'restored with extraction');

  await assert.rejects(open(at('e.kb'), 3 as never), refused('backend', 'invalid_type'));
  await assert.rejects(open(at('e.kb'), 'sqlite' as never), refused('backend', 'unknown_backend'));
  await assert.rejects(
    open(at('e.kb'), 'graph', { backend: 'auto' } as never),
    refused('options.backend', 'invalid_arguments'),
  );
  await assert.rejects(
    open(at('e.kb'), 'graph', { strcit: true } as never),
    refused('options.strcit', 'unknown_option'),
  );
  await assert.rejects(
    (open as (...a: unknown[]) => Promise<unknown>)(at('e.kb'), 'graph', 'strict'),
    refused('arguments', 'invalid_arguments'),
  );
  await assert.rejects(KbDB.open(at('e.kb'), ['graph'] as never), refused('backend', 'invalid_type'));
});

test("quickstart(path, vocabs, curator): the seed's kb.quickstart, with or without an options object after it", async (t) => {
  const at = dir(t);
  const bio = await quickstart(at('bio.kb'), ['bio'], 'heuristic');
  t.after(() => bio.close());
  assert.deepEqual((await bio.schema()).registered.vocabularies, ['bio']);
  const id = await bio.ingest(
    ['BRCA1', 'gene'],
    ['associated_with', 'association'],
    ['breast cancer', 'disease'],
    prov('p:1'),
  );
  assert.equal((await bio.getClaim(id))!.confidence, 0.75, "curator 'heuristic': literature's default confidence");
  assert.equal((await bio.ingestText('Olaparib inhibits PARP1.', 'note:1')).ingested, 1, 'opened with extraction');

  const ops = await quickstart(at('ops.kb'), ['devops', 'ml'], 'none');
  t.after(() => ops.close());
  assert.deepEqual((await ops.schema()).registered.vocabularies.sort(), ['devops', 'ml']);
  const dep = await ops.ingest(
    ['api-gateway', 'service'],
    ['depends_on', 'dependency'],
    ['redis', 'service'],
    prov('cfg'),
  );
  assert.equal((await ops.getClaim(dep))!.confidence, 1, "curator 'none': confidence 1");

  // vocabs left out (null), the curator given; and the positional forms followed by an options object.
  const dflt = await quickstart(at('dflt.kb'), null, 'none');
  t.after(() => dflt.close());
  assert.deepEqual((await dflt.schema()).registered.vocabularies, ['bio']);
  const strict = await quickstart(at('strict.kb'), ['bio'], 'heuristic', { strict: true });
  t.after(() => strict.close());
  await assert.rejects(
    strict.ingest(['BRCA1', 'gene'], ['associated_with', 'relates_to'], ['breast cancer', 'disease'], prov('p:2')),
    refused('predicate[1]', 'predicate_class'),
  );
  const onlyVocabs = await quickstart(at('v.kb'), ['ml'], { strict: true });
  t.after(() => onlyVocabs.close());
  assert.equal(onlyVocabs.strict, true);
  assert.deepEqual((await onlyVocabs.schema()).registered.vocabularies, ['ml']);

  await assert.rejects(quickstart(at('x.kb'), 'bio' as never), refused('vocabs', 'invalid_type'));
  await assert.rejects(quickstart(at('x.kb'), ['bio'], 3 as never), refused('curator', 'invalid_type'));
  await assert.rejects(quickstart(at('x.kb'), ['bio'], 'llm' as never), refused('curator', 'invalid_value'));
  await assert.rejects(quickstart(at('x.kb'), ['biology']), refused('vocabs[0]', 'unknown_vocabulary'));
  await assert.rejects(
    quickstart(at('x.kb'), ['bio'], 'heuristic', { curator: 'none' }),
    refused('options.curator', 'invalid_arguments'),
  );
  await assert.rejects(
    (quickstart as (...a: unknown[]) => Promise<unknown>)(at('x.kb'), ['bio'], 'heuristic', 'strict'),
    refused('arguments', 'invalid_arguments'),
  );
});

test('ingestInquiry(question, [name, type], [name, type], hint): only entities of those types answer', async (t) => {
  const at = dir(t);
  const path = at('inq.kb');
  let typed: string;
  let named: string;
  {
    const db = await quickstart(path, ['bio'], 'heuristic');
    const q = await db.ingestInquiry(
      'Is BRCA1 associated with breast cancer?',
      ['BRCA1', 'gene'],
      ['breast cancer', 'disease'],
      'associated_with',
    );
    typed = q.inquiry_id;
    assert.deepEqual(
      [q.subject, q.subject_type, q.object, q.object_type, q.subject_id, q.object_id, q.status],
      ['BRCA1', 'gene', 'breast cancer', 'disease', 'gene:brca1', 'disease:breast cancer', 'open'],
    );
    named = (await db.ingestInquiry('BRCA1 and breast cancer?', 'BRCA1', 'breast cancer')).inquiry_id;
    assert.equal((await db.getInquiry(named))!.subject_type, undefined, 'a plain name: any type');
    // A claim about a phenotype of that name answers the untyped inquiry only.
    const pheno = await db.ingest(
      ['BRCA1', 'gene'],
      ['associated_with', 'association'],
      ['breast cancer', 'phenotype'],
      prov('p:1'),
    );
    assert.equal((await db.getInquiry(named))!.status, 'matched');
    assert.equal((await db.getInquiry(typed))!.status, 'open');
    assert.deepEqual(await db.checkInquiryMatches('gene:brca1', 'phenotype:breast cancer'), []);
    const disease = await db.ingest(
      ['BRCA1', 'gene'],
      ['associated_with', 'association'],
      ['breast cancer', 'disease'],
      prov('p:2'),
    );
    const done = (await db.getInquiry(typed))!;
    assert.deepEqual([done.status, done.answer_claim_ids], ['matched', [disease]]);
    assert.notEqual(disease, pheno);
    await db.close();
  }
  // The types are in the log: a reopened base answers the same.
  const db = await open(path, 'graph');
  t.after(() => db.close());
  const done = (await db.getInquiry(typed))!;
  assert.deepEqual([done.status, done.subject_type, done.object_type], ['matched', 'gene', 'disease']);
  const late = await db.ingestInquiry('Does olaparib inhibit PARP1?', ['olaparib', 'drug'], ['PARP1', 'protein']);
  assert.equal(late.object_id, 'protein:parp1', 'not in the base yet: the id it would have');

  await assert.rejects(db.ingestInquiry('q?', ['BRCA1'] as never, 'x'), refused('subject', 'invalid_tuple'));
  await assert.rejects(db.ingestInquiry('q?', 'x', ['BRCA1', 3] as never), refused('object[1]', 'invalid_type'));
  await assert.rejects(db.ingestInquiry('q?', 'x', ['', 'gene']), refused('object[0]'));
  await assert.rejects(db.ingestInquiry('q?', 7 as never, 'x'), refused('subject', 'invalid_type'));
});

test('the remaining seed forms: explain(entity, depth), ingestChatFile(path, platform), search(query, k), rawQuery(cypher), findGaps(patterns)', async (t) => {
  const at = dir(t);
  const db = await quickstart(at('rest.kb'), ['bio'], 'heuristic');
  t.after(() => db.close());
  await db.ingest(['olaparib', 'drug'], ['inhibits', 'pharmacology'], ['PARP1', 'protein'], prov('p:1'));
  await db.ingest(['PARP1', 'protein'], ['associated_with', 'association'], ['breast cancer', 'disease'], prov('p:2'));
  assert.equal((await db.explain('olaparib', 1)).entities.length, 1);
  assert.equal((await db.explain('olaparib', 2)).entities.length, 2);
  await assert.rejects(db.explain('olaparib', '2' as never), refused('depth', 'invalid_type'));

  const transcript = at('chat.txt');
  writeFileSync(transcript, 'User: Does imatinib inhibit ABL1?\nAssistant: Imatinib inhibits ABL1.\n');
  const r = await db.ingestChatFile(transcript, 'text');
  assert.equal(r.ingested, 1);
  await assert.rejects(db.ingestChatFile(transcript, 3 as never), refused('platform', 'invalid_type'));

  await db.embeddingsReady();
  assert.equal((await db.search('olaparib', 1)).results.length, 1);
  const rows = await db.rawQuery(
    'MATCH (d:drug)-[r:INHIBITS]->(p) RETURN d.name AS drug, p.name AS target ORDER BY drug',
  );
  assert.deepEqual(rows.columns, ['drug', 'target']);
  assert.deepEqual(rows.rows, [
    ['imatinib', 'ABL1'],
    ['olaparib', 'PARP1'],
  ]);
  const gaps = await db.findGaps([{ entity_type: 'drug', predicate: 'treats', direction: 'outgoing' }]);
  assert.deepEqual(gaps.map((g) => g.entity.id).sort(), ['drug:imatinib', 'drug:olaparib']);
});
