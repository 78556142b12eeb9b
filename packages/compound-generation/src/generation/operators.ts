// Genetic operators on molecular graphs, in the manner of Jensen's graph-based GA (Chem. Sci. 2019, 10, 3567):
// mutations are RDKit reactions (append, insert, delete and change atoms; change bond orders; open and close
// rings), crossover cuts both parents at an acyclic single bond (RDKit MMPA fragmentation) and joins one piece
// of each (molzip). Two fragment-library moves complement them: replace a side chain with a library
// substituent, and grow a substituent at a hydrogen. Every output is only a candidate: the evaluator
// re-parses, sanitizes, canonicalises and checks it.
import type { Mol, RDKit } from '../rdkit.js';
import { zip, type FragmentLibrary } from './library.js';
import type { Random } from './prng.js';

interface Mutation {
  name: string;
  smarts: string;
  weight: number;
}

const mutations: Mutation[] = [];
function addMutation(name: string, weight: number, ...smarts: string[]) {
  for (const s of smarts) mutations.push({ name, smarts: s, weight: weight / smarts.length });
}
// append an atom at a position with hydrogens
addMutation(
  'append_atom',
  3,
  '[*;!H0:1]>>[*:1]-C',
  '[*;!H0:1]>>[*:1]-C',
  '[*;!H0:1]>>[*:1]-N',
  '[*;!H0:1]>>[*:1]-O',
  '[*;!H0:1]>>[*:1]-F',
  '[*;!H0:1]>>[*:1]-Cl',
  '[C;H2,H3:1]>>[C:1]=O',
);
// insert an atom into a non-aromatic single bond
addMutation('insert_atom', 2, '[*:1]-[*:2]>>[*:1]-C-[*:2]', '[*:1]-[*:2]>>[*:1]-N-[*:2]', '[*:1]-[*:2]>>[*:1]-O-[*:2]');
// delete a terminal atom, or a chain atom joining its two neighbours
addMutation('delete_atom', 2.5, '[*:1]-,=,#[D1:2]>>[*:1]', '[*:1]-[D2;!R:2]-[*:3]>>[*:1]-[*:3]');
// change an atom's element (aromatic CH <-> N keeps the ring aromatic)
addMutation(
  'change_atom',
  3,
  '[C:1]>>[N:1]',
  '[N;!$(N=*);!$(N#*):1]>>[C:1]',
  '[C;!$(C=*);!$(C#*):1]>>[O:1]',
  '[O;X2:1]>>[C:1]',
  '[cH:1]>>[n:1]',
  '[n;H0;X2:1]>>[c:1]',
  '[O;X2:1]>>[N:1]',
  '[N;X3;!$(N=*):1]>>[O:1]',
  '[S;X2:1]>>[O:1]',
);
// change bond orders outside aromatic systems
addMutation(
  'change_bond',
  1.5,
  '[*;!H0:1]-;!@[*;!H0:2]>>[*:1]=[*:2]',
  '[*:1]=;!@[*:2]>>[*:1]-[*:2]',
  '[*;!H0:1]-;@[*;!H0:2]>>[*:1]=[*:2]',
  '[*:1]=;@[*:2]>>[*:1]-[*:2]',
);
// ring operations: open an aliphatic ring bond, close a 5- or 6-membered ring on a chain
addMutation(
  'ring',
  1.5,
  '[*:1]-;@[*:2]>>([*:1].[*:2])',
  '[*;!R;!H0:1]-[*;!R:2]-[*;!R:3]-[*;!R:4]-[*;!R;!H0:5]>>[*:1]1-[*:2]-[*:3]-[*:4]-[*:5]1',
  '[*;!R;!H0:1]-[*;!R:2]-[*;!R:3]-[*;!R:4]-[*;!R:5]-[*;!R;!H0:6]>>[*:1]1-[*:2]-[*:3]-[*:4]-[*:5]-[*:6]1',
  '[*;R;!H0:1]-[*;!R:2]-[*;!R:3]-[*;!R:4]-[*;R;!H0:5]>>[*:1]1-[*:2]-[*:3]-[*:4]-[*:5]1',
);

/** The mutation families (RDKit reactions) plus the two fragment-library moves. */
export const MUTATION_FAMILIES = [...new Set(mutations.map((m) => m.name)), 'replace_side_chain', 'grow'];

export interface Offspring {
  smiles: string;
  operator: string;
}

export class Operators {
  private readonly reactions = new Map<string, ReturnType<RDKit['get_rxn']>>();

  constructor(
    private readonly rd: RDKit,
    private readonly library: FragmentLibrary,
  ) {}

  private reaction(smarts: string) {
    let rxn = this.reactions.get(smarts);
    if (!rxn) {
      rxn = this.rd.get_rxn(smarts);
      if (!rxn) throw new Error(`invalid reaction SMARTS in engine: ${smarts}`);
      this.reactions.set(smarts, rxn);
    }
    return rxn;
  }

