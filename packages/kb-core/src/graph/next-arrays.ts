// The array an owner will grow into next (a column, a hash table), asked for early and made ready off this
// thread (@evident/worker-threads' ready memory), so that growing writes into pages already faulted in.
// Kept by owner in a WeakMap, off the owner's own properties, so that a what-if copy (clone.ts) never shares one.
// Only owners made by their constructors ask (aheadOwner): a copy, which clone.ts makes without its constructor,
// grows a few rows at most, and a request of tens of MB would cost it more than it saves (and, as external
// memory, can set off a full collection of a large heap in the middle of a what-if).
import { type ReadyBuffer, type ReadyKind, requestReady } from '@evident/worker-threads';

/**
 * The count at which a hash table of `size` slots (fact-table.ts, string-table.ts) asks for its next slots: it
 * grows at half full, so at three eighths.
 */
export const tableAskAt = (size: number) => (size >>> 2) + (size >>> 3);

const nextArrays = new WeakMap<object, ReadyBuffer>();
const owners = new WeakSet<object>();

/** Lets `owner` ask for next arrays: called by its constructor. */
export function aheadOwner(owner: object): void {
  owners.add(owner);
}

/** Asks for `owner`'s next array: `length` elements of `kind`, every one `fill` (nothing for a copy). */
export function askNextArray(owner: object, kind: ReadyKind, length: number, fill: number): void {
  if (!owners.has(owner)) return;
  const ready = requestReady(kind, length, fill);
  if (ready) nextArrays.set(owner, ready);
  else nextArrays.delete(owner);
}

/** The buffer `owner` asked for, when it has `length` elements and is ready, else null; forgotten either way. */
export function takeNextArray(owner: object, length: number): SharedArrayBuffer | null {
  const ready = nextArrays.get(owner);
  if (ready === undefined) return null;
  nextArrays.delete(owner);
  return ready.length === length ? ready.take() : null;
}

/** Forgets `owner`'s next array (its array was replaced from elsewhere). */
export function forgetNextArray(owner: object): void {
  nextArrays.delete(owner);
}
