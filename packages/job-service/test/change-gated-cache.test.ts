// The embedded store's read cache on its own: what it keeps, for how long, and how much.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { tempDir } from '@evident/testkit';
import { ChangeGatedCache } from '../src/store/change-gated-cache.js';

function setup(maxEntries?: number) {
  const dir = tempDir('evident-cache-');
  const file = join(dir.path, 'x.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('create table t (k text primary key, v integer)');
  db.prepare('insert into t values (?, ?)').run('a', 1);
  const cache = new ChangeGatedCache(db, maxEntries);
  let reads = 0;
  const read = (k: string) => () => {
    reads++;
    return db.prepare('select v from t where k = ?').get(k) as { v: number } | undefined;
  };
  return { dir, file, db, cache, read, reads: () => reads };
}

test('a row is read once while nothing changes, and again after a write on this connection', () => {
  const s = setup();
  try {
    assert.equal(s.cache.get('a', s.read('a'))?.v, 1);
    assert.equal(s.cache.get('a', s.read('a'))?.v, 1);
    assert.equal(s.reads(), 1);
    s.db.prepare('update t set v = 2 where k = ?').run('a');
    assert.equal(s.cache.get('a', s.read('a'))?.v, 2);
    assert.equal(s.reads(), 2);
  } finally {
    s.db.close();
    s.dir.cleanup();
  }
});

test("another connection's commit empties the cache", () => {
  const s = setup();
  const other = new Database(s.file);
  try {
    assert.equal(s.cache.get('a', s.read('a'))?.v, 1);
    other.prepare('update t set v = 3 where k = ?').run('a');
    assert.equal(s.cache.get('a', s.read('a'))?.v, 3);
  } finally {
    other.close();
    s.db.close();
    s.dir.cleanup();
  }
});

test('misses are not kept, values are frozen, and the entries are bounded', () => {
  const s = setup(2);
  try {
    assert.equal(s.cache.get('nope', s.read('nope')), undefined);
    assert.equal(s.cache.get('nope', s.read('nope')), undefined);
    assert.equal(s.reads(), 2);
    s.db.prepare('insert into t values (?, ?), (?, ?)').run('b', 20, 'c', 30);
    const a = s.cache.get('a', s.read('a'))!;
    assert.ok(Object.isFrozen(a));
    s.cache.get('b', s.read('b'));
    s.cache.get('c', s.read('c')); // the third entry pushes out the oldest, 'a'
    const before = s.reads();
    s.cache.get('c', s.read('c'));
    assert.equal(s.reads(), before);
    s.cache.get('a', s.read('a'));
    assert.equal(s.reads(), before + 1);
  } finally {
    s.db.close();
    s.dir.cleanup();
  }
});

test('inside a transaction nothing is served from or put into the cache (a rollback moves no counter)', () => {
  const s = setup();
  try {
    s.cache.get('a', s.read('a'));
    assert.throws(() =>
      s.db.transaction(() => {
        s.db.prepare('update t set v = 9 where k = ?').run('a');
        assert.equal(s.cache.get('a', s.read('a'))?.v, 9);
        throw new Error('roll back');
      })(),
    );
    assert.equal(s.cache.get('a', s.read('a'))?.v, 1);
  } finally {
    s.db.close();
    s.dir.cleanup();
  }
});

test('a read in the same state as an earlier one skips the check of other connections, never own writes', () => {
  const s = setup();
  const other = new Database(s.file);
  try {
    s.db.prepare('insert into t values (?, ?)').run('b', 20);
    const a = s.cache.get('a', s.read('a'))!;
    s.cache.get('b', s.read('b'));
    // A commit elsewhere after `a` was read: the same request still reads the state `a` came from...
    other.prepare('update t set v = 21 where k = ?').run('b');
    assert.equal(s.cache.get('b', s.read('b'), a)?.v, 20);
    // ...and a request that starts now sees the commit, after which `a` no longer describes the state.
    assert.equal(s.cache.get('b', s.read('b'))?.v, 21);
    other.prepare('update t set v = 22 where k = ?').run('b');
    assert.equal(s.cache.get('b', s.read('b'), a)?.v, 22);
    // This connection's own write is seen even within the same request.
    const a2 = s.cache.get('a', s.read('a'))!;
    s.db.prepare('update t set v = 23 where k = ?').run('b');
    assert.equal(s.cache.get('b', s.read('b'), a2)?.v, 23);
  } finally {
    other.close();
    s.db.close();
    s.dir.cleanup();
  }
});
