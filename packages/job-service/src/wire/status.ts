// The job status document (GET /v1/jobs/{id}, list items, callbacks).
import { formatEstimate } from '../estimate.js';
import type { JobRecord } from '../store/types.js';

export interface StatusDocument {
  job_id: string;
  kind: string;
  status: JobRecord['status'];
  created_at: string;
  started_at?: string;
  completed_at?: string;
  results_url?: string;
  progress?: { stage: string; percent: number };
  error?: { code: string; message: string };
  estimated_time: string;
  estimated_seconds: [number, number];
  attempts: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** `baseUrl` is the public origin (e.g. http://127.0.0.1:8000); '' gives relative URLs. */
export function statusDocument(job: JobRecord, baseUrl: string): StatusDocument {
  const doc: StatusDocument = {
    job_id: job.id,
    kind: job.kind,
    status: job.status,
    created_at: iso(job.created_at),
    estimated_time: formatEstimate([job.estimate_low, job.estimate_high]),
    estimated_seconds: [Math.floor(job.estimate_low), Math.ceil(job.estimate_high)],
    attempts: job.attempts,
  };
  if (job.started_at != null) doc.started_at = iso(job.started_at);
  if (job.completed_at != null) doc.completed_at = iso(job.completed_at);
  if (job.status === 'completed') doc.results_url = `${baseUrl}/v1/results/${job.id}`;
  if (job.status === 'processing') {
    doc.progress = {
      stage: job.phase === 'queued' ? (job.progress_stage ?? 'queued') : (job.progress_stage ?? 'starting'),
      percent: Math.round((job.progress_percent ?? 0) * 10) / 10,
    };
  }
  if (job.status === 'failed')
    doc.error = { code: job.error_code ?? 'job_failed', message: job.error_message ?? 'the job failed' };
  return doc;
}
