// Scores one candidate molecule: sanity (valence via RDKit sanitization, elements, charges, rings), the
// constraints, structural alerts, QED, SA, site complementarity and reference similarity, combined into a total.
import { analyseMol, type MoleculeProperties } from '../chem/describe.js';
import { painsHits, stabilityHits, unwantedAlertNames } from '../chem/alerts.js';
import { blockingAlerts, medchemHits } from '../chem/medchem.js';
import { foldMorgan, tanimoto, type Fingerprint } from '../chem/fingerprint.js';
import type { MolGraph } from '../chem/graph.js';
import { molGraph } from '../chem/graph.js';
import { morganCounts } from '../chem/morgan.js';
import { parseSmiles, type RDKit } from '../rdkit.js';
import type { Constraints, GenerationInput } from '../request.js';
import { pharmacophoreFeatures, siteComplementarity, type PharmacophoreFeatures } from './site.js';

export interface ScoreTerms {
  qed: number;
  /** SA mapped to 0..1, higher is easier: (10 - sa_score) / 9. */
  sa_term: number;
  site_complementarity: number;
  /** Max Tanimoto to the reference ligands (null without references). */
  reference_similarity: number | null;
  /** 1 - reference_similarity (null without references). */
  novelty: number | null;
  /**
   * Docking term 0..1 (see dockingTerm): from the molecule's own Vina score once docked, else estimated from its
   * docked neighbours. Null when the run does not dock.
   */
  docking_term: number | null;
  total: number;
}

export interface Evaluated {
  smiles: string;
  properties: MoleculeProperties;
  features: PharmacophoreFeatures;
  scores: ScoreTerms;
  /** Constraint violations, e.g. "mw 512.3 > 500". Empty when every constraint holds. */
  violations: string[];
  alerts: string[];
  /** Passes every hard filter (sanity, constraints, alerts unless allowed). */
  passes: boolean;
  /** Selection value for the GA: total minus penalties for violations and alerts. */
  fitness: number;
  /** What fitness subtracts from total (constraint distance, blocking alerts). */
  penalty: number;
  fp: Fingerprint;
}

/** Score weights (documented in the README). Reference similarity counts only when references are given. */
export const WEIGHTS = { qed: 0.45, sa: 0.2, site: 0.35 };
export const WEIGHTS_WITH_REFERENCES = { qed: 0.35, sa: 0.15, site: 0.25, reference: 0.25 };
/**
 * With docking, the Vina term replaces the residue heuristic (which only guessed at the pocket from residue
 * letters) and carries the largest weight; QED keeps enough weight that the returned set stays drug-like.
 */
export const WEIGHTS_DOCKING = { qed: 0.35, sa: 0.15, docking: 0.5 };
export const WEIGHTS_DOCKING_WITH_REFERENCES = { qed: 0.3, sa: 0.1, docking: 0.4, reference: 0.2 };
/** Similarity to the references saturates here: analogues are rewarded, copies are not needed. */
export const REFERENCE_SIMILARITY_TARGET = 0.5;

const ALLOWED_ELEMENTS = new Set([1, 6, 7, 8, 9, 15, 16, 17, 35]);

/** Why a parsed molecule is not a sensible drug-like candidate (null when it is). */
function sanityProblem(g: MolGraph, smiles: string): string | null {
  if (smiles.includes('.')) return 'more than one fragment';
  if (g.radicals > 0) return 'radical';
  for (const z of g.z) if (!ALLOWED_ELEMENTS.has(z)) return `element ${z} not allowed`;
  let net = 0;
  for (let i = 0; i < g.z.length; i++) {
    const q = g.charge[i]!;
    net += q;
    if (q !== 0 && !((g.z[i] === 7 && q === 1) || (g.z[i] === 8 && q === -1))) return 'unusual formal charge';
  }
  if (net !== 0) return 'net charge';
  if (g.z.length < 6) return 'too small';
  let small = 0;
  for (const r of g.rings) {
    if (r.length > 7) return 'macrocycle or ring larger than 7';
    if (r.length < 5) small++;
  }
  if (small > 1) return 'more than one 3- or 4-membered ring';
  return null;
}

