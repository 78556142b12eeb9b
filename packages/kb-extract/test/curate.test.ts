import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quickstart, type KbDB, type ClaimInput } from './helpers.js';
import { tempKb, configureCurator, curate, ingestText } from './helpers.js';
import { baseUrlFor, startFakeProvider } from './fixtures/extraction/fake-provider.js';

async function freshDb(t: { after(fn: () => unknown): void }): Promise<KbDB> {
  const kb = tempKb();
  const db = await quickstart(kb.path);
  t.after(async () => {
    await db.close();
    kb.cleanup();
  });
  return db;
}

const CLASS: Record<string, string> = {
  treats: 'pharmacology',
  inhibits: 'pharmacology',
  activates: 'pharmacology',
  biomarker_for: 'clinical',
};
const c = (
  s: [string, string],
  p: string,
  o: [string, string],
  source: string,
  extra: Partial<ClaimInput> = {},
): ClaimInput => ({
  subject: s,
  predicate: [p, CLASS[p] ?? 'association'],
  object: o,
  provenance: { source_type: 'literature', source_id: source },
  confidence: 0.8,
  ...extra,
});

test('heuristic curator: duplicates, low confidence, type constraints, contradictions and hedges, each with a reason', async (t) => {
  const db = await freshDb(t);
  await db.ingestBatch([
    c(['metformin', 'drug'], 'activates', ['AMPK', 'gene'], 'pmid:1'),
    c(['imatinib', 'drug'], 'inhibits', ['ABL1', 'gene'], 'pmid:2'),
  ]);
  await db.registerPayloadSchema('biomarker_for', {
    type: 'object',
    required: ['assay'],
    properties: { assay: { type: 'string' } },
  });
  let events = 0;
  db.on('claim_ingested', () => events++);
  const input: ClaimInput[] = [
    c(['gefitinib', 'drug'], 'inhibits', ['EGFR', 'gene'], 'pmid:3'), // 0 store
    c(['imatinib', 'drug'], 'inhibits', ['ABL1', 'gene'], 'pmid:2'), // 1 duplicate of a stored claim
    c(['gefitinib', 'drug'], 'inhibits', ['EGFR', 'gene'], 'pmid:3'), // 2 duplicate within the input
    c(['aspirin', 'drug'], 'inhibits', ['PTGS1', 'gene'], 'pmid:4', { confidence: 0.1 }), // 3 below the floor
    c(['EGFR', 'gene'], 'treats', ['lung cancer', 'disease'], 'pmid:5'), // 4 type constraint
    c(['metformin', 'drug'], 'inhibits', ['AMPK', 'gene'], 'pmid:6'), // 5 contradicts pmid:1
    c(['rapamycin', 'drug'], 'inhibits', ['MTOR', 'gene'], 'pmid:7', {
      payload: { sentence: 'Rapamycin may inhibit MTOR.', hedged: true },
      confidence: 0.4,
    }), // 6 hedged
    {
      subject: ['x', 'gene'],
      predicate: ['binds', 'molecular'],
      object: ['', 'gene'],
      provenance: { source_type: 'literature', source_id: 'pmid:8' },
    } as ClaimInput, // 7 invalid
    c(['PSA', 'gene'], 'biomarker_for', ['prostate cancer', 'disease'], 'pmid:9'), // 8 refused by the payload schema
    c(['ibuprofen', 'drug'], 'inhibits', ['PTGS2', 'gene'], 'pmid:10', { confidence: 0.45 }), // 9 low but above the floor
  ];
  const r = await curate(db, input);
  assert.deepEqual(
    r.stored.map((s) => s.index),
    [0],
  );
  assert.deepEqual(
    r.flagged.map((f) => f.index),
    [5, 6, 9],
  );
  const skip = Object.fromEntries(r.skipped.map((s) => [s.index, s.reason]));
  assert.deepEqual(Object.keys(skip).map(Number), [1, 2, 3, 4, 7, 8]);
  assert.match(skip[1]!, /^duplicate: already stored as clm_/);
  assert.match(skip[2]!, /^duplicate: .*claims\[0\]/);
  assert.match(skip[3]!, /^low_confidence/);
  assert.match(skip[4]!, /^type_constraint: 'treats' needs a subject of type drug \| compound, got 'gene'/);
  assert.match(skip[7]!, /^invalid: object/);
  assert.match(skip[8]!, /^refused: .*payload/);
  assert.match(r.flagged[0]!.reasons[0]!, /^contradiction: claim clm_\w+ states 'activates'/);
  assert.match(r.flagged[1]!.reasons[0]!, /^hedged/);
  assert.match(r.flagged[2]!.reasons[0]!, /^low_confidence/);
  assert.equal(r.ingested, 4);
  assert.equal(r.duplicates, 2);
  assert.equal(events, 4, 'the ordinary events fire for what is stored');
  // Flagged claims are stored, and carry their flags for later review.
  const stored = await db.getClaim(r.flagged[0]!.claim_id);
  assert.deepEqual((stored!.provenance as { curation?: { flags: string[] } }).curation?.flags, r.flagged[0]!.reasons);
  assert.equal((await db.stats()).claim_count, 6);
});

