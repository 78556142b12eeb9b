// The ClaimStore contract checks (as for SQLite) against the real local PostgreSQL, plus what only a
// shared store has to get right: concurrent appenders, concurrent first opens, typed open errors.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createTempDatabase, probePostgres, type TempDatabase } from '@evident/testkit';
import { openPostgresStore } from '../src/store/postgres/index.js';
import { KbClosedError, KbConflictError, KbError, KbOpenError } from '../src/errors.js';
import { claimOfRun, newRun } from '../src/model/claim-run.js';
import { entrySpan } from '../src/store/log-span.js';
import type { ClaimStore, LogEntry } from '../src/store/types.js';

const probe = await probePostgres();

function claim(i: number): LogEntry {
  return {
    kind: 'claim',
    claim_id: `c${i}`,
    subject: [`g${i}`, 'gene'],
    predicate: ['associated_with', 'association'],
    object: [`d${i % 7}`, 'disease'],
    provenance: { source_type: 'literature', source_id: `pmid:${i}` },
    confidence: 0.5,
  };
}

async function readAll(store: ClaimStore, after = 0, page = 1000) {
  const out = [];
  let last = after;
  for (;;) {
    const got = await store.readAfter(last, page);
    if (got.length === 0) return out;
    out.push(...got);
    last = got[got.length - 1]!.seq;
  }
}

