// Finds repeats of the same fact from the same source inside one batch, before anything is written.
// Keyed by the subject's canonical name (a cached string whose hash V8 keeps), then a short scan: cheaper
// than building and hashing one long composite key per claim.
import type { ResolvedClaim } from './state.js';

interface Seen {
  subjectType: string;
  predicate: string;
  objectType: string;
  objectNorm: string;
  sourceId: string;
  claimId: string;
}

export class BatchDedupe {
  private readonly bySubject = new Map<string, Seen[]>();

  /** The claim id of an earlier claim of the batch stating the same fact from the same source, or undefined. */
  find(r: ResolvedClaim, sourceId: string): string | undefined {
    const list = this.bySubject.get(r.subjectNorm);
    if (!list) return undefined;
    for (const x of list) {
      if (x.objectNorm === r.objectNorm && x.predicate === r.predicate && x.sourceId === sourceId && x.subjectType === r.subjectType && x.objectType === r.objectType) {
        return x.claimId;
      }
    }
    return undefined;
  }

  add(r: ResolvedClaim, sourceId: string, claimId: string): void {
    const seen: Seen = { subjectType: r.subjectType, predicate: r.predicate, objectType: r.objectType, objectNorm: r.objectNorm, sourceId, claimId };
    const list = this.bySubject.get(r.subjectNorm);
    if (list) list.push(seen);
    else this.bySubject.set(r.subjectNorm, [seen]);
  }
}
