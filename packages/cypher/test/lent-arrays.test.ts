// Arrays lent to one run of an operator (src/plan/lent-arrays.ts): two borrowers never share one, a given-back
// array serves the next borrower, and views or shared memory are never taken in.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { borrowFloat64, borrowInt32, giveBack } from '../src/plan/lent-arrays.js';

test('an array is lent to one borrower at a time and serves the next once given back', () => {
  const a = borrowInt32(1000);
  const b = borrowInt32(1000);
  assert.notEqual(a, b);
  assert.ok(a.length >= 1000 && b.length >= 1000);
  giveBack(a);
  const c = borrowInt32(500);
  assert.equal(c, a, 'a given-back array long enough is lent again');
  const d = borrowInt32(5000);
  assert.notEqual(d, b);
  assert.ok(d.length >= 5000, 'a longer one is made when none is long enough');
  giveBack(b);
  giveBack(c);
  giveBack(d);
  const f = borrowFloat64(100);
  assert.ok(f instanceof Float64Array && f.length >= 100);
  giveBack(f);
});

test('a view of another array and shared memory are not taken in for lending', () => {
  const whole = new Int32Array(4096);
  const view = whole.subarray(0, 2048);
  giveBack(view);
  const shared = new Int32Array(new SharedArrayBuffer(4 * 4096));
  giveBack(shared);
  const lent = borrowInt32(4096);
  assert.notEqual(lent.buffer, whole.buffer);
  assert.notEqual(lent.buffer, shared.buffer);
});
