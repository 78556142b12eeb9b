// A compound-generation job's molecules as claims: each was designed for the job's target; a molecule that
// carries a docking score is also predicted to bind it.
import type { JobStatus } from '@evident/job-service';
import type { ClaimInput } from '@evident/kb';
import { confidenceFromDocking, DESIGN_CONFIDENCE } from './confidence.js';
import { invalidOptions, unexpectedResults } from './errors.js';
import type { ResolvedOptions } from './options.js';
import { jobProvenance } from './provenance.js';
import { type Doc, optionalNumber, optionalString, Reader } from './shape.js';

export const DESIGN_METHOD = 'graph-ga';

export interface DesignPayload {
  smiles: string;
  inchikey: string | null;
  qed: number;
  sa_score: number;
  /** The job's combined score of the molecule (0..1). */
  total_score: number;
  rank: number;
  /** kcal/mol, lower binds better: present only when the job docked the molecule. */
  docking_score?: number;
  pose_url?: string;
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

export function designClaims(status: JobStatus, results: unknown, o: ResolvedOptions): ClaimInput[] {
  if (o.min_priority !== undefined)
    throw invalidOptions([
      { path: '/min_priority', message: `applies to discovery jobs only; ${status.job_id} is a compound job` },
    ]);
  const r = new Reader();
  const doc = r.object(results, '');
  const uniprot = r.string(r.object(doc.target, '/target').uniprot, '/target/uniprot');
  const molecules = r.array(doc.molecules, '/molecules');
  if (r.problems.length) throw unexpectedResults(status.job_id, r.problems);

  const provenance = jobProvenance(status, 'generative_design', DESIGN_METHOD);
  const claims: ClaimInput[] = [];
  for (const [i, raw] of molecules.slice(0, o.top ?? molecules.length).entries()) {
    const at = `/molecules/${i}`;
    const m = r.object(raw, at);
    const props = r.object(m.properties, `${at}/properties`);
    const payload: DesignPayload = {
      smiles: r.string(m.smiles, `${at}/smiles`),
      inchikey: optionalString(m.inchikey) ?? null,
      qed: r.number(props.qed, `${at}/properties/qed`),
      sa_score: r.number(props.sa_score, `${at}/properties/sa_score`),
      total_score: r.number(r.object(m.scores, `${at}/scores`).total, `${at}/scores/total`),
      rank: r.number(m.rank, `${at}/rank`),
      ...dockingOf(m),
    };
    if (r.problems.length) throw unexpectedResults(status.job_id, r.problems);
    // The entity is named by its InChIKey: the KB folds names to lower case, and SMILES are case-sensitive
    // (c1ccccc1 is benzene, C1CCCCC1 cyclohexane). The SMILES stays in the payload. A molecule without an
    // InChIKey gets an id within its job.
    const compound: [string, string] = [payload.inchikey ?? `${status.job_id}:molecule-${payload.rank}`, 'compound'];
    const target: [string, string] = [uniprot, 'protein'];
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
  return claims;
}
