// search and searchEntities through the library: modes, filters, visibility (retraction, at(t)), background
// embedding (pending, embeddingsReady), a provider port (fake, in-process: the port contract, not a wire),
// and bad input.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KbValidationError, open, quickstart, type ClaimInput, type KbDB } from '../src/index.js';
import type { EmbeddingPort } from '../src/embeddings/port.js';
import { tokenize } from '../src/model/tokenize.js';
import { tempKb } from './helpers.js';
import type { SearchIndex } from '../src/search/search-index.js';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const c = (s: string, st: string, p: string, o: string, ot: string, src: string, type = 'literature'): ClaimInput => ({
  subject: [s, st],
  predicate: [p, 'association'],
  object: [o, ot],
  provenance: { source_type: type, source_id: src },
  confidence: type === 'experiment' ? 0.9 : 0.7,
});

const BASE: ClaimInput[] = [
  c('olaparib', 'drug', 'inhibits', 'PARP1', 'protein', 's1'),
  c('olaparib', 'drug', 'treats', 'breast cancer', 'disease', 's2'),
  c('niraparib', 'drug', 'inhibits', 'PARP1', 'protein', 's3'),
  c('niraparib', 'drug', 'treats', 'ovarian cancer', 'disease', 's4'),
  c('imatinib', 'drug', 'inhibits', 'ABL1', 'protein', 's5'),
  c('imatinib', 'drug', 'treats', 'chronic myeloid leukemia', 'disease', 's6'),
  c('tocilizumab', 'drug', 'inhibits', 'IL6R', 'protein', 's7'),
  c('tocilizumab', 'drug', 'treats', 'rheumatoid arthritis', 'disease', 's8'),
  c('atorvastatin', 'drug', 'inhibits', 'HMGCR', 'protein', 's9'),
  c('atorvastatin', 'drug', 'treats', 'hypercholesterolemia', 'disease', 's10'),
  c('lisinopril', 'drug', 'inhibits', 'ACE', 'protein', 's11'),
  c('lisinopril', 'drug', 'treats', 'hypertension', 'disease', 's12', 'experiment'),
  c('BRCA1', 'gene', 'associated_with', 'breast cancer', 'disease', 's13'),
  c('metformin', 'drug', 'treats', 'type 2 diabetes mellitus', 'disease', 's14'),
];

const text = (h: { claim: { subject: [string, string]; predicate: [string, string]; object: [string, string] } }) =>
  `${h.claim.subject[0]} ${h.claim.predicate[0]} ${h.claim.object[0]}`;

describe('tokenize', () => {
  it('keeps biomedical symbols and yields their parts', () => {
    assert.deepEqual(tokenize('PARP1'), ['parp1', 'parp']);
    assert.ok(tokenize('IL-6 levels').includes('il6'));
    const b = tokenize('BRCA1/2 carriers');
    assert.ok(b.includes('brca1') && b.includes('brca2'));
    assert.ok(tokenize('inhibitors').includes(tokenize('inhibits')[0]!));
    assert.deepEqual(tokenize('the of for'), []);
  });
});

