import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import {
  open,
  quickstart,
  KbClosedError,
  KbOpenError,
  KbValidationError,
  KbConflictError,
  SqliteClaimStore,
  type Backend,
} from '../src/index.js';
import { tempKb } from './helpers.js';

test("backends: 'graph', 'auto' and 'rust' (an alias of the fastest engine) open; others are refused", async () => {
  const t = tempKb();
  try {
    for (const backend of ['graph', 'auto', 'rust'] as const) {
      await using db = await open(t.path, { backend });
      assert.match((await db.stats()).engine, new RegExp(`graph \\(requested: ${backend}\\)`));
    }
    await assert.rejects(
      open(t.path, { backend: 'neo4j' as Backend }),
      (e: unknown) => e instanceof KbValidationError && e.code === 'unknown_backend' && e.field === 'backend',
    );
  } finally {
    t.cleanup();
  }
});

test('a path that cannot be opened gives a typed error naming the path', async () => {
  const t = tempKb();
  try {
    writeFileSync(join(t.dir, 'file'), 'x');
    await assert.rejects(
      open(join(t.dir, 'file', 'sub.kb')),
      (e: unknown) => e instanceof KbOpenError && e.field === 'path',
    );
    await assert.rejects(open(''), (e: unknown) => e instanceof KbOpenError && e.field === 'path');
    await assert.rejects(
      quickstart(t.path, { vocabs: ['chem'] }),
      (e: unknown) => e instanceof KbValidationError && e.field === 'vocabs[0]',
    );
  } finally {
    t.cleanup();
  }
});

test('await using closes the base; a closed base refuses calls with KbClosedError', async () => {
  const t = tempKb();
  try {
    let kept: Awaited<ReturnType<typeof quickstart>>;
    {
      await using db = await quickstart(t.path);
      kept = db;
      await db.ingest(['A', 'gene'], ['interacts_with', 'molecular'], ['B', 'gene'], {
        source_type: 'x',
        source_id: 'y',
      });
    }
    await assert.rejects(kept.query('A'), KbClosedError);
    await assert.rejects(
      kept.ingest(['A', 'gene'], ['interacts_with', 'molecular'], ['C', 'gene'], { source_type: 'x', source_id: 'y' }),
      KbClosedError,
    );
    // quickstart on an existing base does not register bio twice.
    await using again = await quickstart(t.path);
    assert.deepEqual((await again.schema()).registered.vocabularies, ['bio']);
  } finally {
    t.cleanup();
  }
});

test('two handles on one file: a write after the other handle wrote catches up first (no lost duplicate check)', async () => {
  const t = tempKb();
  try {
    await using a = await open(t.path);
    await using b = await open(t.path);
    const first = await a.ingest(['A', 'gene'], ['x', 'y'], ['B', 'gene'], { source_type: 't', source_id: 's' });
    // b has not read a's write yet; its write must notice the conflict, catch up, and see the duplicate.
    const second = await b.ingest(['a', 'gene'], ['x', 'y'], ['b', 'gene'], { source_type: 't', source_id: 's' });
    assert.equal(second, first);
    await b.ingest(['C', 'gene'], ['x', 'y'], ['D', 'gene'], { source_type: 't', source_id: 's' });
    await a.refresh();
    assert.equal((await a.stats()).claim_count, 2);
    // The store itself refuses a stale head.
    const store = await SqliteClaimStore.open(t.path);
    await assert.rejects(
      store
        .append([], 0, 0)
        .then(() =>
          store.append(
            [{ kind: 'inquiry', inquiry_id: 'i', question: 'q', subject: 's', object: 'o', predicate_hint: '' }],
            0,
            0,
          ),
        ),
      KbConflictError,
    );
    await store.close();
  } finally {
    t.cleanup();
  }
});
