// A loaded scoring profile: scores batches of SMILES the way REINVENT 4's Scorer does (reinvent/scoring/
// scorer.py, compute_scores.py). Per molecule: every endpoint's raw value, its transform, the weighted mean of
// the scoring endpoints (aggregate.ts), times each penalty's value; 0 when a filter's value is 0 or the SMILES
// is not a molecule RDKit accepts. Repeats of one molecule within a batch are scored once (REINVENT scores
// them 0 as "duplicates"; an oracle, ./oracle.ts, decides what repeats cost).
import { CompoundGenerationError, GenerationAbortedError } from '../errors.js';
import { parseSmiles, type Mol, type RDKit } from '../rdkit.js';
import { type Aggregation, aggregate } from './aggregate.js';
import type { ComponentCounters, ComponentImpl, ComponentRole } from './components/types.js';
import type { RawValue } from './external/protocol.js';
import { MoleculeContext } from './molecule.js';
import type { Transform } from './transforms.js';

/** One endpoint of a profile, as the profile reports it. */
export interface EndpointInfo {
  /** The endpoint's `name` (unique within the profile: a repeated name gets " (2)", " (3)" …). */
  name: string;
  /** The component's name as this package spells it (e.g. "TanimotoSimilarity"). */
  component: string;
  role: ComponentRole;
  /** Weight in the mean (scoring endpoints; penalties and filters are not weighted). */
  weight: number;
  /** The transform's type, or null when the raw value is used as it is. */
  transform: string | null;
}

/** One endpoint's values for one molecule. */
export interface EndpointScore {
  name: string;
  /** What the component computed (a number, or a string for value_mapping); null when it has no value. */
  raw: RawValue;
  /** After the transform; null when not a number (NaN: left out of the mean). */
  value: number | null;
}

/** A molecule's score under a profile. Field names are snake_case: this is what results and logs carry. */
export interface MoleculeScore {
  /** The SMILES as given. */
  smiles: string;
  /** RDKit's canonical isomeric SMILES; null when RDKit cannot read the SMILES. */
  canonical_smiles: string | null;
  valid: boolean;
  /** The aggregated score (0 for an invalid SMILES or a molecule a filter removes). */
  total: number;
  /** Every endpoint, in the profile's order; empty for an invalid SMILES. */
  components: EndpointScore[];
}

export interface ScoreOptions {
  signal?: AbortSignal;
}

export interface ScoringProfile {
  readonly aggregation: Aggregation;
  readonly endpoints: readonly EndpointInfo[];
  /** Where the profile came from (the file name the caller gave), if known. */
  readonly source: string | undefined;
  /**
   * Scores a batch (ExternalProcess runs once per batch). Throws ExternalScorerError when an external scorer
   * fails and GenerationAbortedError when the signal aborts; nothing of the batch is returned then.
   */
  score(smiles: readonly string[], options?: ScoreOptions): Promise<MoleculeScore[]>;
  /** Work done so far: external scorer runs and SMILES sent, docking calls and failures. */
  counters(): Readonly<ComponentCounters>;
  /** Frees the compiled SMARTS queries (WebAssembly memory); the profile cannot score afterwards. */
  dispose(): void;
}

/** A component as built: what computes it and, per endpoint, its name, weight and transform. */
export interface BuiltComponent {
  impl: ComponentImpl;
  component: string;
  role: ComponentRole;
  endpoints: Array<{ name: string; weight: number; transform: Transform | null; transformType: string | null }>;
}

export class Profile implements ScoringProfile {
  readonly endpoints: readonly EndpointInfo[];
  private readonly stats: ComponentCounters = {
    external_runs: 0,
    external_smiles: 0,
    docking_calls: 0,
    docking_failures: 0,
  };
  private disposed = false;

  constructor(
    private readonly rd: RDKit,
    readonly aggregation: Aggregation,
    private readonly components: readonly BuiltComponent[],
    private readonly queries: Mol[],
    readonly source: string | undefined,
  ) {
    this.endpoints = components.flatMap((c) =>
      c.endpoints.map((e) => ({
        name: e.name,
        component: c.component,
        role: c.role,
        weight: e.weight,
        transform: e.transformType,
      })),
    );
  }

  counters(): Readonly<ComponentCounters> {
    return { ...this.stats };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const q of this.queries) q.delete();
    this.queries.length = 0;
  }

  async score(smiles: readonly string[], options: ScoreOptions = {}): Promise<MoleculeScore[]> {
    if (this.disposed) throw new CompoundGenerationError('profile_disposed', 'this scoring profile was disposed');
    const { signal } = options;
    if (signal?.aborted) throw new GenerationAbortedError();
    const contexts: MoleculeContext[] = [];
    const byCanonical = new Map<string, number>();
    const index: Array<number | null> = [];
    const canonical: Array<string | null> = [];
    try {
      for (const s of smiles) {
        const mol = typeof s === 'string' ? parseSmiles(this.rd, s) : null;
        if (!mol) {
          index.push(null);
          canonical.push(null);
          continue;
        }
        const c = mol.get_smiles();
        canonical.push(c);
        const seen = byCanonical.get(c);
        if (seen !== undefined) {
          mol.delete();
          index.push(seen);
          continue;
        }
        byCanonical.set(c, contexts.length);
        index.push(contexts.length);
        contexts.push(new MoleculeContext(this.rd, mol, c));
      }
      // Per component, per endpoint, per unique molecule.
      const raws: RawValue[][][] = [];
      for (const c of this.components) {
        const values = await c.impl.compute(contexts, signal, this.stats);
        if (signal?.aborted) throw new GenerationAbortedError();
        raws.push(values);
      }
      const perMolecule = contexts.map((_, m) => this.combine(raws, m));
      return smiles.map((s, i) => {
        const m = index[i];
        if (m === null || m === undefined) {
          return { smiles: String(s), canonical_smiles: null, valid: false, total: 0, components: [] };
        }
        const r = perMolecule[m]!;
        return { smiles: s, canonical_smiles: canonical[i]!, valid: true, total: r.total, components: r.components };
      });
    } finally {
      for (const c of contexts) c.mol.delete();
    }
  }

  private combine(raws: RawValue[][][], m: number): { total: number; components: EndpointScore[] } {
    const components: EndpointScore[] = [];
    const values: number[] = [];
    const weights: number[] = [];
    let penalty = 1;
    let filtered = false;
    this.components.forEach((c, ci) => {
      c.endpoints.forEach((e, ei) => {
        const raw = raws[ci]![ei]![m] ?? null;
        let v: number;
        if (raw === null) v = c.impl.missing === 'zero' ? 0 : Number.NaN;
        else if (e.transform) v = e.transform(raw);
        else v = typeof raw === 'number' ? raw : Number.NaN;
        components.push({ name: e.name, raw, value: Number.isNaN(v) ? null : v });
        if (c.role === 'score') {
          values.push(v);
          weights.push(e.weight);
        } else if (c.role === 'penalty') {
          if (!Number.isNaN(v)) penalty *= v;
        } else if (v === 0) filtered = true;
      });
    });
    const base = values.length ? aggregate(this.aggregation, values, weights) : 1;
    return { total: filtered ? 0 : base * penalty, components };
  }
}