describe('search', () => {
  let kb: ReturnType<typeof tempKb>;
  let db: KbDB;
  before(async () => {
    kb = tempKb();
    db = await quickstart(kb.path);
    await db.ingestBatch(BASE);
    await db.embeddingsReady();
  });
  after(async () => {
    await db.close();
    kb.cleanup();
  });

  for (const [q, want] of [
    ['PARP inhibitor for breast cancer', ['olaparib inhibits PARP1', 'olaparib treats breast cancer']],
    ['what does Lynparza treat', ['olaparib treats breast cancer']],
    ['drugs for high blood pressure', ['lisinopril treats hypertension']],
    ['Gleevec in CML', ['imatinib treats chronic myeloid leukemia']],
    ['atorvastatn and cholesterol', ['atorvastatin treats hypercholesterolemia']],
  ] as const) {
    it(`hybrid and semantic find the claims for "${q}" in the top 5`, async () => {
      for (const mode of ['hybrid', 'semantic'] as const) {
        const r = await db.search(q, { k: 5, mode });
        const got = r.results.map(text);
        for (const w of want) assert.ok(got.includes(w), `${mode}: ${w} not in ${got.join(' | ')}`);
        assert.equal(r.pending, 0);
        assert.equal(r.mode, mode);
      }
    });
  }

  it('answers the positional seed form with results, scores and signals', async () => {
    const r = await db.search('olaparib', 3);
    assert.ok(r.results.length > 0 && r.results.length <= 3);
    for (let i = 1; i < r.results.length; i++) assert.ok(r.results[i - 1]!.score >= r.results[i]!.score);
    const top = r.results[0]!;
    assert.equal(top.claim.subject[0], 'olaparib');
    assert.equal(typeof top.signals.lexical, 'number');
    assert.equal(top.signals.graph, 1);
  });

  it('lexical mode only returns claims sharing a word with the query', async () => {
    const r = await db.search('leukemia', { mode: 'lexical' });
    assert.deepEqual(r.results.map(text), ['imatinib treats chronic myeloid leukemia']);
    assert.equal(r.results[0]!.signals.semantic, null);
  });

  it('filters by predicate, entity type, source type and confidence', async () => {
    const p = await db.search('olaparib PARP1 breast cancer', { predicate: 'treats' });
    assert.ok(p.results.length > 0);
    for (const h of p.results) assert.equal(h.claim.predicate[0], 'treats');
    const t = await db.search('cancer', { entity_type: 'gene' });
    assert.deepEqual(t.results.map(text), ['BRCA1 associated_with breast cancer']);
    const st = await db.search('hypertension blood pressure treatment', { source_type: 'experiment' });
    assert.deepEqual(st.results.map(text), ['lisinopril treats hypertension']);
    const mc = await db.search('treats', { min_confidence: 0.8, k: 50 });
    // The one claim at 0.9 (an experiment); every other 'treats' claim is at 0.7.
    assert.deepEqual(mc.results.map(text), ['lisinopril treats hypertension']);
  });

  it('refuses bad input naming the field', async () => {
    for (const [args, field] of [
      [[''], 'query'],
      [['  '], 'query'],
      [[42], 'query'],
      [['x', 0], 'k'],
      [['x', 1001], 'k'],
      [['x', { k: 2.5 }], 'k'],
      [['x', { mode: 'fuzzy' }], 'mode'],
      [['x', { min_confidence: 2 }], 'min_confidence'],
      [['x', { colour: 'red' }], 'options.colour'],
    ] as const) {
      await assert.rejects(
        (db.search as (...a: unknown[]) => Promise<unknown>)(...args),
        (e: unknown) => e instanceof KbValidationError && e.field === field,
        `${JSON.stringify(args)} should fail on ${field}`,
      );
    }
    await assert.rejects(db.searchEntities('x', 0), (e: unknown) => e instanceof KbValidationError && e.field === 'k');
  });

  it('searchEntities finds entities by name, synonym and what they relate to', async () => {
    const syn = await db.searchEntities('Lynparza', 3);
    assert.equal(syn.results[0]!.entity.id, 'drug:olaparib');
    const rel = await db.searchEntities('PARP inhibitor', { k: 3, entity_type: 'drug' });
    const ids = rel.results.map((h) => h.entity.id);
    assert.ok(ids.includes('drug:olaparib') && ids.includes('drug:niraparib'), ids.join(','));
    for (const h of rel.results) assert.equal(h.entity.type, 'drug');
  });
});

describe('search over time and retraction', () => {
  it('drops retracted claims at once and an at(t) view sees its moment', async () => {
    const kb = tempKb();
    const db = await quickstart(kb.path);
    try {
      await db.ingestBatch(BASE);
      await db.embeddingsReady();
      const before = Date.now();
      await new Promise((r) => setTimeout(r, 5));
      await db.retract('s2', 'withdrawn');
      for (const mode of ['hybrid', 'semantic', 'lexical'] as const) {
        const r = await db.search('olaparib breast cancer', { mode, k: 20 });
        assert.ok(!r.results.map(text).includes('olaparib treats breast cancer'), mode);
      }
      const view = await db.at(before);
      const then = await view.search('olaparib breast cancer', 5);
      assert.ok(then.results.map(text).includes('olaparib treats breast cancer'));
    } finally {
      await db.close();
      kb.cleanup();
    }
  });
});

