import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, quickstart, KbValidationError } from '../src/index.js';
import { tempKb } from './helpers.js';

test('a strict base: the bio vocabulary enforces predicate subject/object types, and the refusal names the field', async () => {
  const t = tempKb();
  try {
    await using db = await quickstart(t.path, { vocabs: ['bio'], strict: true });
    await db.ingest(['aspirin', 'drug'], ['inhibits', 'pharmacology'], ['PTGS2', 'protein'], {
      source_type: 'database',
      source_id: 'chembl',
    });
    await assert.rejects(
      db.ingest(['breast cancer', 'disease'], ['treats', 'pharmacology'], ['aspirin', 'drug'], {
        source_type: 'x',
        source_id: 'y',
      }),
      (e: unknown) => e instanceof KbValidationError && e.code === 'type_constraint' && e.field === 'subject[1]',
    );
    await assert.rejects(
      db.ingest(['aspirin', 'drug'], ['treats', 'pharmacology'], ['PTGS2', 'protein'], {
        source_type: 'x',
        source_id: 'y',
      }),
      (e: unknown) => e instanceof KbValidationError && e.code === 'type_constraint' && e.field === 'object[1]',
    );
    await assert.rejects(
      db.ingest(['aspirin', 'drug'], ['treats', 'genetic'], ['pain', 'phenotype'], {
        source_type: 'x',
        source_id: 'y',
      }),
      (e: unknown) => e instanceof KbValidationError && e.code === 'predicate_class' && e.field === 'predicate[1]',
    );
    // Synonyms: COX-2 is PTGS2; ASA is aspirin.
    assert.equal(await db.resolve('COX-2'), 'protein:ptgs2');
    assert.equal(await db.resolve('acetylsalicylic acid'), 'drug:aspirin');
    const s = await db.schema();
    assert.ok(s.registered.vocabularies.includes('bio'));
    assert.deepEqual(s.registered.predicates.treats!.subject_types, ['drug', 'compound']);
  } finally {
    t.cleanup();
  }
});

test('registered predicates, vocabularies and payload schemas persist across reopen and are enforced (strict)', async () => {
  const t = tempKb();
  try {
    {
      await using db = await open(t.path);
      await db.registerPredicate('measured_in', { subject_types: ['compound'], object_types: ['assay'] });
      await db.registerPayloadSchema('measured_in', {
        type: 'object',
        required: ['ic50_nm'],
        properties: { ic50_nm: { type: 'number', minimum: 0 }, date: { type: 'string', format: 'date' } },
      });
      await db.registerVocabulary('lab', {
        entity_types: ['assay'],
        synonyms: { compound: { 'EV-001': ['evident one', 'EV1'] } },
      });
      await assert.rejects(
        db.registerPayloadSchema('x', { type: 'no-such-type' }),
        (e: unknown) => e instanceof KbValidationError && e.field === 'schema',
      );
      await assert.rejects(
        db.registerPredicate('', {}),
        (e: unknown) => e instanceof KbValidationError && e.field === 'predicate_type',
      );
      await assert.rejects(
        db.registerVocabulary('nope'),
        (e: unknown) => e instanceof KbValidationError && e.code === 'unknown_vocabulary',
      );
    }
    await using db = await open(t.path, { strict: true });
    const ok = await db.ingest(
      ['EV1', 'compound'],
      ['measured_in', 'experimental'],
      ['kinase panel', 'assay'],
      { source_type: 'experiment', source_id: 'run-1' },
      { payload: { ic50_nm: 12.5, date: '2026-01-02' } },
    );
    assert.equal((await db.getClaim(ok))!.subject_id, 'compound:ev-001');
    await assert.rejects(
      db.ingest(
        ['EV1', 'compound'],
        ['measured_in', 'experimental'],
        ['kinase panel', 'assay'],
        { source_type: 'experiment', source_id: 'run-2' },
        { payload: { ic50_nm: -1 } },
      ),
      (e: unknown) => e instanceof KbValidationError && e.code === 'payload_schema' && e.field === 'payload.ic50_nm',
    );
    await assert.rejects(
      db.ingest(['EV1', 'compound'], ['measured_in', 'experimental'], ['kinase panel', 'assay'], {
        source_type: 'experiment',
        source_id: 'run-3',
      }),
      (e: unknown) => e instanceof KbValidationError && e.code === 'payload_schema' && e.field === 'payload',
    );
    await assert.rejects(
      db.ingest(
        ['EV1', 'drug'],
        ['measured_in', 'experimental'],
        ['kinase panel', 'assay'],
        { source_type: 'experiment', source_id: 'run-4' },
        { payload: { ic50_nm: 1 } },
      ),
      (e: unknown) => e instanceof KbValidationError && e.field === 'subject[1]',
    );
    assert.equal((await db.stats()).claim_count, 1);
  } finally {
    t.cleanup();
  }
});
