// Claim ids kept as ranges (graph/claim-ids.ts): every claim reads back the id it was given, whatever the mix
// of generated ids (consecutive, with gaps, under several prefixes) and ids written by other tools, before and
// after a snapshot's round trip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClaimIds } from '../src/graph/claim-ids.js';
import { generatedClaimId } from '../src/model/claim-run.js';

test('ClaimIds: generated and foreign ids in any order read back as given, and survive export and import', () => {
  const ids = new ClaimIds();
  const given: string[] = [];
  const prefixes = ['0123456789abcdef', 'fedcba9876543210'];
  let seed = 11;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  let counter = 0;
  for (let i = 0; i < 20_000; i++) {
    const kind = rnd(100);
    if (kind < 3) {
      const id = `claim-from-elsewhere-${i}`;
      ids.push(id);
      given.push(id);
      continue;
    }
    // Mostly the next counter; sometimes a gap (a duplicate's unused id), a prefix change, or a parsed id.
    if (kind < 8) counter += 1 + rnd(5);
    const prefix = prefixes[kind < 10 ? 1 : 0]!;
    const id = generatedClaimId(prefix, counter);
    if (kind < 20) ids.push(id);
    else ids.pushGenerated(prefix, counter);
    given.push(id);
    counter++;
  }
  // An id that looks generated but is not lower-case hex stays as written.
  ids.push('clm_0123456789ABCDEF0000000000000001');
  given.push('clm_0123456789ABCDEF0000000000000001');
  assert.equal(ids.count, given.length);
  for (let c = 0; c < given.length; c++) assert.equal(ids.get(c), given[c], `claim ${c}`);

  const state = ids.exportState();
  assert.equal(state.prefix.length, given.length);
  const back = new ClaimIds();
  back.importState(state.prefix, state.counter, state.prefixes, state.foreign);
  assert.equal(back.count, given.length);
  for (let c = 0; c < given.length; c++) assert.equal(back.get(c), given[c], `claim ${c} after import`);
  // The same columns again: the import kept the ranges the ids had.
  assert.deepEqual(back.exportState(), state);
});

test('ClaimIds: a feed of consecutive ids is one range', () => {
  const ids = new ClaimIds();
  for (let c = 0; c < 100_000; c++) ids.pushGenerated('00000000000000aa', 5000 + c);
  assert.equal((ids as unknown as { start: { n: number } }).start.n, 1);
  assert.equal(ids.get(0), generatedClaimId('00000000000000aa', 5000));
  assert.equal(ids.get(99_999), generatedClaimId('00000000000000aa', 104_999));
});
