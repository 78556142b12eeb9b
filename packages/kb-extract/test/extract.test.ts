import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quickstart, KbValidationError, type KbDB } from './helpers.js';
import { splitSentences, wordBefore } from '../src/extract/sentences.js';
import { findMentions, MAX_TOKEN_CHARS, tokenize } from '../src/extract/ner.js';
import { baseLexicon } from '../src/extract/lexicon.js';
import { bio } from '@evident/kb-core';
import { KbProviderError } from '../src/providers/index.js';
import { tempKb, configureCurator, ingestText } from './helpers.js';
import { baseUrlFor, startFakeProvider, type FakeProvider } from './fixtures/extraction/fake-provider.js';

async function freshDb(t: { after(fn: () => unknown): void }): Promise<KbDB> {
  const kb = tempKb();
  const db = await quickstart(kb.path);
  t.after(async () => {
    await db.close();
    kb.cleanup();
  });
  return db;
}

const PARAGRAPH = [
  'Imatinib inhibits ABL1 and KIT in chronic myeloid leukemia cells (Druker et al. 2001).',
  'Gefitinib, an EGFR inhibitor, is approved for the treatment of NSCLC.',
  'Metformin did not inhibit MTOR in primary hepatocytes.',
  'Rapamycin may inhibit the mTOR signaling pathway.',
  'It remains unclear whether tamoxifen binds ESR2?',
  'Samples were stored at -80 C.',
].join(' ');

