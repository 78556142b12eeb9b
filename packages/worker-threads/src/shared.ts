// Typed arrays on SharedArrayBuffers: what threads read and write in place, so that large arrays are never copied
// into a message.

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

/** `x` itself when it is already in shared memory, else a copy that is. */
export function toShared<T extends Int32Array | Float64Array | Uint8Array>(x: T): T {
  if (isShared(x)) return x;
  const copy = (
    x instanceof Int32Array ? sharedI32(x.length) : x instanceof Float64Array ? sharedF64(x.length) : sharedU8(x.length)
  ) as T;
  copy.set(x);
  return copy;
}
