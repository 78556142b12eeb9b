// Claim runs: the columnar log entries ingest batches are written as (store/claim-run.ts, store/chunks.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '@evident/testkit';
import { SqliteClaimStore } from '../src/store/sqlite.js';
import { claimOfRun, newRun } from '../src/model/claim-run.js';
import { entrySpan } from '../src/store/log-span.js';
import { encodeChunks } from '../src/store/chunks.js';
import { KbCorruptError } from '../src/errors.js';
import { open } from '../src/index.js';
import type { ClaimEntry, LogEntry, LogRecord } from '../src/store/types.js';
import type { ClaimRun } from '../src/model/claim-run.js';

function run(n: number, idStart: number): ClaimRun {
  const r = newRun(n, '00000000deadbeef', idStart);
  for (let i = 0; i < n; i++) {
    r.subject[i] = `Gene ${i % 97}`;
    r.subject_type[i] = i % 5 ? 'gene' : 'Protein';
    r.relationship[i] = `rel_${i % 13}`;
    r.predicate_class[i] = 'association';
    r.object[i] = `d${i % 31} "quoted" \u00e9`;
    r.object_type[i] = 'disease';
    r.source_type[i] = 'literature';
    r.source_id[i] = `pmid:${i}`;
    // Confidences that print with 17 digits must come back bit for bit.
    r.confidence[i] = i % 7 === 0 ? 1 : (i * 0.1234567891234567) % 1;
  }
  r.provenance_extra = { 3: { page: 7, derived_from: ['clm_x'] }, [n - 1]: { note: 'last' } };
  r.payload = { 0: null, 5: { ic50: [1.5, 2] } };
  return r;
}

/** Every log entry, one per seq, claims of runs expanded. */
function expand(records: LogRecord[]): { seq: number; ts: number; entry: Exclude<LogEntry, ClaimRun> }[] {
  const out: { seq: number; ts: number; entry: Exclude<LogEntry, ClaimRun> }[] = [];
  for (const r of records) {
    if (r.entry.kind === 'claims')
      for (let i = 0; i < r.entry.n; i++) out.push({ seq: r.seq + i, ts: r.ts, entry: claimOfRun(r.entry, i) });
    else out.push({ seq: r.seq, ts: r.ts, entry: r.entry });
  }
  return out;
}

test('a claim run round-trips through the SQLite store, and is read from any offset as its tail', async () => {
  const dir = tempDir();
  try {
    const store = await SqliteClaimStore.open(join(dir.path, 'a.kb'));
    const single: ClaimEntry = {
      kind: 'claim',
      claim_id: 'c0',
      subject: ['A', 'gene'],
      predicate: ['p', 'c'],
      object: ['B', 'gene'],
      provenance: { source_type: 't', source_id: 's' },
      confidence: 0.5,
    };
    // 40,000 claims: more than one run chunk (16,384), between two ordinary entries.
    const big = run(40_000, 2 ** 40);
    const entries: LogEntry[] = [single, big, { kind: 'retract', source_id: 's', reason: 'r', cascade: false }];
    assert.equal(await store.append(entries, 7, 0), 1);
    assert.equal(await store.head(), 40_002);
    const expected = [single, ...Array.from({ length: big.n }, (_, i) => claimOfRun(big, i)), entries[2]!];
    assert.equal(expected[4]!.kind === 'claim' && expected[4]!.provenance.page, 7);
    assert.equal(expected[2]!.kind === 'claim' && expected[2]!.claim_id, 'clm_00000000deadbeef0000010000000001');
    for (const after of [0, 1, 2, 16_384, 16_385, 33_000, 40_000, 40_001, 40_002]) {
      const got: LogRecord[] = [];
      let last = after;
      for (;;) {
        const page = await store.readAfter(last, 5000);
        if (page.length === 0) break;
        got.push(...page);
        const end = page[page.length - 1]!;
        last = end.seq + entrySpan(end.entry) - 1;
      }
      const flat = expand(got);
      assert.equal(flat.length, 40_002 - after, `after ${after}`);
      for (const [k, r] of flat.entries()) assert.equal(r.seq, after + k + 1);
      assert.deepEqual(
        flat.map((r) => r.entry),
        expected.slice(after),
        `after ${after}`,
      );
      assert.ok(flat.every((r) => r.ts === 7));
    }
    await store.close();
  } finally {
    dir.cleanup();
  }
});

test('a damaged run chunk is refused with KbCorruptError', async () => {
  const dir = tempDir();
  try {
    const path = join(dir.path, 'a.kb');
    const store = await SqliteClaimStore.open(path);
    await store.append([run(10, 0)], 1, 0);
    await store.close();
    const raw = new Database(path);
    // The JSON form of the run (as /2 logs and the Postgres store keep it), damaged.
    const body = JSON.parse(encodeChunks([run(10, 0)])[0]!.body as string);
    raw.prepare('UPDATE log SET body = ?').run(JSON.stringify({ ...body, confidence: body.confidence.slice(0, 8) }));
    raw.close();
    const again = await SqliteClaimStore.open(path);
    await assert.rejects(
      again.readAfter(0),
      (e: unknown) => e instanceof KbCorruptError && /confidence/.test(e.message),
    );
    await again.close();
    const raw2 = new Database(path);
    raw2.prepare('UPDATE log SET body = ?').run(JSON.stringify({ ...body, subject: body.subject.slice(1) }));
    raw2.close();
    const third = await SqliteClaimStore.open(path);
    await assert.rejects(third.readAfter(0), (e: unknown) => e instanceof KbCorruptError && /subject/.test(e.message));
    await third.close();
  } finally {
    dir.cleanup();
  }
});

