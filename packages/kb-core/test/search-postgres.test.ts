// A provider's (and the local embedder's) vectors on a PostgreSQL base (src/embeddings/shared.ts, src/store/postgres/vectors.ts): computed
// once for all the handles (processes) on the base, whichever needs them first; another handle finds them by
// tailing the log and reading the shared table; two handles catching up at once never pay twice for a text;
// a reservation left by a process that died is taken over after the lease.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createTempDatabase, probePostgres, type TempDatabase } from '@evident/testkit';
import { open, type ClaimInput, type KbDB } from '../src/index.js';
import type { EmbeddingPort } from '../src/embeddings/port.js';
import { SHARED_LEASE_MS } from '../src/embeddings/queue.js';

const probe = await probePostgres();

const c = (s: string, st: string, p: string, o: string, ot: string, src: string): ClaimInput => ({
  subject: [s, st],
  predicate: [p, 'association'],
  object: [o, ot],
  provenance: { source_type: 'literature', source_id: src },
});

const CLAIMS: ClaimInput[] = [
  c('olaparib', 'drug', 'inhibits', 'PARP1', 'protein', 's1'),
  c('olaparib', 'drug', 'treats', 'breast cancer', 'disease', 's2'),
  c('imatinib', 'drug', 'inhibits', 'ABL1', 'protein', 's3'),
  c('BRCA1', 'gene', 'associated_with', 'breast cancer', 'disease', 's4'),
];

/** A fake provider (deterministic vectors from the characters) that records every text it is sent. */
function countingPort(sent: string[], hang = false): EmbeddingPort {
  return {
    provider: 'openai-compatible',
    model: 'fake-1',
    dim: 8,
    async embed(texts) {
      sent.push(...texts);
      if (hang) return new Promise<Float32Array[]>(() => undefined);
      return texts.map((t) => {
        const v = new Float32Array(8);
        for (let i = 0; i < t.length; i++) v[i % 8]! += t.charCodeAt(i) % 17;
        return v;
      });
    },
  };
}

const semantic = async (db: KbDB, q: string) =>
  (await db.search(q, { k: 5, mode: 'semantic' })).results.map((h) => [h.claim.claim_id, h.signals.semantic]);

