// Typed arrays on SharedArrayBuffers: the per-gene kernels run on worker threads read the counts and write
// their results in place, so a 60,000 x 1,000 matrix is never copied into a message.

export function sharedF64(length: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(length * 8));
}

export function sharedI32(length: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(length * 4));
}

export function sharedU8(length: number): Uint8Array {
  return new Uint8Array(new SharedArrayBuffer(length));
}

export function isShared(a: ArrayBufferView): boolean {
  return a.buffer instanceof SharedArrayBuffer;
}

/** The same values on shared memory: the array itself when it already is, else a copy. */
export function toSharedF64(a: Float64Array): Float64Array {
  if (isShared(a)) return a;
  const out = sharedF64(a.length);
  out.set(a);
  return out;
}
