// Ready memory: a requested buffer comes back with every element at its fill (zero or not), one take per buffer,
// none below the size that is worth a thread's time, and a zero-filled one may be taken while the helper is still
// touching it without losing what the owner writes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { READY_MIN_BYTES, requestReady } from '@evident/worker-threads';

async function taken(r: NonNullable<ReturnType<typeof requestReady>>): Promise<SharedArrayBuffer> {
  for (let i = 0; i < 2000; i++) {
    const b = r.take();
    if (b) return b;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('the buffer never became ready');
}

test('buffers come back filled, of their kind and length, and are taken once', async () => {
  for (const [kind, fill, bytes] of [
    ['i32', -1, 4],
    ['f64', Infinity, 8],
    ['u8', 3, 1],
    ['i32', 0, 4],
  ] as const) {
    const length = (READY_MIN_BYTES / bytes) * 2 + 7;
    const r = requestReady(kind, length, fill);
    assert.ok(r, `${kind} ${fill}: a request of ${length * bytes} bytes is made`);
    const b = await taken(r);
    assert.equal(b.byteLength, length * bytes);
    const a = kind === 'i32' ? new Int32Array(b) : kind === 'f64' ? new Float64Array(b) : new Uint8Array(b);
    for (let i = 0; i < a.length; i += 997) assert.equal(a[i], fill, `${kind} element ${i}`);
    assert.equal(a[a.length - 1], fill);
    assert.equal(r.take(), null, 'a second take gets nothing');
  }
});

test('no request below the size worth a helper', () => {
  assert.equal(requestReady('i32', READY_MIN_BYTES / 4 - 1, 0), null);
});

test('a zero-filled buffer taken at once keeps every value the owner writes while the helper touches it', async () => {
  const length = (READY_MIN_BYTES / 4) * 16;
  const r = requestReady('i32', length, 0);
  assert.ok(r);
  const b = r.take();
  assert.ok(b, 'a zero-filled buffer is handed out before it is ready');
  const a = new Int32Array(b);
  for (let i = 0; i < length; i++) a[i] = i + 1;
  // Let the helper finish whatever it had left, then read every element.
  await new Promise((resolve) => setTimeout(resolve, 200));
  for (let i = 0; i < length; i++) if (a[i] !== i + 1) assert.fail(`element ${i} is ${a[i]}`);
});
