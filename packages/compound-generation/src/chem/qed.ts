// QED, the quantitative estimate of drug-likeness (Bickerton, Paolini, Besnard, Muresan and Hopkins,
// Nature Chemistry 4, 90-98, 2012): eight properties, each mapped through an asymmetric double sigmoid (ADS)
// fitted to approved drugs, combined as a weighted geometric mean with the paper's mean weights.
// Parameters and SMARTS are RDKit's (data/qed-params.json); the property definitions follow RDKit's QED module
// so that values agree with RDKit.
import { readDataJson } from '../data.js';
import { hasSubstructMatch, substructMatches, type Mol, type RDKit } from '../rdkit.js';
import type { MolGraph } from './graph.js';

interface Ads {
  A: number;
  B: number;
  C: number;
  D: number;
  E: number;
  F: number;
  DMAX: number;
}
interface QedParams {
  properties: string[];
  ads: Record<string, Ads>;
  weight_mean: number[];
  acceptor_smarts: string[];
  aliphatic_rings_smarts: string;
  structural_alert_smarts: string[];
}

let params: QedParams | undefined;
export function qedParams(): QedParams {
  params ??= readDataJson<QedParams>('qed-params.json');
  return params;
}

/** The eight QED inputs, named as in the paper. */
export interface QedProperties {
  MW: number;
  ALOGP: number;
  HBA: number;
  HBD: number;
  PSA: number;
  ROTB: number;
  AROM: number;
  ALERTS: number;
}

export function ads(x: number, p: Ads): number {
  const exp1 = 1 + Math.exp(-(x - p.C + p.D / 2) / p.E);
  const exp2 = 1 + Math.exp(-(x - p.C - p.D / 2) / p.F);
  return (p.A + (p.B / exp1) * (1 - 1 / exp2)) / p.DMAX;
}

export function qedFromProperties(props: QedProperties): number {
  const p = qedParams();
  let t = 0;
  let wsum = 0;
  p.properties.forEach((name, i) => {
    const w = p.weight_mean[i]!;
    t += w * Math.log(ads(props[name as keyof QedProperties], p.ads[name]!));
    wsum += w;
  });
  return Math.exp(t / wsum);
}

/** Acceptors as QED counts them: matches of its acceptor patterns, summed. */
export function qedAcceptors(rd: RDKit, mol: Mol, molFp?: Uint32Array): number {
  let n = 0;
  for (const s of qedParams().acceptor_smarts) n += substructMatches(rd, mol, s, molFp).length;
  return n;
}

/** The QED structural alerts (unwanted groups) a molecule matches, by index into the alert list. */
export function qedAlertHits(rd: RDKit, mol: Mol, molFp?: Uint32Array): number[] {
  const hits: number[] = [];
  qedParams().structural_alert_smarts.forEach((s, i) => {
    if (hasSubstructMatch(rd, mol, s, molFp)) hits.push(i);
  });
  return hits;
}

/**
 * QED's aromatic ring count: rings left after deleting atoms that match [$([A;R][!a])] (aliphatic ring atoms
 * with a non-aromatic neighbour), counted as the cycle rank of what remains (the size of its SSSR).
 */
export function qedAromaticRings(rd: RDKit, mol: Mol, g: MolGraph, molFp?: Uint32Array): number {
  const removed = new Set<number>();
  for (const m of substructMatches(rd, mol, qedParams().aliphatic_rings_smarts, molFp)) removed.add(m[0]!);
  const n = g.z.length;
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    if (parent[i] === i) return i;
    const root = find(parent[i]!);
    parent[i] = root;
    return root;
  };
  let edges = 0;
  for (const [a, b] of g.bonds) {
    if (removed.has(a) || removed.has(b)) continue;
    edges++;
    parent[find(a)] = find(b);
  }
  let vertices = 0;
  const comps = new Set<number>();
  for (let i = 0; i < n; i++) {
    if (removed.has(i)) continue;
    vertices++;
    comps.add(find(i));
  }
  return edges - vertices + comps.size;
}