describe('PostgreSQL store: contract', { skip: probe.skip }, () => {
  let db: TempDatabase;
  let admin: pg.Client;
  let n = 0;
  /** Each test gets its own schema in the file's temporary database, hence its own empty log. */
  async function freshUrl(): Promise<string> {
    const schema = `s${++n}`;
    await admin.query(`CREATE SCHEMA ${schema}`);
    const u = new URL(db.url);
    u.searchParams.set('options', `-c search_path=${schema}`);
    return u.toString();
  }

  before(async () => {
    db = await createTempDatabase('kb_store');
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  });
  after(async () => {
    await admin?.end();
    await db?.drop();
  });

  test('append assigns consecutive seqs and readAfter returns every entry once, from any offset', async () => {
    const store = await openPostgresStore(await freshUrl());
    try {
      assert.equal(store.backend, 'postgres');
      assert.equal(store.shared, true);
      assert.equal(await store.head(), 0);
      assert.deepEqual(await store.readAfter(0), []);
      const big = Array.from({ length: 9000 }, (_, i) => claim(i)); // spans several physical chunks
      assert.equal(await store.append(big, 1000, 0), 1);
      assert.equal(await store.append([claim(9000), claim(9001)], 2000, 9000), 9001);
      assert.equal(await store.head(), 9002);
      for (const after of [0, 1, 4095, 4096, 4097, 8191, 8192, 8999, 9000, 9001, 9002]) {
        const out = await readAll(store, after);
        assert.equal(out.length, 9002 - after, `after ${after}`);
        for (const [k, r] of out.entries()) assert.equal(r.seq, after + k + 1);
        if (out.length) assert.equal((out[0]!.entry as { claim_id: string }).claim_id, `c${after}`);
      }
      const all = await readAll(store);
      assert.deepEqual(all[17]!.entry, big[17]);
      assert.deepEqual(
        all.slice(-2).map((r) => r.ts),
        [2000, 2000],
      );
      assert.equal(all[0]!.ts, 1000);
      // limit is honoured up to the end of a chunk
      const page = await store.readAfter(10, 100);
      assert.ok(page.length >= 100 && page.length <= 100 + 4096, `page of ${page.length}`);
      assert.equal(page[0]!.seq, 11);
      // appending nothing is a no-op
      assert.equal(await store.append([], 3000, 9002), 9003);
      assert.equal(await store.head(), 9002);
    } finally {
      await store.close();
    }
  });

  test('entries round-trip as JSON: nested payloads, unicode, numbers', async () => {
    const store = await openPostgresStore(await freshUrl());
    try {
      const e: LogEntry = {
        ...(claim(1) as Extract<LogEntry, { kind: 'claim' }>),
        subject: ['ß-catenin \u{1F9EC} "quoted" \\ back', 'gene'],
        payload: { p: 1e-300, big: 2 ** 53 - 1, neg: -0.125, list: [null, true, 'x\ny'], nested: { deep: [{ a: 1 }] } },
      };
      await store.append(
        [e, { kind: 'retract', source_id: 'pmid:1', reason: 'r', cascade: true }],
        Date.UTC(2026, 0, 1),
        0,
      );
      const [a, b] = await store.readAfter(0);
      assert.deepEqual(a!.entry, e);
      assert.deepEqual(b!.entry, { kind: 'retract', source_id: 'pmid:1', reason: 'r', cascade: true });
      assert.equal(a!.ts, Date.UTC(2026, 0, 1));
    } finally {
      await store.close();
    }
  });

  test('a claim run round-trips and reads from inside it as its tail, with exact confidences', async () => {
    const store = await openPostgresStore(await freshUrl());
    try {
      const r = newRun(20_000, '0123456789abcdef', 5);
      for (let i = 0; i < r.n; i++) {
        r.subject[i] = `g${i % 50}`;
        r.subject_type[i] = 'gene';
        r.relationship[i] = 'associated_with';
        r.predicate_class[i] = 'association';
        r.object[i] = `d${i % 7}`;
        r.object_type[i] = 'disease';
        r.source_type[i] = 'literature';
        r.source_id[i] = `pmid:${i}`;
        r.confidence[i] = (i * 0.3183098861837907) % 1;
      }
      r.payload = { 17: { x: [1, 2] } };
      await store.append([claim(0), r], 9, 0);
      const expected = [claim(0), ...Array.from({ length: r.n }, (_, i) => claimOfRun(r, i))];
      for (const after of [0, 1, 16_385, 20_000]) {
        const flat: LogEntry[] = [];
        let last = after;
        for (;;) {
          const page = await store.readAfter(last, 3000);
          if (page.length === 0) break;
          for (const rec of page) {
            assert.equal(rec.seq, last + 1, `after ${after}`);
            if (rec.entry.kind === 'claims') for (let i = 0; i < rec.entry.n; i++) flat.push(claimOfRun(rec.entry, i));
            else flat.push(rec.entry);
            last = rec.seq + entrySpan(rec.entry) - 1;
          }
        }
        assert.deepEqual(flat, expected.slice(after), `after ${after}`);
      }
    } finally {
      await store.close();
    }
  });

  test('a stale expectedHead is refused with KbConflictError and writes nothing', async () => {
    const url = await freshUrl();
    const store = await openPostgresStore(url);
    await store.append([claim(1)], 1, 0);
    await assert.rejects(
      store.append([claim(2)], 2, 0),
      (e: unknown) => e instanceof KbConflictError && e.expectedHead === 0 && e.actualHead === 1,
    );
    await assert.rejects(store.append([claim(2)], 2, 5), KbConflictError);
    assert.equal(await store.head(), 1);
    await store.close();
    const again = await openPostgresStore(url);
    assert.equal((await again.readAfter(0)).length, 1);
    await again.close();
  });

  test('an append that fails half-way is not visible at all, and the store keeps working', async () => {
    const url = await freshUrl();
    const schema = `s${n}`;
    const store = await openPostgresStore(url);
    try {
      await store.append([claim(0)], 1, 0);
      // A trigger that refuses the second physical chunk of the next append (its first chunk is already inserted).
      await admin.query(`CREATE FUNCTION ${schema}.refuse() RETURNS trigger LANGUAGE plpgsql AS
        $$BEGIN IF NEW.seq > 4000 THEN RAISE EXCEPTION 'refused by test'; END IF; RETURN NEW; END$$`);
      await admin.query(
        `CREATE TRIGGER refuse BEFORE INSERT ON ${schema}.evident_kb_log FOR EACH ROW EXECUTE FUNCTION ${schema}.refuse()`,
      );
      const batch = Array.from({ length: 6000 }, (_, i) => claim(i + 1));
      await assert.rejects(
        store.append(batch, 2, 1),
        (e: unknown) => e instanceof KbError && e.code === 'storage_failed' && /refused by test/.test(e.message),
      );
      assert.equal(await store.head(), 1);
      assert.equal((await store.readAfter(0)).length, 1);
      await admin.query(`DROP TRIGGER refuse ON ${schema}.evident_kb_log`);
      // The connection went back to the pool in a clean state: the same append now succeeds.
      assert.equal(await store.append(batch, 3, 1), 2);
      assert.equal((await readAll(store)).length, 6001);
    } finally {
      await store.close();
    }
  });

  test('concurrent appenders on several connections: gap-free seqs, seq order = commit order, nothing lost', {
    timeout: 60_000,
  }, async () => {
    const url = await freshUrl();
    const writers = await Promise.all([openPostgresStore(url), openPostgresStore(url), openPostgresStore(url)]);
    const reader = await openPostgresStore(url);
    const BATCHES = 25;
    const PER = 40;
    let _conflicts = 0;
    let writing = true;
    // A tailer loops on readAfter while the writers race; it must never see a gap or a partial batch.
    const seen: { seq: number; id: string }[] = [];
    const tail = (async () => {
      let last = 0;
      while (writing || last < (await reader.head())) {
        const page = await reader.readAfter(last, 97);
        for (const r of page) {
          assert.equal(r.seq, last + 1, 'tailer saw a gap');
          seen.push({ seq: r.seq, id: (r.entry as { claim_id: string }).claim_id });
          last = r.seq;
        }
        if (page.length) {
          // Every batch is all-or-nothing: the page ends on a batch boundary or inside a batch whose rest follows.
        } else await new Promise((r) => setImmediate(r));
      }
    })();
    await Promise.all(
      writers.map(async (w, wi) => {
        for (let b = 0; b < BATCHES; b++) {
          const entries = Array.from(
            { length: PER },
            (_, k) => ({ ...claim(k), claim_id: `w${wi}-b${b}-${k}` }) as LogEntry,
          );
          for (;;) {
            const head = await w.head();
            try {
              const first = await w.append(entries, Date.now(), head);
              assert.equal(first, head + 1);
              break;
            } catch (e) {
              if (!(e instanceof KbConflictError)) throw e;
              _conflicts++;
            }
          }
        }
      }),
    );
    writing = false;
    await tail;
    const all = await readAll(reader);
    assert.equal(all.length, writers.length * BATCHES * PER);
    for (const [i, r] of all.entries()) assert.equal(r.seq, i + 1);
    const ids = all.map((r) => (r.entry as { claim_id: string }).claim_id);
    assert.equal(new Set(ids).size, ids.length, 'no entry stored twice');
    // Each batch occupies one contiguous run of seqs, in its own order.
    for (let i = 0; i < all.length; i += PER) {
      const m = /^(w\d-b\d+)-0$/.exec(ids[i]!);
      assert.ok(m, `batch starts at seq ${i + 1}`);
      for (let k = 0; k < PER; k++) assert.equal(ids[i + k], `${m[1]}-${k}`);
    }
    assert.deepEqual(
      seen.map((s) => s.id),
      ids,
      'the tailer saw exactly the final log, in order',
    );
    for (const s of [...writers, reader]) await s.close();
  });

  test('connections dropped by the server: errors are typed, and the store reconnects', async () => {
    const store = await openPostgresStore(await freshUrl());
    try {
      await store.append([claim(1)], 1, 0);
      await store.readAfter(0);
      const { rows } = await admin.query(
        "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'evident-kb'",
      );
      assert.ok(rows[0].n >= 1, 'the store had a pooled connection to drop');
      await new Promise((r) => setTimeout(r, 200));
      // The first call may still meet a dead connection; if so it fails with a KbError, never a raw driver error.
      const first = await store.readAfter(0).catch((e: unknown) => e);
      if (!Array.isArray(first)) assert.ok(first instanceof KbError && first.code === 'storage_failed', String(first));
      assert.equal((await store.readAfter(0)).length, 1);
      assert.equal(await store.append([claim(2)], 2, 1), 2);
    } finally {
      await store.close();
    }
  });

  test('several processes opening a fresh database at once all get the same, single log', async () => {
    const url = await freshUrl();
    const stores = await Promise.all(Array.from({ length: 6 }, () => openPostgresStore(url)));
    await stores[0]!.append([claim(1)], 1, 0);
    for (const s of stores) assert.equal(await s.head(), 1);
    await Promise.all(stores.map((s) => s.close()));
  });

  test('durable after close and reopen; close is idempotent; a closed store refuses work', async () => {
    const url = await freshUrl();
    const store = await openPostgresStore(url);
    await store.append([claim(1), claim(2)], 10, 0);
    await store.append([claim(3)], 20, 2);
    await store.close();
    await store.close();
    await assert.rejects(store.readAfter(0), KbClosedError);
    await assert.rejects(store.append([claim(4)], 30, 3), KbClosedError);
    const again = await openPostgresStore(url, { create: false });
    assert.deepEqual(
      (await again.readAfter(0)).map((r) => [r.seq, r.ts]),
      [
        [1, 10],
        [2, 10],
        [3, 20],
      ],
    );
    await again.close();
  });

  test('read-only and create:false opens', async () => {
    const url = await freshUrl();
    await assert.rejects(
      openPostgresStore(url, { create: false }),
      (e: unknown) => e instanceof KbOpenError && e.code === 'not_found' && e.field === 'path',
    );
    await assert.rejects(
      openPostgresStore(url, { readonly: true }),
      (e: unknown) => e instanceof KbOpenError && e.code === 'not_found',
    );
    const w = await openPostgresStore(url);
    await w.append([claim(1)], 1, 0);
    await w.close();
    const ro = await openPostgresStore(url, { readonly: true });
    assert.equal((await ro.readAfter(0)).length, 1);
    await assert.rejects(ro.append([claim(2)], 2, 1), (e: unknown) => e instanceof KbError && e.code === 'read_only');
    await ro.close();
  });

  test('tables that are not an Evident KB are refused with bad_format', async () => {
    const url1 = await freshUrl();
    await admin.query(`CREATE TABLE s${n}.evident_kb_log (id serial, stuff text)`);
    await assert.rejects(
      openPostgresStore(url1),
      (e: unknown) => e instanceof KbOpenError && e.code === 'bad_format' && e.field === 'path',
    );
    const url2 = await freshUrl();
    await admin.query(`CREATE TABLE s${n}.evident_kb_meta (key text primary key, value text)`);
    await admin.query(`INSERT INTO s${n}.evident_kb_meta VALUES ('format', 'someone-else/9')`);
    await admin.query(`CREATE TABLE s${n}.evident_kb_log (seq bigint, n integer, ts bigint, body text)`);
    await assert.rejects(
      openPostgresStore(url2),
      (e: unknown) => e instanceof KbOpenError && e.code === 'bad_format' && /someone-else\/9/.test(e.message),
    );
    const url3 = await freshUrl();
    const ok = await openPostgresStore(url3);
    await ok.close();
    await admin.query(`ALTER TABLE s${n}.evident_kb_log ALTER COLUMN ts TYPE text`);
    await assert.rejects(
      openPostgresStore(url3),
      (e: unknown) => e instanceof KbOpenError && e.code === 'bad_format' && /ts/.test(e.message),
    );
  });
});

