// The provenance every exported claim carries: the job is the source, so retracting `evident-job:<id>` takes
// back all its findings, and exporting it again finds every claim already recorded from that source.
import type { JobStatus } from '@evident/job-service';
import type { Provenance } from '@evident/kb';

export const SOURCE_PREFIX = 'evident-job:';

/** The KB source id of a job's findings. */
export const sourceIdOf = (jobId: string) => `${SOURCE_PREFIX}${jobId}`;

export function jobProvenance(
  status: JobStatus,
  sourceType: 'differential_expression' | 'gene_set_enrichment' | 'generative_design',
  method: string,
): Provenance {
  return {
    source_type: sourceType,
    source_id: sourceIdOf(status.job_id),
    // The job's results document (the API answers it to the key that owns the job).
    job_url: status.results_url ?? '',
    method,
    // When the finding was made: the job's completion, not the moment of export.
    created_at: status.completed_at ?? status.created_at,
  };
}
