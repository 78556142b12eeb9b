// The binary run record (src/store/run-record.ts): round trips, the JSON fallback, damaged records refused, and a
// log written in the earlier JSON form (/2) read beside new binary records.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '@evident/testkit';
import { KbCorruptError } from '../src/errors.js';
import { open } from '../src/index.js';
import { claimOfRun, newRun, type ClaimRun } from '../src/model/claim-run.js';
import { decodeChunk, encodeChunks } from '../src/store/chunks.js';
import { recycleRecordBuffers } from '../src/store/record-buffers.js';
import { decodeRunRecord, encodeRunRecord, isRunRecord } from '../src/store/run-record.js';
import type { LogRecord } from '../src/store/types.js';

function run(n: number, name: (i: number) => string, extras = false): ClaimRun {
  const r = newRun(n, '0123456789abcdef', 2 ** 33 + 5);
  for (let i = 0; i < n; i++) {
    r.subject[i] = name(i);
    r.subject_type[i] = i % 3 ? 'gene' : 'protein';
    r.relationship[i] = `rel_${i % 11}`;
    r.predicate_class[i] = 'association';
    r.object[i] = name(i + 7);
    r.object_type[i] = 'disease';
    r.source_type[i] = 'literature';
    r.source_id[i] = `pmid:${i >> 1}`;
    r.confidence[i] = (i * 0.1234567891234567) % 1;
  }
  if (extras) {
    r.provenance_extra = { 1: { page: 3, derived_from: ['clm_a'] } };
    r.payload = { 0: { ic50: [1.5, 2] }, [n - 1]: null };
  }
  return r;
}

const claims = (r: ClaimRun) => Array.from({ length: r.n }, (_, i) => claimOfRun(r, i));

function roundTrip(r: ClaimRun): ClaimRun {
  const bytes = encodeRunRecord(r);
  assert.ok(bytes && isRunRecord(bytes));
  return decodeRunRecord(1, r.n, bytes);
}

test('a run round-trips through its binary record: ASCII, other scripts, extras, exact confidences', () => {
  for (const r of [
    run(500, (i) => `E${i % 40}`),
    run(300, (i) => `Gène ${i % 17} 名前 \u{1F9EC}`, true),
    run(1, () => ''),
  ]) {
    const back = roundTrip(r);
    assert.deepEqual(claims(back), claims(r));
    assert.deepEqual([...back.confidence], [...r.confidence]);
  }
});

test("a record's bytes depend on its run alone, not on the records encoded before it", () => {
  const small = run(50, (i) => `E${i}`);
  const first = encodeRunRecord(small)!;
  encodeRunRecord(run(4_000, (i) => `a longer entity name number ${i}`, true));
  encodeRunRecord(run(20, (i) => `Gène ${i}`));
  assert.deepEqual(encodeRunRecord(small), first);
});

test('a record written into a used buffer the writer gave back has the bytes of one written into a new buffer', () => {
  // An odd count leaves padding before the lengths and the strings (align4 in run-record.ts).
  const r = run(2_001, (i) => `entity ${i}`, true);
  const fresh = encodeRunRecord(r)!;
  // Buffers as they come back from the writer thread: larger than the record and full of an old record's bytes.
  const used = new ArrayBuffer(fresh.length + 4096);
  new Uint8Array(used).fill(0xa5);
  recycleRecordBuffers([used]);
  const again = encodeRunRecord(r)!;
  assert.equal(again.buffer, used, 'the given-back buffer was written again');
  assert.equal(again.length, fresh.length);
  assert.deepEqual(Buffer.from(again), Buffer.from(fresh));
  assert.deepEqual(claims(decodeRunRecord(1, r.n, again)), claims(r));
});

test('more than 65,536 distinct coded values and strings longer than 65,535 units take wide fields', () => {
  const r = run(70_000, (i) => `n${i}`);
  for (let i = 0; i < r.n; i++) r.relationship[i] = `rel_${i}`;
  r.object[3] = 'x'.repeat(70_000);
  assert.deepEqual(claims(roundTrip(r)), claims(r));
});

