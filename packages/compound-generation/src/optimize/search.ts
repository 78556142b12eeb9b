// What every strategy scores through: the oracle (budget by PMO's rules), the caller's hard constraints, the
// abort signal and progress reports. Candidates are canonicalised here once; invalid ones and those the filter
// refuses never reach the oracle and cost nothing.
import { GenerationAbortedError } from '../errors.js';
import { parseSmiles, type RDKit } from '../rdkit.js';
import type { Oracle } from '../profile/oracle.js';
import type { OptimizeProgress } from './types.js';

/** A scored molecule as strategies see it. */
export interface Scored {
  smiles: string;
  score: number;
  call: number;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class Search {
  /** Canonical SMILES -> whether the caller's filter admits it (asked once per molecule). */
  private readonly admitted = new Map<string, boolean>();
  /** The best scores so far, descending (at most 10), for progress reports. */
  private readonly best10: number[] = [];

  constructor(
    readonly rd: RDKit,
    readonly oracle: Oracle,
    private readonly filter: ((smiles: string) => boolean) | undefined,
    private readonly signal: AbortSignal | undefined,
    private readonly onProgress: ((p: OptimizeProgress) => void) | undefined,
  ) {}

  get exhausted(): boolean {
    return this.oracle.exhausted;
  }

  get used(): number {
    return this.oracle.used;
  }

  /** Throws GenerationAbortedError once the signal has aborted; lets the event loop turn. */
  async checkpoint(): Promise<void> {
    await yieldToLoop();
    if (this.signal?.aborted) throw new GenerationAbortedError();
  }

  /** RDKit's canonical SMILES, or null when RDKit cannot read it. */
  canonical(smiles: string): string | null {
    const mol = parseSmiles(this.rd, smiles);
    if (!mol) return null;
    try {
      return mol.get_smiles();
    } finally {
      mol.delete();
    }
  }

  /** Whether the caller's hard constraints admit a molecule (by canonical SMILES). */
  admits(canonical: string): boolean {
    if (!this.filter) return true;
    let ok = this.admitted.get(canonical);
    if (ok === undefined) {
      ok = this.filter(canonical) === true;
      this.admitted.set(canonical, ok);
    }
    return ok;
  }

  /** Whether the oracle has scored this canonical SMILES already (a repeat costs nothing). */
  seen(canonical: string): boolean {
    return this.oracle.lookup(canonical) !== undefined;
  }

  /**
   * Scores canonical SMILES (repeats free, new ones while the budget lasts). Returns the molecules that have a
   * score (scored now or before), in the order given, without duplicates.
   */
  async score(canonicalSmiles: readonly string[]): Promise<Scored[]> {
    if (this.signal?.aborted) throw new GenerationAbortedError();
    const unique = [...new Set(canonicalSmiles)].filter((s) => this.admits(s));
    if (unique.length === 0) return [];
    const before = this.oracle.used;
    const results = await this.oracle.score(unique, { signal: this.signal });
    const out: Scored[] = [];
    for (const r of results) {
      if (r.call === null || r.canonical_smiles === null) continue;
      out.push({ smiles: r.canonical_smiles, score: r.score, call: r.call });
    }
    if (this.oracle.used > before) {
      for (const c of this.oracle.log.slice(before)) this.noteBest(c.score);
      this.onProgress?.({
        calls_used: this.oracle.used,
        max_oracle_calls: this.oracle.maxOracleCalls,
        best: this.best10[0] ?? 0,
        top10_mean: this.best10.length ? this.best10.reduce((a, b) => a + b, 0) / this.best10.length : 0,
      });
    }
    return out;
  }

  private noteBest(score: number): void {
    const b = this.best10;
    if (b.length === 10 && score <= b[9]!) return;
    let i = b.length;
    while (i > 0 && b[i - 1]! < score) i--;
    b.splice(i, 0, score);
    if (b.length > 10) b.pop();
  }
}
