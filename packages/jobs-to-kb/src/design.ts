// A compound-generation job's molecules as claims: each was designed for the job's target; a molecule that
// carries a docking score is also predicted to bind it. Named to read well (names.ts): the target by its gene
// symbol, each molecule by its label in the job, with the accession and the InChIKey behind them.
import type { JobStatus } from '@evident/job-service';
import type { ClaimInput } from '@evident/kb';
import { confidenceFromDocking, DESIGN_CONFIDENCE } from './confidence.js';
import { invalidOptions, unexpectedResults } from './errors.js';
import type { ResolvedOptions } from './options.js';
import { addName, geneSymbolOf, moleculeLabel, type Names } from './names.js';
import { jobProvenance } from './provenance.js';
import { type Doc, optionalNumber, optionalString, Reader } from './shape.js';

export const DESIGN_METHOD = 'graph-ga';
/** The method of a scoring-mode job's claims: the optimizer that ran, e.g. `optimize:surrogate_ga`. */
export const scoringMethod = (strategy: string) => `optimize:${strategy}`;

export interface DesignPayload {
  /** The molecule's name in the claims (`<job_id> #<rank>`). */
  label: string;
  smiles: string;
  inchikey: string | null;
  qed: number;
  sa_score: number;
  /** The job's combined score of the molecule (0..1). */
  total_score: number;
  rank: number;
  /** The target as the job's request named it (a UniProt accession). */
  target_uniprot: string;
  /** kcal/mol, lower binds better: present only when the job docked the molecule. */
  docking_score?: number;
  pose_url?: string;
}

/** One endpoint of a scoring profile for a molecule: its raw value and its transformed value (0..1). */
export interface ProfileComponent {
  name: string;
  /** A number, or a string for a value_mapping component; null when it had none. */
  raw: number | string | null;
  value: number | null;
}

/** A molecule of a scoring-mode job (a REINVENT 4 profile optimized within an oracle budget). */
export interface ScoringDesignPayload {
  label: string;
  smiles: string;
  /** Scoring-mode results carry no InChIKey: the molecule is its label. */
  inchikey: null;
  /** The profile's aggregate score of the molecule (0..1). */
  profile_score: number;
  /** Each endpoint of the profile, raw and transformed. */
  components: ProfileComponent[];
  rank: number;
  /** The oracle call that scored it (1-based, in the job's call log). */
  call: number;
  target_uniprot: string;
  strategy: string;
  seed: number;
  calls_used: number;
  max_oracle_calls: number;
}

/**
 * The docking figures of a molecule when the job has them. Docking is not part of the engine yet; the export
 * reads the field names flat on the molecule (`docking_score`, `pose_url`) or grouped (`docking.score`,
 * `docking.pose_url`), so claims follow as soon as results carry them.
 */
function dockingOf(m: Doc): { docking_score?: number; pose_url?: string } {
  const grouped = (m.docking !== null && typeof m.docking === 'object' ? m.docking : {}) as Doc;
  const score = optionalNumber(m.docking_score) ?? optionalNumber(grouped.score);
  const pose = optionalString(m.pose_url) ?? optionalString(grouped.pose_url);
  return {
    ...(score === undefined ? {} : { docking_score: score }),
    ...(pose === undefined ? {} : { pose_url: pose }),
  };
}

