// Issue #36, point 13: the READMEs' own data named one target twice. `ingestText('Olaparib inhibits PARP1.')`
// (the repository README) makes a gene of PARP1, the kb README's reasoning example and kb-core's search example
// state PARP1 as a protein; in one base the console showed the relationship twice, "not corroborated", and a
// predicted link "PARP1 <-> PARP1". Under `bio` (Vocabulary.unified_types: gene ~ protein) a name stated as
// either is one entity, with the id of the type it was first stated with, so corroboration, queries, paths,
// inquiries and predictions see one target.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDir } from '@evident/testkit';
import { type KbDB, open, quickstart } from '@evident/kb';

function paths(t: { after(fn: () => unknown): void }): (name: string) => string {
  const d = tempDir('evident-kb-gene-protein-');
  t.after(d.cleanup);
  return (name) => join(d.path, name);
}

/** The READMEs' examples, in the order the repository README, the kb README and kb-core's README give them. */
async function readmeData(db: KbDB): Promise<{ text: string; literature: string; search: string }> {
  // README.md, "Use the knowledge base".
  await db.ingest(
    ['BRCA1', 'gene'],
    ['associated_with', 'association'],
    ['breast cancer', 'disease'],
    { source_type: 'literature', source_id: 'pmid:7545954' },
    { confidence: 0.9 },
  );
  const text = (await db.ingestText('Olaparib inhibits PARP1.', { source_id: 'note:1' })).claim_ids[0]!;
  // packages/kb/README.md, "Reasoning over evidence".
  const [literature] = (
    await db.ingestBatch([
      {
        subject: ['olaparib', 'drug'],
        predicate: ['inhibits', 'pharmacology'],
        object: ['PARP1', 'protein'],
        provenance: { source_type: 'literature', source_id: 'pmid:1' },
        confidence: 0.9,
      },
      {
        subject: ['PARP1', 'protein'],
        predicate: ['associated_with', 'association'],
        object: ['breast cancer', 'disease'],
        provenance: { source_type: 'database', source_id: 'omim' },
        confidence: 0.8,
      },
    ])
  ).claim_ids;
  // packages/kb-core/README.md, "Search".
  const [search] = (
    await db.ingestBatch([
      {
        subject: ['olaparib', 'drug'],
        predicate: ['inhibits', 'pharmacology'],
        object: ['PARP1', 'protein'],
        provenance: { source_type: 'literature', source_id: 'pmid:19553641' },
      },
      {
        subject: ['olaparib', 'drug'],
        predicate: ['treats', 'pharmacology'],
        object: ['breast cancer', 'disease'],
        provenance: { source_type: 'literature', source_id: 'pmid:28578601' },
      },
    ])
  ).claim_ids;
  return { text, literature: literature!, search: search! };
}

