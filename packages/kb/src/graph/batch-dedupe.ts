// Finds repeats of the same fact from the same source inside one batch, before anything is written.
// Keyed by the subject's canonical name (a cached string whose hash V8 keeps), then a short scan: cheaper
// than building and hashing one long composite key per claim.
import type { ResolvedClaim } from './state.js';

export class BatchDedupe {
  /** subject name -> positions (in `resolved` / `sources`) of the batch's kept claims with that subject. */
  private readonly bySubject = new Map<string, number | number[]>();

  constructor(
    private readonly resolved: readonly ResolvedClaim[],
    private readonly sources: readonly string[],
  ) {}

  private same(i: number, r: ResolvedClaim, sourceId: string): boolean {
    const x = this.resolved[i]!;
    return x.objectNorm === r.objectNorm && x.predicate === r.predicate && this.sources[i] === sourceId && x.subjectType === r.subjectType && x.objectType === r.objectType;
  }

  /** Position of an earlier kept claim stating the same fact from the same source, or -1. */
  find(r: ResolvedClaim, sourceId: string): number {
    const at = this.bySubject.get(r.subjectNorm);
    if (at === undefined) return -1;
    if (typeof at === 'number') return this.same(at, r, sourceId) ? at : -1;
    for (const i of at) if (this.same(i, r, sourceId)) return i;
    return -1;
  }

  /** Records the kept claim at position `i` (its resolved claim and source already pushed). */
  add(i: number): void {
    const key = this.resolved[i]!.subjectNorm;
    const at = this.bySubject.get(key);
    if (at === undefined) this.bySubject.set(key, i);
    else if (typeof at === 'number') this.bySubject.set(key, [at, i]);
    else at.push(i);
  }
}
