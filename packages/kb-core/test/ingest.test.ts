import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, quickstart, KbValidationError, type ClaimInput } from '../src/index.js';
import { tempKb, claim } from './helpers.js';

test('ingest returns a claim id; the claim reads back with ids, content_id, status and created_at', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const before = Date.now();
    const id = await db.ingest(
      ['BRCA1', 'gene'],
      ['associated_with', 'association'],
      ['Breast Cancer', 'disease'],
      { source_type: 'literature', source_id: 'pmid:1', note: 'kept' },
      { confidence: 0.8, payload: { p_value: 1e-5 } },
    );
    assert.match(id, /^clm_[0-9a-f]{32}$/);
    const c = await db.getClaim(id);
    assert.ok(c);
    assert.equal(c.subject_id, 'gene:brca1');
    assert.equal(c.object_id, 'disease:breast cancer');
    assert.equal(c.status, 'active');
    assert.equal(c.confidence, 0.8);
    assert.deepEqual(c.payload, { p_value: 1e-5 });
    assert.equal(c.provenance.note, 'kept');
    assert.match(c.content_id, /^[0-9a-f]{32}$/);
    assert.ok(Date.parse(c.created_at) >= before - 1 && c.created_at.endsWith('Z'));
  } finally {
    t.cleanup();
  }
});

test('resolve normalises case, spacing and vocabulary synonyms; with bio, a gene and its protein are one entity', async () => {
  const t = tempKb();
  try {
    await using db = await quickstart(t.path);
    await db.ingest(['TP53', 'gene'], ['associated_with', 'association'], ['Li-Fraumeni syndrome', 'disease'], {
      source_type: 'database',
      source_id: 'omim',
    });
    await db.ingest(['p53', 'protein'], ['interacts_with', 'molecular'], ['MDM2', 'protein'], {
      source_type: 'database',
      source_id: 'string',
    });
    await db.ingest(['Herceptin', 'drug'], ['treats', 'pharmacology'], ['breast carcinoma', 'disease'], {
      source_type: 'database',
      source_id: 'dailymed',
    });
    assert.equal(await db.resolve('TP53'), 'gene:tp53');
    assert.equal(
      await db.resolve(' tp53 ', 'protein'),
      'gene:tp53',
      'synonym p53 became the canonical TP53, one entity with the gene (bio unifies gene and protein)',
    );
    const tp53 = (await db.getEntity('protein:tp53'))!;
    assert.deepEqual(
      [tp53.id, tp53.types, tp53.aliases, tp53.claim_count],
      ['gene:tp53', ['gene', 'protein'], ['p53'], 2],
    );
    assert.equal(await db.resolve('Trastuzumab'), 'drug:trastuzumab');
    assert.equal(await db.resolve('herceptin'), 'drug:trastuzumab');
    assert.equal(await db.resolve('Breast   Cancer'), 'disease:breast cancer');
    assert.equal(await db.resolve('no such thing'), null);
    const e = await db.getEntity('drug:trastuzumab');
    assert.ok(e);
    assert.equal(e.name, 'trastuzumab');
    assert.deepEqual(e.aliases, ['Herceptin']);
  } finally {
    t.cleanup();
  }
});

test('a second source corroborates; the same source again is a duplicate and is not stored twice', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const seen: { content_id: string; count: number }[] = [];
    db.on('claim_corroborated', (e) => seen.push(e));
    const a = await db.ingest(['EGFR', 'gene'], ['associated_with', 'association'], ['NSCLC', 'disease'], {
      source_type: 'literature',
      source_id: 'pmid:1',
    });
    const dup = await db.ingest(['egfr', 'gene'], ['Associated With', 'association'], ['nsclc', 'disease'], {
      source_type: 'literature',
      source_id: 'pmid:1',
    });
    assert.equal(dup, a, 'duplicate returns the stored claim id');
    assert.equal(seen.length, 0);
    const b = await db.ingest(['EGFR', 'gene'], ['associated_with', 'association'], ['NSCLC', 'disease'], {
      source_type: 'database',
      source_id: 'omim',
    });
    const c = await db.ingest(['EGFR', 'gene'], ['associated_with', 'association'], ['NSCLC', 'disease'], {
      source_type: 'experiment',
      source_id: 'lab-7',
    });
    const claimA = (await db.getClaim(a))!;
    assert.deepEqual(seen, [
      { content_id: claimA.content_id, count: 2, claim_id: b },
      { content_id: claimA.content_id, count: 3, claim_id: c },
    ]);
    const group = await db.claimsByContentId(claimA.content_id);
    assert.deepEqual(
      group.map((x) => x.claim_id),
      [a, b, c],
    );
    const r = await db.ingestBatch([
      claim('EGFR', 'gene', 'associated_with', 'NSCLC', 'disease', 'pmid:1'),
      claim('KRAS', 'gene', 'associated_with', 'NSCLC', 'disease', 'pmid:2'),
      claim('kras', 'gene', 'associated_with', 'nsclc', 'disease', 'pmid:2'),
    ]);
    assert.equal(r.ingested, 1);
    assert.equal(r.duplicates, 2);
    assert.equal(r.claim_ids[0], a);
    assert.equal(r.claim_ids[1], r.claim_ids[2]);
    assert.equal((await db.stats()).total_claims, 4);
  } finally {
    t.cleanup();
  }
});

