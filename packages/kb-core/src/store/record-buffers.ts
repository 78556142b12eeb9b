// Buffers for the runs' binary log records, used again. Each 10,000-claim record (about 430 KB) went to the writer
// thread and was freed there, so every batch faulted in fresh pages for the next one (about 100 faults, 1.5 ms at
// this VM's 15 µs a fault, 6,000-7,000 over a million-claim ingest). The writer now sends each record's buffer
// back with its answer, and the next record is written into one of those.

/** At most this many spare buffers are kept: an append in flight holds one or two. */
const KEEP = 4;
const spare: ArrayBuffer[] = [];

/** A zeroed array of `bytes` for a record: a view of a spare buffer when one is large enough, else new. */
export function recordBuffer(bytes: number): Uint8Array<ArrayBuffer> {
  for (let i = 0; i < spare.length; i++) {
    const b = spare[i]!;
    if (b.byteLength >= bytes) {
      spare.splice(i, 1);
      // Zeroed as a new one would be: the record's padding stays 0, so equal runs make equal bytes.
      return new Uint8Array(b, 0, bytes).fill(0);
    }
  }
  return new Uint8Array(bytes);
}

/** Takes back buffers the writer thread is done with. */
export function recycleRecordBuffers(buffers: readonly ArrayBuffer[]): void {
  for (const b of buffers) {
    if (spare.length >= KEEP) return;
    spare.push(b);
  }
}

/** How many given-back buffers wait to be written again (for tests). */
export function spareRecordBuffers(): number {
  return spare.length;
}