test('a record at an unaligned place in its buffer decodes the same', () => {
  const r = run(101, (i) => `E${i}`, true);
  const bytes = encodeRunRecord(r)!;
  const shifted = new Uint8Array(bytes.length + 3);
  shifted.set(bytes, 3);
  assert.deepEqual(claims(decodeRunRecord(1, r.n, shifted.subarray(3))), claims(r));
  // A Buffer as the SQLite driver returns it, at an odd offset (its slice() would be a view, not a copy).
  assert.deepEqual(claims(decodeRunRecord(1, r.n, Buffer.from(shifted.buffer, 3, bytes.length))), claims(r));
});

test('a string UTF-8 cannot carry (a lone surrogate) makes the run go as JSON, and it comes back the same', () => {
  const r = run(20, (i) => (i === 4 ? 'bad \ud800 half' : `E${i}`));
  assert.equal(encodeRunRecord(r), null);
  const [chunk] = encodeChunks([r], true);
  assert.equal(typeof chunk!.body, 'string');
  const out: LogRecord[] = [];
  decodeChunk(1, r.n, 9, chunk!.body, 0, out);
  assert.deepEqual(claims(out[0]!.entry as ClaimRun), claims(r));
});

test('a torn or damaged record is refused with KbCorruptError, never read as other claims', () => {
  const r = run(50, (i) => `E${i}`, true);
  const bytes = encodeRunRecord(r)!;
  const refused = (body: Uint8Array, n = r.n, what = /seq 1 /) =>
    assert.throws(
      () => decodeChunk(1, n, 0, body, 0, []),
      (e: unknown) => e instanceof KbCorruptError && what.test(e.message),
    );
  // Cut at every length: a record's size is fixed by its header, so no cut decodes.
  for (let cut = 4; cut < bytes.length; cut += 7) refused(bytes.subarray(0, cut));
  refused(bytes, r.n + 1, /declares 50 claims/);
  const badCode = bytes.slice();
  // The first subject_type code, past the confidences and the dictionary's offsets.
  const d = new Uint32Array(badCode.buffer, 32, 1)[0]!;
  new Uint16Array(badCode.buffer, 48 + 8 * r.n + 4 * (d + 1), 1)[0] = d;
  refused(badCode, r.n, /bad code/);
});

test('a log written in the JSON form (/2) opens; new batches go as binary records and both are read back', async () => {
  const dir = tempDir();
  try {
    const path = join(dir.path, 'old.kb');
    const old = run(3000, (i) => `Old${i % 200}`, true);
    old.id_start = 0;
    const raw = new Database(path);
    raw.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
              CREATE TABLE log (seq INTEGER PRIMARY KEY, n INTEGER NOT NULL, ts INTEGER NOT NULL, body TEXT NOT NULL);
              INSERT INTO meta VALUES ('format', 'evident-kb-log/2');`);
    // Exactly what a /2 store wrote: the run chunk as JSON text.
    const [chunk] = encodeChunks([old]);
    assert.equal(typeof chunk!.body, 'string');
    raw.prepare('INSERT INTO log VALUES (1, ?, ?, ?)').run(old.n, Date.UTC(2026, 0, 1), chunk!.body);
    raw.close();
    const batch = Array.from({ length: 3000 }, (_, i) => ({
      subject: [`New${i % 300}`, 'gene'] as [string, string],
      predicate: ['rel_x', 'association'] as [string, string],
      object: [`Old${i % 200}`, 'disease'] as [string, string],
      provenance: { source_type: 'literature', source_id: `doi:${i}` },
    }));
    {
      await using db = await open(path);
      assert.equal((await db.stats()).claim_count, 3000);
      const got = await db.ingestBatch(batch);
      assert.equal(got.ingested, 3000);
    }
    const check = new Database(path, { readonly: true });
    const rows = check.prepare('SELECT typeof(body) AS t FROM log ORDER BY seq').all() as { t: string }[];
    assert.deepEqual(
      rows.map((x) => x.t),
      ['text', 'blob'],
    );
    check.close();
    await using again = await open(path);
    assert.equal((await again.stats()).claim_count, 6000);
    assert.ok((await again.claimsFor('New1')).some((c) => c.provenance.source_id === 'doi:1'));
    const oldOnes = [...(await again.claimsFor(old.subject[1]!)), ...(await again.claimsFor(old.object[1]!))];
    const withPage = oldOnes.find((c) => c.provenance.page === 3);
    assert.deepEqual(withPage?.provenance.derived_from, ['clm_a']);
    assert.ok(oldOnes.some((c) => c.provenance.source_id === 'pmid:100' && c.provenance.page === undefined));
  } finally {
    dir.cleanup();
  }
});
