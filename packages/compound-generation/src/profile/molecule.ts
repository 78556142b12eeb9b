// One molecule being scored: its RDKit handle and whatever the profile's components ask of it, computed once
// (descriptors, graph, fingerprints, distance matrix) however many components use it.
import { analyseMol, type MolAnalysis } from '../chem/describe.js';
import { atomPairCounts, sp3Atoms } from '../chem/atom-pairs.js';
import { bertzCT } from '../chem/bertz.js';
import { topologicalDistances } from '../chem/distance-matrix.js';
import { featureInvariants } from '../chem/feature-invariants.js';
import { molGraph, type MolGraph } from '../chem/graph.js';
import { morganCounts } from '../chem/morgan.js';
import { gobbiFeatures, gobbiPharm2D } from '../chem/pharm2d.js';
import { patternFingerprint, type Mol, type RDKit } from '../rdkit.js';

/** MinimalLib's get_descriptors() (RDKit's property names). */
export type RDKitDescriptorValues = Record<string, number>;

export class MoleculeContext {
  private readonly cache = new Map<string, unknown>();

  constructor(
    readonly rd: RDKit,
    readonly mol: Mol,
    /** RDKit's canonical (isomeric) SMILES. */
    readonly smiles: string,
  ) {}

  private memo<T>(key: string, make: () => T): T {
    if (this.cache.has(key)) return this.cache.get(key) as T;
    const v = make();
    this.cache.set(key, v);
    return v;
  }

  descriptors(): RDKitDescriptorValues {
    return this.memo('descriptors', () => JSON.parse(this.mol.get_descriptors()) as RDKitDescriptorValues);
  }

  graph(): MolGraph {
    return this.memo('graph', () => molGraph(this.mol));
  }

  patternFp(): Uint32Array {
    return this.memo('patternFp', () => patternFingerprint(this.mol));
  }

  /** QED, SA score and the rest of describeMolecule's analysis. */
  analysis(): MolAnalysis {
    return this.memo('analysis', () => analyseMol(this.rd, this.mol, this.graph()));
  }

  distances(): Float64Array {
    return this.memo('distances', () => topologicalDistances(this.graph()));
  }

  /** Unhashed Morgan environment counts (RDKit GetMorganFingerprint), connectivity or feature invariants. */
  morgan(radius: number, features: boolean): Map<number, number> {
    return this.memo(`morgan:${radius}:${features}`, () => {
      const g = this.graph();
      const inv = features ? featureInvariants(this.rd, this.mol, g.z.length, this.patternFp()) : undefined;
      return morganCounts(g, radius, inv);
    });
  }

  sp3(): Set<number> {
    return this.memo('sp3', () => sp3Atoms(this.rd, this.mol));
  }

  atomPairs(minLength: number, maxLength: number): Map<number, number> {
    return this.memo(`ap:${minLength}:${maxLength}`, () =>
      atomPairCounts(this.graph(), this.sp3(), maxLength, minLength, this.distances()),
    );
  }

  pharm2d(): Set<number> {
    return this.memo('pharm2d', () =>
      gobbiPharm2D(gobbiFeatures(this.rd, this.mol, this.patternFp()), this.graph(), this.distances()),
    );
  }

  bertz(): number {
    return this.memo('bertz', () => bertzCT(this.graph()));
  }

  /** Unique substructure matches of a compiled query (at most 1000, as RDKit's default). */
  matches(query: Mol, useChirality = false): number[][] {
    const json = useChirality
      ? this.mol.get_substruct_matches(query, JSON.stringify({ useChirality: true }))
      : this.mol.get_substruct_matches(query);
    if (!json || json === '{}' || json === '[]') return [];
    const parsed = JSON.parse(json) as Array<{ atoms: number[] }> | { atoms: number[] };
    return Array.isArray(parsed) ? parsed.map((m) => m.atoms) : parsed.atoms ? [parsed.atoms] : [];
  }
}
