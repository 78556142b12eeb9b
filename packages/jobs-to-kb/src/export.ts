// exportToKb: a finished job's findings, read through the job API with the caller's key, ingested into a KB as
// one atomic batch.
import type { Client, JobStatus } from '@evident/job-service';
import type { ClaimInput, KbDB } from '@evident/kb';
import { designClaims } from './design.js';
import { discoveryClaims } from './discovery.js';
import { jobNotCompleted, unsupportedKind } from './errors.js';
import { type ExportOptions, resolveOptions } from './options.js';
import { type Names, registerNames } from './names.js';
import { ensureEnrichedIn } from './enrichment.js';
import { ensurePredicates } from './predicates.js';
import { sourceIdOf } from './provenance.js';

export interface ExportResult {
  job_id: string;
  kind: string;
  /** The KB source of every claim written: `retractCascade(source_id, reason)` takes the job's findings back. */
  source_id: string;
  job_url: string;
  /** Claims built from the job's findings (after min_priority and top). */
  claims: number;
  /** Newly stored. */
  ingested: number;
  /** Already recorded from this job (a repeated export): nothing stored. */
  duplicates: number;
  /** One per built claim: the new claim's id, or the stored one it duplicates. */
  claim_ids: string[];
  /** Predicates registered in this base by this export (empty when it had them). */
  registered_predicates: string[];
  /**
   * Aliases registered by this export (the target's accession, the molecules' labels), as the vocabulary
   * `evident-job.<job_id>`; empty when the job has none or an earlier export registered them.
   */
  registered_names: string[];
}

/** A job's claims and the names they need (names.ts). */
function mapJob(status: JobStatus, results: unknown, options?: ExportOptions): { claims: ClaimInput[]; names: Names } {
  const o = resolveOptions(options);
  if (status.status !== 'completed') throw jobNotCompleted(status.job_id, status.status);
  if (status.kind === 'td') return { claims: discoveryClaims(status, results, o), names: {} };
  if (status.kind === 'cg') return designClaims(status, results, o);
  throw unsupportedKind(status.job_id, status.kind);
}

/**
 * The claims a job's results give, without writing anything (what `exportToKb` ingests). A compound job's
 * claims name molecules and target by their readable names: register `namesFromJob` first (as `exportToKb`
 * does), so that those resolve to the InChIKey's and the gene symbol's entities.
 */
export function claimsFromJob(status: JobStatus, results: unknown, options?: ExportOptions): ClaimInput[] {
  return mapJob(status, results, options).claims;
}

/** The aliases a job's claims use, as vocabulary synonyms (type -> canonical name -> aliases). */
export function namesFromJob(status: JobStatus, results: unknown, options?: ExportOptions): Names {
  return mapJob(status, results, options).names;
}

export async function exportToKb(
  client: Client,
  jobId: string,
  db: KbDB,
  options: ExportOptions = {},
): Promise<ExportResult> {
  resolveOptions(options); // a bad option is refused before any request
  const status = await client.getJob(jobId);
  if (status.status !== 'completed') throw jobNotCompleted(status.job_id, status.status);
  if (status.kind !== 'td' && status.kind !== 'cg') throw unsupportedKind(status.job_id, status.kind);
  const { claims, names } = mapJob(status, await client.getResults(jobId), options);
  const registered = await ensurePredicates(db);
  if (claims.some((c) => c.predicate[0] === 'enriched_in')) registered.push(...(await ensureEnrichedIn(db)));
  // Before the claims: they are written with the readable names, which must already resolve to their entities.
  const aliases = await registerNames(db, status.job_id, names);
  const batch = claims.length ? await db.ingestBatch(claims) : { ingested: 0, duplicates: 0, claim_ids: [] };
  return {
    job_id: status.job_id,
    kind: status.kind,
    source_id: sourceIdOf(status.job_id),
    job_url: status.results_url ?? '',
    claims: claims.length,
    ingested: batch.ingested,
    duplicates: batch.duplicates,
    claim_ids: batch.claim_ids,
    registered_predicates: registered,
    registered_names: aliases,
  };
}
