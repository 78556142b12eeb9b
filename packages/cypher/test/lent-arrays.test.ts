// Arrays lent to one run of an operator (src/plan/lent-arrays.ts): two borrowers never share one, a given-back
// array serves the next borrower, views or shared memory are never taken in, and a lending scope's arrays come
// zeroed, stay lent until it ends, and are fresh outside one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { borrowFloat64, borrowInt32, giveBack, lendingScope, zeroedFloat64 } from '../src/plan/lent-arrays.js';

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

test("a lending scope's zeroed arrays start at zero, are not lent twice within it, and come back when it ends", () => {
  // A pool array holding a previous borrower's values.
  const dirty = borrowFloat64(300);
  dirty.fill(7);
  giveBack(dirty);
  let first: Float64Array | undefined;
  const sum = lendingScope(() => {
    first = zeroedFloat64(300);
    const second = zeroedFloat64(300);
    assert.equal(first.buffer, dirty.buffer, 'the given-back array serves the scope');
    assert.notEqual(second.buffer, first.buffer, 'two accumulators of one scope never share an array');
    assert.ok(
      first.every((x) => x === 0),
      'zeroed, whatever its last borrower wrote',
    );
    assert.equal(first.length, 300, 'exactly the length asked for (a view when the lent array is longer)');
    first[3] = 2;
    second[3] = 5;
    return first[3]! + second[3]!;
  });
  assert.equal(sum, 7);
  assert.equal(borrowFloat64(300).buffer, first!.buffer, 'given back when the scope ended');
  // Outside a scope nothing gives them back: fresh, never from the pool.
  const outside = zeroedFloat64(300);
  assert.notEqual(outside.buffer, first!.buffer);
});
