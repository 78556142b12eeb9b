// An oracle budget over a scoring profile, by PMO's rules (wenhao-gao/mol_opt, main/optimizer.py, Oracle):
// molecules are keyed by RDKit's canonical SMILES; each distinct molecule scored is one oracle call; a repeat
// returns its recorded score and costs nothing; a SMILES RDKit cannot read scores 0, is not recorded and costs
// nothing. PMO scores one molecule past the budget (its test is "more than max calls"); here the budget is
// never exceeded: once it is spent, new molecules are not scored. The call log keeps every call in order with
// each endpoint's raw and transformed value, and gives PMO's AUC top-k.
import { InvalidRequestError } from '../errors.js';
import { loadRDKit, parseSmiles } from '../rdkit.js';
import { callLogCsv } from './call-log.js';
import { aucTopK, type AucOptions, topKMean } from './auc.js';
import type { EndpointScore, ScoreOptions, ScoringProfile } from './profile.js';

export interface OracleBudget {
  /** Distinct molecules that may be scored (PMO: 10,000). */
  max_oracle_calls: number;
}

/** One oracle call: a distinct molecule, scored. */
export interface OracleCall {
  /** 1 for the first molecule scored. */
  call: number;
  /** RDKit's canonical SMILES (the key repeats are recognised by). */
  smiles: string;
  score: number;
  components: EndpointScore[];
}

export type OracleStatus =
  /** Scored now: one call used. */
  | 'scored'
  /** Scored before (or earlier in the same batch): no call used. */
  | 'repeat'
  /** Not a molecule RDKit accepts: scores 0, no call used. */
  | 'invalid'
  /** New, but the budget is spent: not scored, scores 0. */
  | 'budget_exhausted';

export interface OracleResult {
  /** The SMILES as given. */
  smiles: string;
  canonical_smiles: string | null;
  score: number;
  status: OracleStatus;
  /** The call that scored this molecule (null when invalid or not scored). */
  call: number | null;
}

/** Largest budget an oracle accepts (a call log of this many rows stays in memory). */
export const MAX_ORACLE_CALLS = 1_000_000;

export class Oracle {
  readonly maxOracleCalls: number;
  private readonly calls: OracleCall[] = [];
  private readonly byKey = new Map<string, OracleCall>();
  /** Batches run one after another, so that two callers cannot both spend the last calls. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly profile: ScoringProfile,
    budget: OracleBudget,
  ) {
    const max = budget?.max_oracle_calls;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > MAX_ORACLE_CALLS) {
      throw new InvalidRequestError([
        { path: '/budget/max_oracle_calls', message: `must be a whole number from 1 to ${MAX_ORACLE_CALLS}` },
      ]);
    }
    this.maxOracleCalls = max;
  }

  /** Oracle calls used. */
  get used(): number {
    return this.calls.length;
  }

  get remaining(): number {
    return this.maxOracleCalls - this.calls.length;
  }

  get exhausted(): boolean {
    return this.calls.length >= this.maxOracleCalls;
  }

  /** The calls so far, in order. */
  get log(): readonly OracleCall[] {
    return this.calls;
  }

  /** The recorded call of a molecule, by canonical SMILES. */
  lookup(canonicalSmiles: string): OracleCall | undefined {
    return this.byKey.get(canonicalSmiles);
  }

  /**
   * Scores a batch: new molecules (in the order given, while the budget lasts) through the profile in one
   * batch, repeats from the log. When the profile throws (an external scorer fails, an abort), nothing of the
   * batch is recorded or charged.
   */
  score(smiles: readonly string[], options: ScoreOptions = {}): Promise<OracleResult[]> {
    const run = this.queue.then(() => this.scoreNow(smiles, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async scoreNow(smiles: readonly string[], options: ScoreOptions): Promise<OracleResult[]> {
    const pending = new Map<string, number>();
    const fresh: string[] = [];
    const keys = await canonicalSmiles(smiles);
    const plan = keys.map((key): OracleStatus => {
      if (key === null) return 'invalid';
      if (this.byKey.has(key) || pending.has(key)) return 'repeat';
      if (this.calls.length + fresh.length >= this.maxOracleCalls) return 'budget_exhausted';
      pending.set(key, fresh.length);
      fresh.push(key);
      return 'scored';
    });
    const scored = fresh.length ? await this.profile.score(fresh, options) : [];
    scored.forEach((s, i) => {
      const call: OracleCall = {
        call: this.calls.length + 1,
        smiles: fresh[i]!,
        score: s.total,
        components: s.components,
      };
      this.calls.push(call);
      this.byKey.set(fresh[i]!, call);
    });
    return smiles.map((s, i) => {
      const key = keys[i]!;
      const status = plan[i]!;
      const rec = key === null ? undefined : this.byKey.get(key);
      if (status === 'invalid' || status === 'budget_exhausted' || !rec) {
        return { smiles: String(s), canonical_smiles: key, score: 0, status, call: null };
      }
      return { smiles: s, canonical_smiles: key, score: rec.score, status, call: rec.call };
    });
  }

  /** PMO's AUC of the top-k curve over this oracle's calls and budget (k = 10 is PMO's figure). */
  aucTopK(k = 10, options: AucOptions = {}): number {
    return aucTopK(
      this.calls.map((c) => c.score),
      k,
      this.maxOracleCalls,
      options,
    );
  }

  /** The mean of the k best scores among the first `calls` calls (all calls by default). */
  topKMean(k = 10, calls = this.calls.length): number {
    return topKMean(
      this.calls.slice(0, calls).map((c) => c.score),
      k,
    );
  }

  /**
   * The call log as CSV: call, smiles, score, then per endpoint its transformed value (column = the endpoint's
   * name) and raw value ("<name> (raw)"), as REINVENT 4's CSV names them. Empty cells where a value is missing.
   */
  toCsv(): string {
    return callLogCsv(this.profile.endpoints, this.calls);
  }
}

/** RDKit's canonical SMILES of each entry, or null when RDKit cannot read it (PMO keys molecules by it). */
export async function canonicalSmiles(smiles: readonly string[]): Promise<Array<string | null>> {
  const rd = await loadRDKit();
  return smiles.map((s) => {
    const mol = typeof s === 'string' ? parseSmiles(rd, s) : null;
    if (!mol) return null;
    try {
      return mol.get_smiles();
    } finally {
      mol.delete();
    }
  });
}
