// TanimotoSimilarity (REINVENT 4: reinvent_plugins/components/RDKit/comp_similarity.py): Tanimoto similarity
// of unhashed Morgan fingerprints (RDKit GetMorganFingerprint with `radius`, `use_counts`, `use_features`) to
// reference SMILES. With several references an endpoint scores the highest similarity (REINVENT 3's rule;
// REINVENT 4's code keeps only the first reference's column when an endpoint lists several).
// This package adds `fingerprint`: "morgan" (the default, REINVENT's), "atom_pair" (RDKit GetAtomPairFingerprint
// counts, `min_length`/`max_length` bonds; GuacaMol's "AP" is max_length 10) and "gobbi_pharm2d" (RDKit's Gobbi
// 2D pharmacophore fingerprint, GuacaMol's "PHCO").
import { countTanimoto, presence, setTanimoto } from '../../chem/sparse-similarity.js';
import type { Mol } from '../../rdkit.js';
import type { RawValue } from '../external/protocol.js';
import { MoleculeContext } from '../molecule.js';
import type { ParamReader } from '../params.js';
import type { BuildContext, ComponentDef } from './types.js';

const FINGERPRINTS = ['morgan', 'atom_pair', 'gobbi_pharm2d'] as const;
type FingerprintKind = (typeof FINGERPRINTS)[number];

type Fp = Map<number, number> | Set<number>;

interface Endpoint {
  fingerprint(m: MoleculeContext): Fp;
  references: Fp[];
}

function similarity(a: Fp, b: Fp): number {
  return a instanceof Set ? setTanimoto(a, b as Set<number>) : countTanimoto(a, b as Map<number, number>);
}

function endpoint(p: ParamReader, ctx: BuildContext): Endpoint {
  const kind = p.string('fingerprint', { default: 'morgan', oneOf: FINGERPRINTS }) as FingerprintKind;
  let fingerprint: (m: MoleculeContext) => Fp;
  if (kind === 'atom_pair') {
    const min = p.number('min_length', { default: 1, integer: true, min: 1, max: 30 });
    const max = p.number('max_length', { default: 30, integer: true, min: 1, max: 30 });
    if (min > max) p.problem('min_length', `must not exceed max_length (${min} > ${max})`);
    const counts = p.boolean('use_counts', true);
    fingerprint = (m) => (counts ? m.atomPairs(min, max) : presence(m.atomPairs(min, max)));
  } else if (kind === 'gobbi_pharm2d') {
    fingerprint = (m) => m.pharm2d();
  } else {
    const radius = p.number('radius', { integer: true, min: 0, max: 10 });
    const counts = p.boolean('use_counts');
    const features = p.boolean('use_features');
    fingerprint = (m) => (counts ? m.morgan(radius, features) : presence(m.morgan(radius, features)));
  }
  const references: Fp[] = [];
  const smiles = p.strings('smiles', { nonEmpty: true });
  p.finish(`TanimotoSimilarity (${kind})`);
  for (const s of smiles) {
    const mol: Mol | undefined = ctx.molecule(s.value, s.path);
    if (!mol) continue;
    try {
      references.push(fingerprint(new MoleculeContext(ctx.rd, mol, s.value)));
    } catch {
      // A bad parameter above (already reported) can make the fingerprint fail.
    } finally {
      mol.delete();
    }
  }
  return { fingerprint, references };
}

export const TANIMOTO_SIMILARITY: ComponentDef = {
  name: 'TanimotoSimilarity',
  aliases: ['TanimotoDistance'],
  role: 'score',
  reinvent: true,
  params: ['smiles', 'radius', 'use_counts', 'use_features', 'fingerprint', 'min_length', 'max_length'],
  build(endpoints, ctx) {
    const ends = endpoints.map((p) => endpoint(p, ctx));
    return {
      compute: (mols) =>
        ends.map((e) =>
          mols.map((m): RawValue => {
            const fp = e.fingerprint(m);
            let best = 0;
            for (const r of e.references) best = Math.max(best, similarity(fp, r));
            return best;
          }),
        ),
    };
  },
};