test('configureCurator thresholds change what is skipped and flagged', async (t) => {
  const db = await freshDb(t);
  configureCurator(db, { provider: 'heuristic', min_confidence: 0.5, flag_below: 0.9 });
  const r = await curate(db, [
    c(['aspirin', 'drug'], 'inhibits', ['PTGS1', 'gene'], 'a', { confidence: 0.45 }),
    c(['aspirin', 'drug'], 'inhibits', ['PTGS2', 'gene'], 'a', { confidence: 0.8 }),
    c(['aspirin', 'drug'], 'treats', ['pain', 'phenotype'], 'a', { confidence: 0.95 }),
  ]);
  assert.deepEqual(
    [r.skipped.map((s) => s.index), r.flagged.map((s) => s.index), r.stored.map((s) => s.index)],
    [[0], [1], [2]],
  );
  assert.throws(() => configureCurator(db, { provider: 'heuristic', min_confidence: 2 }), {
    code: 'out_of_range',
    field: 'min_confidence',
  });
});

test('provider curator: the model reviews what the offline checks pass; its verdicts are applied', async (t) => {
  const db = await freshDb(t);
  const fake = await startFakeProvider((prompt) => {
    const verdicts = [];
    for (const line of prompt.split('\n')) {
      if (!line.startsWith('{')) continue;
      const claim = JSON.parse(line) as { index: number; subject: [string, string]; evidence?: string };
      if (claim.subject[0] === 'homeopathy')
        verdicts.push({ index: claim.index, decision: 'skip', reason: 'not supported by the evidence' });
      else if (claim.subject[0] === 'vitamin c')
        verdicts.push({ index: claim.index, decision: 'flag', reason: 'weak evidence' });
      else if (claim.subject[0] !== 'silence') verdicts.push({ index: claim.index, decision: 'store', reason: '' });
    }
    verdicts.push({ index: 999, decision: 'skip', reason: 'an index the curator never sent is ignored' });
    return { verdicts };
  });
  t.after(() => fake.close());
  configureCurator(db, { provider: 'groq', api_key: 'k', base_url: baseUrlFor(fake, 'groq'), backoff_ms: 1 });
  const r = await curate(db, [
    c(['imatinib', 'drug'], 'inhibits', ['ABL1', 'gene'], 's1', { payload: { sentence: 'Imatinib inhibits ABL1.' } }),
    c(['homeopathy', 'drug'], 'treats', ['asthma', 'disease'], 's1'),
    c(['vitamin c', 'drug'], 'treats', ['common cold', 'disease'], 's1'),
    c(['silence', 'drug'], 'treats', ['migraine', 'disease'], 's1'),
    c(['EGFR', 'gene'], 'treats', ['lung cancer', 'disease'], 's1'),
  ]);
  assert.equal(fake.requests.length, 1);
  const prompt = fake.requests[0]!.prompt;
  assert.ok(prompt.includes('Imatinib inhibits ABL1.'), 'the evidence sentence is sent');
  assert.ok(!prompt.includes('"EGFR"'), 'claims the offline checks already skipped are not sent');
  assert.deepEqual(
    r.stored.map((s) => s.index),
    [0],
  );
  assert.deepEqual(
    r.skipped.map((s) => [s.index, s.reason.split(':')[0]]),
    [
      [1, 'model'],
      [4, 'type_constraint'],
    ],
  );
  assert.deepEqual(
    r.flagged.map((f) => [f.index, f.reasons.join(' ')]),
    [
      [2, 'model: weak evidence'],
      [3, 'unreviewed: groq returned no verdict for this claim'],
    ],
  );
  const flagged = await db.getClaim(r.flagged[0]!.claim_id);
  assert.equal(
    (flagged!.provenance as { curation?: { curator: string } }).curation?.curator,
    'groq:llama-3.3-70b-versatile',
  );
});

test("'smart' ingests use the configured provider curator (a failure stores nothing); 'heuristic' never calls it", async (t) => {
  const db = await freshDb(t);
  const fake = await startFakeProvider(() => ({
    verdicts: [{ index: 0, decision: 'skip', reason: 'the model disagrees' }],
  }));
  t.after(() => fake.close());
  configureCurator(db, {
    provider: 'mistral',
    api_key: 'k',
    base_url: baseUrlFor(fake, 'mistral'),
    backoff_ms: 1,
    max_retries: 0,
  });
  const offline = await ingestText(db, 'Olaparib inhibits PARP1. Niraparib inhibits PARP2.', {
    extraction: 'heuristic',
  });
  assert.equal(offline.ingested, 2);
  assert.equal(fake.requests.length, 0, 'heuristic extraction made no provider call');
  assert.equal((await ingestText(db, 'Talazoparib inhibits PARP1.')).ingested, 1, 'heuristic is the default');
  assert.equal(fake.requests.length, 0);
  // Both sentences yield claims, so 'smart' sends nothing to extract: the one model call is the review.
  const r = await ingestText(db, 'Imatinib inhibits ABL1. Gefitinib inhibits EGFR.', { extraction: 'smart' });
  assert.equal(fake.requests.length, 1);
  assert.equal(r.ingested, 1);
  assert.ok(r.skipped.some((s) => s.reason === 'model: the model disagrees'));
  fake.script.push({ status: 503 });
  await assert.rejects(ingestText(db, 'Aspirin inhibits PTGS1.', { extraction: 'smart' }), { code: 'provider_error' });
  assert.equal((await db.stats()).claim_count, 4);
});
