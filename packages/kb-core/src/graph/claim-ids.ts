// Claim ids by claim index. Ids this library generates ('clm_' + 16-hex prefix + 16-hex counter, see
// facade/kb.ts) are kept as ranges: claims that follow each other with one prefix and consecutive counters (an
// ingest batch's, and usually the next batches' too) are one range, its first claim, prefix and counter, so the
// index keeps no number per claim for its ids. Any other id (restored or written by another tool) is kept as
// written, in a sparse map; consecutive ones share a range too.
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
  /** Per range: its first claim, its prefix's index (-1: the claims' ids are in `foreign`), its first counter. */
  private readonly start = new I32Column();
  private readonly prefix = new I32Column();
  private readonly counter = new F64Column();
  private n = 0;
  private readonly prefixes: string[] = [];
  private readonly prefixIndex = new Map<string, number>();
  private lastPrefix = '';
  private lastPrefixIdx = -1;
  private readonly foreign = new Map<number, string>();

  get count(): number {
    return this.n;
  }

  /** The range claim c is in: the last range that starts at or before it. */
  private rangeOf(c: number): number {
    const starts = this.start.a;
    let hi = this.start.n - 1;
    if (starts[hi]! <= c) return hi;
    let lo = 0;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= c) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  get(c: number): string {
    const r = this.rangeOf(c);
    const pi = this.prefix.a[r]!;
    if (pi < 0) return this.foreign.get(c)!;
    return generatedClaimId(this.prefixes[pi]!, this.counter.a[r]! + (c - this.start.a[r]!));
  }

  /** The next claim's id: prefix index pi (-1: foreign) and counter; extends the last range when it follows it. */
  private add(pi: number, counter: number): void {
    const last = this.start.n - 1;
    if (
      last >= 0 &&
      this.prefix.a[last] === pi &&
      (pi < 0 || this.counter.a[last]! + (this.n - this.start.a[last]!) === counter)
    ) {
      this.n++;
      return;
    }
    this.start.push(this.n);
    this.prefix.push(pi);
    this.counter.push(pi < 0 ? 0 : counter);
    this.n++;
  }

  private prefixOf(prefix: string): number | undefined {
    const pi = prefix === this.lastPrefix ? this.lastPrefixIdx : this.prefixIndex.get(prefix);
    if (pi === undefined) return undefined;
    this.lastPrefix = prefix;
    this.lastPrefixIdx = pi;
    return pi;
  }

  private newPrefix(prefix: string): number {
    const pi = this.prefixes.length;
    this.prefixes.push(prefix);
    this.prefixIndex.set(prefix, pi);
    this.lastPrefix = prefix;
    this.lastPrefixIdx = pi;
    return pi;
  }

  /**
   * The ids as columns, for a graph snapshot (graph-image.ts): prefix index per claim (-1: foreign) and counter
   * (0 for a foreign id), as the snapshot's format keeps them.
   */
  exportState(): { prefix: Int32Array; counter: Float64Array; prefixes: string[]; foreign: [number, string][] } {
    const n = this.n;
    const prefix = new Int32Array(n);
    const counter = new Float64Array(n);
    const ranges = this.start.n;
    for (let r = 0; r < ranges; r++) {
      const from = this.start.a[r]!;
      const to = r + 1 < ranges ? this.start.a[r + 1]! : n;
      const pi = this.prefix.a[r]!;
      prefix.fill(pi, from, to);
      if (pi < 0) continue;
      const first = this.counter.a[r]!;
      for (let c = from; c < to; c++) counter[c] = first + (c - from);
    }
    return { prefix, counter, prefixes: this.prefixes, foreign: [...this.foreign] };
  }

  /** Takes the ids of a snapshot (the columns exportState wrote), into an empty ClaimIds. */
  importState(prefix: Int32Array, counter: Float64Array, prefixes: string[], foreign: [number, string][]): void {
    if (this.n !== 0 || counter.length !== prefix.length) throw new Error('claim ids: not empty or uneven');
    for (const p of prefixes) {
      this.prefixIndex.set(p, this.prefixes.length);
      this.prefixes.push(p);
    }
    for (let c = 0; c < prefix.length; c++) this.add(prefix[c]!, counter[c]!);
    for (const [c, id] of foreign) this.foreign.set(c, id);
  }

  /** An id known to be 'clm_' + prefix (16 lower-hex digits) + counter (< 2^48) as 16 hex digits. */
  pushGenerated(prefix: string, counter: number): void {
    this.add(this.prefixOf(prefix) ?? this.newPrefix(prefix), counter);
  }

  push(id: string): void {
    // Counters below 2^48 (leading '0000') round-trip exactly through a double.
    if (id.length === 36 && id.startsWith('clm_') && id.startsWith('0000', 20) && isLowerHex(id, 20, 36)) {
      const prefix = id.substring(4, 20);
      let pi = this.prefixOf(prefix);
      if (pi === undefined && isLowerHex(prefix, 0, 16)) pi = this.newPrefix(prefix);
      if (pi !== undefined) {
        this.add(pi, parseInt(id.substring(20), 16));
        return;
      }
    }
    this.foreign.set(this.n, id);
    this.add(-1, 0);
  }
}
