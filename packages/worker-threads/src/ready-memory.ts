// Memory made ready off the calling thread. The first write to each fresh 4 KiB page of an array costs a page
// fault, and on the VMs we run on a fault costs about 15 µs: a million-claim ingest spent about 40% of its time
// faulting in the columns it grows. An owner that knows which large array it will need next (a column grown by
// doubling needs one of twice its length) asks for it early; a helper thread writes every page of it (and its
// fill value) while the owner goes on, and the owner takes it, pages already mapped, when the time comes.
// The helper is one unref'd thread per process, plain JavaScript started from a string (no module to resolve
// from sources or dist). Without it (it failed to start) every request says no and the owner allocates as before.
import { Worker } from 'node:worker_threads';

export type ReadyKind = 'i32' | 'f64' | 'u8';

/** Arrays smaller than this are not worth a request: their pages fault in within a millisecond or two. */
export const READY_MIN_BYTES = 1 << 20;
/** A buffer not taken within this long is let go, so that an ingest that has stopped holds no spare memory. */
export const READY_EXPIRES_MS = 10_000;

/** A buffer being made ready: take() it when it is needed. */
export interface ReadyBuffer {
  readonly kind: ReadyKind;
  readonly length: number;
  readonly fill: number;
  /** The buffer (every element `fill`), or null while the helper is still writing a non-zero fill, or once expired. */
  take(): SharedArrayBuffer | null;
}

// Zero-filled buffers are touched with an atomic OR of 0 (the page is written, its value kept), so the owner may
// take one before the helper is through with it: rows it copies in are never overwritten. A non-zero fill is
// written plainly, so such a buffer is handed out only once its flag says done.
const HELPER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ buffer, flag, kind, fill }) => {
  if (fill === 0) {
    const words = new Int32Array(buffer, 0, buffer.byteLength >> 2);
    for (let i = 0; i < words.length; i += 1024) Atomics.or(words, i, 0);
  } else if (kind === 'f64') new Float64Array(buffer).fill(fill);
  else if (kind === 'i32') new Int32Array(buffer).fill(fill);
  else new Uint8Array(buffer).fill(fill);
  Atomics.store(flag, 0, 1);
});`;

const BYTES: Record<ReadyKind, number> = { i32: 4, f64: 8, u8: 1 };

let helper: Worker | null | undefined;

function startHelper(): Worker | null {
  try {
    const w = new Worker(HELPER_SOURCE, { eval: true, execArgv: [], stdout: false, stderr: false });
    w.unref();
    // A helper that dies only turns the requests off; nothing waits on it.
    w.on('error', () => {
      helper = null;
    });
    w.on('exit', () => {
      helper = null;
    });
    return w;
  } catch {
    return null;
  }
}

/**
 * Asks for a buffer of `length` elements of `kind`, every element `fill`, made ready on the helper thread; null
 * when the helper is not available or the buffer is below READY_MIN_BYTES.
 */
export function requestReady(kind: ReadyKind, length: number, fill: number): ReadyBuffer | null {
  const bytes = length * BYTES[kind];
  if (bytes < READY_MIN_BYTES) return null;
  if (helper === undefined) helper = startHelper();
  if (helper === null) return null;
  let buffer: SharedArrayBuffer | null = new SharedArrayBuffer(bytes);
  const flag = new Int32Array(new SharedArrayBuffer(4));
  helper.postMessage({ buffer, flag, kind, fill });
  const expiry = setTimeout(() => {
    buffer = null;
  }, READY_EXPIRES_MS);
  expiry.unref();
  return {
    kind,
    length,
    fill,
    take() {
      if (buffer === null || (fill !== 0 && Atomics.load(flag, 0) === 0)) return null;
      const b = buffer;
      buffer = null;
      clearTimeout(expiry);
      return b;
    },
  };
}
