import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tempDir } from '@evident/testkit';
import { SqliteClaimStore } from '../src/store/sqlite.js';
import { KbConflictError, KbOpenError } from '../src/errors.js';
import { open } from '../src/index.js';
import type { LogEntry } from '../src/store/types.js';

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

test('append assigns consecutive seqs and readAfter returns every entry once, from any offset', async () => {
  const dir = tempDir();
  try {
    const store = await SqliteClaimStore.open(join(dir.path, 'a.kb'));
    assert.equal(await store.head(), 0);
    const big = Array.from({ length: 9000 }, (_, i) => claim(i)); // spans several physical chunks
    assert.equal(await store.append(big, 1000, 0), 1);
    assert.equal(await store.append([claim(9000), claim(9001)], 2000, 9000), 9001);
    assert.equal(await store.head(), 9002);
    for (const after of [0, 1, 4095, 4096, 4097, 8999, 9000, 9001, 9002]) {
      const out = [];
      let last = after;
      for (;;) {
        const page = await store.readAfter(last, 1000);
        if (page.length === 0) break;
        out.push(...page);
        last = page[page.length - 1]!.seq;
      }
      assert.equal(out.length, 9002 - after, `after ${after}`);
      for (const [k, r] of out.entries()) assert.equal(r.seq, after + k + 1);
      if (out.length) assert.equal((out[0]!.entry as { claim_id: string }).claim_id, `c${after}`);
    }
    const tail = await store.readAfter(9000);
    assert.deepEqual(
      tail.map((r) => r.ts),
      [2000, 2000],
    );
    await store.close();
  } finally {
    dir.cleanup();
  }
});

test('entries round-trip deep-equal, claims with extra provenance and payloads included', async () => {
  const dir = tempDir();
  try {
    const store = await SqliteClaimStore.open(join(dir.path, 'a.kb'));
    const entries: LogEntry[] = [
      claim(1),
      {
        ...(claim(2) as Extract<LogEntry, { kind: 'claim' }>),
        provenance: { source_type: 't', source_id: 's', derived_from: ['c1'], page: 7 },
      },
      { ...(claim(3) as Extract<LogEntry, { kind: 'claim' }>), payload: { ic50: [1, 2], note: null } },
      { ...(claim(4) as Extract<LogEntry, { kind: 'claim' }>), payload: null },
      { kind: 'retract', source_id: 's', reason: 'r', cascade: true },
      { kind: 'payload_schema', predicate_type: 'x', schema: { type: 'object' } },
    ];
    await store.append(entries, 5, 0);
    assert.deepEqual(
      (await store.readAfter(0)).map((r) => r.entry),
      entries,
    );
    await store.close();
  } finally {
    dir.cleanup();
  }
});

test('a stale expectedHead is refused and writes nothing', async () => {
  const dir = tempDir();
  try {
    const store = await SqliteClaimStore.open(join(dir.path, 'a.kb'));
    await store.append([claim(1)], 1, 0);
    await assert.rejects(store.append([claim(2)], 2, 0), KbConflictError);
    assert.equal(await store.head(), 1);
    await store.close();
    const again = await SqliteClaimStore.open(join(dir.path, 'a.kb'));
    assert.equal((await again.readAfter(0)).length, 1);
    await again.close();
  } finally {
    dir.cleanup();
  }
});

test('a file that is not a KB is refused with a typed error', async () => {
  const dir = tempDir();
  try {
    const p = join(dir.path, 'junk.kb');
    writeFileSync(p, 'this is not sqlite at all, just some text that is long enough to be a header........');
    await assert.rejects(SqliteClaimStore.open(p), (e: unknown) => e instanceof KbOpenError && e.field === 'path');
  } finally {
    dir.cleanup();
  }
});

test('an SQLite database of something else is refused naming its path, and not a byte of it is written', async () => {
  const dir = tempDir();
  try {
    // Another program's database, and one with a meta table whose format is not the KB's.
    const other = join(dir.path, 'orders.sqlite');
    const made = new Database(other);
    made.exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT); INSERT INTO orders (item) VALUES ('x')");
    made.exec('CREATE TABLE log (line TEXT)');
    made.close();
    const marked = join(dir.path, 'marked.sqlite');
    const m = new Database(marked);
    m.exec(
      "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('format', 'someone-else/9')",
    );
    m.close();
    for (const [file, why] of [
      [other, /an SQLite database of something else \(tables log, orders\)/],
      [marked, /format someone-else\/9/],
    ] as const) {
      const before = readFileSync(file);
      for (const opening of [
        () => SqliteClaimStore.open(file),
        () => SqliteClaimStore.open(file, { readonly: true }),
        () => open(file),
      ]) {
        await assert.rejects(opening(), (e: unknown) => {
          assert.ok(e instanceof KbOpenError);
          assert.equal(e.code, 'bad_format');
          assert.equal(e.field, 'path');
          assert.ok(e.message.includes(file), e.message);
          assert.match(e.message, /is not an Evident KB/);
          assert.match(e.message, why);
          return true;
        });
      }
      assert.deepEqual(readFileSync(file), before, 'the same bytes');
      assert.ok(!existsSync(`${file}-wal`) && !existsSync(`${file}-journal`), 'no journal left beside it');
    }
  } finally {
    dir.cleanup();
  }
});

test('an empty file or an SQLite database without tables is made a KB; a KB opens again', async () => {
  const dir = tempDir();
  try {
    const empty = join(dir.path, 'empty.kb');
    writeFileSync(empty, '');
    const blank = join(dir.path, 'blank.kb');
    const b = new Database(blank);
    b.pragma('user_version = 3');
    b.close();
    for (const file of [empty, blank]) {
      const s = await SqliteClaimStore.open(file);
      assert.equal(await s.append([claim(1)], 1, 0), 1);
      await s.close();
      const again = await SqliteClaimStore.open(file, { readonly: true });
      assert.equal((await again.readAfter(0)).length, 1);
      await again.close();
    }
  } finally {
    dir.cleanup();
  }
});
