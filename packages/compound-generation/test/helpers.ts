import { loadRDKit, parseSmiles } from '../src/rdkit.js';
import { molGraph } from '../src/chem/graph.js';
import { morganCounts } from '../src/chem/morgan.js';
import { foldMorgan, tanimoto } from '../src/chem/fingerprint.js';

export async function tanimotoOfSmiles(a: string, b: string): Promise<number> {
  const rd = await loadRDKit();
  const fp = (s: string) => {
    const m = parseSmiles(rd, s)!;
    try {
      return foldMorgan(morganCounts(molGraph(m), 2).keys());
    } finally {
      m.delete();
    }
  };
  return tanimoto(fp(a), fp(b));
}