test('bad input is refused with a typed error naming the field, and nothing is written', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const good = claim('A', 'gene', 'associated_with', 'B', 'disease', 's1');
    const cases: [unknown, string, string][] = [
      [{ ...good, provenance: undefined }, 'missing_field', 'provenance'],
      [{ ...good, provenance: { source_type: 'x' } }, 'missing_field', 'provenance.source_id'],
      [{ ...good, provenance: { source_type: 'x', source_id: '  ' } }, 'invalid_type', 'provenance.source_id'],
      [{ ...good, subject: ['A'] }, 'invalid_tuple', 'subject'],
      [{ ...good, object: 'B' }, 'invalid_tuple', 'object'],
      [{ ...good, subject: ['', 'gene'] }, 'empty_name', 'subject[0]'],
      [{ ...good, predicate: ['rel', 7] }, 'invalid_type', 'predicate[1]'],
      [{ ...good, confidence: 1.5 }, 'out_of_range', 'confidence'],
      [{ ...good, confidence: -0.1 }, 'out_of_range', 'confidence'],
      [{ ...good, confidence: Number.NaN }, 'invalid_type', 'confidence'],
      [
        { ...good, provenance: { source_type: 'x', source_id: 'y', derived_from: ['clm_nope'] } },
        'unknown_reference',
        'provenance.derived_from[0]',
      ],
      [null, 'invalid_type', 'claim'],
    ];
    for (const [input, code, field] of cases) {
      await assert.rejects(db.ingestBatch([input as ClaimInput]), (e: unknown) => {
        assert.ok(e instanceof KbValidationError, `${field}: ${String(e)}`);
        assert.equal(e.code, code, field);
        assert.equal(e.field, field);
        assert.equal(e.index, 0);
        return true;
      });
    }
    await assert.rejects(
      db.ingest(['A', 'gene'], ['rel', 'c'], ['B', 'x'], { source_type: 't' } as never),
      (e: unknown) => e instanceof KbValidationError && e.field === 'provenance.source_id' && e.index === undefined,
    );
    // One bad claim in the middle: none of the batch is written, and the error says which one.
    await assert.rejects(
      db.ingestBatch([good, claim('C', 'gene', 'associated_with', 'D', 'disease', 's1'), { ...good, confidence: 2 }]),
      (e: unknown) => {
        assert.ok(e instanceof KbValidationError);
        assert.equal(e.index, 2);
        assert.equal(e.field, 'confidence');
        assert.match(e.message, /claims\[2\]\.confidence/);
        return true;
      },
    );
    assert.equal((await db.stats()).total_claims, 0);
    assert.deepEqual(await db.listEntities(), []);
  } finally {
    t.cleanup();
  }
});

test('claim ids of any form round-trip (generated ids are stored compactly, foreign ones as written)', async () => {
  const t = tempKb();
  try {
    const { SqliteClaimStore } = await import('../src/store/sqlite.js');
    const store = await SqliteClaimStore.open(t.path);
    const ids = [
      'clm_00000000000000000000000000000000',
      'clm_ffffffffffffffff0000ffffffffffff',
      'clm_ABCDEF0123456789000000000000000a',
      'clm_0123456789abcdef1000000000000000',
      'legacy-42',
    ];
    await store.append(
      ids.map((id, i) => ({
        kind: 'claim' as const,
        claim_id: id,
        subject: [`s${i}`, 'gene'] as [string, string],
        predicate: ['x', 'y'] as [string, string],
        object: ['o', 'gene'] as [string, string],
        provenance: { source_type: 't', source_id: `src${i}` },
        confidence: 1,
      })),
      Date.now(),
      0,
    );
    await store.close();
    await using db = await open(t.path);
    for (const id of ids) assert.equal((await db.getClaim(id))?.claim_id, id);
    assert.deepEqual(
      (await db.claimsFor('o')).map((c) => c.claim_id),
      ids,
    );
  } finally {
    t.cleanup();
  }
});