test("the READMEs' data: PARP1 from text (gene) and from the examples (protein) is one target", async (t) => {
  const at = paths(t);
  const path = at('readme.kb');
  const db = await quickstart(path, ['bio'], 'heuristic');
  const corroborated: { content_id: string; count: number }[] = [];
  db.on('claim_corroborated', (e) => corroborated.push(e));
  const ids = await readmeData(db);

  // One entity, whichever type names it; its id keeps the type it was first stated with (the text's gene).
  assert.equal(await db.resolve('PARP1'), 'gene:parp1');
  assert.equal(await db.resolve('PARP1', 'protein'), 'gene:parp1');
  assert.equal(await db.resolve('protein:parp1'), 'gene:parp1');
  assert.deepEqual(
    (await db.listEntities()).filter((e) => e.name === 'PARP1').map((e) => e.id),
    ['gene:parp1'],
  );
  const parp1 = (await db.getEntity('PARP1'))!;
  assert.deepEqual(
    [parp1.type, parp1.types, parp1.claim_count, parp1.source_count],
    ['gene', ['gene', 'protein'], 4, 4],
  );
  assert.deepEqual(
    (await db.listEntities('protein')).map((e) => e.id),
    ['gene:parp1'],
    'listed under each type it was stated with',
  );

  // Each claim keeps the type it was stated with; all three state one fact, which three sources corroborate.
  const text = (await db.getClaim(ids.text))!;
  const literature = (await db.getClaim(ids.literature))!;
  assert.deepEqual(text.object, ['PARP1', 'gene']);
  assert.deepEqual(literature.object, ['PARP1', 'protein']);
  assert.equal(literature.object_id, 'gene:parp1');
  assert.equal(literature.content_id, text.content_id);
  assert.equal((await db.claimsByContentId(text.content_id)).length, 3);
  assert.deepEqual(
    corroborated.filter((e) => e.content_id === text.content_id).map((e) => e.count),
    [2, 3],
  );

  // Queries see one relationship, corroborated by its three sources.
  const frame = await db.query('olaparib', 1);
  const inhibits = frame.direct_relationships.filter((r) => r.predicate === 'inhibits');
  assert.equal(inhibits.length, 1);
  assert.deepEqual([inhibits[0]!.target.id, inhibits[0]!.source_count], ['gene:parp1', 3]);
  assert.equal(
    frame.direct_relationships.length,
    2,
    'inhibits PARP1 and treats breast cancer, no PARP1 relationship twice',
  );
  assert.match(frame.narrative, /olaparib inhibits PARP1 \(3 sources/);
  assert.deepEqual(
    (await db.consensus('olaparib', 'PARP1')).assertions.map((a) => [a.predicate, a.source_count]),
    [['inhibits', 3]],
  );
  assert.equal(await db.pathExists('olaparib', 'breast cancer', 1), true);
  assert.equal((await db.findPaths('BRCA1', 'PARP1', 2)).length, 1, 'BRCA1 - breast cancer - PARP1, one path');

  // Predictions and bridges never link PARP1 to itself. The one path through PARP1 (olaparib inhibits it, it
  // is associated with breast cancer) supports olaparib treating breast cancer, with the claims of both types.
  assert.deepEqual(await db.predict('olaparib'), [], 'may_treat breast cancer is stated already (treats)');
  const hypothesis = await db.testHypothesis('olaparib', 'treats', 'breast cancer');
  assert.deepEqual(
    hypothesis.indirect_support.map((p) => [p.via, p.claim_ids.length]),
    [['gene:parp1', 4]],
  );
  const bridges = await db.findBridges(20);
  assert.ok(!bridges.some((b) => b.source.name === b.target.name), JSON.stringify(bridges));

  // A protein-only predicate on the gene-first entity warns of nothing: each claim is judged by its own types.
  const located = await db.ingestDetailed(
    ['PARP1', 'protein'],
    ['located_in', 'molecular'],
    ['nucleus', 'cellular_component'],
    { source_type: 'database', source_id: 'uniprot:P09874' },
  );
  assert.deepEqual(located.warnings, []);
  assert.deepEqual((await db.getClaim(located.claim_id))!.warnings, undefined);
  assert.equal((await db.qualityReport()).vocabulary_warnings.claims, 0);
  assert.deepEqual(
    (await db.rawQuery("MATCH (p:protein {name: 'PARP1'}) RETURN p.id")).rows,
    [['gene:parp1']],
    'Cypher finds it under either label',
  );
  // An inquiry about the protein is answered by a claim about the gene.
  const q = await db.ingestInquiry('Is PARP1 a biomarker?', ['PARP1', 'protein'], ['ovarian cancer', 'disease']);
  await db.ingest(['PARP1', 'gene'], ['biomarker_for', 'clinical'], ['ovarian cancer', 'disease'], {
    source_type: 'literature',
    source_id: 'pmid:2',
  });
  assert.equal((await db.getInquiry(q.inquiry_id))!.status, 'matched');
  const before = await db.getEntity('PARP1');
  await db.close();

  // The log replays to the same entity.
  const again = await open(path);
  t.after(() => again.close());
  assert.deepEqual(await again.getEntity('PARP1'), before);
  assert.deepEqual((await again.getClaim(ids.literature))!.object, ['PARP1', 'protein']);
});

test('the entity keeps the type it was first stated with; a base without bio keeps gene and protein apart', async (t) => {
  const at = paths(t);
  const db = await quickstart(at('protein-first.kb'), ['bio'], 'heuristic');
  t.after(() => db.close());
  await db.ingest(['olaparib', 'drug'], ['inhibits', 'pharmacology'], ['PARP1', 'protein'], {
    source_type: 'literature',
    source_id: 'pmid:1',
  });
  const r = await db.ingestText('Olaparib inhibits PARP1.', 'note:1');
  assert.equal((await db.getClaim(r.claim_ids[0]!))!.object_id, 'protein:parp1');
  assert.equal((await db.query('olaparib', 1)).direct_relationships[0]!.source_count, 2);
  const gene = await db.ingest(['PARP1', 'gene'], ['inhibits', 'pharmacology'], ['olaparib', 'drug'], {
    source_type: 'literature',
    source_id: 'pmid:3',
  });
  assert.equal((await db.getClaim(gene))!.subject_id, 'protein:parp1', 'the gene is the protein entity');

  // Without a vocabulary that unifies them, they are two entities, as before.
  const plain = await open(at('plain.kb'));
  t.after(() => plain.close());
  const prov = { source_type: 'literature', source_id: 'pmid:1' };
  await plain.ingest(['olaparib', 'drug'], ['inhibits', 'pharmacology'], ['PARP1', 'protein'], prov);
  await plain.ingest(['olaparib', 'drug'], ['inhibits', 'pharmacology'], ['PARP1', 'gene'], prov);
  assert.deepEqual((await plain.listEntities()).map((e) => e.id).sort(), [
    'drug:olaparib',
    'gene:parp1',
    'protein:parp1',
  ]);
});

test('a gene and its protein kept apart (bio registered after them) are never proposed as a link to each other', async (t) => {
  const at = paths(t);
  const c = (s: [string, string], p: string, o: [string, string], source_id: string) => ({
    subject: s,
    predicate: [p, 'molecular'] as [string, string],
    object: o,
    provenance: { source_type: 'literature', source_id },
  });
  // Bridges: the gene and the protein share two neighbours (and olaparib and XRCC1 share both of them).
  const a = await open(at('late-bridges.kb'));
  t.after(() => a.close());
  await a.ingestBatch([
    c(['olaparib', 'drug'], 'binds', ['PARP1', 'gene'], 's1'),
    c(['olaparib', 'drug'], 'binds', ['PARP1', 'protein'], 's2'),
    c(['XRCC1', 'protein'], 'interacts_with', ['PARP1', 'gene'], 's3'),
    c(['XRCC1', 'protein'], 'interacts_with', ['PARP1', 'protein'], 's4'),
  ]);
  const pair = (b: { source: { id: string }; target: { id: string } }) => [b.source.id, b.target.id].sort().join(' ');
  assert.deepEqual((await a.findBridges(10)).map(pair).sort(), [
    'drug:olaparib protein:xrcc1',
    'gene:parp1 protein:parp1',
  ]);
  await a.registerVocabulary('bio');
  assert.deepEqual((await a.findBridges(10)).map(pair), ['drug:olaparib protein:xrcc1'], 'no PARP1 <-> PARP1');
  // Apart from before, they stay two entities; a new claim of either type joins the one created first.
  const late = await a.ingest(['PARP1', 'protein'], ['binds', 'molecular'], ['niraparib', 'drug'], {
    source_type: 'literature',
    source_id: 's5',
  });
  assert.equal((await a.getClaim(late))!.subject_id, 'gene:parp1');

  // Predictions: no hop from the gene to its own protein, and nothing predicted of the gene about its protein.
  const b = await open(at('late-predict.kb'));
  t.after(() => b.close());
  await b.ingestBatch([
    c(['talazoparib', 'drug'], 'inhibits', ['PARP1', 'gene'], 's1'),
    c(['PARP1', 'gene'], 'associated_with', ['PARP1', 'protein'], 's2'),
    c(['PARP1', 'gene'], 'inhibits', ['CASP3', 'protein'], 's3'),
    c(['CASP3', 'protein'], 'associated_with', ['PARP1', 'protein'], 's4'),
    c(['CASP3', 'protein'], 'associated_with', ['breast cancer', 'disease'], 's5'),
  ]);
  const targets = async (x: string) => (await b.predict(x)).map((p) => `${p.predicate} ${p.target.id}`).sort();
  assert.deepEqual(await targets('talazoparib'), ['may_treat protein:parp1']);
  assert.deepEqual(await targets('gene:parp1'), ['may_treat disease:breast cancer', 'may_treat protein:parp1']);
  await b.registerVocabulary('bio');
  assert.deepEqual(await targets('talazoparib'), []);
  assert.deepEqual(await targets('gene:parp1'), ['may_treat disease:breast cancer']);
});

test("unified_types is the vocabulary's data: a vocabulary of one's own declares groups, checked at registration", async (t) => {
  const at = paths(t);
  const db = await open(at('custom.kb'));
  t.after(() => db.close());
  const refused = (field: string, code: string) => (e: unknown) =>
    e instanceof Error && (e as { field?: string }).field === field && (e as { code?: string }).code === code;
  await assert.rejects(
    db.registerVocabulary('lab', { unified_types: 'drug' as never }),
    refused('vocab.unified_types', 'invalid_type'),
  );
  await assert.rejects(
    db.registerVocabulary('lab', { unified_types: [['drug']] }),
    refused('vocab.unified_types[0]', 'invalid_value'),
  );
  await assert.rejects(
    db.registerVocabulary('lab', { unified_types: [['drug', '']] }),
    refused('vocab.unified_types[0][1]', 'invalid_type'),
  );
  await db.registerVocabulary('lab', {
    entity_types: ['drug', 'compound', 'gene'],
    unified_types: [['drug', 'compound']],
  });
  const prov = (source_id: string) => ({ source_type: 'assay', source_id });
  await db.ingest(['aspirin', 'compound'], ['inhibits', 'pharmacology'], ['PTGS1', 'gene'], prov('a'));
  await db.ingest(['Aspirin', 'drug'], ['inhibits', 'pharmacology'], ['PTGS1', 'gene'], prov('b'));
  assert.deepEqual((await db.getEntity('drug:aspirin'))!.types, ['compound', 'drug']);
  assert.equal((await db.query('aspirin', 1)).direct_relationships[0]!.source_count, 2);
  // Gene and protein are not unified by this vocabulary.
  await db.ingest(['PTGS1', 'protein'], ['binds', 'molecular'], ['aspirin', 'drug'], prov('c'));
  assert.equal(await db.resolve('PTGS1', 'protein'), 'protein:ptgs1');
});