// Pathological text (issue #13): a long token or punctuation run once made sentence splitting quadratic. No
// timing here: the bound (what the look back reads, which tokens are matched) and the outcome are asserted.
test('the abbreviation look back reads a bounded word; long tokens are skipped for entity matching', () => {
  assert.equal(wordBefore('as in Fig', 0, 9), 'fig');
  assert.equal(wordBefore('see e.g', 0, 7), 'e.g');
  assert.equal(wordBefore('J', 0, 1), 'j');
  assert.equal(wordBefore('A 2001', 0, 6), '');
  const long = 'x'.repeat(200_000);
  assert.equal(wordBefore(long, 0, long.length), '', 'a word longer than any abbreviation is none');
  assert.equal(wordBefore(`${long}1`, 0, long.length + 1), '');
  // Work units: the characters the look back reads do not grow with the token (so doubling it cannot quadruple them).
  const reads = (n: number) => {
    let count = 0;
    const text = new Proxy(new String(`${'x'.repeat(n)}1`), {
      get(target, key) {
        if (typeof key === 'string' && /^\d+$/.test(key)) count++;
        const v = Reflect.get(target, key);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    }) as unknown as string;
    assert.equal(wordBefore(text, 0, n + 1), '');
    return count;
  };
  assert.equal(reads(100_000), reads(200_000));
  assert.ok(reads(200_000) <= 20, `read ${reads(200_000)} characters`);
  const toks = tokenize(`EGFR ${'y'.repeat(MAX_TOKEN_CHARS)} ${long} KRAS`).map((t) => t.text.length);
  assert.deepEqual(toks, [4, MAX_TOKEN_CHARS, 4]);
});

test('a 200k-character token or dot run ingests, and the sentences around it are still read', async (t) => {
  const db = await freshDb(t);
  const long = 'x'.repeat(200_000);
  for (const text of [
    `${long}1. Imatinib inhibits ABL1 in leukemia cells.`,
    `Gefitinib inhibits EGFR${'.'.repeat(200_000)} Then ${long} was seen.`,
    `Vemurafenib inhibits BRAF in ${long} cells.`,
  ]) {
    const r = await ingestText(db, text);
    assert.equal(r.ingested, 1, text.slice(0, 40));
  }
  assert.equal(splitSentences(`A KRAS claim.${'.'.repeat(100_000)} B EGFR claim${'!'.repeat(100_000)}x`).length, 2);
});

test('sentence splitting keeps abbreviations, initials and decimals inside sentences', () => {
  const s = splitSentences(
    'Imatinib (e.g. Gleevec, approx. 400 mg) inhibits ABL1, as shown by Druker et al. in 2001. The IC50 was 0.25 uM. Dr. Smith agreed!\n\n- KIT is also inhibited\n- PDGFRA too',
  );
  assert.deepEqual(
    s.map((x) => x.text),
    [
      'Imatinib (e.g. Gleevec, approx. 400 mg) inhibits ABL1, as shown by Druker et al. in 2001.',
      'The IC50 was 0.25 uM.',
      'Dr. Smith agreed!',
      'KIT is also inhibited',
      'PDGFRA too',
    ],
  );
});

test('entity recognition: vocabulary synonyms, gene symbols, drug stems, disease and pathway phrases', () => {
  const lex = baseLexicon([bio]);
  const m = findMentions(
    "Herceptin and lapatinib target HER2 in metastatic breast carcinoma, while the Wnt signaling pathway and BRAF V600E drive melanoma; Alzheimer's disease met criteria.",
    lex,
  );
  const got = m.map((x) => `${x.name}/${x.type}`);
  assert.deepEqual(got, [
    'trastuzumab/drug',
    'lapatinib/drug',
    'ERBB2/gene',
    'breast cancer/disease',
    'Wnt pathway/pathway',
    'BRAF/gene',
    'melanoma/disease',
    'alzheimer disease/disease',
  ]);
  // 'met' (the verb) is not the MET gene; V600E is not a gene.
  assert.ok(!got.some((g) => g.startsWith('MET') || g.startsWith('V600E')));
});

test('ingestText (heuristic): claims with provenance and sentence, negation skipped, hedging flagged, events fire', async (t) => {
  const db = await freshDb(t);
  const events: string[] = [];
  db.on('claim_ingested', (e) => events.push(e.claim_id));
  const r = await ingestText(db, PARAGRAPH, { source_id: 'doc:review-1' });
  const stored = await Promise.all(r.claim_ids.map((id) => db.getClaim(id)));
  const triples = stored.map((c) => `${c!.subject[0]} ${c!.predicate[0]} ${c!.object[0]}`).sort();
  assert.deepEqual(triples, [
    'gefitinib inhibits EGFR',
    'gefitinib treats non-small cell lung cancer',
    'imatinib inhibits ABL1',
    'imatinib inhibits KIT',
    'rapamycin inhibits mTOR pathway',
  ]);
  assert.equal(r.ingested, 5);
  assert.deepEqual(events.sort(), [...r.claim_ids].sort(), 'one claim_ingested event per stored claim');
  for (const c of stored) {
    assert.equal(c!.provenance.source_type, 'text');
    assert.equal(c!.provenance.source_id, 'doc:review-1');
    const sentence = (c!.payload as { sentence: string }).sentence;
    assert.ok(PARAGRAPH.includes(sentence), 'payload keeps the source sentence');
  }
  const neg = r.skipped.find((s) => s.subject === 'metformin');
  assert.ok(neg?.reason.startsWith('negated'), JSON.stringify(r.skipped));
  assert.ok(r.skipped.some((s) => s.subject === 'tamoxifen' && s.reason.startsWith('speculative')));
  assert.equal(r.flagged.length, 1);
  assert.equal(r.flagged[0]!.claim.subject[0], 'rapamycin');
  assert.match(r.flagged[0]!.reasons[0]!, /^hedged/);
  const hedged = await db.getClaim(r.flagged[0]!.claim_id);
  assert.ok(hedged!.confidence < 0.5);
  assert.deepEqual((hedged!.provenance as { curation?: { flags: string[] } }).curation?.flags, r.flagged[0]!.reasons);
  // Queryable like any claim; synonyms resolve.
  const frame = await db.query('Gleevec', { depth: 1 });
  assert.deepEqual(frame.direct_relationships.map((x) => x.target.name).sort(), ['ABL1', 'KIT']);

  // The same text again: all duplicates, the same ids, nothing new.
  const again = await ingestText(db, PARAGRAPH, { source_id: 'doc:review-1' });
  assert.equal(again.ingested, 0);
  assert.equal(again.duplicates, 5);
  assert.deepEqual([...again.claim_ids].sort(), [...r.claim_ids].sort());
  // A second source corroborates.
  const corroborated: number[] = [];
  db.on('claim_corroborated', (e) => corroborated.push(e.count));
  await ingestText(db, 'Imatinib inhibits ABL1.', { source_id: 'doc:other' });
  assert.deepEqual(corroborated, [2]);
  // Retracting the document's source removes its claims from queries.
  await db.retract('doc:review-1', 'superseded');
  const after = await db.query('imatinib', { depth: 1 });
  assert.deepEqual(
    after.direct_relationships.map((x) => x.target.name),
    ['ABL1'],
  );
});

test('bad input: empty or non-string text, unknown mode, llm without a provider; nothing written', async (t) => {
  const db = await freshDb(t);
  await assert.rejects(
    ingestText(db, '   '),
    (e: unknown) => e instanceof KbValidationError && e.code === 'empty_text' && e.field === 'text',
  );
  await assert.rejects(ingestText(db, 42 as unknown as string), { code: 'invalid_type' });
  await assert.rejects(ingestText(db, 'Imatinib inhibits ABL1.', { extraction: 'magic' as 'llm' }), {
    code: 'invalid_value',
  });
  await assert.rejects(
    ingestText(db, 'Imatinib inhibits ABL1.', { extraction: 'llm' }),
    (e: unknown) => e instanceof KbProviderError && e.code === 'no_provider',
  );
  assert.equal((await db.stats()).claim_count, 0);
});

function modelAnswer(prompt: string) {
  const claims = [];
  if (prompt.includes('Semaglutide')) {
    const s = prompt.match(/Semaglutide[^.]*\./)![0];
    claims.push({
      subject: 'semaglutide',
      subject_type: 'drug',
      predicate: 'treats',
      object: 'obesity',
      object_type: 'disease',
      evidence: s,
      negated: false,
      hedged: false,
    });
  }
  if (prompt.includes('Liraglutide')) {
    claims.push({
      subject: 'liraglutide',
      subject_type: 'drug',
      predicate: 'treats',
      object: 'obesity',
      object_type: 'disease',
      evidence: 'Liraglutide cures everything.',
      negated: false,
      hedged: false,
    });
  }
  if (prompt.includes('Orlistat')) {
    const s = prompt.match(/Orlistat[^.]*\./)![0];
    claims.push({
      subject: 'orlistat',
      subject_type: 'drug',
      predicate: 'treats',
      object: 'hypertension',
      object_type: 'disease',
      evidence: s,
      negated: true,
      hedged: false,
    });
    claims.push({
      subject: 'orlistat',
      subject_type: 'gene',
      predicate: 'treats',
      object: 'obesity',
      object_type: 'disease',
      evidence: s,
      negated: false,
      hedged: false,
    });
    claims.push({
      subject: 'orlistat',
      subject_type: 'drug',
      predicate: 'cures',
      object: 'obesity',
      object_type: 'disease',
      evidence: s,
      negated: false,
      hedged: true,
    });
  }
  return { claims };
}

function providerOpts(fake: FakeProvider, name: 'openai' | 'anthropic') {
  return { provider: name, api_key: 'k', base_url: baseUrlFor(fake, name), backoff_ms: 1, max_retries: 1 } as const;
}

test('ingestText (llm): the model extracts, its answer is checked (evidence, types, predicates, negation)', async (t) => {
  const db = await freshDb(t);
  const fake = await startFakeProvider(modelAnswer);
  t.after(() => fake.close());
  const text =
    'Semaglutide reduces body weight in adults with obesity. Liraglutide was also discussed. Orlistat was not studied for hypertension.';
  const r = await ingestText(db, text, {
    source_id: 'doc:llm',
    extraction: 'llm',
    provider: providerOpts(fake, 'anthropic'),
  });
  assert.equal(fake.requests.length, 1);
  assert.ok(fake.requests[0]!.prompt.includes('Semaglutide reduces body weight'));
  assert.equal(r.ingested, 1);
  const c = (await db.getClaim(r.claim_ids[0]!))!;
  assert.deepEqual([c.subject[0], c.predicate[0], c.object[0]], ['semaglutide', 'treats', 'obesity']);
  assert.equal((c.payload as { extraction: string }).extraction, 'llm');
  assert.equal((c.payload as { sentence: string }).sentence, 'Semaglutide reduces body weight in adults with obesity.');
  const reasons = r.skipped.map((s) => s.reason.split(':')[0]).sort();
  assert.deepEqual(reasons, ['evidence_not_in_text', 'negated', 'type_constraint', 'unknown_predicate']);
});

test('ingestText (smart): the model sees only new sentences the heuristic found nothing in', async (t) => {
  const db = await freshDb(t);
  const fake = await startFakeProvider(modelAnswer);
  t.after(() => fake.close());
  configureCurator(db, 'heuristic');
  const text = 'Imatinib inhibits ABL1. Semaglutide reduces body weight in adults with obesity. Okay.';
  const opts = { extraction: 'smart', provider: providerOpts(fake, 'openai') } as const;
  const r = await ingestText(db, text, { ...opts, source_id: 'doc:smart' });
  assert.equal(fake.requests.length, 1);
  const sent = fake.requests[0]!.prompt;
  assert.ok(sent.includes('Semaglutide reduces body weight'));
  assert.ok(!sent.includes('Imatinib'), 'the heuristic handled that sentence');
  assert.ok(!sent.includes('Okay'), 'too short to state a relationship');
  const triples = (await Promise.all(r.claim_ids.map((id) => db.getClaim(id))))
    .map(
      (c) => `${c!.subject[0]} ${c!.predicate[0]} ${c!.object[0]} ${(c!.payload as { extraction: string }).extraction}`,
    )
    .sort();
  assert.deepEqual(triples, ['imatinib inhibits ABL1 heuristic', 'semaglutide treats obesity llm']);
  // The same sentence again is not new: no second model call.
  await ingestText(db, text, { ...opts, source_id: 'doc:smart-2' });
  assert.equal(fake.requests.length, 1);
});

test('a provider failure during an llm ingest leaves the base untouched', async (t) => {
  const db = await freshDb(t);
  const fake = await startFakeProvider(modelAnswer);
  t.after(() => fake.close());
  fake.script.push({ status: 500 }, { status: 500 });
  await assert.rejects(
    ingestText(db, 'Semaglutide reduces body weight in adults with obesity.', {
      extraction: 'llm',
      provider: providerOpts(fake, 'openai'),
    }),
    (e: unknown) => e instanceof KbProviderError && e.code === 'provider_error' && e.status === 500,
  );
  assert.equal(fake.requests.length, 2, 'retried once');
  assert.equal((await db.stats()).claim_count, 0);
});

test('smart: a sentence a stored claim already came from is not new, even from another handle', async (t) => {
  const kb = tempKb();
  t.after(kb.cleanup);
  const fake = await startFakeProvider(modelAnswer);
  t.after(() => fake.close());
  const text = 'Semaglutide reduces body weight in adults with obesity.';
  const opts = { extraction: 'smart', provider: providerOpts(fake, 'openai') } as const;
  const first = await quickstart(kb.path);
  const r = await ingestText(first, text, { ...opts, source_id: 'doc:a' });
  assert.equal(r.ingested, 1);
  await first.close();
  const second = await quickstart(kb.path);
  t.after(() => second.close());
  const again = await ingestText(second, `${text} Orlistat was evaluated in adults with obesity.`, {
    ...opts,
    source_id: 'doc:b',
  });
  assert.equal(fake.requests.length, 2);
  assert.ok(!fake.requests[1]!.prompt.includes('Semaglutide'), 'the known sentence is not sent again');
  assert.ok(fake.requests[1]!.prompt.includes('Orlistat was evaluated'));
  assert.equal(again.ingested, 0);
});

test('recognition draws on entities already in the base and on vocabularies passed in', async (t) => {
  const db = await freshDb(t);
  await db.ingest(['Compound 7b', 'compound'], ['binds', 'molecular'], ['BRAF', 'gene'], {
    source_type: 'assay',
    source_id: 'elab:1',
  });
  const r = await ingestText(db, 'Compound 7b inhibits BRAF in A375 cells. Zorvex inhibits KIT.', {
    source_id: 'doc:custom',
    vocabularies: [{ synonyms: { drug: { 'ZZ-101': ['Zorvex'] } } }],
  });
  const triples = (await Promise.all(r.claim_ids.map((id) => db.getClaim(id))))
    .map((c) => `${c!.subject[0]}/${c!.subject[1]} ${c!.predicate[0]} ${c!.object[0]}`)
    .sort();
  assert.deepEqual(triples, ['Compound 7b/compound inhibits BRAF', 'ZZ-101/drug inhibits KIT']);
});