  /** One product, chosen at random among all sites where the reaction applies, as SMILES (unsanitized). */
  private runReaction(smarts: string, smiles: string, rng: Random, limit = 200): string | null {
    const mol = this.rd.get_mol(smiles);
    if (!mol) return null;
    const list = new this.rd.MolList();
    let out: string | null = null;
    try {
      list.append(mol);
      const products = this.reaction(smarts)!.run_reactants(list, limit);
      const n = products.size();
      const chosen = n > 0 ? rng.int(n) : -1;
      // every product set must be freed, not only the chosen one (each is a WASM allocation)
      for (let i = 0; i < n; i++) {
        const set = products.get(i);
        if (!set) continue;
        if (i === chosen) {
          const p = set.at(0);
          if (p) {
            try {
              out = p.get_smiles();
            } catch {
              out = null; // an unsanitizable product
            }
            p.delete();
          }
        }
        set.delete();
      }
      products.delete();
    } finally {
      list.delete();
      mol.delete();
    }
    return out;
  }

  /** A random mutation; `family` forces one (for tests): a reaction family name, 'replace_side_chain' or 'grow'. */
  mutate(smiles: string, rng: Random, family?: string): Offspring | null {
    const r = family ? -1 : rng.next();
    if (family === 'replace_side_chain' || (r >= 0 && r < 0.12)) return this.replaceSideChain(smiles, rng);
    if (family === 'grow' || (r >= 0.12 && r < 0.2)) return this.grow(smiles, rng);
    const pool = family ? mutations.filter((x) => x.name === family) : mutations;
    if (pool.length === 0) throw new Error(`unknown mutation family ${family}`);
    const m = pool[rng.weighted(pool.map((x) => x.weight))]!;
    const product = this.runReaction(m.smarts, smiles, rng);
    return product ? { smiles: product, operator: m.name } : null;
  }

  private readonly cutCache = new Map<string, Array<[string, string]>>();

  /** Single-cut fragmentations of a molecule: pairs of pieces, each with one [*:1] dummy (cached). */
  private cuts(smiles: string): Array<[string, string]> {
    let c = this.cutCache.get(smiles);
    if (!c) {
      c = this.computeCuts(smiles);
      if (this.cutCache.size > 5000) this.cutCache.clear();
      this.cutCache.set(smiles, c);
    }
    return c;
  }

  /** The single cuts of a molecule, uncached (for callers that keep their own cache). */
  singleCuts(smiles: string): Array<[string, string]> {
    return this.computeCuts(smiles);
  }

  private computeCuts(smiles: string): Array<[string, string]> {
    const mol = this.rd.get_mol(smiles);
    if (!mol) return [];
    const pairs: Array<[string, string]> = [];
    try {
      const frags = mol.get_mmpa_frags(1, 1, 64) as {
        cores: InstanceType<RDKit['MolList']> | null;
        sidechains: InstanceType<RDKit['MolList']> | null;
      } | null;
      frags?.cores?.delete();
      const sc = frags?.sidechains;
      if (!sc) return pairs;
      for (let i = 0; i < sc.size(); i++) {
        const m: Mol | null = sc.at(i);
        if (!m) continue;
        const parts = m.get_smiles().split('.');
        m.delete();
        if (parts.length === 2) pairs.push([parts[0]!, parts[1]!]);
      }
      sc.delete();
    } finally {
      mol.delete();
    }
    return pairs;
  }

  crossover(a: string, b: string, rng: Random): Offspring | null {
    const ca = this.cuts(a);
    const cb = this.cuts(b);
    if (ca.length === 0 || cb.length === 0) return null;
    const pa = rng.pick(ca)[rng.int(2)]!;
    const pb = rng.pick(cb)[rng.int(2)]!;
    const joined = zip(this.rd, pa, pb);
    return joined ? { smiles: joined, operator: 'crossover' } : null;
  }

  private replaceSideChain(smiles: string, rng: Random): Offspring | null {
    const cuts = this.cuts(smiles);
    if (cuts.length === 0) return null;
    const [x, y] = rng.pick(cuts);
    // keep the larger piece (by length of SMILES, a fair proxy for size) and replace the other
    const keep = x.length >= y.length ? x : y;
    const joined = zip(this.rd, keep, rng.pick(this.library.substituents).smiles);
    return joined ? { smiles: joined, operator: 'replace_side_chain' } : null;
  }

  private grow(smiles: string, rng: Random): Offspring | null {
    // mark one hydrogen-bearing atom with a placeholder element, then join a library substituent there
    const marked = this.runReaction('[*;!H0:1]>>[*:1]-[At]', smiles, rng);
    if (!marked) return null;
    const site = marked.replace('[At]', '[*:1]');
    const joined = zip(this.rd, site, rng.pick(this.library.substituents).smiles);
    return joined ? { smiles: joined, operator: 'grow' } : null;
  }

  dispose(): void {
    for (const r of this.reactions.values()) r?.delete();
    this.reactions.clear();
  }
}