describe('PostgreSQL store: open errors', { skip: probe.skip }, () => {
  const isOpenError = (code: string) => (e: unknown) => {
    assert.ok(
      e instanceof KbOpenError,
      `expected KbOpenError, got ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`,
    );
    assert.equal(e.code, code, e.message);
    assert.equal(e.field, 'path');
    assert.doesNotMatch(e.message, /hunter2/, 'the password never appears in an error');
    return true;
  };

  test('a malformed URL', async () => {
    await assert.rejects(openPostgresStore('postgres://[not a host'), isOpenError('invalid_path'));
    await assert.rejects(openPostgresStore('postgres://postgres@127.0.0.1:5432'), isOpenError('invalid_path'));
    await assert.rejects(openPostgresStore('mysql://x@127.0.0.1/db'), isOpenError('invalid_path'));
  });

  test('a server that does not answer', async () => {
    await assert.rejects(
      openPostgresStore('postgres://postgres:hunter2@127.0.0.1:1/kb'),
      isOpenError('backend_unavailable'),
    );
  });

  test('a database that does not exist', async () => {
    const u = new URL(probe.url);
    u.pathname = '/evident_no_such_database_x9';
    await assert.rejects(openPostgresStore(u.toString()), isOpenError('not_found'));
  });

  test('a role that does not exist', async () => {
    const u = new URL(probe.url);
    u.username = 'evident_no_such_role';
    u.password = 'hunter2';
    await assert.rejects(openPostgresStore(u.toString()), isOpenError('open_failed'));
  });

  test('location never carries the password', async () => {
    const t = await createTempDatabase('kb_loc');
    try {
      const u = new URL(t.url);
      u.password = 'hunter2'; // trust auth ignores it
      const s = await openPostgresStore(u.toString());
      assert.doesNotMatch(s.location, /hunter2/);
      assert.match(s.location, /\*\*\*/);
      await s.close();
    } finally {
      await t.drop();
    }
  });
});
