// Issue #14: code written for the upstream runs unchanged. Non-strict validation (the default) stores vocabulary
// violations with warnings; strict refuses them as before; what is never relaxed stays refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KbDB, KbValidationError, open, quickstart, type ClaimWarning } from '../src/index.js';
import { tempKb } from './helpers.js';

const codes = (ws: { code: string; field: string }[]) => ws.map((w) => `${w.code}@${w.field}`).sort();

test('the upstream quick-start on quickstart(): stored with a predicate_class warning, in results, events, reads and qualityReport', async (t) => {
  const kb = tempKb();
  t.after(kb.cleanup);
  await using db = await quickstart(kb.path);
  const events: { claim_id: string; warnings: ClaimWarning[] }[] = [];
  db.on('claim_warnings', (e) => events.push(e));
  const id = await db.ingest(
    ['BRCA1', 'gene'],
    ['associated_with', 'relates_to'],
    ['Breast Cancer', 'disease'],
    { source_type: 'literature_extraction', source_id: 'PMID:12345' },
    { confidence: 0.9 },
  );
  const claim = (await db.getClaim(id))!;
  assert.equal(claim.confidence, 0.9);
  assert.deepEqual(codes(claim.warnings!), ['predicate_class@predicate[1]']);
  assert.match(claim.warnings![0]!.message, /'associated_with' belongs to class 'association', not 'relates_to'/);
  assert.deepEqual(events, [{ claim_id: id, warnings: claim.warnings }]);
  const q = await db.qualityReport();
  assert.deepEqual(q.vocabulary_warnings, { claims: 1, by_code: { predicate_class: 1 }, examples: [id] });

  // The same through ingestDetailed (positional confidence), a duplicate now, and through a batch.
  const again = await db.ingestDetailed(
    ['BRCA1', 'gene'],
    ['associated_with', 'relates_to'],
    ['Breast Cancer', 'disease'],
    { source_type: 'literature_extraction', source_id: 'PMID:12345' },
    0.9,
  );
  assert.equal(again.claim_id, id);
  assert.equal(again.duplicate, true);
  assert.deepEqual(codes(again.warnings), ['predicate_class@predicate[1]']);
  const batch = await db.ingestBatch([
    {
      subject: ['TP53', 'gene'],
      predicate: ['associated_with', 'association'],
      object: ['Li-Fraumeni syndrome', 'disease'],
      provenance: { source_type: 'literature', source_id: 'pmid:1' },
    },
    {
      subject: ['aspirin', 'drug'],
      predicate: ['treats', 'pharmacology'],
      object: ['PTGS2', 'protein'],
      provenance: { source_type: 'literature', source_id: 'pmid:2' },
    },
    {
      subject: ['api-gateway', 'service'],
      predicate: ['calls', 'dependency'],
      object: ['redis', 'service'],
      provenance: { source_type: 'config_management', source_id: 'cfg:1' },
    },
  ]);
  assert.equal(batch.ingested, 3);
  assert.deepEqual(
    batch.warnings.map((w) => `${w.index}:${w.code}@${w.field}`),
    ['1:type_constraint@object[1]', '2:unknown_type@subject[1]', '2:unknown_type@object[1]'],
  );
  assert.equal((await db.qualityReport()).vocabulary_warnings.claims, 3);
});

test('strict: true refuses exactly as before; what is never relaxed is refused on a non-strict base too', async (t) => {
  const kb = tempKb();
  t.after(kb.cleanup);
  {
    await using strict = await quickstart(kb.path, { strict: true });
    assert.equal(strict.strict, true);
    await assert.rejects(
      strict.ingest(
        ['BRCA1', 'gene'],
        ['associated_with', 'relates_to'],
        ['Breast Cancer', 'disease'],
        { source_type: 'literature_extraction', source_id: 'PMID:12345' },
        { confidence: 0.9 },
      ),
      (e: unknown) =>
        e instanceof KbValidationError &&
        e.code === 'predicate_class' &&
        e.message === "predicate[1]: 'associated_with' belongs to class 'association', not 'relates_to'",
    );
    // An unknown type was never refused; strict keeps that.
    const r = await strict.ingestDetailed(['x', 'widget'], ['part_of', 'ontology'], ['y', 'widget'], {
      source_type: 's',
      source_id: 's:1',
    });
    assert.deepEqual(codes(r.warnings), ['unknown_type@object[1]', 'unknown_type@subject[1]']);
  }
  await using db = await open(kb.path);
  assert.equal(db.strict, false);
  await db.registerPayloadSchema('measured_in', { type: 'object', required: ['ic50_nm'] });
  const prov = { source_type: 'experiment', source_id: 'run-1' };
  await assert.rejects(
    db.ingest(['EV1', 'compound'], ['measured_in', 'experimental'], ['panel', 'assay'], prov),
    (e: unknown) => e instanceof KbValidationError && e.code === 'payload_schema',
  );
  await assert.rejects(
    db.ingest(['EV1', 'compound'], ['binds', 'molecular'], ['', 'protein'], prov),
    (e: unknown) => e instanceof KbValidationError && e.field === 'object[0]',
  );
  await assert.rejects(
    db.ingest(['EV1', 'compound'], ['binds', 'molecular'], ['P', 'protein'], { source_type: 'x' } as never),
    (e: unknown) => e instanceof KbValidationError && e.field === 'provenance.source_id',
  );
  await assert.rejects(
    db.ingest(['EV1', 'compound'], ['binds', 'molecular'], ['P', 'protein'], prov, 1.5),
    (e: unknown) => e instanceof KbValidationError && e.field === 'confidence',
  );
  await assert.rejects(
    db.ingestBatch([
      {
        subject: ['a', 'gene'],
        predicate: ['binds', 'molecular'],
        object: ['b', 'protein'],
        provenance: prov,
        confidence: -1,
      },
    ]),
    (e: unknown) => e instanceof KbValidationError && e.index === 0 && e.field === 'confidence',
  );
});

