// Ids the engine generates: a random 64-bit prefix per process plus a counter, 32 hex digits in all. Unique
// across processes with overwhelming probability, and cheap enough for a million claims a second.
import { randomBytes } from 'node:crypto';
import { generatedClaimId } from '../model/claim-run.js';

let idPrefix = randomBytes(8).toString('hex');
let idCounter = 0;

/** A fresh id for a non-claim entry: `kind` (e.g. 'inq_') followed by the 32 hex digits. */
export function newId(kind: string): string {
  const { prefix, start } = reserveIds(1);
  return kind + generatedClaimId(prefix, start).slice(4);
}

/** n consecutive counters under one prefix (a fresh prefix when the counter would pass 32 bits). */
export function reserveIds(n: number): { prefix: string; start: number } {
  if (idCounter + n > 0xffffffff) {
    idPrefix = randomBytes(8).toString('hex');
    idCounter = 0;
  }
  const start = idCounter;
  idCounter += n;
  return { prefix: idPrefix, start };
}