/** The claims, and the names (aliases) they need registered first. */
export function designClaims(
  status: JobStatus,
  results: unknown,
  o: ResolvedOptions,
): { claims: ClaimInput[]; names: Names } {
  if (o.min_priority !== undefined)
    throw invalidOptions([
      { path: '/min_priority', message: `applies to discovery jobs only; ${status.job_id} is a compound job` },
    ]);
  const r = new Reader();
  const doc = r.object(results, '');
  if (doc.mode === 'scoring') return scoringClaims(status, doc, o, r);
  const uniprot = r.string(r.object(doc.target, '/target').uniprot, '/target/uniprot');
  const molecules = r.array(doc.molecules, '/molecules');
  if (r.problems.length) throw unexpectedResults(status.job_id, r.problems);

  const provenance = jobProvenance(status, 'generative_design', DESIGN_METHOD);
  const claims: ClaimInput[] = [];
  const names: Names = {};
  // The target by its gene symbol, the accession an alias of it; an accession the gene table lacks (not human,
  // say) stays the name.
  const symbol = geneSymbolOf(uniprot);
  const target: [string, string] = [symbol ?? uniprot, 'protein'];
  if (symbol) addName(names, 'protein', symbol, uniprot);
  for (const [i, raw] of molecules.slice(0, o.top ?? molecules.length).entries()) {
    const at = `/molecules/${i}`;
    const m = r.object(raw, at);
    const props = r.object(m.properties, `${at}/properties`);
    const rank = r.number(m.rank, `${at}/rank`);
    const payload: DesignPayload = {
      label: moleculeLabel(status.job_id, rank),
      smiles: r.string(m.smiles, `${at}/smiles`),
      inchikey: optionalString(m.inchikey) ?? null,
      qed: r.number(props.qed, `${at}/properties/qed`),
      sa_score: r.number(props.sa_score, `${at}/properties/sa_score`),
      total_score: r.number(r.object(m.scores, `${at}/scores`).total, `${at}/scores/total`),
      rank,
      target_uniprot: uniprot,
      ...dockingOf(m),
    };
    if (r.problems.length) throw unexpectedResults(status.job_id, r.problems);
    // The claims name the molecule by its label; the entity is its InChIKey (its id and name), the label an alias,
    // so the same molecule from two jobs is one entity. Not the SMILES: the KB folds names to lower case, and SMILES
    // are case-sensitive (c1ccccc1 is benzene, C1CCCCC1 cyclohexane); the SMILES is in the payload. A molecule
    // without an InChIKey is the label alone.
    const compound: [string, string] = [payload.label, 'compound'];
    if (payload.inchikey) addName(names, 'compound', payload.inchikey, payload.label);
    claims.push({
      subject: compound,
      predicate: ['designed_for', 'pharmacology'],
      object: target,
      provenance,
      confidence: DESIGN_CONFIDENCE,
      payload,
    });
    if (payload.docking_score !== undefined) {
      claims.push({
        subject: compound,
        predicate: ['predicted_to_bind', 'molecular'],
        object: target,
        provenance: { ...provenance, method: 'docking' },
        confidence: confidenceFromDocking(payload.docking_score),
        payload,
      });
    }
  }
  return { claims, names };
}

/**
 * A scoring-mode job (`scoring` + `budget` on the request): its best molecules are what the profile's optimizer
 * designed for the job's target, so each is `designed_for` it as in the seed's mode; the payload carries the
 * profile's score and every endpoint instead of the seed's QED and SA, and the provenance names the optimizer.
 */
function scoringClaims(
  status: JobStatus,
  doc: Doc,
  o: ResolvedOptions,
  r: Reader,
): { claims: ClaimInput[]; names: Names } {
  const uniprot = r.string(r.object(doc.target, '/target').uniprot, '/target/uniprot');
  const strategy = r.string(doc.strategy, '/strategy');
  const run = {
    seed: r.number(doc.seed, '/seed'),
    calls_used: r.number(doc.calls_used, '/calls_used'),
    max_oracle_calls: r.number(doc.max_oracle_calls, '/max_oracle_calls'),
  };
  const molecules = r.array(doc.molecules, '/molecules');
  if (r.problems.length) throw unexpectedResults(status.job_id, r.problems);
  const provenance = jobProvenance(status, 'generative_design', scoringMethod(strategy));
  const names: Names = {};
  const symbol = geneSymbolOf(uniprot);
  const target: [string, string] = [symbol ?? uniprot, 'protein'];
  if (symbol) addName(names, 'protein', symbol, uniprot);
  const claims: ClaimInput[] = [];
  for (const [i, raw] of molecules.slice(0, o.top ?? molecules.length).entries()) {
    const at = `/molecules/${i}`;
    const m = r.object(raw, at);
    const rank = r.number(m.rank, `${at}/rank`);
    const components = r.array(m.components, `${at}/components`).map((c, j) => {
      const e = r.object(c, `${at}/components/${j}`);
      return {
        name: r.string(e.name, `${at}/components/${j}/name`),
        raw: typeof e.raw === 'string' ? e.raw : (optionalNumber(e.raw) ?? null),
        value: optionalNumber(e.value) ?? null,
      };
    });
    const payload: ScoringDesignPayload = {
      label: moleculeLabel(status.job_id, rank),
      smiles: r.string(m.smiles, `${at}/smiles`),
      inchikey: null,
      profile_score: r.number(m.score, `${at}/score`),
      components,
      rank,
      call: r.number(m.call, `${at}/call`),
      target_uniprot: uniprot,
      strategy,
      ...run,
    };
    if (r.problems.length) throw unexpectedResults(status.job_id, r.problems);
    claims.push({
      subject: [payload.label, 'compound'],
      predicate: ['designed_for', 'pharmacology'],
      object: target,
      provenance,
      confidence: DESIGN_CONFIDENCE,
      payload,
    });
  }
  return { claims, names };
}