test('a base in the earlier log format (/1, entry chunks only) opens, and is marked /3 once opened for writing', async () => {
  const dir = tempDir();
  try {
    const path = join(dir.path, 'old.kb');
    const raw = new Database(path);
    raw.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
              CREATE TABLE log (seq INTEGER PRIMARY KEY, n INTEGER NOT NULL, ts INTEGER NOT NULL, body TEXT NOT NULL);
              INSERT INTO meta VALUES ('format', 'evident-kb-log/1');`);
    const claimRow = [
      'clm_00000000000000010000000000000001',
      'BRCA1',
      'gene',
      'associated_with',
      'association',
      'breast cancer',
      'disease',
      'literature',
      'pmid:1',
      0.9,
    ];
    raw.prepare('INSERT INTO log VALUES (1, 1, ?, ?)').run(Date.UTC(2026, 0, 1), JSON.stringify([claimRow]));
    raw.close();
    {
      await using db = await open(path);
      assert.equal((await db.claimsFor('BRCA1')).length, 1);
      await db.ingest(['BRCA1', 'gene'], ['associated_with', 'association'], ['ovarian cancer', 'disease'], {
        source_type: 'literature',
        source_id: 'pmid:2',
      });
    }
    const check = new Database(path, { readonly: true });
    assert.equal(
      (check.prepare("SELECT value FROM meta WHERE key = 'format'").get() as { value: string }).value,
      'evident-kb-log/3',
    );
    check.close();
    await using again = await open(path);
    const ids = (await again.claimsFor('BRCA1')).map((c) => c.claim_id);
    assert.equal(ids.length, 2);
    assert.ok(ids.includes('clm_00000000000000010000000000000001'));
  } finally {
    dir.cleanup();
  }
});

test('duplicates inside a batch take no id: the ids returned are the ones a reopened base holds', async () => {
  const dir = tempDir();
  try {
    const path = join(dir.path, 'a.kb');
    const c = (s: string, src: string) => ({
      subject: [s, 'gene'] as [string, string],
      predicate: ['interacts_with', 'interaction'] as [string, string],
      object: ['TP53', 'gene'] as [string, string],
      provenance: { source_type: 'database', source_id: src },
    });
    let first: string[];
    let second: string[];
    {
      await using db = await open(path);
      first = (await db.ingestBatch([c('A', 'db1'), c('A', 'db1'), c('B', 'db1'), c(' a ', 'db1'), c('A', 'db2')]))
        .claim_ids;
      const r = await db.ingestBatch([c('B', 'db1'), c('C', 'db1')]);
      assert.equal(r.duplicates, 1);
      second = r.claim_ids;
    }
    // In-batch duplicates answer with the id of the claim they repeat; kept claims have distinct ids.
    assert.equal(first[1], first[0]);
    assert.equal(first[3], first[0]);
    assert.equal(new Set([first[0], first[2], first[4]]).size, 3);
    assert.equal(second[0], first[2]);
    await using again = await open(path);
    const held = new Set((await again.claimsFor('TP53')).map((x) => x.claim_id));
    assert.deepEqual(held, new Set([first[0], first[2], first[4], second[1]]));
    assert.equal((await again.stats()).claim_count, 4);
  } finally {
    dir.cleanup();
  }
});

test('consecutive batches of one size keep their own payloads and provenance (the engine reuses their columns)', async () => {
  const dir = tempDir();
  try {
    const path = join(dir.path, 'a.kb');
    const mk = (g: string, src: string, extra: Record<string, unknown> = {}) => ({
      subject: [g, 'gene'] as [string, string],
      predicate: ['associated_with', 'association'] as [string, string],
      object: ['asthma', 'disease'] as [string, string],
      provenance: { source_type: 'literature', source_id: src },
      ...extra,
    });
    const shape = (cs: { subject: [string, string]; payload?: unknown; provenance: Record<string, unknown> }[]) =>
      cs
        .map((c) => [
          c.subject[0],
          c.payload === undefined ? 'none' : c.payload,
          Object.keys(c.provenance).sort().join(','),
        ])
        .sort();
    const expected = [
      ['A1', 'none', 'source_id,source_type'],
      ['A2', { ic50: 3 }, 'source_id,source_type'],
      ['A3', 'none', 'page,source_id,source_type'],
      ['B1', 'none', 'source_id,source_type'],
      ['B2', 'none', 'source_id,source_type'],
      ['B3', 'none', 'source_id,source_type'],
    ];
    {
      await using db = await open(path);
      await db.ingestBatch([
        mk('A1', 'p1'),
        mk('A2', 'p1', { payload: { ic50: 3 } }),
        mk('A3', 'p1', { provenance: { source_type: 'literature', source_id: 'p1', page: 4 } }),
      ]);
      await db.ingestBatch([mk('B1', 'p2'), mk('B2', 'p2'), mk('B3', 'p2')]);
      assert.deepEqual(shape(await db.claimsFor('asthma')), expected);
    }
    await using again = await open(path);
    assert.deepEqual(shape(await again.claimsFor('asthma')), expected);
  } finally {
    dir.cleanup();
  }
});
