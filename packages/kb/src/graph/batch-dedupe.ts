// Finds repeats of the same fact from the same source inside one batch, before anything is written.
// Keyed by the subject (entity index, or canonical name for an entity not indexed yet), then a short scan:
// cheaper than building and hashing one long composite key per claim. One map lookup per claim: the claim is
// recorded in the same step that looks for an earlier one.
import type { ResolvedClaim } from './state.js';

export class BatchDedupe {
  /**
   * subject -> positions (in `resolved` / `sources`) of the batch's kept claims with that subject. The key is
   * the entity index when the entity is in the index (r.s >= 0 after findDuplicate; the same for every claim
   * of a batch, since nothing is applied while a batch is checked), else its canonical name.
   */
  private readonly bySubject = new Map<number | string, number | number[]>();

  constructor(
    private readonly resolved: readonly ResolvedClaim[],
    private readonly sources: readonly string[],
  ) {}

  /** 0: another fact; 1: the same fact from another source; 2: the same fact from the same source. */
  private compare(i: number, r: ResolvedClaim, sourceId: string): number {
    const x = this.resolved[i]!;
    if (x.predicate !== r.predicate) return 0;
    // Subjects: the same entity index, or (both not in the index yet) the same name; check the type too.
    if (r.s < 0 && x.subjectType !== r.subjectType) return 0;
    if (r.o >= 0 || x.o >= 0) {
      if (x.o !== r.o) return 0;
    } else if (x.objectNorm !== r.objectNorm || x.objectType !== r.objectType) return 0;
    return this.sources[i] === sourceId ? 2 : 1;
  }

  /**
   * Position of an earlier kept claim stating the same fact from the same source, or -1; then the claim is
   * recorded as kept at position `next` (the caller keeps it there). Sets `r.newFact` to false when an
   * earlier kept claim of the batch states the same fact (from another source).
   */
  findOrAdd(r: ResolvedClaim, sourceId: string, next: number): number {
    const key = r.s >= 0 ? r.s : r.subjectNorm;
    const at = this.bySubject.get(key);
    if (at === undefined) {
      this.bySubject.set(key, next);
      return -1;
    }
    if (typeof at === 'number') {
      const k = this.compare(at, r, sourceId);
      if (k === 2) return at;
      if (k === 1) r.newFact = false;
      this.bySubject.set(key, [at, next]);
      return -1;
    }
    for (const i of at) {
      const k = this.compare(i, r, sourceId);
      if (k === 2) return i;
      if (k === 1) r.newFact = false;
    }
    at.push(next);
    return -1;
  }
}
