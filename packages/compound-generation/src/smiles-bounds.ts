// A cheap scan of a SMILES string before RDKit sees it. RDKit's WebAssembly build recurses over the molecule
// graph (parsing, canonical ranking, SMILES writing) on a fixed-size stack in linear memory that nothing checks:
// a chain of ~650 atoms or more overruns it, which traps the module (`RuntimeError: memory access out of
// bounds`) or corrupts it into spinning forever, and either way leaves that instance unusable. Ring perception
// and kekulisation also grow steeply with the number of ring closures (fused ring systems). So what reaches
// RDKit from a caller is bounded here, in one linear pass that needs no parser.

/**
 * The bounds on a caller's SMILES. Atoms: every atom written (organic-subset symbol, aromatic symbol, `*`,
 * bracket atom); 250 is over twice the largest drug or natural product one would use as a reference ligand
 * (vancomycin has 101 heavy atoms, cyclosporin 85) and under half the ~650 where RDKit's stack gives out.
 * Branch depth: nested parentheses. Ring closures: ring-bond labels (digits, `%nn`, `%(n)`), i.e. the rings.
 */
export const SMILES_LIMITS = {
  /** Characters (also the request schema's maxLength). */
  length: 2000,
  atoms: 250,
  branch_depth: 32,
  ring_closures: 32,
} as const;

const ORGANIC = new Set(['B', 'C', 'N', 'O', 'P', 'S', 'F', 'I', 'b', 'c', 'n', 'o', 'p', 's', '*']);

/** Why this SMILES is refused before parsing (a message for the caller), or undefined if it is within bounds. */
export function smilesBoundsProblem(smiles: string): string | undefined {
  const L = SMILES_LIMITS;
  if (smiles.length === 0) return 'is empty';
  if (smiles.length > L.length) return `is ${smiles.length} characters long; at most ${L.length} are accepted`;
  let atoms = 0;
  let depth = 0;
  let maxDepth = 0;
  let labels = 0;
  for (let i = 0; i < smiles.length; i++) {
    const ch = smiles[i]!;
    if (ch === '[') {
      const end = smiles.indexOf(']', i + 1);
      if (end < 0) return 'has a bracket atom "[" that is never closed';
      atoms++;
      i = end;
    } else if (ch === '(') {
      depth++;
      if (depth > maxDepth) maxDepth = depth;
    } else if (ch === ')') {
      depth = Math.max(0, depth - 1);
    } else if (ch === '%') {
      labels++;
      if (smiles[i + 1] === '(') {
        const end = smiles.indexOf(')', i + 2);
        i = end < 0 ? smiles.length : end;
      } else i += 2;
    } else if (ch >= '0' && ch <= '9') {
      labels++;
    } else if (ORGANIC.has(ch)) {
      atoms++;
      // Cl and Br are one atom each.
      const next = smiles[i + 1];
      if ((ch === 'C' && next === 'l') || (ch === 'B' && next === 'r')) i++;
    }
    if (atoms > L.atoms) return `has more than ${L.atoms} atoms; at most ${L.atoms} are accepted`;
  }
  if (maxDepth > L.branch_depth)
    return `nests branches ${maxDepth} deep; at most ${L.branch_depth} levels of parentheses are accepted`;
  // Each ring bond is written twice (opened, then closed).
  const rings = Math.ceil(labels / 2);
  if (rings > L.ring_closures) return `has ${rings} ring closures; at most ${L.ring_closures} are accepted`;
  return undefined;
}
