import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphState } from '../src/graph/state.js';
import type { DerivedIndex } from '../src/graph/derived.js';
import type { LogEntry } from '../src/store/types.js';
import { Registry } from '../src/model/registry.js';
import { newRun } from '../src/model/claim-run.js';

function run(n: number) {
  const r = newRun(n, '0123456789abcdef', 0);
  for (let i = 0; i < n; i++) {
    r.subject[i] = `G${i}`;
    r.subject_type[i] = 'gene';
    r.relationship[i] = 'associated_with';
    r.predicate_class[i] = 'association';
    r.object[i] = `D${i % 3}`;
    r.object_type[i] = 'disease';
    r.source_type[i] = 'literature';
    r.source_id[i] = `pmid:${i}`;
    r.confidence[i] = 0.8;
  }
  return r;
}

class Counter implements DerivedIndex {
  readonly name = 'counter';
  wantsClaims = true;
  claims: number[] = [];
  entries: LogEntry['kind'][] = [];
  onClaim(c: number): void {
    this.claims.push(c);
  }
  onEntry(e: LogEntry): void {
    this.entries.push(e.kind);
  }
}

test('a registered derived index is offered each applied claim while it wants them, and is found by name', () => {
  const g = new GraphState(new Registry());
  const counter = g.register(() => new Counter()) as Counter;
  assert.equal(g.derivedIndex('counter'), counter);
  assert.equal(g.derivedIndex('inquiries'), g.inquiryBook);
  assert.throws(() => g.register(() => new Counter()), /registered already/);
  g.applyRun(run(5), 1, null, null, false);
  assert.deepEqual(counter.claims, [0, 1, 2, 3, 4]);
  counter.wantsClaims = false;
  const r = run(7);
  g.applyRun(r, 2, null, null, false);
  assert.equal(counter.claims.length, 5);
  assert.equal(g.claimCount, 7);
});
