import { join } from 'node:path';
import { tempDir } from '@evident/testkit';
import assert from 'node:assert/strict';
import type { ClaimInput, KbDB } from '../src/index.js';
import type { ClaimStore } from '../src/store/types.js';

/** A fresh directory for one test; returns a path inside it and the cleanup. */
export function tempKb(name = 'test.kb'): { path: string; dir: string; cleanup(): void } {
  const d = tempDir('evident-kb-');
  return { path: join(d.path, name), dir: d.path, cleanup: d.cleanup };
}

export function claim(
  s: string,
  st: string,
  p: string,
  o: string,
  ot: string,
  source: string,
  extra: Partial<ClaimInput> = {},
  sourceType = 'literature',
): ClaimInput {
  return {
    subject: [s, st],
    predicate: [p, 'association'],
    object: [o, ot],
    provenance: { source_type: sourceType, source_id: source },
    ...extra,
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The base's log store (a test's window onto which append a write takes). */
export function storeOf(db: KbDB): ClaimStore {
  return (db as unknown as { store: ClaimStore }).store;
}

/**
 * After a writer streaming batches of `perBatch` gene claims (named `b<N>-g...`) was killed: every batch it
 * reported as returned is complete, no batch is partial, nothing beyond the one in flight is present, and the
 * base takes writes at once, after what was committed.
 */
export async function assertSurvivedCrash(db: KbDB, done: number[], perBatch: number, round: number): Promise<void> {
  const counts = new Map<number, number>();
  for (const e of await db.listEntities({ entity_type: 'gene' })) {
    const b = Number(/^b(\d+)-g/.exec(e.name)![1]);
    counts.set(b, (counts.get(b) ?? 0) + 1);
  }
  for (const b of done) assert.equal(counts.get(b), perBatch, `round ${round}: returned batch ${b} is complete`);
  for (const [b, n] of counts) assert.equal(n, perBatch, `round ${round}: batch ${b} is all or nothing`);
  const last = Math.max(...done);
  assert.ok(
    [...counts.keys()].every((b) => b <= last + 1),
    `round ${round}: no batch beyond the one in flight`,
  );
  await db.ingest(['after', 'gene'], ['associated_with', 'association'], ['crash', 'disease'], {
    source_type: 't',
    source_id: 'post',
  });
  assert.equal((await db.stats()).claim_count, [...counts.values()].reduce((a, b) => a + b, 0) + 1);
}
