// Synthetic accessibility score (Ertl and Schuffenhauer, J. Cheminformatics 1:8, 2009), on RDKit's scale
// 1 (easy) .. 10 (hard): fragment contributions of Morgan radius-2 environments (statistics of PubChem,
// RDKit Contrib/SA_Score, data/sa-fragment-scores.json.gz) minus complexity penalties (size, stereocentres,
// spiro and bridgehead atoms, macrocycles), with RDKit's symmetry correction (version 1.1 of the method).
import { readDataJson } from '../data.js';

interface SaData {
  scores: number[];
  ids_delta: number[][];
}

interface FragmentTable {
  ids: Uint32Array;
  scores: Float64Array;
}

let table: FragmentTable | undefined;

function fragmentTable(): FragmentTable {
  if (table) return table;
  const data = readDataJson<SaData>('sa-fragment-scores.json.gz');
  const pairs: Array<[number, number]> = [];
  data.ids_delta.forEach((deltas, k) => {
    let id = 0;
    for (const d of deltas) {
      id += d;
      pairs.push([id, data.scores[k]!]);
    }
  });
  pairs.sort((a, b) => a[0] - b[0]);
  table = { ids: Uint32Array.from(pairs, (p) => p[0]), scores: Float64Array.from(pairs, (p) => p[1]) };
  return table;
}

/** Fragment contribution of one environment id; unknown environments count as -4 (rare, hence hard). */
function fragmentScore(id: number): number {
  const { ids, scores } = fragmentTable();
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid]!;
    if (v === id) return scores[mid]!;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -4;
}

export interface SaInputs {
  /** Environment id → count (Morgan radius 2, unhashed). */
  morgan: Map<number, number>;
  numAtoms: number;
  stereoCentres: number;
  spiroAtoms: number;
  bridgeheadAtoms: number;
  /** Sizes of the rings in RDKit's ring perception. */
  ringSizes: number[];
}

export function saScore(x: SaInputs): number {
  let score1 = 0;
  let nf = 0;
  for (const [id, count] of x.morgan) {
    nf += count;
    score1 += fragmentScore(id) * count;
  }
  score1 /= nf || 1;

  const n = x.numAtoms;
  const sizePenalty = n ** 1.005 - n;
  const stereoPenalty = Math.log10(x.stereoCentres + 1);
  const spiroPenalty = Math.log10(x.spiroAtoms + 1);
  const bridgePenalty = Math.log10(x.bridgeheadAtoms + 1);
  // Any number of macrocycles (rings larger than 8) costs log10(2), as in RDKit's implementation.
  const macrocyclePenalty = x.ringSizes.some((s) => s > 8) ? Math.log10(2) : 0;
  const score2 = -sizePenalty - stereoPenalty - spiroPenalty - bridgePenalty - macrocyclePenalty;

  // Symmetric molecules have fewer distinct environments than atoms: easier than their size suggests.
  const distinct = x.morgan.size;
  const score3 = n > distinct && distinct > 0 ? Math.log(n / distinct) * 0.5 : 0;

  let sa = score1 + score2 + score3;
  const min = -4.0;
  const max = 2.5;
  sa = 11 - ((sa - min + 1) / (max - min)) * 9;
  if (sa > 8) sa = 8 + Math.log(sa + 1 - 9);
  return Math.min(10, Math.max(1, sa));
}
