// The results document of a generation run, and its CSV form.
import type { MoleculeProperties } from './chem/describe.js';
import { tanimoto } from './chem/fingerprint.js';
import { depictSvg } from './depict.js';
import type { StopReason } from './generation/ga.js';
import { parseSmiles, type RDKit } from './rdkit.js';
import type { Constraints, GenerationInput } from './request.js';
import type { Evaluated, EvaluatorStats, ScoreTerms } from './scoring/evaluate.js';

export interface GeneratedMolecule {
  rank: number;
  smiles: string;
  inchikey: string;
  properties: MoleculeProperties;
  scores: ScoreTerms;
  alerts: string[];
  svg: string;
}

export interface GenerationSummary {
  requested: number;
  returned: number;
  /** Distinct molecules scored. */
  evaluations: number;
  runtime_s: number;
  stop_reason: StopReason;
  generations: number;
  /** Fraction of returned molecules that RDKit parses and sanitizes again from their SMILES. */
  validity: number;
  /** Distinct canonical SMILES among returned molecules / returned. */
  uniqueness: number;
  /**
   * Fraction of returned molecules that are new: not a reference ligand nor in the library-assembled starting
   * population, and, when references are given, below 0.4 Tanimoto to every one of them.
   */
  novelty: number;
  /** Mean pairwise Tanimoto distance (1 - similarity) among returned molecules. */
  internal_diversity: number;
  /** Fraction of returned molecules meeting every constraint (re-checked). */
  constraint_pass_rate: number;
  mean_qed: number;
  mean_sa: number;
  mean_total: number;
  /** Of all candidate children: the fraction RDKit accepted, and the fraction of those that were new. */
  candidate_validity: number;
  candidate_uniqueness: number;
  /** Fraction of scored molecules passing every hard filter. */
  evaluated_pass_rate: number;
}

export interface GenerationResult {
  target: { uniprot: string; residues: string[] };
  constraints: Constraints;
  summary: GenerationSummary;
  molecules: GeneratedMolecule[];
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

function inchiKey(rd: RDKit, smiles: string): string {
  const mol = parseSmiles(rd, smiles);
  if (!mol) return '';
  try {
    return rd.get_inchikey_for_inchi(mol.get_inchi());
  } finally {
    mol.delete();
  }
}

export function buildResult(
  rd: RDKit,
  input: GenerationInput,
  run: {
    selected: Evaluated[];
    stats: EvaluatorStats;
    stopReason: StopReason;
    generations: number;
    initial: Set<string>;
    runtimeS: number;
  },
): GenerationResult {
  const sel = run.selected;
  const c = input.constraints;
  const valid = sel.filter((e) => {
    const m = parseSmiles(rd, e.smiles);
    m?.delete();
    return m !== null;
  }).length;
  const meets = sel.filter(
    (e) =>
      e.properties.mw >= c.mw_range[0] &&
      e.properties.mw <= c.mw_range[1] &&
      e.properties.logp >= c.logp_range[0] &&
      e.properties.logp <= c.logp_range[1] &&
      e.properties.hbd <= c.hbd_max &&
      e.properties.hba <= c.hba_max,
  ).length;
  const refs = new Set(input.reference_ligands);
  const novel = sel.filter(
    (e) =>
      !refs.has(e.smiles) &&
      !run.initial.has(e.smiles) &&
      (e.scores.reference_similarity === null || e.scores.reference_similarity < 0.4),
  ).length;
  const dists: number[] = [];
  for (let i = 0; i < sel.length; i++)
    for (let j = i + 1; j < sel.length; j++) dists.push(1 - tanimoto(sel[i]!.fp, sel[j]!.fp));
  const n = sel.length || 1;
  const s = run.stats;
  return {
    target: { uniprot: input.target_uniprot, residues: input.residues },
    constraints: c,
    summary: {
      requested: input.num_molecules,
      returned: sel.length,
      evaluations: s.evaluations,
      runtime_s: Math.round(run.runtimeS * 100) / 100,
      stop_reason: run.stopReason,
      generations: run.generations,
      validity: r4(valid / n),
      uniqueness: r4(new Set(sel.map((e) => e.smiles)).size / n),
      novelty: r4(novel / n),
      internal_diversity: r4(mean(dists)),
      constraint_pass_rate: r4(meets / n),
      mean_qed: r4(mean(sel.map((e) => e.properties.qed))),
      mean_sa: r4(mean(sel.map((e) => e.properties.sa_score))),
      mean_total: r4(mean(sel.map((e) => e.scores.total))),
      candidate_validity: r4(s.valid / (s.candidates || 1)),
      candidate_uniqueness: r4(s.unique / (s.valid || 1)),
      evaluated_pass_rate: r4(s.passing / (s.evaluations || 1)),
    },
    molecules: sel.map((e, i) => ({
      rank: i + 1,
      smiles: e.smiles,
      inchikey: inchiKey(rd, e.smiles),
      properties: e.properties,
      scores: e.scores,
      alerts: e.alerts,
      svg: input.options.include_svg ? depictSvg(rd, e.smiles) : '',
    })),
  };
}

export const CSV_COLUMNS = [
  'rank',
  'smiles',
  'inchikey',
  'mw',
  'exact_mw',
  'logp',
  'hbd',
  'hba',
  'lipinski_hbd',
  'lipinski_hba',
  'tpsa',
  'rotatable_bonds',
  'qed',
  'sa_score',
  'lipinski_violations',
  'site_complementarity',
  'reference_similarity',
  'novelty',
  'total',
  'alerts',
] as const;

const csvField = (v: unknown): string => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The molecules table as CSV (RFC 4180; one row per molecule; alerts joined with ';'). */
export function resultToCsv(result: GenerationResult): string {
  const rows = [CSV_COLUMNS.join(',')];
  for (const m of result.molecules) {
    const p = m.properties;
    rows.push(
      [
        m.rank,
        m.smiles,
        m.inchikey,
        p.mw,
        p.exact_mw,
        p.logp,
        p.hbd,
        p.hba,
        p.lipinski_hbd,
        p.lipinski_hba,
        p.tpsa,
        p.rotatable_bonds,
        p.qed,
        p.sa_score,
        p.lipinski_violations,
        m.scores.site_complementarity,
        m.scores.reference_similarity,
        m.scores.novelty,
        m.scores.total,
        m.alerts.join(';'),
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `${rows.join('\n')}\n`;
}
