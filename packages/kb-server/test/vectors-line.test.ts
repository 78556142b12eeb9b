// The health panel's vectors line (src/console/web/vectors.js, issue 41), run in Node.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { duration, vectorsText } from '../src/console/web/vectors.js';

const st = (o: Partial<Parameters<typeof vectorsText>[0] & object> = {}) => ({
  indexed: 45_999,
  pending: 0,
  progress: 1,
  eta_ms: null,
  last_error: null,
  ...o,
});

test('vectorsText: settled, pending with and without an ETA, an error, and off', () => {
  assert.equal(vectorsText(st()), '45,999 vectors, none pending');
  assert.equal(
    vectorsText(st({ indexed: 1200, pending: 30_000, progress: 0.0391, eta_ms: 95_000 })),
    '1,200 vectors, 30,000 pending (3% done, about 2 min left)',
  );
  assert.equal(vectorsText(st({ pending: 5, progress: 0 })), '45,999 vectors, 5 pending (0% done)');
  assert.equal(
    vectorsText(st({ pending: 5, progress: 0.5, eta_ms: 400, last_error: 'provider_timeout' })),
    '45,999 vectors, 5 pending (50% done, about 1 s left); last error: provider_timeout',
  );
  assert.equal(vectorsText(null), 'Vectors off (lexical search only)');
});

test('duration rounds up, in seconds, minutes or hours', () => {
  assert.equal(duration(1), '1 s');
  assert.equal(duration(59_000), '59 s');
  assert.equal(duration(60_000), '1 min');
  assert.equal(duration(61_000), '2 min');
  assert.equal(duration(3_600_000), '1.0 h');
  assert.equal(duration(5_400_000), '1.5 h');
});