describe('vectors shared through a PostgreSQL base', { skip: probe.skip }, () => {
  let db: TempDatabase;
  let admin: pg.Client;
  let n = 0;
  async function freshUrl(): Promise<{ url: string; schema: string }> {
    const schema = `v${++n}`;
    await admin.query(`CREATE SCHEMA ${schema}`);
    const u = new URL(db.url);
    u.searchParams.set('options', `-c search_path=${schema}`);
    return { url: u.toString(), schema };
  }
  before(async () => {
    db = await createTempDatabase('kb_vectors');
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  });
  after(async () => {
    await admin?.end();
    await db?.drop();
  });

  test('the handle that ingests pays the provider; the other reads the vectors from the base', async () => {
    const { url, schema } = await freshUrl();
    const sentA: string[] = [];
    const sentB: string[] = [];
    const a = await open(url, { embedding: { port: countingPort(sentA) } });
    const b = await open(url, { embedding: { port: countingPort(sentB) } });
    try {
      await a.ingestBatch(CLAIMS);
      await a.embeddingsReady();
      assert.ok(sentA.length > 0);
      assert.equal(new Set(sentA).size, sentA.length, 'each text sent once');
      // b tails the log (before its read) and takes the vectors from the base.
      await b.embeddingsReady();
      assert.deepEqual(sentB, []);
      assert.equal(b.embeddingStatus()!.indexed, a.embeddingStatus()!.indexed);
      assert.deepEqual(await semantic(b, 'PARP inhibitor'), await semantic(a, 'PARP inhibitor'));
      const { rows } = await admin.query(
        `SELECT count(*)::int AS n FROM ${schema}.evident_kb_vectors WHERE vec IS NULL`,
      );
      assert.equal(rows[0].n, 0, 'no reservation left behind');
      // The other way round: b ingests, a reads.
      const before = sentA.length;
      await b.ingestBatch([c('talazoparib', 'drug', 'inhibits', 'PARP1', 'protein', 's5')]);
      await b.embeddingsReady();
      assert.ok(sentB.some((t) => /talazoparib/i.test(t)));
      await a.embeddingsReady();
      assert.equal(sentA.length, before, 'a sent nothing for b’s claim');
      assert.ok((await semantic(a, 'talazoparib')).length > 0);
      assert.equal(a.embeddingStatus()!.indexed, b.embeddingStatus()!.indexed);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('two handles catching up at once send each text once between them', async () => {
    const { url } = await freshUrl();
    const w = await open(url, { embedding: false });
    const many = Array.from({ length: 300 }, (_, i) =>
      c(`drug${i}`, 'drug', 'inhibits', `GENE${i % 37}`, 'gene', `p${i}`),
    );
    await w.ingestBatch(many);
    await w.close();
    const sentA: string[] = [];
    const sentB: string[] = [];
    const [a, b] = await Promise.all([
      open(url, { embedding: { port: countingPort(sentA) } }),
      open(url, { embedding: { port: countingPort(sentB) } }),
    ]);
    try {
      await Promise.all([a.embeddingsReady(), b.embeddingsReady()]);
      const all = [...sentA, ...sentB];
      assert.equal(new Set(all).size, all.length, 'no text sent twice');
      assert.equal(a.embeddingStatus()!.indexed, 300);
      assert.equal(b.embeddingStatus()!.indexed, 300);
      assert.equal(a.embeddingStatus()!.pending + b.embeddingStatus()!.pending, 0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test("a dead process's reservation is taken over after the lease", async () => {
    const { url, schema } = await freshUrl();
    const w = await open(url, { embedding: false });
    await w.ingestBatch(CLAIMS);
    await w.close();
    // A handle whose provider never answers: it reserves the texts and holds them (as a hung or killed process).
    const stuck = await open(url, { embedding: { port: countingPort([], true) } });
    const reserved = async () =>
      (await admin.query(`SELECT count(*)::int AS n FROM ${schema}.evident_kb_vectors WHERE vec IS NULL`)).rows[0].n;
    for (let i = 0; i < 200 && (await reserved()) === 0; i++) await new Promise((r) => setTimeout(r, 25));
    assert.ok((await reserved()) > 0);
    const sent: string[] = [];
    const next = await open(url, { embedding: { port: countingPort(sent) } });
    try {
      // Within the lease, the reserved texts (the facts': the stuck handle took them first) are left to their holder.
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(next.embeddingStatus()!.pending > 0);
      assert.equal(next.embeddingStatus()!.indexed, 0, 'no fact vector yet');
      assert.ok(!sent.some((t) => /inhibits|treats|associated/.test(t)), sent.join(' | '));
      // The lease runs out (aged here rather than waited for).
      await admin.query(
        `UPDATE ${schema}.evident_kb_vectors SET reserved_at = now() - $1::float8 * interval '2 millisecond'`,
        [SHARED_LEASE_MS],
      );
      await next.embeddingsReady();
      assert.equal(next.embeddingStatus()!.pending, 0);
      assert.equal(next.embeddingStatus()!.indexed, CLAIMS.length);
      assert.equal(await reserved(), 0);
    } finally {
      await next.close();
      await stuck.close();
    }
  });

  /** Counts the texts a handle's local embedder embeds for the index (queries are embedded apart). */
  function countEmbeds(kb: KbDB): string[] {
    const q = (
      kb as unknown as { searchIndex: { embeddings: { local: { embed(t: string[]): Promise<Float32Array[]> } } } }
    ).searchIndex.embeddings.local;
    const seen: string[] = [];
    const embed = q.embed.bind(q);
    q.embed = (texts) => {
      seen.push(...texts);
      return embed(texts);
    };
    return seen;
  }

  test('the local embedder: the handle that ingests embeds; one opened later reads the vectors, per generation', async () => {
    const { url, schema } = await freshUrl();
    const many = Array.from({ length: 40 }, (_, i) =>
      c(`drug${i}`, 'drug', 'inhibits', `GENE${i % 7}`, 'gene', `p${i}`),
    );
    const a = await open(url);
    const seenA = countEmbeds(a);
    let b: KbDB | undefined;
    try {
      await a.ingestBatch([...CLAIMS, ...many]);
      await a.embeddingsReady();
      assert.ok(seenA.length > 0);
      const { rows } = await admin.query(
        `SELECT embedder, count(*)::int AS n, count(vec)::int AS filled FROM ${schema}.evident_kb_vectors GROUP BY embedder`,
      );
      // 44 facts learnt: generation floor(log2 44) = 5, named in the embedder.
      assert.deepEqual(
        rows.map((r) => [r.embedder, r.n === r.filled]),
        [[`local/random-indexing+char-trigrams/256/g5`, true]],
      );
      b = await open(url);
      const seenB = countEmbeds(b);
      await b.embeddingsReady();
      assert.deepEqual(seenB, [], 'b computed no vector: it read them');
      assert.equal(b.embeddingStatus()!.indexed, a.embeddingStatus()!.indexed);
      assert.deepEqual(await semantic(b, 'PARP inhibitor'), await semantic(a, 'PARP inhibitor'));
      // A new claim: embedded by the handle that ingests it, read by the other.
      await b.ingestBatch([c('talazoparib', 'drug', 'inhibits', 'PARP1', 'protein', 's9')]);
      await b.embeddingsReady();
      assert.ok(seenB.some((t) => /talazoparib/i.test(t)));
      const before = seenA.length;
      await a.embeddingsReady();
      assert.equal(seenA.length, before, 'a embedded nothing for b’s claim');
      assert.ok((await semantic(a, 'talazoparib')).length > 0);
      // A whatIf view reads the shared vectors but keeps its own (its learner learnt a claim the base lacks).
      const rowsBefore = (await admin.query(`SELECT count(*)::int AS n FROM ${schema}.evident_kb_vectors`)).rows[0].n;
      const view = await a.hypothetical([c('veliparib', 'drug', 'inhibits', 'PARP2', 'protein', 'h1')]);
      // The view embeds in the background once asked; search answers with what is indexed meanwhile.
      let hits = await view.search('veliparib PARP2', { k: 3, mode: 'semantic' });
      for (let i = 0; i < 400 && hits.pending > 0; i++) {
        await new Promise((r) => setTimeout(r, 25));
        hits = await view.search('veliparib PARP2', { k: 3, mode: 'semantic' });
      }
      assert.equal(hits.results[0]!.claim.subject[0], 'veliparib');
      const rowsAfter = (await admin.query(`SELECT count(*)::int AS n FROM ${schema}.evident_kb_vectors`)).rows[0].n;
      assert.equal(rowsAfter, rowsBefore, 'nothing written to the shared vectors');
    } finally {
      await a.close();
      await b?.close();
    }
  });
});
