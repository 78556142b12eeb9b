// The results document of a generation run, and its CSV form.
import type { MoleculeProperties } from './chem/describe.js';
import { tanimoto } from './chem/fingerprint.js';
import { depictSvg } from './depict.js';
import type { DockingRounds, DockingStats } from './generation/docking-rounds.js';
import type { StopReason } from './generation/ga.js';
import type { DockingDescription, TargetSummary } from './target/port.js';
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
  /** Vina affinity of the best pose, kcal/mol; null when the run did not dock. */
  docking_score: number | null;
  /** The best pose in the receptor's frame (SDF); null when the run did not dock. */
  pose: { format: 'sdf'; data: string } | null;
  /** Residues within 4 Å of the pose, UniProt numbering where the structure maps it. */
  contacts: string[];
  /**
   * Stereoisomers docked when the generated molecule left stereocentres unspecified: `smiles` is then the best
   * one; every isomer's score is listed; `capped` when there were more than were docked.
   */
  stereoisomers: { docked: number; scores: Record<string, number>; capped: boolean; generated_as: string } | null;
}

/** What guided the search: docking into the structure, similarity to known ligands, both, or neither. */
export type Guidance = 'structure' | 'ligands' | 'structure+ligands' | 'none';

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
  /** Mean Vina affinity of the returned molecules (kcal/mol); null without docking. */
  mean_docking_score: number | null;
}

export interface GenerationResult {
  /** The request's target; with docking also the structure, chain, resolved residues and pocket used. */
  target: { uniprot: string; residues: string[] } & Partial<
    Omit<TargetSummary, 'uniprot' | 'residues' | 'warnings'>
  > & {
      resolved_residues?: TargetSummary['residues'];
    };
  guidance: Guidance;
  /** The docking engine, its settings and what the run spent; null without docking. */
  docking: (DockingDescription & DockingStats) | null;
  constraints: Constraints;
  summary: GenerationSummary;
  molecules: GeneratedMolecule[];
  /** What the user should know: numbering mismatches, fewer molecules than asked, unguided runs. */
  warnings: string[];
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const r2 = (x: number) => Math.round(x * 100) / 100;

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
    docking?: DockingRounds | null;
    target?: TargetSummary | null;
    dockingDescription?: DockingDescription | null;
  },
): GenerationResult {
  const sel = run.selected;
  const rounds = run.docking ?? null;
  const records = sel.map((e) => rounds?.records.get(e.smiles) ?? null);
  const hasRefs = input.reference_ligands.length > 0;
  const guidance: Guidance = rounds ? (hasRefs ? 'structure+ligands' : 'structure') : hasRefs ? 'ligands' : 'none';
  const warnings = [...(run.target?.warnings ?? [])];
  if (guidance === 'none')
    warnings.push(
      'neither a structure (docking) nor reference ligands guided this run: only drug-likeness and a residue-letter ' +
        'heuristic ranked the molecules; give options.docking or reference_ligands',
    );
  if (sel.length < input.num_molecules)
    warnings.push(
      `${sel.length} of ${input.num_molecules} molecules returned` +
        (rounds && rounds.remaining <= 0 ? ': the docking budget ran out (raise options.docking_budget)' : ''),
    );
  const t = run.target ?? null;
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
    target: {
      uniprot: input.target_uniprot,
      residues: input.residues,
      ...(t
        ? { structure: t.structure, pocket: t.pocket, resolved_residues: t.residues, pocket_pdb: t.pocket_pdb }
        : {}),
    },
    guidance,
    docking:
      rounds && run.dockingDescription
        ? { ...run.dockingDescription, ...rounds.stats, seconds: r2(rounds.stats.seconds) }
        : null,
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
      mean_docking_score: rounds ? r2(mean(records.map((r) => r?.score ?? 0))) : null,
    },
    warnings,
    molecules: sel.map((e, i) => {
      const r = records[i];
      const smiles = r?.smiles ?? e.smiles;
      return {
        rank: i + 1,
        smiles,
        inchikey: inchiKey(rd, smiles),
        properties: e.properties,
        scores: e.scores,
        alerts: e.alerts,
        svg: input.options.include_svg ? depictSvg(rd, smiles) : '',
        docking_score: r ? r.score : null,
        pose: r ? { format: 'sdf' as const, data: r.pose_sdf } : null,
        contacts: r?.contacts ?? [],
        stereoisomers:
          r && (r.isomers_docked > 1 || r.smiles !== e.smiles)
            ? { docked: r.isomers_docked, scores: r.isomer_scores, capped: r.isomers_capped, generated_as: e.smiles }
            : null,
      };
    }),
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
  'docking_score',
  'contacts',
  'total',
  'alerts',
] as const;

export const csvField = (v: unknown): string => {
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
        m.docking_score,
        m.contacts.join(';'),
        m.scores.total,
        m.alerts.join(';'),
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `${rows.join('\n')}\n`;
}