function constraintViolations(p: MoleculeProperties, c: Constraints): { violations: string[]; distance: number } {
  const v: string[] = [];
  let d = 0;
  if (p.mw < c.mw_range[0]) {
    v.push(`mw ${p.mw} < ${c.mw_range[0]}`);
    d += (c.mw_range[0] - p.mw) / 50;
  }
  if (p.mw > c.mw_range[1]) {
    v.push(`mw ${p.mw} > ${c.mw_range[1]}`);
    d += (p.mw - c.mw_range[1]) / 50;
  }
  if (p.logp < c.logp_range[0]) {
    v.push(`logp ${p.logp} < ${c.logp_range[0]}`);
    d += c.logp_range[0] - p.logp;
  }
  if (p.logp > c.logp_range[1]) {
    v.push(`logp ${p.logp} > ${c.logp_range[1]}`);
    d += p.logp - c.logp_range[1];
  }
  if (p.hbd > c.hbd_max) {
    v.push(`hbd ${p.hbd} > ${c.hbd_max}`);
    d += p.hbd - c.hbd_max;
  }
  if (p.hba > c.hba_max) {
    v.push(`hba ${p.hba} > ${c.hba_max}`);
    d += p.hba - c.hba_max;
  }
  return { violations: v, distance: d };
}

export interface EvaluatorStats {
  /** Candidate SMILES submitted. */
  candidates: number;
  /** Candidates RDKit could parse and sanitize. */
  valid: number;
  /** Valid candidates not seen before (distinct canonical SMILES). */
  unique: number;
  /** Distinct molecules fully scored (the evaluation budget counts these). */
  evaluations: number;
  /** Scored molecules passing every hard filter. */
  passing: number;
}

export class Evaluator {
  readonly stats: EvaluatorStats = { candidates: 0, valid: 0, unique: 0, evaluations: 0, passing: 0 };
  /** Canonical SMILES already scored (or rejected): a repeat is not scored again. */
  private readonly seen = new Set<string>();
  private readonly referenceFps: Fingerprint[];
  private readonly referenceSet: Set<string>;

  constructor(
    private readonly rd: RDKit,
    private readonly input: GenerationInput,
  ) {
    this.referenceSet = new Set(input.reference_ligands);
    this.referenceFps = input.reference_ligands.map((s) => {
      const m = parseSmiles(rd, s)!;
      try {
        return foldMorgan(morganCounts(molGraph(m), 2).keys());
      } finally {
        m.delete();
      }
    });
  }

  /** Scores a candidate; result null if invalid, rejected by the sanity checks, or already seen (isNew false). */
  evaluate(candidate: string): { result: Evaluated | null; isNew: boolean } {
    this.stats.candidates++;
    const mol = parseSmiles(this.rd, candidate);
    if (!mol) return { result: null, isNew: false };
    try {
      this.stats.valid++;
      const smiles = mol.get_smiles();
      if (this.seen.has(smiles)) return { result: null, isNew: false };
      this.stats.unique++;
      this.seen.add(smiles);
      const result = this.score(mol, smiles);
      return { result, isNew: true };
    } finally {
      mol.delete();
    }
  }