test('a caller reusing its objects while a write is in flight does not change what was ingested', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const c = claim('ALK', 'gene', 'associated_with', 'neuroblastoma', 'disease', 'src-a', { payload: { n: 1 } });
    const pending = db.ingestBatch([c]);
    c.subject[0] = 'MYCN';
    c.provenance.source_id = 'src-b';
    (c.payload as { n: number }).n = 2;
    const [id] = (await pending).claim_ids;
    const stored = (await db.getClaim(id!))!;
    assert.equal(stored.subject[0], 'ALK');
    assert.equal(stored.provenance.source_id, 'src-a');
    assert.deepEqual(stored.payload, { n: 1 });
    assert.equal(await db.resolve('MYCN'), null);
  } finally {
    t.cleanup();
  }
});

test('claimsFor filters by predicate; listEntities by type and claim count', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    await db.ingestBatch([
      claim('BRCA1', 'gene', 'associated_with', 'breast cancer', 'disease', 's1'),
      claim('BRCA1', 'gene', 'associated_with', 'ovarian cancer', 'disease', 's1'),
      claim('BRCA1', 'gene', 'interacts_with', 'BARD1', 'gene', 's2'),
      claim('olaparib', 'drug', 'treats', 'ovarian cancer', 'disease', 's3'),
    ]);
    assert.equal((await db.claimsFor('BRCA1')).length, 3);
    const assoc = await db.claimsFor('brca1', { predicate_type: 'associated_with' });
    assert.deepEqual(assoc.map((c) => c.object[0]).sort(), ['breast cancer', 'ovarian cancer']);
    assert.deepEqual(await db.claimsFor('BRCA1', { predicate_type: 'treats' }), []);
    const genes = await db.listEntities({ entity_type: 'gene' });
    assert.deepEqual(genes.map((e) => e.id).sort(), ['gene:bard1', 'gene:brca1']);
    const busy = await db.listEntities({ min_claims: 2 });
    assert.deepEqual(busy.map((e) => [e.id, e.claim_count]).sort(), [
      ['disease:ovarian cancer', 2],
      ['gene:brca1', 3],
    ]);
  } finally {
    t.cleanup();
  }
});

test('the index rebuilt on open equals the one built while ingesting', async () => {
  const t = tempKb();
  try {
    const claims: ClaimInput[] = [];
    for (let i = 0; i < 300; i++) {
      claims.push(
        claim(
          `G${i % 40}`,
          'gene',
          i % 3 ? 'associated_with' : 'interacts_with',
          `D${(i * 7) % 25}`,
          i % 3 ? 'disease' : 'gene',
          `src${i % 11}`,
          { confidence: (i % 10) / 10 },
        ),
      );
    }
    let before: unknown;
    {
      await using db = await open(t.path);
      await db.ingestBatch(claims.slice(0, 150));
      await db.ingestBatch(claims.slice(150));
      await db.retract('src3', 'bad lab');
      before = [
        await db.stats(),
        await db.query('G5', { depth: 2 }),
        await db.knowledgeHealth(),
        await db.listEntities(),
      ];
    }
    await using again = await open(t.path);
    const after = [
      await again.stats(),
      await again.query('G5', { depth: 2 }),
      await again.knowledgeHealth(),
      await again.listEntities(),
    ];
    // freshness and as_of depend on "now"; compare everything else.
    const strip = (x: unknown) =>
      JSON.parse(JSON.stringify(x, (k, v) => (k === 'freshness' || k === 'as_of' || k === 'score' ? undefined : v)));
    assert.deepEqual(strip(after), strip(before));
  } finally {
    t.cleanup();
  }
});

test('the heuristic curator fills a missing confidence by source type; none uses 1', async () => {
  const t = tempKb();
  const u = tempKb();
  try {
    await using h = await open(t.path);
    const a = await h.ingest(['X', 'gene'], ['associated_with', 'a'], ['Y', 'disease'], {
      source_type: 'Experiment',
      source_id: 'e',
    });
    const b = await h.ingest(['X', 'gene'], ['associated_with', 'a'], ['Z', 'disease'], {
      source_type: 'prediction',
      source_id: 'p',
    });
    assert.equal((await h.getClaim(a))!.confidence, 0.9);
    assert.equal((await h.getClaim(b))!.confidence, 0.5);
    await using n = await open(u.path, { curator: 'none' });
    const c = await n.ingest(['X', 'gene'], ['associated_with', 'a'], ['Y', 'disease'], {
      source_type: 'prediction',
      source_id: 'p',
    });
    assert.equal((await n.getClaim(c))!.confidence, 1);
  } finally {
    t.cleanup();
    u.cleanup();
  }
});