describe('background embedding', () => {
  it('reports pending work, answers lexically meanwhile, and finishes after embeddingsReady and a reopen', async () => {
    const kb = tempKb();
    let db = await quickstart(kb.path);
    try {
      await db.ingestBatch(BASE);
      const early = await db.search('olaparib', 5);
      assert.ok(early.pending > 0, 'vectors are computed after the commit');
      assert.ok(early.results.some((h) => h.claim.subject[0] === 'olaparib'));
      await db.embeddingsReady();
      assert.equal(db.embeddingStatus()!.pending, 0);
      await db.close();
      db = await quickstart(kb.path);
      await db.embeddingsReady();
      const s = db.embeddingStatus()!;
      assert.equal(s.provider, 'local');
      assert.equal(s.indexed, BASE.length);
    } finally {
      await db.close();
      kb.cleanup();
    }
  });

  it("keeps the local embedder's vectors and learner beside the base: a reopen answers the same at once", async () => {
    const kb = tempKb();
    let db = await quickstart(kb.path);
    try {
      await db.ingestBatch(BASE);
      await db.embeddingsReady();
      const before = await db.search('PARP inhibitor for breast cancer', { k: 5, mode: 'semantic' });
      await db.close();
      assert.ok(existsSync(join(`${kb.path}.vectors`, 'learner.context')), 'the learner is saved at close');
      db = await quickstart(kb.path);
      assert.deepEqual(
        { indexed: db.embeddingStatus()!.indexed, pending: db.embeddingStatus()!.pending },
        { indexed: BASE.length, pending: 0 },
        'nothing to recompute after a reopen',
      );
      const after = await db.search('PARP inhibitor for breast cancer', { k: 5, mode: 'semantic' });
      assert.deepEqual(
        after.results.map((h) => [text(h), h.signals.semantic]),
        before.results.map((h) => [text(h), h.signals.semantic]),
      );
      // New facts after the reopen are learnt and embedded on top of the restored learner.
      await db.ingestBatch([c('rucaparib', 'drug', 'inhibits', 'PARP1', 'protein', 's20')]);
      await db.embeddingsReady();
      assert.equal(db.embeddingStatus()!.indexed, BASE.length + 1);
      const r = await db.search('PARP inhibitor', { k: 5, mode: 'semantic' });
      assert.ok(r.results.some((h) => h.claim.subject[0] === 'rucaparib'));
    } finally {
      await db.close();
      kb.cleanup();
    }
  });

  it("ignores saved local vectors that are another log's", async () => {
    const kb = tempKb();
    const other = tempKb();
    try {
      let db = await quickstart(kb.path);
      await db.ingestBatch(BASE);
      await db.embeddingsReady();
      await db.close();
      db = await quickstart(other.path);
      await db.ingestBatch([...BASE].reverse());
      await db.close();
      // The first base's vectors beside the second's log: same counts, other facts in another order.
      rmSync(`${other.path}.vectors`, { recursive: true, force: true });
      cpSync(`${kb.path}.vectors`, `${other.path}.vectors`, { recursive: true });
      db = await quickstart(other.path);
      assert.equal(db.embeddingStatus()!.indexed, 0, 'stale vectors are not loaded');
      await db.embeddingsReady();
      assert.equal(db.embeddingStatus()!.indexed, BASE.length);
      await db.close();
    } finally {
      kb.cleanup();
      other.cleanup();
    }
  });

  it("an ingest's commit leaves the search index alone; the next read takes the claims in", async () => {
    const kb = tempKb();
    const db = await open(kb.path, { embedding: false });
    try {
      await db.ingestBatch(BASE);
      const ix = (db as unknown as { searchIndex: SearchIndex }).searchIndex;
      assert.equal(ix.facts.docCount, 0, 'nothing indexed in the commit');
      assert.equal(ix.intake.count, BASE.length);
      const r = await db.search('olaparib', { k: 5, mode: 'lexical' });
      assert.ok(r.results.some((h) => h.claim.subject[0] === 'olaparib'));
      assert.equal(ix.intake.count, 0);
      assert.equal(ix.facts.docCount, BASE.length);
    } finally {
      await db.close();
      kb.cleanup();
    }
  });

  it('with embedding off, search is lexical and nothing is pending', async () => {
    const kb = tempKb();
    const db = await open(kb.path, { embedding_dim: null });
    try {
      await db.ingestBatch(BASE);
      const r = await db.search('olaparib', { mode: 'semantic' });
      assert.equal(r.mode, 'lexical');
      assert.equal(db.embeddingStatus(), null);
      await db.embeddingsReady();
    } finally {
      await db.close();
      kb.cleanup();
    }
  });

  it('a provider port: outage keeps claims pending, recovery indexes them, a wrong dimension indexes nothing', async () => {
    let mode: 'down' | 'up' | 'short' = 'down';
    let calls = 0;
    const port: EmbeddingPort = {
      provider: 'openai-compatible',
      model: 'fake',
      dim: 4,
      async embed(texts) {
        calls++;
        if (mode === 'down') throw Object.assign(new Error('503 from provider'), { code: 'provider_unavailable' });
        return texts.map((t) => {
          const v = new Float32Array(mode === 'short' ? 3 : 4);
          for (let i = 0; i < t.length; i++) v[i % v.length]! += t.charCodeAt(i) / 100;
          return v;
        });
      },
    };
    const kb = tempKb();
    const db = await open(kb.path, { embedding: { port } });
    try {
      await db.ingestBatch(BASE.slice(0, 3));
      await db.embeddingsReady();
      const s = db.embeddingStatus()!;
      assert.ok(calls > 0);
      assert.equal(s.indexed, 0);
      assert.ok(s.pending > 0);
      assert.match(s.last_error!, /provider_unavailable/);
      const lex = await db.search('olaparib', { mode: 'lexical' });
      assert.ok(lex.results.length > 0, 'claims are stored and findable while the provider is down');
      mode = 'short';
      await new Promise((r) => setTimeout(r, 600));
      await db.embeddingsReady();
      assert.equal(db.embeddingStatus()!.indexed, 0);
      assert.match(db.embeddingStatus()!.last_error!, /embedding_dimension/);
      mode = 'up';
      for (let i = 0; i < 20 && db.embeddingStatus()!.pending > 0; i++) {
        await new Promise((r) => setTimeout(r, 300));
        await db.embeddingsReady();
      }
      assert.equal(db.embeddingStatus()!.pending, 0);
      assert.equal(db.embeddingStatus()!.indexed, 3);
      const r = await db.search('olaparib', { mode: 'semantic', k: 3 });
      assert.equal(r.results.length, 3);
    } finally {
      await db.close();
      kb.cleanup();
    }
  });

  it("keeps a provider's vectors beside the base: a reopen embeds only what is new, another model re-embeds", async () => {
    const embedded: string[] = [];
    const portOf = (model: string): EmbeddingPort => ({
      provider: 'ollama',
      model,
      dim: 8,
      async embed(texts) {
        embedded.push(...texts);
        return texts.map((t) => {
          const v = new Float32Array(8);
          for (let i = 0; i < t.length; i++) v[i % 8]! += t.charCodeAt(i);
          return v;
        });
      },
    });
    const kb = tempKb();
    try {
      let db = await open(kb.path, { embedding: { port: portOf('m1') } });
      await db.ingestBatch(BASE.slice(0, 4));
      await db.embeddingsReady();
      const first = embedded.length;
      assert.ok(first > 0);
      await db.close();
      db = await open(kb.path, { embedding: { port: portOf('m1') } });
      assert.deepEqual(
        { indexed: db.embeddingStatus()!.indexed, pending: db.embeddingStatus()!.pending },
        { indexed: 4, pending: 0 },
      );
      await db.ingestBatch(BASE.slice(4, 5));
      await db.embeddingsReady();
      const added = embedded.slice(first);
      assert.ok(added.length >= 1 && added.every((t) => /imatinib|abl1/i.test(t)), added.join(' | '));
      assert.equal(db.embeddingStatus()!.indexed, 5);
      await db.close();
      db = await open(kb.path, { embedding: { port: portOf('m2') } });
      assert.ok(db.embeddingStatus()!.pending > 0, 'another model: the saved vectors are stale');
      await db.embeddingsReady();
      assert.equal(db.embeddingStatus()!.indexed, 5);
      await db.close();
    } finally {
      kb.cleanup();
    }
  });

  it('checks the embedding options', async () => {
    const kb = tempKb();
    try {
      await assert.rejects(
        open(kb.path, { embedding_dim: 3 }),
        (e: unknown) => (e as KbValidationError).field === 'embedding_dim',
      );
      await assert.rejects(
        open(kb.path, { embedding: { port: { provider: 'x' } as unknown as EmbeddingPort } }),
        (e: unknown) => (e as KbValidationError).field === 'embedding.port',
      );
      await assert.rejects(
        open(kb.path, { embedding: { provider: 'openai' } as never }),
        (e: unknown) => (e as KbValidationError).field === 'embedding.provider',
      );
    } finally {
      kb.cleanup();
    }
  });
});

describe('search on a whatIf view', () => {
  it('finds a hypothetical claim, lexically and by meaning once asked', async () => {
    const kb = tempKb();
    const db = await quickstart(kb.path);
    try {
      await db.ingestBatch(BASE);
      const view = await db.whatIf({ add_claims: [c('talazoparib', 'drug', 'inhibits', 'PARP1', 'protein', 'h1')] });
      const lex = await view.search('talazoparib', { mode: 'lexical' });
      assert.deepEqual(lex.results.map(text), ['talazoparib inhibits PARP1']);
      assert.equal((await db.search('talazoparib', { mode: 'lexical' })).results.length, 0, 'the base is untouched');
    } finally {
      await db.close();
      kb.cleanup();
    }
  });
});