test('a claim from a source that was retracted is stored as active again, with source_was_retracted', async (t) => {
  const kb = tempKb();
  t.after(kb.cleanup);
  await using db = await open(kb.path);
  const prov = { source_type: 'literature', source_id: 'pmid:9' };
  await db.ingest(['A', 'gene'], ['binds', 'molecular'], ['B', 'protein'], prov);
  await db.retract('pmid:9', 'erratum');
  const r = await db.ingestDetailed(['A', 'gene'], ['binds', 'molecular'], ['B', 'protein'], prov);
  assert.deepEqual(codes(r.warnings), ['source_was_retracted@provenance.source_id']);
  assert.equal((await db.getClaim(r.claim_id))!.status, 'active');
  const other = await db.ingestDetailed(['A', 'gene'], ['binds', 'molecular'], ['C', 'protein'], {
    source_type: 'literature',
    source_id: 'pmid:10',
  });
  assert.deepEqual(other.warnings, []);
});

test("the devops and ml vocabularies ship beside bio, with synonyms; the upstream's devops example", async (t) => {
  const kb = tempKb();
  t.after(kb.cleanup);
  await using db = await quickstart(kb.path, { vocabs: ['devops'] });
  assert.deepEqual((await db.schema()).registered.vocabularies, ['devops']);
  const r = await db.ingestDetailed(['api-gateway', 'service'], ['depends_on', 'depends_on'], ['redis', 'service'], {
    source_type: 'config_management',
    source_id: 'cfg:gateway',
  });
  assert.deepEqual(codes(r.warnings), ['predicate_class@predicate[1]']);
  await db.ingest(['billing', 'service'], ['runs_on', 'deployment'], ['prod-eu-1', 'cluster'], {
    source_type: 'config_management',
    source_id: 'cfg:billing',
  });
  assert.equal(await db.resolve('postgres', 'database'), null, 'nothing stored under it yet');
  await db.ingest(['billing', 'service'], ['reads_from', 'dependency'], ['Postgres', 'database'], {
    source_type: 'config_management',
    source_id: 'cfg:billing',
  });
  assert.equal(await db.resolve('pg', 'database'), 'database:postgresql');
  assert.equal(await db.pathExists('api-gateway', 'redis'), true);
  await db.registerVocabulary('ml');
  await db.ingest(['BERT', 'model'], ['trained_on', 'training'], ['Common Crawl', 'dataset'], {
    source_type: 'paper',
    source_id: 'arxiv:1810.04805',
  });
  assert.equal(
    await db.resolve('bidirectional encoder representations from transformers', 'model'),
    'model:bidirectional encoder representations from transformers',
  );
  const strictDb = await KbDB.open(`${kb.path}.strict`, { strict: true });
  try {
    await strictDb.registerVocabulary('ml');
    await assert.rejects(
      strictDb.ingest(['imagenet', 'dataset'], ['outperforms', 'comparison'], ['ResNet', 'model'], {
        source_type: 'paper',
        source_id: 'p',
      }),
      (e: unknown) => e instanceof KbValidationError && e.field === 'subject[1]',
    );
  } finally {
    await strictDb.close();
  }
  await assert.rejects(
    quickstart(`${kb.path}.chem`, { vocabs: ['chem'] }),
    (e: unknown) => e instanceof KbValidationError && e.field === 'vocabs[0]' && /bio, devops, ml/.test(e.message),
  );
});