  private score(mol: NonNullable<ReturnType<typeof parseSmiles>>, smiles: string): Evaluated | null {
    const g = molGraph(mol);
    if (sanityProblem(g, smiles)) return null;
    if (this.referenceSet.has(smiles)) return null; // a known ligand is not a design
    this.stats.evaluations++;
    const a = analyseMol(this.rd, mol, g);
    const p = a.properties;
    const { violations, distance } = constraintViolations(p, this.input.constraints);
    // PAINS matching is the costliest step: only for molecules that could be returned.
    const alerts = [...unwantedAlertNames(a.qedAlerts), ...stabilityHits(this.rd, mol, a.patternFp)];
    alerts.push(...medchemHits(this.rd, mol, a.patternFp));
    if (violations.length === 0) alerts.push(...painsHits(this.rd, mol, a.patternFp));
    const features = pharmacophoreFeatures(this.rd, mol, a.graph, p.hbd, p.hba, p.aromatic_rings, a.patternFp);
    const site = siteComplementarity(this.input.residues, features);
    const fp = foldMorgan(a.morgan.keys());
    let refSim: number | null = null;
    if (this.referenceFps.length) refSim = Math.max(...this.referenceFps.map((r) => tanimoto(fp, r)));
    const saTerm = (10 - p.sa_score) / 9;
    const docking = this.input.options.docking ? 0.5 : null;
    const total = combinedTotal(p.qed, saTerm, site, refSim, docking);
    // with covalent_design, Michael acceptors are reported but do not block
    const alertBlocks =
      !this.input.options.allow_alerts &&
      blockingAlerts(this.rd, mol, alerts, this.input.options, a.patternFp).length > 0;
    const passes = violations.length === 0 && !alertBlocks;
    const penalty = 0.5 * Math.min(distance, 4) + (alertBlocks ? 0.15 * Math.min(alerts.length, 3) : 0);
    if (passes) this.stats.passing++;
    return {
      smiles,
      properties: p,
      features,
      scores: {
        qed: p.qed,
        sa_term: r4(saTerm),
        site_complementarity: r4(site),
        reference_similarity: refSim === null ? null : r4(refSim),
        novelty: refSim === null ? null : r4(1 - refSim),
        docking_term: docking,
        total: r4(total),
      },
      violations,
      alerts,
      passes,
      fitness: total - penalty,
      penalty,
      fp,
    };
  }
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** The weighted score: the residue heuristic without docking, the docking term with it. */
export function combinedTotal(
  qed: number,
  saTerm: number,
  site: number,
  refSim: number | null,
  docking: number | null,
): number {
  const ref = refSim === null ? 0 : Math.min(1, refSim / REFERENCE_SIMILARITY_TARGET);
  if (docking !== null) {
    if (refSim === null)
      return WEIGHTS_DOCKING.qed * qed + WEIGHTS_DOCKING.sa * saTerm + WEIGHTS_DOCKING.docking * docking;
    const w = WEIGHTS_DOCKING_WITH_REFERENCES;
    return w.qed * qed + w.sa * saTerm + w.docking * docking + w.reference * ref;
  }
  if (refSim === null) return WEIGHTS.qed * qed + WEIGHTS.sa * saTerm + WEIGHTS.site * site;
  const w = WEIGHTS_WITH_REFERENCES;
  return w.qed * qed + w.sa * saTerm + w.site * site + w.reference * ref;
}

/** Re-scores a molecule with a new docking term (its own Vina score, or a fresher estimate). */
export function applyDockingTerm(e: Evaluated, term: number): void {
  const t = r4(term);
  if (e.scores.docking_term === t) return;
  const s = e.scores;
  const total = combinedTotal(s.qed, s.sa_term, s.site_complementarity, s.reference_similarity, t);
  e.scores.docking_term = t;
  e.scores.total = r4(total);
  e.fitness = total - e.penalty;
}

/**
 * How much the returned set trades score for diversity: each pick maximises
 * total - DIVERSITY_WEIGHT x (max Tanimoto to the molecules already picked) (maximal marginal relevance).
 */
export const DIVERSITY_WEIGHT = 0.25;

/**
 * Diverse selection of up to n molecules: greedy maximal marginal relevance (see DIVERSITY_WEIGHT), never
 * admitting a molecule above the similarity cap to one already picked. Returned best total first.
 */
export function selectDiverse(
  candidates: Evaluated[],
  n: number,
  cap: number,
  diversityWeight = DIVERSITY_WEIGHT,
): Evaluated[] {
  const sorted = [...candidates].sort((a, b) => b.scores.total - a.scores.total || (a.smiles < b.smiles ? -1 : 1));
  // Work on the best max(2000, 5n) first (the cost is picks x pool); widen only if the cap leaves too few.
  for (let limit = Math.max(2000, 5 * n); ; limit *= 4) {
    const kept = selectFrom(sorted.slice(0, limit), n, cap, diversityWeight);
    if (kept.length >= n || limit >= sorted.length) return kept;
  }
}

function selectFrom(pool: Evaluated[], n: number, cap: number, diversityWeight: number): Evaluated[] {
  const maxSim = new Float64Array(pool.length);
  const alive = new Uint8Array(pool.length).fill(1);
  const kept: Evaluated[] = [];
  while (kept.length < n) {
    let best = -1;
    let bestValue = -Infinity;
    for (let i = 0; i < pool.length; i++) {
      if (!alive[i]) continue;
      const v = pool[i]!.scores.total - diversityWeight * maxSim[i]!;
      if (v > bestValue) {
        bestValue = v;
        best = i;
      }
      // candidates are sorted by total: none further down can beat the best value once total alone cannot
      if (pool[i]!.scores.total < bestValue) break;
    }
    if (best < 0) break;
    const pick = pool[best]!;
    kept.push(pick);
    alive[best] = 0;
    for (let i = 0; i < pool.length; i++) {
      if (!alive[i]) continue;
      const sim = tanimoto(pick.fp, pool[i]!.fp);
      if (sim > cap) alive[i] = 0;
      else if (sim > maxSim[i]!) maxSim[i] = sim;
    }
  }
  return kept.sort((a, b) => b.scores.total - a.scores.total || (a.smiles < b.smiles ? -1 : 1));
}
