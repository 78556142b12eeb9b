// Claim ids by claim index. Ids this library generates ('clm_' + 16-hex prefix + 16-hex counter, see
// facade/kb.ts) are kept as two numbers instead of a million retained strings; any other id (restored or
// written by another tool) is kept as written, in a sparse map.
import { generatedClaimId } from '../model/claim-run.js';
import { F64Column, I32Column } from './columns.js';

function isLowerHex(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

export class ClaimIds {
  private readonly prefix = new I32Column();
  private readonly counter = new F64Column();
  private readonly prefixes: string[] = [];
  private readonly prefixIndex = new Map<string, number>();
  private lastPrefix = '';
  private lastPrefixIdx = -1;
  private readonly foreign = new Map<number, string>();

  get count(): number {
    return this.prefix.n;
  }

  get(c: number): string {
    const pi = this.prefix.a[c]!;
    if (pi < 0) return this.foreign.get(c)!;
    return generatedClaimId(this.prefixes[pi]!, this.counter.a[c]!);
  }

  /** The ids as columns, for a graph snapshot (graph-image.ts): prefix index per claim (-1: foreign), counter. */
  exportState(): { prefix: Int32Array; counter: Float64Array; prefixes: string[]; foreign: [number, string][] } {
    const n = this.prefix.n;
    return {
      prefix: this.prefix.a.subarray(0, n),
      counter: this.counter.a.subarray(0, n),
      prefixes: this.prefixes,
      foreign: [...this.foreign],
    };
  }

  /** Takes the ids of a snapshot, into an empty ClaimIds (the arrays are kept, not copied). */
  importState(prefix: Int32Array, counter: Float64Array, prefixes: string[], foreign: [number, string][]): void {
    if (this.prefix.n !== 0 || counter.length !== prefix.length) throw new Error('claim ids: not empty or uneven');
    this.prefix.a = prefix;
    this.prefix.n = prefix.length;
    this.counter.a = counter;
    this.counter.n = counter.length;
    for (const p of prefixes) {
      this.prefixIndex.set(p, this.prefixes.length);
      this.prefixes.push(p);
    }
    for (const [c, id] of foreign) this.foreign.set(c, id);
  }

  /** An id known to be 'clm_' + prefix (16 lower-hex digits) + counter (< 2^48) as 16 hex digits. */
  pushGenerated(prefix: string, counter: number): void {
    let pi = prefix === this.lastPrefix ? this.lastPrefixIdx : this.prefixIndex.get(prefix);
    if (pi === undefined) {
      pi = this.prefixes.length;
      this.prefixes.push(prefix);
      this.prefixIndex.set(prefix, pi);
    }
    this.lastPrefix = prefix;
    this.lastPrefixIdx = pi;
    this.prefix.push(pi);
    this.counter.push(counter);
  }

  push(id: string): void {
    // Counters below 2^48 (leading '0000') round-trip exactly through a double.
    if (id.length === 36 && id.startsWith('clm_') && id.startsWith('0000', 20) && isLowerHex(id, 20, 36)) {
      const prefix = id.substring(4, 20);
      let pi = prefix === this.lastPrefix ? this.lastPrefixIdx : this.prefixIndex.get(prefix);
      if (pi === undefined && isLowerHex(prefix, 0, 16)) {
        pi = this.prefixes.length;
        this.prefixes.push(prefix);
        this.prefixIndex.set(prefix, pi);
      }
      if (pi !== undefined) {
        this.lastPrefix = prefix;
        this.lastPrefixIdx = pi;
        this.prefix.push(pi);
        this.counter.push(parseInt(id.substring(20), 16));
        return;
      }
    }
    this.foreign.set(this.prefix.n, id);
    this.prefix.push(-1);
    this.counter.push(0);
  }
}
