// The capture's confidence (issue 41): validateClaimInput hands the value it checked to the capture (one load of
// the field per claim). A claim without one gets its source type's default, never the claim before it's value,
// and every value the checks refused before is refused the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KbValidationError } from '../src/errors.js';
import { defaultConfidence } from '../src/model/confidence.js';
import { validateClaimInput } from '../src/model/validate.js';
import { ClaimCapture } from '../src/write/capture.js';

const claim = (confidence?: unknown, sourceType = 'database') => ({
  subject: ['A', 'gene'],
  predicate: ['rel', 'c'],
  object: ['B', 'disease'],
  provenance: { source_type: sourceType, source_id: 's1' },
  ...(confidence === undefined ? {} : { confidence }),
});

test('a claim without a confidence gets its default, whatever the claim before it had', () => {
  const capture = new ClaimCapture('heuristic');
  const inputs = [claim(0.25), claim(), claim(1), claim(undefined, 'literature'), claim(0), claim()];
  for (let round = 0; round < 3; round++) {
    const r = capture.capture(inputs, true);
    assert.deepEqual(
      [...r.confidence],
      [
        0.25,
        defaultConfidence('heuristic', 'database'),
        1,
        defaultConfidence('heuristic', 'literature'),
        0,
        defaultConfidence('heuristic', 'database'),
      ],
    );
    capture.recycle(r); // the next round reuses the columns
  }
  assert.equal(new ClaimCapture('none').capture([claim()], false).confidence[0], 1);
});

test('confidences out of range or not finite numbers are refused as before', () => {
  const cases: [unknown, string][] = [
    [1.5, 'out_of_range'],
    [-0.1, 'out_of_range'],
    [Number.NaN, 'invalid_type'],
    [Number.POSITIVE_INFINITY, 'invalid_type'],
    [Number.NEGATIVE_INFINITY, 'invalid_type'],
    ['0.5', 'invalid_type'],
    [null, 'invalid_type'],
  ];
  for (const [value, code] of cases) {
    assert.throws(
      () => validateClaimInput(claim(value)),
      (e: unknown) => e instanceof KbValidationError && e.code === code && e.field === 'confidence',
      String(value),
    );
  }
  for (const ok of [0, 1, 0.5, -0]) assert.doesNotThrow(() => validateClaimInput(claim(ok)));
});
